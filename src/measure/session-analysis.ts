/**
 * `armstudy analyze`'s logic: read a recorded session (any format the importers know), measure
 * it with the same per-run metrics as a study run while it streams, and optionally keep the
 * normalised run record. The metrics never learn which agent wrote the session.
 */
import { rename, rm } from "node:fs/promises";
import { basename } from "node:path";
import type { TokenCounter } from "../core/tokens.ts";
import type { SessionFormat } from "../sessions/format.ts";
import { openSessionFile } from "../sessions/import.ts";
import { MetricsAccumulator, type RunMetrics } from "./metrics.ts";
import type { PriceTable } from "./prices.ts";

export interface SessionAnalysis extends RunMetrics {
  file: string;
  format: SessionFormat;
  /** Which client wrote it (`run.start.source`): codex, claude, pi. */
  client: string;
  /** The client's version, when the log states it. */
  clientVersion: string | null;
  /** When the session started (ISO text from the log), null when the log does not say. */
  startedAt: string | null;
  /** The working folder the session ran in (the project), null when unknown. */
  project: string | null;
  /** The thread this one was forked or spawned from (Codex), null otherwise. */
  parentSession: string | null;
  /** Why `--format auto` chose the format; null when it was named. */
  detectedBy: string | null;
  model: string;
  /** The importer's warnings, each naming its line. */
  warningMessages: string[];
  /**
   * The session's usage in the importer's terms: `input` is every input token of every request
   * (uncached + cache reads + cache writes), `cachedInput` the cache reads, `output` includes
   * reasoning, `reasoning` is null when the log does not report it; `source` is `estimated` (an
   * o200k count of the visible text, a lower bound) when the log has no usage. The same figures
   * as `tokens`, which is the study runs' name for them.
   */
  usage: SessionUsage;
}

export interface SessionUsage {
  input: number;
  cachedInput: number;
  cacheWrite: number;
  output: number;
  reasoning: number | null;
  source: string;
  lowerBound: boolean;
}

function usageOf(tokens: RunMetrics["tokens"]): SessionUsage {
  return {
    input: tokens.input,
    cachedInput: tokens.cachedInput,
    cacheWrite: tokens.cacheWrite,
    output: tokens.output,
    reasoning: tokens.reasoningReported ? tokens.reasoning : null,
    source: tokens.source,
    lowerBound: tokens.lowerBound,
  };
}

export interface AnalyzeOptions {
  format?: SessionFormat | "auto";
  /** Also write the normalised run record here (temp file + rename: never half-written). */
  recordTo?: string;
  counter?: TokenCounter;
  prices?: PriceTable;
  /** Keep at most this many warning texts (all are counted); default 200. */
  maxWarnings?: number;
}

/** Analyses one session file. Throws SessionFormatError for an empty or unrecognised file. */
export async function analyzeSessionFile(file: string, options: AnalyzeOptions = {}): Promise<SessionAnalysis> {
  const session = await openSessionFile(file, {
    ...(options.format !== undefined ? { format: options.format } : {}),
    ...(options.counter !== undefined ? { counter: options.counter } : {}),
  });
  const acc = new MetricsAccumulator(options.prices);
  const warnings: string[] = [];
  const maxWarnings = options.maxWarnings ?? 200;
  let model = "unknown";
  let start: { client: string; clientVersion: string | null; startedAt: string | null; project: string | null; parentSession: string | null } = { client: "unknown", clientVersion: null, startedAt: null, project: null, parentSession: null };
  const temp = options.recordTo !== undefined ? `${options.recordTo}.${process.pid}.tmp` : null;
  // Loaded only for --record: the writer validates with the run record's zod schema, ~100 modules
  // that a plain analysis never needs (ADR 0162).
  const writer = temp !== null ? await (await import("../run/record-writer.ts")).RecordWriter.open(temp) : null;
  try {
    for await (const event of session.events) {
      acc.add(event);
      if (event.type === "run.start") {
        model = event.model;
        start = { client: event.source, clientVersion: event.clientVersion ?? null, startedAt: event.startedAt ?? null, project: event.cwd ?? null, parentSession: event.parentSession ?? null };
      }
      else if (event.type === "model.request" && model === "unknown" && event.model) model = event.model;
      else if (event.type === "note" && event.level === "warning" && warnings.length < maxWarnings) warnings.push(event.text);
      if (writer !== null) await writer.write(event);
    }
    if (writer !== null && temp !== null && options.recordTo !== undefined) {
      await writer.close();
      await rename(temp, options.recordTo);
    }
  } catch (error) {
    if (writer !== null && temp !== null) {
      await writer.close().catch(() => undefined);
      await rm(temp, { force: true });
    }
    throw error;
  }
  const metrics = acc.result();
  return { file, format: session.format, ...start, detectedBy: session.detectedBy, model, warningMessages: warnings, ...metrics, usage: usageOf(metrics.tokens) };
}

function fmt(value: number | null, digits = 0): string {
  if (value === null) return "–";
  if (!Number.isFinite(value)) return "∞";
  return digits === 0 ? groupedInteger(Math.round(value)) : value.toFixed(digits);
}

/**
 * An integer with its thousands grouped by commas, exactly as `toLocaleString("en-US")` writes
 * it, without that call's first use loading ICU's number formatting (~12 ms of a one-file
 * `armstudy analyze`, ADR 0162). Past the safe integers, where String() would write an
 * exponent, it is that call.
 */
export function groupedInteger(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  return sign + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function minutes(ms: number | null): string {
  if (ms === null) return "never";
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/** The rows of the plain-text table: one metric per row, one column per file. */
const ROWS: ReadonlyArray<[string, (a: SessionAnalysis) => string]> = [
  ["format", (a) => a.format],
  ["model", (a) => a.model],
  ["replies", (a) => fmt(a.replies)],
  ["tool calls", (a) => fmt(a.toolCalls)],
  ["tool calls before reply end", (a) => fmt(a.toolCallsBeforeReplyEnd)],
  ["most tool calls in a reply", (a) => fmt(Math.max(0, ...a.toolCallsPerReply))],
  ["longest reply", (a) => `${minutes(a.longestReply.ms)}, ${a.longestReply.toolCalls} calls`],
  ["repeated identical calls", (a) => `${a.repeatedIdenticalCalls} (${a.repeatedSignatures} signatures)`],
  ["reads per distinct file", (a) => (a.readsPerDistinctFile === null ? "–" : `${a.readsPerDistinctFile.toFixed(1)} (${a.reads}/${a.distinctFilesRead})`)],
  ["most reads of one file", (a) => (a.mostReadFile === null ? "–" : `${a.maxReadsOfOneFile} (${basename(a.mostReadFile)})`)],
  ["compactions", (a) => fmt(a.compactions)],
  ["time to first text", (a) => minutes(a.timeToFirstTextMs)],
  ["tool calls per visible text", (a) => (a.toolCallsPerVisibleText === null ? "∞" : a.toolCallsPerVisibleText.toFixed(1))],
  ["model requests", (a) => fmt(a.modelRequests)],
  ["input tokens (cached)", (a) => `${fmt(a.tokens.input)} (${fmt(a.tokens.cachedInput)})`],
  ["output tokens (reasoning)", (a) => `${fmt(a.tokens.output)} (${a.tokens.reasoningReported ? fmt(a.tokens.reasoning) : "–"})`],
  ["usage source", (a) => (a.tokens.lowerBound ? `${a.tokens.source}, lower bound` : a.tokens.source)],
  ["cost (USD)", (a) => (a.costUsd === null ? "– (no price)" : `${a.costUsd.toFixed(2)} (${a.costSource === "log" ? "log" : "price table"})`)],
  ["wall time", (a) => minutes(a.wallMs)],
  ["model time / tool time", (a) => `${minutes(a.modelMs)} / ${minutes(a.toolMs)}`],
  ["interrupts", (a) => fmt(a.interrupts)],
  ["rejected tool calls", (a) => fmt(a.rejectedToolCalls)],
  ["plan approvals (yes/no)", (a) => `${a.planApprovals.approved}/${a.planApprovals.rejected}`],
  ["sub-agents (their tool calls)", (a) => `${a.subagents.count} (${a.subagents.toolCalls})`],
  ["tokens with sub-agents (in/out)", (a) => `${fmt(a.tokensIncludingSubagents.input)} / ${fmt(a.tokensIncludingSubagents.output)}`],
  ["cost with sub-agents (USD)", (a) => (a.costUsdIncludingSubagents === null ? "–" : a.costUsdIncludingSubagents.toFixed(2))],
  ["retries (time)", (a) => `${a.retries.count} (${minutes(a.retries.ms)})`],
  ["model time mean / p90", (a) => (a.modelTime.meanMs === null ? "–" : `${minutes(a.modelTime.meanMs)} / ${minutes(a.modelTime.p90Ms)}`)],
  ["tool time share", (a) => (a.toolTimeShare === null ? "–" : `${Math.round(a.toolTimeShare * 100)} %`)],
  ["long commands (≥ 60 s)", (a) => `${a.longCommands.count} (${minutes(a.longCommands.ms)})`],
  ["edits per file", (a) => (a.edits.perFile === null ? "–" : `${a.edits.perFile.toFixed(1)} (${a.edits.count}/${a.edits.files}${a.edits.mostEditedFile === null ? "" : `, most ${a.edits.maxOfOneFile} × ${basename(a.edits.mostEditedFile)}`})`)],
  ["cold re-sends (uncached tokens)", (a) => `${a.coldResends.count} (${fmt(a.coldResends.uncachedTokens)})`],
  ["longest stretch with no event", (a) => minutes(a.longestSilenceMs)],
  ["file changes (per hour, longest gap)", (a) => `${a.fileChanges.count} (${a.fileChanges.perHour === null ? "–" : a.fileChanges.perHour.toFixed(1)}, ${minutes(a.fileChanges.longestGapMs)})`],
  ["commands passed / failed", (a) => `${a.commands.passed} / ${a.commands.failed}`],
  ["checklist writes (rewrites)", (a) => `${a.checklist.writes} (${a.checklist.rewrites})`],
  ["claimed complete", (a) => (a.claimSource === null ? "no" : `yes (${a.claimSource})`)],
  ["ends on a permission question", (a) => (a.permissionQuestion ? "yes" : "no")],
  ["first report line", (a) => (a.firstReportLine === null ? "–" : a.firstReportLine.length > 60 ? `${a.firstReportLine.slice(0, 59)}…` : a.firstReportLine)],
  ["warnings", (a) => fmt(a.warnings)],
];

export function renderAnalysisTable(analyses: readonly SessionAnalysis[]): string {
  const short = (name: string): string => (name.length > 28 ? `${name.slice(0, 27)}…` : name);
  const header = ["metric", ...analyses.map((a) => short(basename(a.file)))];
  const rows = ROWS.map(([label, get]) => [label, ...analyses.map(get)]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n") + "\n";
}

