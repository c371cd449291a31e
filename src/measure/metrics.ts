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
import { type CostUsage, costOf, DEFAULT_PRICES, type PriceTable, priceFor } from "./prices.ts";
import { checklistTexts, filesEditedBy } from "./edits.ts";
import { quantileSorted } from "./stats.ts";
import { COMMAND_KEYS, familyOf, filesReadByCommand, PATH_KEYS, type ToolFamily } from "./tool-families.ts";

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
  /** A plan run (`plan.outcome` events): the first reply's outcome, the final one, and whether the repair turn ran; null otherwise. */
  plan: { firstOutcome: string; outcome: string; repaired: boolean } | null;
  modelMs: number;
  toolMs: number;
  interrupts: number;
  rejectedToolCalls: number;
  planApprovals: { approved: number; rejected: number };
  subagents: SubagentMetrics;
  /**
   * The session's tokens with its sub-agents' added (Claude Code sub-agent files): `tokens` is the
   * main thread alone, `subagents.tokens` theirs. Equal to `tokens` when there are none.
   */
  tokensIncludingSubagents: TokenMetrics;
  /** Cost of main thread and sub-agents; null when any part has no price. */
  costUsdIncludingSubagents: number | null;
  /** Requests the price table could not price (no row for the model, or a fast / priority / batch request). */
  unpricedRequests: number;
  /** `model.retry` events (our loop's, or a client's from its log) and the time waited (announced delays; else the client's own total). */
  retries: { count: number; ms: number };
  // ---- STUDY-0003's diagnosis metrics (definitions: docs/metrics.md) ----
  /** Model request durations: mean and 90th percentile; null without requests. */
  modelTime: { meanMs: number | null; p90Ms: number | null };
  /** Tool time as a share of wall time; null when the wall time is 0. */
  toolTimeShare: number | null;
  /** Shell commands that ran 60 s or longer, and their time. */
  longCommands: { count: number; ms: number };
  /** Edit and write calls over the files they named. */
  edits: { count: number; files: number; perFile: number | null; maxOfOneFile: number; mostEditedFile: string | null };
  /** Requests with no cache read and over 20,000 input tokens (the whole context sent cold). */
  coldResends: { count: number; uncachedTokens: number };
  /** The longest time between two consecutive events of the record (a heartbeat breaks a silence). */
  longestSilenceMs: number;
  /** Successful edit/write calls (or reported changed files): count, per hour of wall time, longest gap between two. */
  fileChanges: { count: number; perHour: number | null; longestGapMs: number | null };
  /** Shell commands that passed (exit 0 / ok) and failed. */
  commands: { passed: number; failed: number };
  /** Checklist writes, and rewrites: writes whose item texts differ from the list before (not only statuses). */
  checklist: { writes: number; rewrites: number };
  warnings: number;
}

/** A shell command at least this long counts as a long command (STUDY-0003: the Playwright runs). */
export const LONG_COMMAND_MS = 60_000;
/** A request with no cache read and more input than this is a cold re-send. */
export const COLD_RESEND_INPUT = 20_000;

export interface SubagentMetrics {
  count: number;
  toolCalls: number;
  /** The sub-agents' own usage summed (null when none reported any). */
  tokens: { input: number; cachedInput: number; cacheWrite: number; output: number; reasoning: number | null } | null;
  /** Their cost summed: logged, or priced at their model; null when any is unpriced. */
  costUsd: number | null;
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
  private readonly subUsage = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0, reasoning: 0, reported: false, reasoningReported: false };
  private subCost: number | null = 0;
  private unpriced = 0;
  private readonly retry = { count: 0, ms: 0 };
  private readonly durations: number[] = [];
  private readonly long = { count: 0, ms: 0 };
  private readonly cold = { count: 0, uncachedTokens: 0 };
  private readonly editsByFile = new Map<string, number>();
  private editCalls = 0;
  private longestSilence = 0;
  private prevT: number | null = null;
  private readonly changes = { count: 0, lastT: null as number | null, longestGap: null as number | null };
  private readonly commandResults = { passed: 0, failed: 0 };
  private readonly checklistState = { writes: 0, rewrites: 0, last: null as string | null };
  /** Open calls of the families whose results the metrics read (bounded). */
  private readonly openCalls = new Map<string, ToolFamily>();
  private warnings = 0;
  private plan: { firstOutcome: string; outcome: string; repaired: boolean } | null = null;

  constructor(private readonly prices: PriceTable = DEFAULT_PRICES) {}

  add(event: RunEvent): void {
    if (this.prevT !== null) this.longestSilence = Math.max(this.longestSilence, event.t - this.prevT);
    this.prevT = event.t;
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
        this.toolResult(event);
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
        this.checklistWrite(event.items.map((i) => i.text));
        return;
      case "reply.end":
        this.closeReply(event.t, event.reason, event.durationMs);
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
      case "heartbeat":
        return;
      case "plan.outcome":
        this.plan = { firstOutcome: this.plan?.firstOutcome ?? event.outcome, outcome: event.outcome, repaired: (this.plan?.repaired ?? false) || event.repair };
        return;
      case "subagent":
        this.subagent(event);
        return;
      case "model.retry":
        this.retry.count += 1;
        this.retry.ms += event.waitMs;
        return;
      case "run.end":
        this.end = event;
        return;
      case "note":
        if (event.level === "warning") this.warnings += 1;
        return;
      case "policy.decision":
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

  private closeReply(t: number, reason: string, clientMs?: number): void {
    if (!this.replyActive) this.replyStartT = t;
    // The client's own measure, when it gives one, wins over the log's timestamps.
    const ms = clientMs ?? Math.max(0, t - (this.replyStartT ?? t));
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
    if (family === "shell" || family === "edit" || family === "write") {
      this.openCalls.set(event.id, family);
      if (this.openCalls.size > 10_000) {
        const oldest = this.openCalls.keys().next();
        if (!oldest.done) this.openCalls.delete(oldest.value);
      }
    }
    if (family === "edit" || family === "write") {
      this.editCalls += 1;
      for (const file of filesEditedBy(args)) {
        const path = normalisePath(file, cwd);
        this.editsByFile.set(path, (this.editsByFile.get(path) ?? 0) + 1);
      }
    }
    if (family === "plan") {
      const texts = checklistTexts(event.name, args);
      if (texts !== null) this.checklistWrite(texts);
    }
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

  private subagent(event: EventOf<"subagent">): void {
    this.subagents.count += 1;
    this.subagents.toolCalls += event.toolCalls;
    const u = event.usage;
    if (u === undefined) return;
    this.subUsage.reported = true;
    this.subUsage.input += u.input;
    this.subUsage.cachedInput += u.cachedInput;
    this.subUsage.cacheWrite += u.cacheWrite;
    this.subUsage.output += u.output;
    this.subUsage.reasoning += u.reasoning ?? 0;
    if (u.reasoning !== null) this.subUsage.reasoningReported = true;
    if (this.subCost === null) return;
    if (event.costUsd !== undefined) {
      this.subCost += event.costUsd;
      return;
    }
    const price = priceFor(event.model, this.prices);
    const cost = price === null ? null : costOf(u, price);
    this.subCost = cost === null ? null : this.subCost + cost;
  }

  private toolResult(event: EventOf<"tool.result">): void {
    const family = this.openCalls.get(event.id);
    this.openCalls.delete(event.id);
    if (family === "shell") {
      if (event.ok) this.commandResults.passed += 1;
      else this.commandResults.failed += 1;
      if (event.durationMs !== undefined && event.durationMs >= LONG_COMMAND_MS) {
        this.long.count += 1;
        this.long.ms += event.durationMs;
      }
    }
    const changed = event.changedFiles !== undefined ? event.changedFiles.length : (family === "edit" || family === "write") && event.ok ? 1 : 0;
    if (changed > 0) {
      if (this.changes.lastT !== null) this.changes.longestGap = Math.max(this.changes.longestGap ?? 0, event.t - this.changes.lastT);
      this.changes.lastT = event.t;
      this.changes.count += changed;
    }
  }

  private checklistWrite(texts: string[]): void {
    const key = JSON.stringify(texts);
    this.checklistState.writes += 1;
    if (this.checklistState.last !== null && this.checklistState.last !== key) this.checklistState.rewrites += 1;
    this.checklistState.last = key;
  }

  private read(path: string): void {
    this.readCount += 1;
    this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
  }

  private request(event: EventOf<"model.request">): void {
    this.requests += 1;
    this.modelMs += event.durationMs;
    this.durations.push(event.durationMs);
    if (event.cachedInput === 0 && event.input > COLD_RESEND_INPUT) {
      this.cold.count += 1;
      this.cold.uncachedTokens += event.input; // none of it served from the cache (cache writes included)
    }
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
    const cost = price === null ? null : costOf(requestUsage(event), price);
    if (cost === null) {
      this.priceable = false;
      this.unpriced += 1;
    } else this.pricedCost += cost;
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
      plan: this.plan,
      modelMs: this.modelMs,
      toolMs: this.toolMs,
      interrupts: this.interrupts,
      rejectedToolCalls: this.rejected,
      planApprovals: { ...this.approvals },
      subagents: { ...this.subagents, tokens: this.subTokens(), costUsd: this.subagents.count === 0 ? null : this.subUsage.reported ? this.subCost : null },
      tokensIncludingSubagents: this.withSubagents(tokens),
      costUsdIncludingSubagents: this.costWithSubagents(cost.usd),
      unpricedRequests: this.unpriced,
      retries: this.retries(),
      modelTime: this.modelTime(),
      toolTimeShare: wallMs > 0 ? this.toolMs / wallMs : null,
      longCommands: { ...this.long },
      edits: this.editMetrics(),
      coldResends: { ...this.cold },
      longestSilenceMs: this.longestSilence,
      fileChanges: { count: this.changes.count, perHour: wallMs > 0 ? this.changes.count / (wallMs / 3_600_000) : null, longestGapMs: this.changes.longestGap },
      commands: { ...this.commandResults },
      checklist: { writes: this.checklistState.writes, rewrites: this.checklistState.rewrites },
      warnings: this.warnings,
    };
  }

  private modelTime(): RunMetrics["modelTime"] {
    if (this.durations.length === 0) return { meanMs: null, p90Ms: null };
    const sorted = [...this.durations].sort((a, b) => a - b);
    return { meanMs: this.modelMs / sorted.length, p90Ms: quantileSorted(sorted, 0.9) };
  }

  private editMetrics(): RunMetrics["edits"] {
    let max = 0;
    let most: string | null = null;
    for (const [file, n] of this.editsByFile) {
      if (n > max) {
        max = n;
        most = file;
      }
    }
    const files = this.editsByFile.size;
    return { count: this.editCalls, files, perFile: files === 0 ? null : this.editCalls / files, maxOfOneFile: max, mostEditedFile: most };
  }

  private subTokens(): SubagentMetrics["tokens"] {
    const u = this.subUsage;
    if (!u.reported) return null;
    return { input: u.input, cachedInput: u.cachedInput, cacheWrite: u.cacheWrite, output: u.output, reasoning: u.reasoningReported ? u.reasoning : null };
  }

  private withSubagents(tokens: TokenMetrics): TokenMetrics {
    const u = this.subUsage;
    if (!u.reported) return tokens;
    const input = tokens.input + u.input;
    const output = tokens.output + u.output;
    return {
      ...tokens,
      input,
      cachedInput: tokens.cachedInput + u.cachedInput,
      cacheWrite: tokens.cacheWrite + u.cacheWrite,
      output,
      reasoning: tokens.reasoning + u.reasoning,
      reasoningReported: tokens.reasoningReported || u.reasoningReported,
      total: input + output,
    };
  }

  private costWithSubagents(main: number | null): number | null {
    if (this.end?.costIncludesSubagents === true && this.end.costUsd !== undefined) return this.end.costUsd;
    if (main === null) return null;
    if (this.subagents.count === 0) return main;
    if (!this.subUsage.reported || this.subCost === null) return null;
    return main + this.subCost;
  }

  private retries(): { count: number; ms: number } {
    // Claude Code totals its API time with and without retries; with no announced delays, that difference is the time.
    const times = this.end?.clientTimes;
    if (this.retry.count > 0 && this.retry.ms === 0 && times !== undefined && times.apiMsWithoutRetries !== null) {
      return { count: this.retry.count, ms: Math.max(0, times.apiMs - times.apiMsWithoutRetries) };
    }
    return { ...this.retry };
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
    // A log cost that covers the sub-agents too is not the main thread's: that one is priced (0093).
    const logCoversSubagents = this.end?.costIncludesSubagents === true && this.subagents.count > 0;
    if (this.end?.costUsd !== undefined && !logCoversSubagents) return { usd: this.end.costUsd, source: "log" };
    if (this.requests > 0 && this.requestsWithCost === this.requests) return { usd: this.requestCost, source: "log" };
    // Per request when the requests add up to the run's stated totals (so each is priced at its own model).
    const requestsMatchTotals = this.requests > 0 && tokens.input === this.usage.input && tokens.output === this.usage.output;
    if (requestsMatchTotals) return this.priceable ? { usd: this.pricedCost, source: "price_table" } : { usd: null, source: null };
    if (tokens.total === 0) return { usd: null, source: null };
    const price = priceFor(this.lastModel, this.prices);
    const usd = price === null ? null : costOf(tokens, price);
    return usd === null ? { usd: null, source: null } : { usd, source: "price_table" };
  }
}

function requestUsage(event: EventOf<"model.request">): CostUsage {
  const usage: CostUsage = { input: event.input, cachedInput: event.cachedInput, cacheWrite: event.cacheWrite ?? 0, output: event.output };
  if (event.cacheWrite1h !== undefined) usage.cacheWrite1h = event.cacheWrite1h;
  if (event.speed !== undefined) usage.speed = event.speed;
  if (event.serviceTier !== undefined) usage.serviceTier = event.serviceTier;
  return usage;
}

/** The metrics of one run record. With acceptance results, falseCompletion and permissionStop are decided. */
export function runMetrics(events: Iterable<RunEvent>, options: MetricsOptions & { acceptance: AcceptanceInput }): RunMetricsWithAcceptance;
export function runMetrics(events: Iterable<RunEvent>, options?: MetricsOptions): RunMetrics;
export function runMetrics(events: Iterable<RunEvent>, options: MetricsOptions = {}): RunMetrics {
  const acc = new MetricsAccumulator(options.prices);
  for (const event of events) acc.add(event);
  return acc.result({ acceptance: options.acceptance ?? null });
}
