/**
 * pi coding agent: the session JSONL (`~/.pi/agent/sessions/--<cwd>--/<ts>_<id>.jsonl`, versions
 * 1–3: v1 has no `version` and no entry ids, v3 is a tree of `id`/`parentId` entries) and the
 * `pi --mode json` event stream. pi normalises usage to Anthropic style for every provider
 * (`input` is the uncached part; `cacheRead`, `cacheWrite` beside it) and records a computed
 * `cost.total` per assistant message, which the record keeps as the log's own cost.
 *
 * A v2/v3 file is a tree (`id`/`parentId`): when it holds several branches, only the branch the
 * session ended on (the last entry and its ancestors) is the session; entries on abandoned
 * branches are left out, counted in one note (the reader finds the branch in a first pass over
 * the ids, import.ts). An extension's `custom_message` (a goal loop's continuation prompt) starts
 * a new round as a `continuation` message.
 */
import type { RecordBuilder, UsageSnapshot } from "../builder.ts";
import { arr, type FormatMapper, type FormatSpec, type MapperContext, num, obj, str, textOf, UnknownTypes } from "../format.ts";

/** Session entry types with nothing the record needs. */
const IGNORED_ENTRY_TYPES = new Set(["thinking_level_change", "branch_summary", "custom", "label", "session_info"]);
/** Message roles that are not the agent's or the person's turn (a person's `!` command, summaries). */
const IGNORED_ROLES = new Set(["bashExecution", "hookMessage", "branchSummary", "compactionSummary"]);
/** `--mode json` events with nothing the record needs beyond what message_end carries. */
const IGNORED_EVENTS = new Set([
  "agent_start",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "auto_compaction_start",
  "compaction_start", // pi ≥ 0.66.1; compaction_end carries the result
  "queue_update",
  "session_info_changed",
  "thinking_level_changed",
  "response",
]);

export function piUsage(u: Record<string, unknown>): UsageSnapshot {
  const uncached = num(u.input);
  const read = num(u.cacheRead);
  const write = num(u.cacheWrite);
  return { input: uncached + read + write, cachedInput: read, cacheWrite: write, output: num(u.output), reasoning: null };
}

/** The message shapes both pi formats share. */
class PiMessages {
  /**
   * An assistant message that ended in an error: the reply ends there unless pi retried it (the next
   * message is the assistant's again, with no user message between). pi keeps the failed message in
   * the session file and takes it out of the model's context before retrying.
   */
  private pendingError: { text: string | undefined; atMs: number | null; attempt: number } | null = null;
  private retries = 0;

  constructor(private readonly b: RecordBuilder, private readonly inferRetries: boolean) {}

  /** The stream says pi is retrying (`auto_retry_start`): the pending error does not end the reply. */
  retrying(): void {
    if (this.pendingError !== null) this.pendingError = { ...this.pendingError, attempt: -1 };
  }

  get hasPendingError(): boolean {
    return this.pendingError !== null && this.pendingError.attempt !== -1;
  }

  /** Ends the reply at a pending error nothing retried (a user message, the end of the log). */
  settleError(): void {
    const pending = this.pendingError;
    this.pendingError = null;
    if (pending !== null && pending.attempt !== -1) this.b.replyEnd("error", pending.text);
  }

  message(message: Record<string, unknown>, entryTime: unknown): void {
    const role = str(message.role) ?? "";
    if (this.pendingError !== null) {
      if (role === "assistant") {
        const pending = this.pendingError;
        this.pendingError = null;
        if (this.inferRetries && pending.attempt !== -1) {
          // The retried request started at message.timestamp; the failed one was written at pending.atMs.
          const started = typeof message.timestamp === "number" ? message.timestamp : null;
          this.retries += 1;
          this.b.retry(pending.attempt, null, started !== null && pending.atMs !== null && started >= pending.atMs ? started - pending.atMs : null, pending.text ?? "");
        }
      } else this.settleError();
    }
    if (role !== "assistant" && role !== "toolResult") this.retries = 0;
    switch (role) {
      case "user":
        this.b.time(entryTime ?? message.timestamp);
        this.b.userMessage(textOf(message.content, ["text"]));
        return;
      case "assistant":
        this.assistant(message, entryTime);
        return;
      case "custom":
        // An extension's message into the model's context (a goal loop's "keep going"): a new round.
        this.b.time(entryTime ?? message.timestamp);
        this.b.userMessage(textOf(message.content, ["text"]), "continuation");
        return;
      case "toolResult":
        this.b.time(entryTime ?? message.timestamp);
        this.b.toolResult(str(message.toolCallId) ?? "", {
          ok: message.isError !== true,
          output: textOf(message.content, ["text"]),
          name: str(message.toolName) ?? undefined,
        });
        return;
      default:
        if (!IGNORED_ROLES.has(role)) this.b.note("info", `pi message role "${role.slice(0, 40)}" skipped`);
    }
  }

  private assistant(message: Record<string, unknown>, entryTime: unknown): void {
    // message.timestamp is when the request started; the entry's timestamp is when it was written.
    const startedMs = typeof message.timestamp === "number" ? message.timestamp : null;
    const endedMs = typeof entryTime === "string" ? Date.parse(entryTime) : null;
    this.b.time(entryTime ?? message.timestamp);
    const model = str(message.model);
    this.b.model(model);
    const usage = obj(message.usage);
    const stop = str(message.stopReason) ?? undefined;
    if (usage !== null) {
      const cost = obj(usage.cost);
      const options: Parameters<RecordBuilder["request"]>[1] = { model, stop };
      if (cost !== null && typeof cost.total === "number") options.costUsd = cost.total;
      if (startedMs !== null && endedMs !== null && Number.isFinite(endedMs) && endedMs >= startedMs) options.durationMs = endedMs - startedMs;
      this.b.request(piUsage(usage), options);
    }
    const blocks = arr(message.content);
    const hasToolCall = blocks.some((c) => obj(c)?.type === "toolCall");
    for (const raw of blocks) {
      const block = obj(raw);
      if (block === null) continue;
      if (block.type === "text") this.b.text(str(block.text) ?? "", hasToolCall ? false : stop === "stop" ? true : undefined);
      else if (block.type === "toolCall") this.b.toolCall(str(block.id) ?? "", str(block.name) ?? "tool", obj(block.arguments) ?? {});
    }
    if (stop === "aborted") this.b.replyEnd("interrupted");
    else if (stop === "error") {
      const written = typeof entryTime === "string" ? Date.parse(entryTime) : typeof message.timestamp === "number" ? message.timestamp : Number.NaN;
      this.pendingError = { text: str(message.errorMessage) ?? undefined, atMs: Number.isFinite(written) ? written : null, attempt: this.retries + 1 };
    }
    else if (stop === "stop" && !hasToolCall) this.b.replyEnd("no_tool_call");
  }
}

class PiSessionMapper implements FormatMapper {
  private readonly unknown: UnknownTypes;
  private readonly messages: PiMessages;

  constructor(private readonly b: RecordBuilder, private readonly context: MapperContext) {
    this.unknown = new UnknownTypes(context, "pi session entry type");
    this.messages = new PiMessages(b, true);
  }

  private offBranch = 0;

  line(value: Record<string, unknown>, lineNo: number): void {
    const type = str(value.type) ?? "";
    const id = str(value.id);
    if (type !== "session" && id !== null && this.context.onActiveBranch !== undefined && !this.context.onActiveBranch(id)) {
      this.offBranch += 1;
      return;
    }
    switch (type) {
      case "custom_message":
        this.b.time(value.timestamp);
        this.b.userMessage(textOf(value.content, ["text"]), "continuation");
        return;
      case "session":
        // The header's timestamp can be later than its first entries (a branched session): not a clock.
        this.b.meta({ cwd: str(value.cwd), startedAt: str(value.timestamp), model: str(value.modelId) });
        return;
      case "message":
        this.messages.message(obj(value.message) ?? {}, value.timestamp);
        return;
      case "compaction":
        this.b.time(value.timestamp);
        this.b.compaction(typeof value.tokensBefore === "number" ? value.tokensBefore : null, null);
        return;
      case "model_change":
        this.b.time(value.timestamp);
        this.b.model(str(value.modelId));
        return;
      default:
        if (!IGNORED_ENTRY_TYPES.has(type)) this.unknown.add(type, lineNo);
    }
  }

  end(): void {
    this.messages.settleError();
    this.unknown.finish();
    if (this.offBranch > 0) this.b.note("info", `${this.offBranch} entries on abandoned branches of the session tree left out (the session is the branch it ended on)`);
    this.b.finish({ status: "imported" });
  }
}

class PiJsonMapper implements FormatMapper {
  private readonly unknown: UnknownTypes;
  private readonly messages: PiMessages;

  constructor(private readonly b: RecordBuilder, context: MapperContext) {
    this.unknown = new UnknownTypes(context, "pi json event type");
    this.messages = new PiMessages(b, false);
  }

  /** pi writes agent_end before auto_retry_start: after a failed request, the reply's end waits one event. */
  private endAfterError = false;

  line(value: Record<string, unknown>, lineNo: number): void {
    const type = str(value.type) ?? "";
    if (this.endAfterError) {
      this.endAfterError = false;
      if (type !== "auto_retry_start") {
        this.messages.settleError();
        this.b.settleReply();
      }
    }
    switch (type) {
      case "session":
        this.b.meta({ cwd: str(value.cwd), startedAt: str(value.timestamp), model: str(value.modelId) });
        return;
      case "message_end":
        this.messages.message(obj(value.message) ?? {}, undefined);
        return;
      case "auto_compaction_end": // pi < 0.66.1
      case "compaction_end": {
        // {reason, result{tokensBefore…}, aborted, willRetry, errorMessage?}: an aborted or failed one compacted nothing.
        const result = obj(value.result);
        if (value.aborted === true || (result === null && typeof value.errorMessage === "string")) {
          this.b.note("info", `line ${lineNo}: compaction ${value.aborted === true ? "aborted" : `failed: ${String(value.errorMessage).slice(0, 200)}`}${value.willRetry === true ? " (pi will retry)" : ""}`);
          return;
        }
        this.b.compaction(typeof result?.tokensBefore === "number" ? result.tokensBefore : null, null);
        return;
      }
      case "auto_retry_start":
        // {attempt, maxAttempts, delayMs, errorMessage}
        this.messages.retrying();
        this.b.retry(
          typeof value.attempt === "number" ? Math.max(0, Math.floor(value.attempt)) : 0,
          typeof value.maxAttempts === "number" ? Math.max(0, Math.floor(value.maxAttempts)) : null,
          typeof value.delayMs === "number" && value.delayMs >= 0 ? value.delayMs : null,
          str(value.errorMessage) ?? "",
        );
        return;
      case "auto_retry_end":
        if (value.success !== true) this.b.note("warning", `line ${lineNo}: pi gave up retrying after attempt ${String(value.attempt)}: ${(str(value.finalError) ?? "").slice(0, 300)}`);
        return;
      case "agent_end":
        if (this.messages.hasPendingError) {
          this.endAfterError = true;
          return;
        }
        this.b.settleReply();
        return;
      default:
        if (!IGNORED_EVENTS.has(type)) this.unknown.add(type, lineNo);
    }
  }

  end(): void {
    this.endAfterError = false;
    this.messages.settleError();
    this.unknown.finish();
    this.b.finish({ status: "imported" });
  }
}

function isPiHeader(o: Record<string, unknown>): boolean {
  return o.type === "session" && typeof o.cwd === "string" && !("payload" in o);
}

/** pi writes each entry as `{"type":…,"id":…,"parentId":…` first: read those without parsing the line. */
const TREE_HEAD = /^\{"type":"[^"]*","id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)")/;

export function piTreeEntry(line: string): { id: string; parentId: string | null } | null {
  const m = TREE_HEAD.exec(line);
  if (m !== null) return { id: m[1] as string, parentId: m[2] ?? null };
  if (!line.includes('"parentId"')) return null;
  try {
    const o = obj(JSON.parse(line));
    const id = str(o?.id);
    if (o === null || id === null || !("parentId" in o)) return null;
    return { id, parentId: str(o.parentId) };
  } catch {
    return null;
  }
}

export const piSession: FormatSpec = {
  name: "pi",
  treeEntry: piTreeEntry,
  source: "pi",
  title: "pi session JSONL, versions 1–3 (~/.pi/agent/sessions/…)",
  promptInStream: true,
  detect(first) {
    const header = first.find(isPiHeader);
    const entry = first.find((o) => typeof o.type === "string" && ["message", "model_change", "thinking_level_change", "compaction"].includes(o.type));
    if (header !== undefined && first.some((o) => typeof o.type === "string" && ["agent_start", "turn_start", "message_start", "message_end"].includes(o.type))) return null;
    if (header !== undefined) return `a "session" header (version ${typeof header.version === "number" ? header.version : 1})`;
    const message = obj(entry?.message);
    return entry !== undefined && (entry.type !== "message" || (message !== null && "role" in message && !("uuid" in entry))) ? `a "${String(entry.type)}" entry` : null;
  },
  create: (builder, context) => new PiSessionMapper(builder, context),
};

export const piJson: FormatSpec = {
  name: "pi-json",
  source: "pi",
  title: "pi --mode json events",
  promptInStream: true,
  detect(first) {
    const hit = first.find((o) => typeof o.type === "string" && ["agent_start", "turn_start", "message_start", "message_end", "message_update"].includes(o.type));
    return hit ? `an "${String(hit.type)}" event` : null;
  },
  create: (builder, context) => new PiJsonMapper(builder, context),
};
