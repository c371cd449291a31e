/**
 * Turns what a format mapper reads (a user prompt, an assistant text, a tool call, a usage
 * snapshot…) into run-record events, with the rules every source shares:
 *
 * - `t` is milliseconds since the first timestamp the log gives (or an injected clock for live
 *   drivers), never decreasing;
 * - a reply opens with a user message (or the first assistant activity) and ends where the log
 *   says, or when the next user message arrives, or at the end of the stream; an assistant text is
 *   `final` when no tool call follows it before the reply ends, which needs one event of look-ahead,
 *   so events after a text are held until that is decided;
 * - usage snapshots that share a key (Claude Code writes one line per content block, each with the
 *   message's usage) are counted once, keeping the largest;
 * - when the log reports no usage at all, the visible text is counted with o200k and the run total
 *   is marked `estimated` and a lower bound.
 *
 * The builder holds little: the held events after an undecided text (bounded), open tool-call
 * start times, and one small entry per usage key.
 */
import { contentHash, processTokenCounter, type TokenCounter } from "../core/tokens.ts";
import type { EventOf, RunEvent } from "../run/record.ts";

export type ReplyEndReason = EventOf<"reply.end">["reason"];
export type UserKind = EventOf<"user.message">["kind"];

/** The `run.start` event's own fields (the builder fills in `t`, `type` and `source`). */
export type RunStartFields = Omit<EventOf<"run.start">, "t" | "type" | "source">;

export interface BuilderOptions {
  /** `run.start.source`: codex, claude, pi … */
  source: string;
  /** Overrides for `run.start` (drivers pass the arm, run index, seed). */
  start?: Partial<RunStartFields>;
  /** Live drivers: time events by this clock instead of the log's timestamps. */
  clock?: () => number;
  /** o200k counter for the no-usage estimate (shared across files for its cache). */
  counter?: TokenCounter;
  /** Cap on tool output kept in `tool.result.output`, in characters (default 4000). */
  outputCap?: number;
}

export interface UsageSnapshot {
  /** Normalised: every input token, cached and cache writes included. */
  input: number;
  cachedInput: number;
  cacheWrite: number;
  /** Includes reasoning. */
  output: number;
  /** Null when the log does not report reasoning separately. */
  reasoning: number | null;
  /** The part of cacheWrite with a one-hour lifetime, when the log splits it (Anthropic). */
  cacheWrite1h?: number;
}

export interface RunTotals extends UsageSnapshot {
  source: "reported" | "estimated";
}

export interface RequestOptions {
  key?: string;
  model?: string | null;
  durationMs?: number;
  stop?: string;
  costUsd?: number;
  /** Non-standard speed (`fast`) or service tier (`priority`, `batch`), priced apart. */
  speed?: string | null;
  serviceTier?: string | null;
}

interface KeyedUsage {
  event: EventOf<"model.request">;
  reasoningReported: boolean;
}

/** Events held after an undecided text never exceed this; past it the text is taken as not final. */
const MAX_HELD = 2000;
/** Usage keys remembered for de-duplication (oldest forgotten first). */
const MAX_KEYS = 200_000;

export function capOutput(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const half = Math.floor(cap / 2);
  const cut = text.length - 2 * half;
  return `${text.slice(0, half)}\n[… ${cut} characters elided …]\n${text.slice(text.length - half)}`;
}

export class RecordBuilder {
  private readonly out: RunEvent[] = [];
  private held: RunEvent[] | null = null;
  private pendingText: EventOf<"assistant.text"> | null = null;
  private startFields: RunStartFields;
  private startEmitted = false;
  /** run.start waits (briefly) for the model id, which some logs give only on the first reply. */
  private startQueue: RunEvent[] | null = [];
  private modelKnown = false;

  private origin: number | null = null;
  private now = 0;
  private clockOrigin: number | null = null;
  private lastInputT = 0;

  private replyOpen = false;
  private lastAssistantWasText = false;
  /** The open reply has assistant text or tool calls (not only the person's message). */
  private assistantActivity = false;
  private userMessages = 0;
  private round = 0;
  private readonly toolStarts = new Map<string, { t: number; name: string }>();
  private readonly keyed = new Map<string, KeyedUsage>();
  /** The keyed request still taking snapshots; it is held (not handed on) until its key closes. */
  private openKeyed: KeyedUsage | null = null;

  private readonly sums = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  private reasoningReported = false;
  private reportedRequests = 0;
  private readonly estimate = { input: 0, output: 0 };
  private readonly counter: TokenCounter;
  private readonly outputCap: number;
  private lastModel: string | null = null;
  private finished = false;
  private endOverride: { status: string; reason?: string } | null = null;

  constructor(private readonly options: BuilderOptions) {
    this.counter = options.counter ?? processTokenCounter();
    this.outputCap = options.outputCap ?? 4000;
    this.startFields = {
      arm: "session",
      runIndex: 0,
      seed: 0,
      model: "unknown",
      testDouble: false,
      prefixHash: "",
      prefixTokens: 0,
      ...options.start,
    };
    if (options.start?.model !== undefined) this.modelKnown = true;
  }

  /** Events ready to hand on, in order; the builder forgets them. */
  drain(): RunEvent[] {
    if (this.out.length === 0) return EMPTY;
    return this.out.splice(0, this.out.length);
  }

  get currentT(): number {
    return this.now;
  }

  /** Sets the current time from a log timestamp (ISO text or epoch milliseconds). */
  time(stamp: unknown): void {
    if (this.options.clock !== undefined) {
      const c = this.options.clock();
      if (this.clockOrigin === null) this.clockOrigin = c;
      this.now = Math.max(this.now, c - this.clockOrigin);
      return;
    }
    const ms = typeof stamp === "number" ? stamp : typeof stamp === "string" ? Date.parse(stamp) : Number.NaN;
    if (!Number.isFinite(ms)) return;
    if (this.origin === null) this.origin = ms;
    this.now = Math.max(this.now, ms - this.origin);
  }

  /** Facts for `run.start` (model, cwd, the fixed prompt). Call before or while the first events arrive. */
  meta(fields: { model?: string | null; cwd?: string | null; startedAt?: string | null; prefixText?: string | null; clientVersion?: string | null; parentSession?: string | null }): void {
    if (this.startEmitted) {
      if (fields.model) this.lastModel = fields.model;
      return;
    }
    if (fields.model && !this.modelKnown && this.options.start?.model === undefined) {
      this.startFields.model = fields.model;
      this.modelKnown = true;
    }
    if (fields.model) this.lastModel = fields.model;
    if (fields.cwd && this.startFields.cwd === undefined) this.startFields.cwd = fields.cwd;
    if (fields.startedAt && this.startFields.startedAt === undefined) this.startFields.startedAt = fields.startedAt;
    if (fields.clientVersion && this.startFields.clientVersion === undefined) this.startFields.clientVersion = fields.clientVersion;
    if (fields.parentSession && this.startFields.parentSession === undefined) this.startFields.parentSession = fields.parentSession;
    if (fields.prefixText && this.options.start?.prefixHash === undefined) {
      this.startFields.prefixHash = contentHash(fields.prefixText);
      this.startFields.prefixTokens = this.counter.count(fields.prefixText);
      this.estimateInput(fields.prefixText);
    }
    if (this.modelKnown) this.releaseStart();
  }

  /** The model the latest request used, when the log names it. */
  model(model: string | null | undefined): void {
    if (model) this.meta({ model });
  }

  userMessage(text: string, kind?: UserKind): void {
    this.closeKey();
    // Two messages from the person before the agent answered belong to one reply.
    if (this.assistantInReply) this.closeReply(this.lastAssistantWasText ? "no_tool_call" : "interrupted");
    const resolved = kind ?? (this.userMessages === 0 ? "handoff" : "person");
    this.userMessages += 1;
    this.estimateInput(text);
    this.emit({ t: this.now, type: "user.message", text, kind: resolved });
    this.lastInputT = this.now;
    this.replyOpen = true;
    this.lastAssistantWasText = false;
  }

  private get assistantInReply(): boolean {
    return this.replyOpen && this.assistantActivity;
  }

  /** An assistant text. `final` known (true/false) is used as is; undefined is decided by what follows. */
  text(text: string, final?: boolean): void {
    if (text.length === 0) return;
    this.openReply();
    this.settlePendingText(false);
    this.estimateOutput(text);
    const event: EventOf<"assistant.text"> = { t: this.now, type: "assistant.text", text, final: final ?? false };
    this.lastAssistantWasText = true;
    this.assistantActivity = true;
    if (final === undefined) {
      this.emit(event, true);
      this.pendingText = event;
      return;
    }
    this.emit(event);
    if (final) this.closeReply("no_tool_call");
  }

  toolCall(id: string, name: string, args: Record<string, unknown>): void {
    this.openReply();
    this.settlePendingText(false);
    this.estimateOutput(safeJson(args));
    this.toolStarts.set(id, { t: this.now, name });
    if (this.toolStarts.size > 10_000) {
      const oldest = this.toolStarts.keys().next();
      if (!oldest.done) this.toolStarts.delete(oldest.value);
    }
    this.emit({ t: this.now, type: "tool.call", id, name, arguments: args });
    this.lastAssistantWasText = false;
    this.assistantActivity = true;
  }

  toolResult(
    id: string,
    result: { ok: boolean; output: string; exitCode?: number | null; name?: string; rejected?: boolean; planApproval?: "approved" | "rejected"; durationMs?: number },
  ): void {
    const start = this.toolStarts.get(id);
    this.toolStarts.delete(id);
    this.estimateInput(result.output);
    const event: EventOf<"tool.result"> = {
      t: this.now,
      type: "tool.result",
      id,
      ok: result.ok,
      output: capOutput(result.output, this.outputCap),
    };
    const name = result.name ?? start?.name;
    if (name !== undefined) event.name = name;
    if (result.exitCode !== undefined) event.exitCode = result.exitCode;
    const duration = result.durationMs ?? (start !== undefined ? this.now - start.t : undefined);
    if (duration !== undefined) event.durationMs = Math.max(0, duration);
    if (result.rejected) event.rejected = true;
    if (result.planApproval !== undefined) event.planApproval = result.planApproval;
    this.emit(event);
    this.lastInputT = this.now;
  }

  /**
   * A model request's usage. With a `key`, later snapshots of the same key raise the same event
   * (the largest of each field is kept) instead of adding a request.
   */
  request(usage: UsageSnapshot, options: RequestOptions = {}): void {
    // A request alone does not open a reply: Codex writes the usage of a reply's last request after its final text.
    if (options.model) this.meta({ model: options.model });
    const reasoningReported = usage.reasoning !== null;
    if (options.key !== undefined) {
      const known = this.keyed.get(options.key);
      if (known !== undefined) {
        this.raise(known, usage, reasoningReported, options);
        return;
      }
      this.closeKey();
    }
    this.round += 1;
    this.reportedRequests += 1;
    const event: EventOf<"model.request"> = {
      t: this.now,
      type: "model.request",
      round: this.round,
      input: usage.input,
      cachedInput: usage.cachedInput,
      cacheWrite: usage.cacheWrite,
      output: usage.output,
      reasoning: usage.reasoning ?? 0,
      usageSource: "reported",
      durationMs: Math.max(0, options.durationMs ?? this.now - this.lastInputT),
      purpose: "agent",
    };
    const model = options.model ?? this.lastModel;
    if (model) event.model = model;
    if (options.stop !== undefined) event.stop = options.stop;
    if (options.costUsd !== undefined) event.costUsd = options.costUsd;
    if (usage.cacheWrite1h !== undefined && usage.cacheWrite1h > 0) event.cacheWrite1h = usage.cacheWrite1h;
    if (options.speed) event.speed = options.speed;
    if (options.serviceTier) event.serviceTier = options.serviceTier;
    this.addSums(usage.input, usage.cachedInput, usage.cacheWrite, usage.output, usage.reasoning ?? 0, reasoningReported);
    if (options.key !== undefined) {
      this.keyed.set(options.key, { event, reasoningReported });
      if (this.keyed.size > MAX_KEYS) {
        const oldest = this.keyed.keys().next();
        if (!oldest.done) this.keyed.delete(oldest.value);
      }
      this.emit(event, true);
      this.openKeyed = this.keyed.get(options.key) ?? null;
      return;
    }
    this.emit(event);
  }

  plan(items: EventOf<"plan.update">["items"]): void {
    this.emit({ t: this.now, type: "plan.update", items });
  }

  compaction(tokensBefore: number | null, tokensAfter: number | null): void {
    this.emit({ t: this.now, type: "compaction", tokensBefore, tokensAfter });
  }

  goal(from: string | null, to: string | null, reason: string, by: string): void {
    this.emit({ t: this.now, type: "goal.update", from, to, reason, by });
  }

  subagent(ref: string, toolCalls: number, usage?: RunTotals | null, costUsd?: number | null, model?: string | null): void {
    const event: EventOf<"subagent"> = { t: this.now, type: "subagent", ref, toolCalls };
    if (model) event.model = model;
    if (usage) event.usage = { ...usage, lowerBound: usage.source === "estimated" };
    if (costUsd !== undefined && costUsd !== null) event.costUsd = costUsd;
    this.emit(event);
  }

  /**
   * The client retried a request after an API error: a `model.retry` like our own loop's (ADR 0082),
   * for the next request's round, its cause read from the status or the error text.
   */
  retry(attempt: number, maxAttempts: number | null, delayMs: number | null, error: string, status?: number | null): void {
    const event: EventOf<"model.retry"> = { t: this.now, type: "model.retry", round: this.round + 1, attempt: Math.max(1, attempt), cause: retryCause(status ?? null, error), message: error.slice(0, 300), waitMs: delayMs ?? 0 };
    if (maxAttempts !== null) event.maxAttempts = maxAttempts;
    this.emit(event);
  }

  note(level: "info" | "warning", text: string): void {
    this.emit({ t: this.now, type: "note", level, text });
  }

  /** The log says the reply ended here (a turn completed, an interrupt, an error). */
  replyEnd(reason: ReplyEndReason, errorMessage?: string, durationMs?: number): void {
    if (!this.replyOpen) return;
    this.closeReply(reason, errorMessage, durationMs);
  }

  /** Ends an open reply where the log implies it (the agent went idle), inferring why. */
  settleReply(): void {
    this.closeReply(this.lastAssistantWasText ? "no_tool_call" : "interrupted");
  }

  get isReplyOpen(): boolean {
    return this.replyOpen;
  }

  /** A live driver knows how the run ended (exit, timeout): that status wins over the format's. */
  endWith(end: { status: string; reason?: string }): void {
    this.endOverride = end;
  }

  /** Ends the record. `totals` are the log's own run totals when it states them. */
  finish(end: { status: string; reason?: string; totals?: RunTotals | null; costUsd?: number | null; costIncludesSubagents?: boolean; clientTimes?: EventOf<"run.end">["clientTimes"] }): void {
    if (this.finished) return;
    this.finished = true;
    // A last message the agent never answered leaves its reply open: nothing ended it.
    if (this.assistantInReply) this.closeReply(this.lastAssistantWasText ? "no_tool_call" : "interrupted");
    this.settlePendingText(true);
    this.closeKey();
    this.flushHeld();
    this.releaseStart();
    const status = this.endOverride?.status ?? end.status;
    const reason = this.endOverride !== null ? this.endOverride.reason : end.reason;
    const event: EventOf<"run.end"> = { t: this.now, type: "run.end", status, wallMs: this.now };
    if (reason !== undefined) event.reason = reason;
    const totals = end.totals ?? this.totals();
    if (totals !== null) event.usage = { ...totals, lowerBound: totals.source === "estimated" };
    if (end.costUsd !== undefined && end.costUsd !== null) {
      event.costUsd = end.costUsd;
      if (end.costIncludesSubagents) event.costIncludesSubagents = true;
    }
    if (end.clientTimes !== undefined) event.clientTimes = end.clientTimes;
    this.emit(event);
  }

  /** The run total this builder saw: the sum over requests, or the o200k estimate when none reported usage. */
  totals(): RunTotals | null {
    if (this.reportedRequests > 0) {
      return { ...this.sums, reasoning: this.reasoningReported ? this.sums.reasoning : null, source: "reported" };
    }
    if (this.estimate.input === 0 && this.estimate.output === 0) return null;
    return { input: this.estimate.input, cachedInput: 0, cacheWrite: 0, output: this.estimate.output, reasoning: null, source: "estimated" };
  }

  /** Whether a keyed usage snapshot with this key was counted (sub-agent replay detection). */
  hasUsageKey(key: string): boolean {
    return this.keyed.has(key);
  }

  get hasReportedUsage(): boolean {
    return this.reportedRequests > 0;
  }

  // ---- internals ----

  private raise(known: KeyedUsage, usage: UsageSnapshot, reasoningReported: boolean, options: { durationMs?: number; stop?: string }): void {
    // The kept snapshot is the largest (input + output + cache writes); the run totals follow it.
    // An event already handed on is never changed: only the totals learn of a late, larger snapshot.
    const e = known.event;
    const before = e.input + e.output + (e.cacheWrite ?? 0);
    const after = usage.input + usage.output + usage.cacheWrite;
    const open = this.openKeyed === known;
    if (after > before || (after === before && usage.output > e.output)) {
      this.addSums(usage.input - e.input, usage.cachedInput - e.cachedInput, usage.cacheWrite - (e.cacheWrite ?? 0), usage.output - e.output, (usage.reasoning ?? 0) - e.reasoning, reasoningReported);
      const kept = open ? e : { ...e };
      kept.input = usage.input;
      kept.cachedInput = usage.cachedInput;
      kept.cacheWrite = usage.cacheWrite;
      if (usage.cacheWrite1h !== undefined && usage.cacheWrite1h > 0) kept.cacheWrite1h = usage.cacheWrite1h;
      kept.output = usage.output;
      kept.reasoning = usage.reasoning ?? 0;
      known.event = kept;
    }
    if (!open) return;
    if (options.stop !== undefined) e.stop = options.stop;
    e.durationMs = Math.max(e.durationMs, options.durationMs ?? this.now - this.lastInputT);
  }

  private addSums(input: number, cached: number, cacheWrite: number, output: number, reasoning: number, reasoningReported: boolean): void {
    this.sums.input += input;
    this.sums.cachedInput += cached;
    this.sums.cacheWrite += cacheWrite;
    this.sums.output += output;
    this.sums.reasoning += reasoning;
    if (reasoningReported) this.reasoningReported = true;
  }

  private estimateInput(text: string): void {
    if (this.reportedRequests === 0 && text.length > 0) this.estimate.input += this.counter.count(text);
  }

  private estimateOutput(text: string): void {
    if (this.reportedRequests === 0 && text.length > 0) this.estimate.output += this.counter.count(text);
  }

  private openReply(): void {
    if (!this.replyOpen) {
      this.replyOpen = true;
      this.lastAssistantWasText = false;
    }
  }

  private closeReply(reason: ReplyEndReason, errorMessage?: string, durationMs?: number): void {
    if (!this.replyOpen) {
      this.settlePendingText(reason === "no_tool_call");
      return;
    }
    this.closeKey();
    this.settlePendingText(true);
    const event: EventOf<"reply.end"> = { t: this.now, type: "reply.end", reason };
    if (errorMessage !== undefined) event.errorMessage = errorMessage;
    if (durationMs !== undefined && Number.isFinite(durationMs) && durationMs >= 0) event.durationMs = durationMs;
    this.emit(event);
    this.replyOpen = false;
    this.lastAssistantWasText = false;
    this.assistantActivity = false;
  }

  /** The open usage key takes no more snapshots: hand on what waited for it. */
  private closeKey(): void {
    if (this.openKeyed === null) return;
    this.openKeyed = null;
    this.flushHeld();
  }

  /** Decides the held text (final or not) and hands on everything held behind it. */
  private settlePendingText(final: boolean): void {
    if (this.pendingText === null) return;
    this.pendingText.final = final;
    this.pendingText = null;
    this.flushHeld();
  }

  private flushHeld(): void {
    if (this.held === null || this.pendingText !== null || this.openKeyed !== null) return;
    const held = this.held;
    this.held = null;
    for (const event of held) this.push(event);
  }

  /**
   * Events wait while a text's finality or a keyed request's usage is undecided, so nothing
   * handed on is ever changed afterwards.
   */
  private emit(event: RunEvent, hold = false): void {
    if (this.held !== null) {
      this.held.push(event);
      if (this.held.length > MAX_HELD) {
        this.settlePendingText(false);
        this.closeKey();
      }
      return;
    }
    if (hold) {
      this.held = [event];
      return;
    }
    this.push(event);
  }

  private push(event: RunEvent): void {
    if (this.startQueue !== null) {
      this.startQueue.push(event);
      if (this.startQueue.length > 64) this.releaseStart();
      return;
    }
    this.out.push(event);
  }

  private releaseStart(): void {
    if (this.startEmitted) return;
    this.startEmitted = true;
    const f = this.startFields;
    const start: EventOf<"run.start"> = {
      t: 0,
      type: "run.start",
      arm: f.arm,
      runIndex: f.runIndex,
      seed: f.seed,
      model: f.model,
      testDouble: f.testDouble,
      prefixHash: f.prefixHash,
      prefixTokens: f.prefixTokens,
      source: this.options.source,
    };
    if (f.startedAt !== undefined) start.startedAt = f.startedAt;
    if (f.cwd !== undefined) start.cwd = f.cwd;
    if (f.clientVersion !== undefined) start.clientVersion = f.clientVersion;
    if (f.parentSession !== undefined) start.parentSession = f.parentSession;
    const queued = this.startQueue ?? [];
    this.startQueue = null;
    this.out.push(start);
    for (const event of queued) this.out.push(event);
  }
}

const EMPTY: RunEvent[] = [];

/** The fault cause of a client's retried request, in the agent loop's terms (src/run/models/fault.ts). */
export function retryCause(status: number | null, text: string): string {
  const code = status ?? Number(/\b([1-5]\d\d)\b/.exec(text)?.[1] ?? Number.NaN);
  if (code === 429 || /rate.?limit/i.test(text)) return "model.rate_limited";
  if (code === 408 || /time(d)?.?out/i.test(text)) return "model.timeout";
  if (code >= 500) return "model.http_5xx";
  if (/overloaded/i.test(text)) return "model.http_5xx";
  if (code >= 400) return "model.http_4xx";
  if (/ECONN|ENOTFOUND|network|socket|fetch failed/i.test(text)) return "model.unreachable";
  return "model.error";
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
