/**
 * Per-run metrics, pure over run-record events. The same function measures a study run and an
 * imported session: it never asks which source wrote the record. Definitions: docs/metrics.md,
 * "## Run metrics".
 *
 * `MetricsAccumulator` reads events one at a time and keeps only counts and small maps, so a
 * 200 MB session is measured while it streams; `runMetrics` is the same over an array.
 */
import { analyzeFinalReport } from "../core/report/analyze.ts";
import { contentHash } from "../core/tokens.ts";
import type { EventOf, RunEvent } from "../run/record.ts";
import { costOf, DEFAULT_PRICES, type PriceTable, priceFor } from "./prices.ts";
import { COMMAND_KEYS, familyOf, filesReadByCommand, PATH_KEYS } from "./tool-families.ts";

/** The acceptance checks' outcome, as the study runner has it (only these fields are read). */
export interface AcceptanceInput {
  passed: number;
  failed: number;
  checks: ReadonlyArray<{ passed: boolean }>;
}

export type ClaimSource = "goal_complete" | "report_first_line" | "todo_all_done";

export interface TokenMetrics {
  /** o200k tokens of the arm's stable prompt prefix (run.start); 0 when unknown. */
  prefix: number;
  /** Every input token of every request: uncached + cache reads + cache writes. */
  input: number;
  cachedInput: number;
  cacheWrite: number;
  /** Output tokens, reasoning included. */
  output: number;
  /** Reasoning tokens; 0 when the source does not report them (see `reasoningReported`). */
  reasoning: number;
  reasoningReported: boolean;
  total: number;
  /** reported | counted | estimated | mixed | none */
  source: string;
  /** True when the figures are an o200k estimate over visible text (the log had no usage). */
  lowerBound: boolean;
}

export interface RunMetrics {
  toolCalls: number;
  toolCallsByName: Record<string, number>;
  toolCallsBeforeReplyEnd: number;
  toolCallsPerReply: number[];
  replies: number;
  firstReportLine: string | null;
  claimedComplete: boolean;
  claimSource: ClaimSource | null;
  /** Claimed complete while an acceptance check failed; null without acceptance results. */
  falseCompletion: boolean | null;
  /** The run ended on a question asking the person whether to go on. */
  permissionQuestion: boolean;
  /** Ended on such a question with checks failing; null without acceptance results. */
  permissionStop: boolean | null;
  claimChecks: { count: number; done: number; continue: number; acceptedUnchecked: number; shieldRejected: number; agreesWithAcceptance: boolean | null };
  tokens: TokenMetrics;
  costUsd: number | null;
  /** `log`: the log's own cost; `price_table`: src/measure/prices.ts; null: no price known. */
  costSource: "log" | "price_table" | null;
  modelRequests: number;
  repeatedIdenticalCalls: number;
  repeatedSignatures: number;
  reads: number;
  distinctFilesRead: number;
  readsPerDistinctFile: number | null;
  maxReadsOfOneFile: number;
  mostReadFile: string | null;
  compactions: number;
  compactionsPerReply: number[];
  timeToFirstTextMs: number | null;
  visibleTexts: number;
  /** Tool calls per non-empty assistant text; null when there was no text at all (∞). */
  toolCallsPerVisibleText: number | null;
  longestReply: { ms: number; toolCalls: number };
  wallMs: number;
  modelMs: number;
  toolMs: number;
  interrupts: number;
  rejectedToolCalls: number;
  planApprovals: { approved: number; rejected: number };
  subagents: { count: number; toolCalls: number };
  warnings: number;
}

/** With acceptance results, the two ground-truth metrics are always decided. */
export type RunMetricsWithAcceptance = RunMetrics & { falseCompletion: boolean; permissionStop: boolean };

export interface MetricsOptions {
  acceptance?: AcceptanceInput | null;
  prices?: PriceTable;
}

/** Plan tools whose arguments hold the whole list: the argument key and each item's status key. */
const PLAN_ARGUMENTS: Readonly<Record<string, { list: string; status: string }>> = {
  TodoWrite: { list: "todos", status: "status" },
  todowrite: { list: "todos", status: "status" },
  update_plan: { list: "plan", status: "status" },
};

const COMPLETE_STATUSES = new Set(["completed", "complete", "done"]);

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function normalisePath(path: string, cwd: string | null): string {
  let p = path.trim();
  if (cwd !== null && cwd.length > 1 && p.startsWith(`${cwd}/`)) p = p.slice(cwd.length + 1);
  while (p.startsWith("./")) p = p.slice(2);
  return p;
}

export class MetricsAccumulator {
  private start: EventOf<"run.start"> | null = null;
  private end: EventOf<"run.end"> | null = null;
  private firstT: number | null = null;
  private lastT = 0;
  private firstUserT: number | null = null;
  private firstTextT: number | null = null;

  private toolCalls = 0;
  private readonly byName = new Map<string, number>();
  private readonly perReply: number[] = [];
  private readonly compactionsPerReply: number[] = [];
  private replyCalls = 0;
  private replyCompactions = 0;
  private replyStartT: number | null = null;
  private replyActive = false;
  private longest = { ms: 0, toolCalls: 0 };

  private lastFinalText: string | null = null;
  private lastFinalReplyIndex = -1;
  private lastReplyEndReason: string | null = null;
  private visibleTexts = 0;

  private goalComplete = false;
  private lastPlanAllDone: boolean | null = null;

  private readonly claim = { count: 0, done: 0, continue: 0, acceptedUnchecked: 0, shieldRejected: 0, lastVerdict: null as string | null };
  private readonly usage = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  private readonly usageSources = new Set<string>();
  private reasoningSeen = false;
  private requests = 0;
  private requestCost = 0;
  private requestsWithCost = 0;
  private priceable = true;
  private pricedCost = 0;
  private lastModel: string | null = null;

  private readonly signatures = new Map<string, number>();
  private readonly reads = new Map<string, number>();
  private readCount = 0;
  private compactions = 0;
  private modelMs = 0;
  private toolMs = 0;
  private interrupts = 0;
  private rejected = 0;
  private readonly approvals = { approved: 0, rejected: 0 };
  private readonly subagents = { count: 0, toolCalls: 0 };
  private warnings = 0;

  constructor(private readonly prices: PriceTable = DEFAULT_PRICES) {}

  add(event: RunEvent): void {
    if (this.firstT === null) this.firstT = event.t;
    this.lastT = Math.max(this.lastT, event.t);
    switch (event.type) {
      case "run.start":
        this.start = event;
        if (event.model !== "unknown") this.lastModel = event.model;
        return;
      case "user.message":
        if (this.firstUserT === null) this.firstUserT = event.t;
        this.openReply(event.t);
        return;
      case "assistant.text":
        this.openReply(event.t);
        if (event.text.trim().length > 0) {
          this.visibleTexts += 1;
          if (this.firstTextT === null) this.firstTextT = event.t;
        }
        if (event.final) {
          this.lastFinalText = event.text;
          this.lastFinalReplyIndex = this.perReply.length;
        }
        return;
      case "tool.call":
        this.openReply(event.t);
        this.toolCall(event);
        return;
      case "tool.result":
        if (event.durationMs !== undefined) this.toolMs += event.durationMs;
        if (event.rejected) this.rejected += 1;
        if (event.planApproval === "approved") this.approvals.approved += 1;
        if (event.planApproval === "rejected") this.approvals.rejected += 1;
        return;
      case "model.request":
        this.request(event);
        return;
      case "plan.update":
        this.lastPlanAllDone = event.items.length > 0 && event.items.every((i) => i.status === "completed");
        return;
      case "reply.end":
        this.closeReply(event.t, event.reason);
        return;
      case "goal.update":
        if (event.to === "complete") this.goalComplete = true;
        return;
      case "claim.check":
        this.claim.count += 1;
        if (event.verdict === "done") this.claim.done += 1;
        else if (event.verdict === "continue") this.claim.continue += 1;
        else this.claim.acceptedUnchecked += 1;
        if (event.shield === "rejected") this.claim.shieldRejected += 1;
        this.claim.lastVerdict = event.verdict;
        return;
      case "compaction":
        this.compactions += 1;
        this.replyCompactions += 1;
        return;
      case "subagent":
        this.subagents.count += 1;
        this.subagents.toolCalls += event.toolCalls;
        return;
      case "run.end":
        this.end = event;
        return;
      case "note":
        if (event.level === "warning") this.warnings += 1;
        return;
      case "policy.decision":
      case "model.retry":
        return;
      default: {
        const unreachable: never = event;
        throw new Error(`unknown run-record event ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private openReply(t: number): void {
    if (this.replyActive) return;
    this.replyActive = true;
    this.replyStartT = t;
  }

  private closeReply(t: number, reason: string): void {
    if (!this.replyActive) this.replyStartT = t;
    const ms = Math.max(0, t - (this.replyStartT ?? t));
    if (ms > this.longest.ms || (ms === this.longest.ms && this.replyCalls > this.longest.toolCalls)) this.longest = { ms, toolCalls: this.replyCalls };
    this.perReply.push(this.replyCalls);
    this.compactionsPerReply.push(this.replyCompactions);
    this.replyCalls = 0;
    this.replyCompactions = 0;
    this.replyActive = false;
    this.lastReplyEndReason = reason;
    if (reason === "interrupted") this.interrupts += 1;
  }

  private toolCall(event: EventOf<"tool.call">): void {
    this.toolCalls += 1;
    this.replyCalls += 1;
    this.byName.set(event.name, (this.byName.get(event.name) ?? 0) + 1);
    const signature = contentHash(`${event.name}\u0000${canonical(event.arguments)}`);
    this.signatures.set(signature, (this.signatures.get(signature) ?? 0) + 1);

    const family = familyOf(event.name);
    const args = event.arguments;
    const cwd = this.start?.cwd ?? null;
    if (family === "read") {
      for (const key of PATH_KEYS) {
        const value = args[key];
        if (typeof value === "string" && value.length > 0) {
          this.read(normalisePath(value, cwd));
          break;
        }
      }
    } else if (family === "shell") {
      for (const key of COMMAND_KEYS) {
        const value = args[key];
        if (typeof value === "string" || (Array.isArray(value) && value.every((v) => typeof v === "string"))) {
          for (const file of filesReadByCommand(value as string | string[])) this.read(normalisePath(file, cwd));
          break;
        }
      }
    } else if (family === "goal" && event.name === "update_goal" && args.status === "complete") {
      this.goalComplete = true;
    } else if (family === "plan") {
      const spec = PLAN_ARGUMENTS[event.name];
      const list = spec !== undefined ? args[spec.list] : undefined;
      if (spec !== undefined && Array.isArray(list)) {
        this.lastPlanAllDone = list.length > 0 && list.every((item) => COMPLETE_STATUSES.has(String((item as Record<string, unknown>)?.[spec.status] ?? "")));
      }
    }
  }

  private read(path: string): void {
    this.readCount += 1;
    this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
  }

  private request(event: EventOf<"model.request">): void {
    this.requests += 1;
    this.modelMs += event.durationMs;
    this.usage.input += event.input;
    this.usage.cachedInput += event.cachedInput;
    this.usage.cacheWrite += event.cacheWrite ?? 0;
    this.usage.output += event.output;
    this.usage.reasoning += event.reasoning;
    if (event.reasoning > 0) this.reasoningSeen = true;
    this.usageSources.add(event.usageSource);
    if (event.costUsd !== undefined) {
      this.requestCost += event.costUsd;
      this.requestsWithCost += 1;
    }
    if (event.model) this.lastModel = event.model;
    const price = priceFor(event.model ?? this.lastModel, this.prices);
    if (price === null) this.priceable = false;
    else this.pricedCost += costOf({ input: event.input, cachedInput: event.cachedInput, cacheWrite: event.cacheWrite ?? 0, output: event.output }, price);
  }

  result(options?: { acceptance?: null | undefined }): RunMetrics;
  result(options: { acceptance: AcceptanceInput }): RunMetricsWithAcceptance;
  result(options?: { acceptance?: AcceptanceInput | null }): RunMetrics;
  result(options: { acceptance?: AcceptanceInput | null } = {}): RunMetrics {
    const acceptance = options.acceptance ?? null;
    // A reply still open when the record ends (a cut-off run) still counts as a reply.
    const perReply = [...this.perReply];
    const compactionsPerReply = [...this.compactionsPerReply];
    if (this.replyActive || this.replyCalls > 0) {
      perReply.push(this.replyCalls);
      compactionsPerReply.push(this.replyCompactions);
    }
    const firstT = this.firstT ?? 0;
    const wallMs = this.end !== null ? this.end.wallMs : Math.max(0, this.lastT - firstT);
    if (this.replyActive) {
      const ms = Math.max(0, this.lastT - (this.replyStartT ?? this.lastT));
      if (ms > this.longest.ms) this.longest = { ms, toolCalls: this.replyCalls };
    }

    // The final report is the last text that ended a reply; its analysis is core/report's.
    const report = this.lastFinalText === null ? null : analyzeFinalReport(this.lastFinalText);
    const facts = {
      firstLine: report === null || report.firstLineRaw === "" ? null : report.firstLineRaw,
      claimsComplete: report?.claimsComplete ?? false,
      asksPermission: report?.asksPermission ?? false,
    };
    let claimSource: ClaimSource | null = null;
    if (this.goalComplete) claimSource = "goal_complete";
    else if (facts.claimsComplete) claimSource = "report_first_line";
    else if (this.lastPlanAllDone === true) claimSource = "todo_all_done";
    const claimedComplete = claimSource !== null;

    // The run ended on the final text's reply (no later reply started), and that text asks to go on.
    const endedOnFinalText = this.lastFinalReplyIndex >= perReply.length - 1;
    const permissionQuestion = this.lastReplyEndReason === "ask_user" || (endedOnFinalText && facts.asksPermission);

    const failed = acceptance !== null ? acceptance.failed > 0 : null;
    const lastVerdictDone = this.claim.lastVerdict === "done" || this.claim.lastVerdict === "accepted_unchecked";

    const tokens = this.tokens();
    const cost = this.cost(tokens);

    let maxReads = 0;
    let mostRead: string | null = null;
    for (const [path, count] of this.reads) {
      if (count > maxReads) {
        maxReads = count;
        mostRead = path;
      }
    }
    let repeated = 0;
    let repeatedSignatures = 0;
    for (const count of this.signatures.values()) {
      if (count > 1) {
        repeated += count - 1;
        repeatedSignatures += 1;
      }
    }
    const origin = this.firstUserT ?? this.start?.t ?? firstT;

    return {
      toolCalls: this.toolCalls,
      toolCallsByName: Object.fromEntries([...this.byName].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
      toolCallsBeforeReplyEnd: perReply[0] ?? 0,
      toolCallsPerReply: perReply,
      replies: perReply.length,
      firstReportLine: facts.firstLine,
      claimedComplete,
      claimSource,
      falseCompletion: failed === null ? null : claimedComplete && failed,
      permissionQuestion,
      permissionStop: failed === null ? null : permissionQuestion && failed,
      claimChecks: {
        count: this.claim.count,
        done: this.claim.done,
        continue: this.claim.continue,
        acceptedUnchecked: this.claim.acceptedUnchecked,
        shieldRejected: this.claim.shieldRejected,
        agreesWithAcceptance: failed === null || this.claim.count === 0 ? null : lastVerdictDone === !failed,
      },
      tokens,
      costUsd: cost.usd,
      costSource: cost.source,
      modelRequests: this.requests,
      repeatedIdenticalCalls: repeated,
      repeatedSignatures,
      reads: this.readCount,
      distinctFilesRead: this.reads.size,
      readsPerDistinctFile: this.reads.size === 0 ? null : this.readCount / this.reads.size,
      maxReadsOfOneFile: maxReads,
      mostReadFile: mostRead,
      compactions: this.compactions,
      compactionsPerReply,
      timeToFirstTextMs: this.firstTextT === null ? null : Math.max(0, this.firstTextT - origin),
      visibleTexts: this.visibleTexts,
      toolCallsPerVisibleText: this.visibleTexts === 0 ? null : this.toolCalls / this.visibleTexts,
      longestReply: this.longest,
      wallMs,
      modelMs: this.modelMs,
      toolMs: this.toolMs,
      interrupts: this.interrupts,
      rejectedToolCalls: this.rejected,
      planApprovals: { ...this.approvals },
      subagents: { ...this.subagents },
      warnings: this.warnings,
    };
  }

  private tokens(): TokenMetrics {
    const prefix = this.start?.prefixTokens ?? 0;
    const stated = this.end?.usage;
    if (stated !== undefined) {
      return {
        prefix,
        input: stated.input,
        cachedInput: stated.cachedInput,
        cacheWrite: stated.cacheWrite,
        output: stated.output,
        reasoning: stated.reasoning ?? 0,
        reasoningReported: stated.reasoning !== null,
        total: stated.input + stated.output,
        source: stated.source,
        lowerBound: stated.lowerBound,
      };
    }
    const sources = [...this.usageSources];
    return {
      prefix,
      ...this.usage,
      reasoningReported: this.reasoningSeen,
      total: this.usage.input + this.usage.output,
      source: sources.length === 0 ? "none" : sources.length === 1 ? (sources[0] as string) : "mixed",
      lowerBound: sources.includes("estimated"),
    };
  }

  private cost(tokens: TokenMetrics): { usd: number | null; source: "log" | "price_table" | null } {
    if (this.end?.costUsd !== undefined) return { usd: this.end.costUsd, source: "log" };
    if (this.requests > 0 && this.requestsWithCost === this.requests) return { usd: this.requestCost, source: "log" };
    // Per request when the requests add up to the run's stated totals (so each is priced at its own model).
    const requestsMatchTotals = this.requests > 0 && tokens.input === this.usage.input && tokens.output === this.usage.output;
    if (requestsMatchTotals) return this.priceable ? { usd: this.pricedCost, source: "price_table" } : { usd: null, source: null };
    if (tokens.total === 0) return { usd: null, source: null };
    const price = priceFor(this.lastModel, this.prices);
    if (price === null) return { usd: null, source: null };
    return { usd: costOf(tokens, price), source: "price_table" };
  }
}

/** The metrics of one run record. With acceptance results, falseCompletion and permissionStop are decided. */
export function runMetrics(events: Iterable<RunEvent>, options: MetricsOptions & { acceptance: AcceptanceInput }): RunMetricsWithAcceptance;
export function runMetrics(events: Iterable<RunEvent>, options?: MetricsOptions): RunMetrics;
export function runMetrics(events: Iterable<RunEvent>, options: MetricsOptions = {}): RunMetrics {
  const acc = new MetricsAccumulator(options.prices);
  for (const event of events) acc.add(event);
  return acc.result({ acceptance: options.acceptance ?? null });
}
