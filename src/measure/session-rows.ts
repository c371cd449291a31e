/**
 * A history of sessions as rows: one flat row per session (start time, project, client and
 * version, model, then its metrics), the filters `analyze` applies (--since, --until, --project),
 * the CSV and the plain-text table. The rows are small, so thousands of sessions fit in memory
 * while the files themselves are streamed.
 */
import { basename } from "node:path";
import type { SessionAnalysis } from "./session-analysis.ts";

export interface SessionRow {
  file: string;
  client: string;
  clientVersion: string | null;
  format: string;
  model: string;
  startedAt: string | null;
  project: string | null;
  parentSession: string | null;
  replies: number;
  toolCalls: number;
  toolCallsBeforeReplyEnd: number;
  repeatedIdenticalCalls: number;
  compactions: number;
  interrupts: number;
  rejectedToolCalls: number;
  subagents: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** Null when the log does not report reasoning. */
  reasoningTokens: number | null;
  /** Input + output with the sub-agents' added (equal to the session's own when it has none). */
  totalTokensIncludingSubagents: number;
  usageSource: string;
  costUsd: number | null;
  costUsdIncludingSubagents: number | null;
  costSource: string | null;
  wallMs: number;
  modelMs: number;
  toolMs: number;
  retries: number;
  retryMs: number;
  claimedComplete: boolean;
  permissionQuestion: boolean;
  // STUDY-0003's diagnosis metrics
  modelMeanMs: number | null;
  modelP90Ms: number | null;
  toolTimeShare: number | null;
  longCommands: number;
  longCommandMs: number;
  editsPerFile: number | null;
  coldResends: number;
  longestSilenceMs: number;
  fileChangesPerHour: number | null;
  commandsPassed: number;
  commandsFailed: number;
  checklistRewrites: number;
  warnings: number;
}

export function sessionRow(a: SessionAnalysis): SessionRow {
  return {
    file: a.file,
    client: a.client,
    clientVersion: a.clientVersion,
    format: a.format,
    model: a.model,
    startedAt: a.startedAt,
    project: a.project,
    parentSession: a.parentSession,
    replies: a.replies,
    toolCalls: a.toolCalls,
    toolCallsBeforeReplyEnd: a.toolCallsBeforeReplyEnd,
    repeatedIdenticalCalls: a.repeatedIdenticalCalls,
    compactions: a.compactions,
    interrupts: a.interrupts,
    rejectedToolCalls: a.rejectedToolCalls,
    subagents: a.subagents.count,
    inputTokens: a.tokens.input,
    cachedInputTokens: a.tokens.cachedInput,
    outputTokens: a.tokens.output,
    reasoningTokens: a.tokens.reasoningReported ? a.tokens.reasoning : null,
    totalTokensIncludingSubagents: a.tokensIncludingSubagents.total,
    usageSource: a.tokens.lowerBound ? `${a.tokens.source} (lower bound)` : a.tokens.source,
    costUsd: a.costUsd,
    costUsdIncludingSubagents: a.costUsdIncludingSubagents,
    costSource: a.costSource,
    wallMs: a.wallMs,
    modelMs: a.modelMs,
    toolMs: a.toolMs,
    retries: a.retries.count,
    retryMs: a.retries.ms,
    claimedComplete: a.claimedComplete,
    permissionQuestion: a.permissionQuestion,
    modelMeanMs: a.modelTime.meanMs,
    modelP90Ms: a.modelTime.p90Ms,
    toolTimeShare: a.toolTimeShare,
    longCommands: a.longCommands.count,
    longCommandMs: a.longCommands.ms,
    editsPerFile: a.edits.perFile,
    coldResends: a.coldResends.count,
    longestSilenceMs: a.longestSilenceMs,
    fileChangesPerHour: a.fileChanges.perHour,
    commandsPassed: a.commands.passed,
    commandsFailed: a.commands.failed,
    checklistRewrites: a.checklist.rewrites,
    warnings: a.warnings,
  };
}

export interface RowFilter {
  /** Sessions that started at or after this instant (ms since epoch). */
  since?: number;
  /** Sessions that started before this instant. */
  until?: number;
  /** Sessions whose project (working folder) contains this text. */
  project?: string;
}

/** Why a row is left out, or null when it is kept. A session with no start time is left out by a date filter. */
export function filterOut(row: Pick<SessionRow, "startedAt" | "project">, filter: RowFilter): "no start time" | "before --since" | "not before --until" | "other project" | null {
  if (filter.since !== undefined || filter.until !== undefined) {
    const t = row.startedAt === null ? Number.NaN : Date.parse(row.startedAt);
    if (!Number.isFinite(t)) return "no start time";
    if (filter.since !== undefined && t < filter.since) return "before --since";
    if (filter.until !== undefined && t >= filter.until) return "not before --until";
  }
  if (filter.project !== undefined && !(row.project ?? "").includes(filter.project)) return "other project";
  return null;
}

/**
 * A date or instant for --since / --until: `YYYY-MM-DD` (midnight UTC; for --until the day is
 * included, so the bound is the next midnight) or any ISO date-time. Null when unreadable.
 */
export function parseDateBound(text: string, inclusiveDay: boolean): number | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const t = Date.parse(`${text}T00:00:00Z`);
    return Number.isFinite(t) ? t + (inclusiveDay ? 86_400_000 : 0) : null;
  }
  const t = Date.parse(text);
  return Number.isFinite(t) && /^\d{4}-\d{2}-\d{2}T/.test(text) ? t : null;
}

/** The columns, in order: every field of the row. */
export const ROW_COLUMNS = Object.keys(emptyRow()) as Array<keyof SessionRow>;

function emptyRow(): SessionRow {
  return {
    file: "", client: "", clientVersion: null, format: "", model: "", startedAt: null, project: null, parentSession: null,
    replies: 0, toolCalls: 0, toolCallsBeforeReplyEnd: 0, repeatedIdenticalCalls: 0, compactions: 0, interrupts: 0, rejectedToolCalls: 0, subagents: 0,
    inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: null, totalTokensIncludingSubagents: 0, usageSource: "",
    costUsd: null, costUsdIncludingSubagents: null, costSource: null, wallMs: 0, modelMs: 0, toolMs: 0, retries: 0, retryMs: 0,
    claimedComplete: false, permissionQuestion: false,
    modelMeanMs: null, modelP90Ms: null, toolTimeShare: null, longCommands: 0, longCommandMs: 0, editsPerFile: null, coldResends: 0, longestSilenceMs: 0, fileChangesPerHour: null, commandsPassed: 0, commandsFailed: 0, checklistRewrites: 0,
    warnings: 0,
  };
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(): string {
  return `${ROW_COLUMNS.join(",")}\n`;
}

export function csvLine(row: SessionRow): string {
  return `${ROW_COLUMNS.map((c) => csvCell(row[c])).join(",")}\n`;
}

const num = (v: number): string => Math.round(v).toLocaleString("en-US");
const usd = (v: number | null): string => (v === null ? "–" : v.toFixed(2));
const duration = (ms: number): string => (ms < 60_000 ? `${(ms / 1000).toFixed(0)} s` : ms < 3_600_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 3_600_000).toFixed(1)} h`);
const cut = (text: string, width: number): string => (text.length > width ? `…${text.slice(text.length - width + 1)}` : text);

/** One line per session, then a totals line. */
export function renderRowsTable(rows: readonly SessionRow[]): string {
  const header = ["started (UTC)", "client", "version", "model", "project", "replies", "tool calls", "tokens in", "tokens out", "cost $", "wall", "file"];
  const lines = rows.map((r) => [
    r.startedAt === null ? "–" : r.startedAt.slice(0, 16).replace("T", " "),
    r.client,
    r.clientVersion ?? "–",
    cut(r.model, 24),
    r.project === null ? "–" : cut(r.project, 28),
    num(r.replies),
    num(r.toolCalls),
    num(r.inputTokens),
    num(r.outputTokens),
    usd(r.costUsd),
    duration(r.wallMs),
    basename(r.file),
  ]);
  const priced = rows.filter((r) => r.costUsd !== null);
  lines.push([
    `total: ${rows.length} sessions`,
    "",
    "",
    "",
    "",
    num(rows.reduce((s, r) => s + r.replies, 0)),
    num(rows.reduce((s, r) => s + r.toolCalls, 0)),
    num(rows.reduce((s, r) => s + r.inputTokens, 0)),
    num(rows.reduce((s, r) => s + r.outputTokens, 0)),
    priced.length === 0 ? "–" : `${usd(priced.reduce((s, r) => s + (r.costUsd ?? 0), 0))}${priced.length < rows.length ? ` (${priced.length} priced)` : ""}`,
    duration(rows.reduce((s, r) => s + r.wallMs, 0)),
    "",
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...lines].map((l) => (l[i] ?? "").length)));
  const right = new Set([5, 6, 7, 8, 9, 10]);
  const fmt = (cells: string[]): string => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join("  ").trimEnd();
  const body = lines.map(fmt);
  return [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...body.slice(0, -1), fmt(widths.map((w) => "-".repeat(w))), body.at(-1) as string].join("\n") + "\n";
}
