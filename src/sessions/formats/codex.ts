/**
 * Codex rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
 * `{timestamp, type, payload}` per line. Tool calls are `response_item`s; usage is the cumulative
 * `total_token_usage` of `event_msg` token_count, so each request is the difference between two
 * totals and the run total is the last one (a sum of the per-request figures would double-count
 * repeated token_count lines). A total that goes down means the log restarted (a resumed or
 * concatenated session): the new total counts from zero.
 *
 * Codex ≥ 0.16x also writes a `token_usage_record` per response (its own `usage`, its
 * `thread_id`): when a file has them they are the requests, and `token_count` only tracks the
 * context size.
 *
 * A forked or sub-agent rollout starts with its own `session_meta` and then replays the parent's
 * history (a second `session_meta`, the parent's turns and its cumulative totals). The replayed
 * lines are not this session's: they are skipped, and the cumulative totals count from the last
 * replayed one. The replay ends at the first turn that started after this session did (turn and
 * thread ids are time-ordered UUIDv7s).
 */
import type { RecordBuilder, UsageSnapshot } from "../builder.ts";
import { type FormatMapper, type FormatSpec, type MapperContext, num, obj, parseArgs, str, textOf, UnknownTypes } from "../format.ts";

/** `response_item` payload types that are tool calls, and the tool name to record for each. */
const TOOL_CALL_TYPES: Record<string, (p: Record<string, unknown>) => { name: string; args: Record<string, unknown> }> = {
  function_call: (p) => ({ name: str(p.name) ?? "function", args: parseArgs(p.arguments) }),
  custom_tool_call: (p) => ({ name: str(p.name) ?? "custom_tool", args: { input: p.input ?? "" } }),
  local_shell_call: (p) => ({ name: "local_shell", args: { command: obj(p.action)?.command ?? null } }),
  web_search_call: (p) => ({ name: "web_search", args: obj(p.action) ?? {} }),
  tool_search_call: (p) => ({ name: "tool_search", args: parseArgs(p.arguments ?? p.action) }),
};

const TOOL_OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output", "local_shell_call_output", "tool_search_call_output"]);

/** Line types and event_msg types that carry nothing the record needs (duplicates or UI state). */
const IGNORED_LINE_TYPES = new Set(["world_state", "inter_agent_communication", "inter_agent_communication_metadata", "realtime_item", "id_allocation", "replacement_history", "replacement_history_metadata", "dynamic_tools_updated"]);
const IGNORED_RESPONSE_ITEMS = new Set(["reasoning", "ghost_snapshot", "compaction_summary"]);
const IGNORED_EVENT_MSGS = new Set([
  "agent_message", // duplicated by the response_item message
  "agent_reasoning",
  "agent_reasoning_raw_content",
  "exec_command_begin",
  "patch_apply_begin",
  "patch_apply_end",
  "web_search_begin",
  "web_search_end",
  "mcp_tool_call_begin",
  "mcp_tool_call_end",
  "item_started",
  "thread_settings_applied",
  "turn_started",
  "collab_agent_spawn_begin",
  "collab_agent_interaction_begin",
  "collab_agent_interaction_end",
  "collab_waiting_begin",
  "collab_waiting_end",
  "collab_close_begin",
  "collab_close_end",
  "collab_resume_begin",
  "collab_resume_end",
  "model_verification",
  "turn_moderation_metadata",
  "safety_buffering",
  "token_usage_record",
  "context_compacted", // the `compacted` line is counted instead
  "entered_review_mode",
  "exited_review_mode",
  "plan_update",
  "view_image_tool_call",
  "background_event",
  "stream_error",
  "warning",
]);

/** A user-role message that is harness context, not something the person typed. */
const CONTEXT_PREFIXES = ["# AGENTS.md instructions", "<environment_context", "<user_instructions", "<permissions", "<user_shell_command", "<turn_aborted", "<skills_instructions", "<collaboration_mode", "<plugins_instructions"];
const CONTINUATION_PREFIXES = ['<codex_internal_context source="goal"', "<goal_context"];
/** `turn_attribution.turn_trigger` values that mean a person (or the exec prompt) started the turn. */
const PERSON_TRIGGERS = new Set(["user", "exec", "cli", "user_input", "person"]);

function exitCodeOf(output: string): number | null {
  const m = /Process exited with code (-?\d+)/.exec(output.slice(0, 400));
  if (m) return Number(m[1]);
  if (output.startsWith("{")) {
    try {
      const parsed = obj(JSON.parse(output));
      const meta = obj(parsed?.metadata);
      if (meta !== null && typeof meta.exit_code === "number") return meta.exit_code;
    } catch {
      // not JSON: no exit code
    }
  }
  return null;
}

function outputText(output: unknown): string {
  if (typeof output === "string") {
    if (output.startsWith('{"output"')) {
      try {
        const parsed = obj(JSON.parse(output));
        const text = str(parsed?.output);
        if (text !== null) return text;
      } catch {
        // keep as is
      }
    }
    return output;
  }
  const o = obj(output);
  if (o !== null) return str(o.content) ?? textOf(o.content) ?? JSON.stringify(output);
  return textOf(output);
}

export function codexUsage(u: Record<string, unknown>): UsageSnapshot {
  return {
    input: num(u.input_tokens),
    cachedInput: num(u.cached_input_tokens),
    cacheWrite: num(u.cache_write_input_tokens),
    output: num(u.output_tokens),
    reasoning: num(u.reasoning_output_tokens),
  };
}

/** Turns a series of cumulative totals into per-request deltas that add up to the last total. */
export class CumulativeUsage {
  private last: UsageSnapshot | null = null;

  /** The delta since the previous total, or null when nothing changed (a repeated total). */
  next(total: UsageSnapshot): UsageSnapshot | null {
    const prev = this.last;
    this.last = total;
    if (prev === null) return total;
    const d = {
      input: total.input - prev.input,
      cachedInput: total.cachedInput - prev.cachedInput,
      cacheWrite: total.cacheWrite - prev.cacheWrite,
      output: total.output - prev.output,
      reasoning: (total.reasoning ?? 0) - (prev.reasoning ?? 0),
    };
    if (d.input < 0 || d.output < 0 || d.cachedInput < 0 || d.cacheWrite < 0 || d.reasoning < 0) return total; // restarted
    if (d.input === 0 && d.output === 0 && d.cachedInput === 0 && d.cacheWrite === 0) return null;
    return d;
  }
}

/** UUIDv7 text (version nibble 7): its first 48 bits are a millisecond time, so such ids sort by time. */
function isUuidV7(id: string | null): id is string {
  return id !== null && /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/i.test(id);
}

/** The parent thread a rollout was spawned or forked from, wherever its session_meta names it. */
function parentOf(payload: Record<string, unknown>): string | null {
  const source = obj(payload.source);
  const spawn = obj(obj(source?.subagent)?.thread_spawn);
  return str(spawn?.parent_thread_id) ?? str(payload.parent_thread_id) ?? str(payload.forked_from_id);
}

/** Seconds + nanoseconds (Rust Duration) or milliseconds, as milliseconds. */
function durationMs(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  const d = obj(value);
  if (d === null) return null;
  const ms = num(d.secs) * 1000 + num(d.nanos) / 1e6;
  return Number.isFinite(ms) ? ms : null;
}

class CodexRolloutMapper implements FormatMapper {
  private readonly unknown: UnknownTypes;
  private readonly usage = new CumulativeUsage();
  /** This rollout's own thread id (the first session_meta). */
  private ownId: string | null = null;
  /** Between a second session_meta and this session's first own turn: the parent's history. */
  private replaying = false;
  private replayedLines = 0;
  private perResponse = false;
  /** The trigger of the current turn (`turn_attribution.turn_trigger`). */
  private trigger: string | null = null;
  /** Exit codes and durations of commands, by call id, from the command events before the output. */
  private readonly commands = new Map<string, { exitCode: number | null; durationMs: number | null }>();
  private lastUserText: string | null = null;
  private assistantSinceUser = false;
  private lastContext = 0;
  private model: string | null = null;
  private goalStatus: string | null = null;

  constructor(private readonly b: RecordBuilder, context: MapperContext) {
    this.unknown = new UnknownTypes(context, "Codex rollout line type");
  }

  line(value: Record<string, unknown>, lineNo: number): void {
    const type = str(value.type) ?? "";
    const payload = obj(value.payload) ?? {};
    if (type === "session_meta") {
      this.sessionMeta(payload, value.timestamp);
      return;
    }
    if (this.replaying) {
      if (!this.ownTurnStarts(type, payload)) {
        this.replayed(type, payload);
        return;
      }
      this.replaying = false;
      this.b.note("info", `line ${lineNo}: ${this.replayedLines} lines replayed from the parent thread left out (this session starts here)`);
    }
    this.b.time(value.timestamp);
    switch (type) {
      case "token_usage_record":
        this.usageRecord(payload);
        return;
      case "turn_context":
        this.model = str(payload.model) ?? this.model;
        this.trigger = str(obj(payload.turn_attribution)?.turn_trigger) ?? this.trigger;
        this.b.meta({ model: this.model, cwd: str(payload.cwd) });
        return;
      case "response_item":
        this.responseItem(payload, lineNo);
        return;
      case "event_msg":
        this.eventMsg(payload, lineNo);
        return;
      case "compacted":
        this.b.compaction(this.lastContext > 0 ? this.lastContext : null, null);
        return;
      default:
        if (IGNORED_LINE_TYPES.has(type)) return;
        this.unknown.add(type, lineNo);
    }
  }

  private sessionMeta(payload: Record<string, unknown>, stamp: unknown): void {
    const id = str(payload.id);
    if (this.ownId === null) {
      this.ownId = id ?? "";
      this.b.time(stamp);
      const instructions = obj(payload.base_instructions);
      this.b.meta({
        cwd: str(payload.cwd),
        startedAt: str(payload.timestamp) ?? str(stamp),
        prefixText: str(instructions?.text) ?? str(payload.instructions),
        clientVersion: str(payload.cli_version),
        parentSession: parentOf(payload),
      });
      return;
    }
    // A second session_meta of another thread: the parent's history follows.
    if (id !== null && id !== this.ownId) {
      if (isUuidV7(this.ownId)) {
        this.replaying = true;
        this.replayedLines += 1;
      }
      else this.b.note("warning", "a forked rollout whose ids are not time-ordered: the parent's replayed lines cannot be told apart and are counted");
    }
  }

  /** The first line of this session's own first turn (its turn id is newer than the session). */
  private ownTurnStarts(type: string, payload: Record<string, unknown>): boolean {
    const turn = type === "turn_context" ? str(payload.turn_id) : type === "event_msg" && (payload.type === "task_started" || payload.type === "turn_started") ? str(payload.turn_id) : null;
    return isUuidV7(turn) && this.ownId !== null && turn.toLowerCase() > this.ownId.toLowerCase();
  }

  /** A replayed line: only the parent's cumulative total is kept, as the base this session counts from. */
  private replayed(type: string, payload: Record<string, unknown>): void {
    this.replayedLines += 1;
    if (type === "event_msg" && payload.type === "token_count") {
      const total = obj(obj(payload.info)?.total_token_usage);
      if (total !== null) this.usage.next(codexUsage(total));
    } else if (type === "turn_context") this.model = str(payload.model) ?? this.model;
  }

  /** One response's own usage (Codex ≥ 0.16x), counted when it is this thread's. */
  private usageRecord(payload: Record<string, unknown>): void {
    const usage = obj(payload.usage);
    const thread = str(payload.thread_id);
    if (usage === null || (thread !== null && this.ownId !== null && this.ownId !== "" && thread !== this.ownId)) return;
    this.perResponse = true;
    const response = str(payload.response_id);
    this.b.request(codexUsage(usage), { model: this.model, ...(response !== null ? { key: `response:${response}` } : {}) });
  }

  private user(text: string): void {
    if (text.trim().length === 0) return;
    if (CONTEXT_PREFIXES.some((p) => text.startsWith(p))) return;
    // The legacy history has the prompt twice (response_item and event_msg user_message).
    if (text === this.lastUserText && !this.assistantSinceUser) return;
    // A turn the person did not start (a goal loop, another agent) opens with a continuation.
    const byTrigger = this.trigger !== null && !PERSON_TRIGGERS.has(this.trigger);
    const kind = byTrigger || CONTINUATION_PREFIXES.some((p) => text.startsWith(p)) ? "continuation" : undefined;
    this.b.userMessage(text, kind);
    this.lastUserText = text;
    this.assistantSinceUser = false;
  }

  private responseItem(p: Record<string, unknown>, lineNo: number): void {
    const type = str(p.type) ?? "";
    const call = TOOL_CALL_TYPES[type];
    if (call !== undefined) {
      const { name, args } = call(p);
      const id = str(p.call_id) ?? str(p.id) ?? `line-${lineNo}`;
      this.b.toolCall(id, name, args);
      this.assistantSinceUser = true;
      // Calls that carry no separate output line are complete as they stand.
      if (type === "web_search_call") this.b.toolResult(id, { ok: str(p.status) !== "failed", output: "" });
      return;
    }
    if (TOOL_OUTPUT_TYPES.has(type)) {
      const text = outputText(p.output);
      const id = str(p.call_id) ?? `line-${lineNo}`;
      const command = this.commands.get(id);
      this.commands.delete(id);
      const exitCode = command?.exitCode ?? exitCodeOf(typeof p.output === "string" ? p.output : text);
      const result: Parameters<RecordBuilder["toolResult"]>[1] = { ok: exitCode === null ? true : exitCode === 0, output: text, exitCode };
      if (command?.durationMs !== undefined && command.durationMs !== null) result.durationMs = command.durationMs;
      this.b.toolResult(id, result);
      return;
    }
    if (type === "message") {
      const role = str(p.role);
      const text = textOf(p.content);
      if (role === "user") this.user(text);
      else if (role === "assistant") {
        this.assistantSinceUser = true;
        const phase = str(p.phase);
        this.b.text(text, phase === "final_answer" ? true : undefined);
      }
      return;
    }
    if (IGNORED_RESPONSE_ITEMS.has(type)) return;
    this.unknown.add(`response_item/${type}`, lineNo);
  }

  private eventMsg(p: Record<string, unknown>, lineNo: number): void {
    const type = str(p.type) ?? "";
    switch (type) {
      case "user_message":
        this.user(str(p.message) ?? "");
        return;
      case "token_count": {
        const info = obj(p.info);
        const total = obj(info?.total_token_usage);
        if (total === null) return; // rate-limit only
        const last = obj(info?.last_token_usage);
        if (last !== null) this.lastContext = num(last.input_tokens);
        const delta = this.usage.next(codexUsage(total));
        if (delta !== null && !this.perResponse) this.b.request(delta, { model: this.model });
        return;
      }
      case "task_started":
        this.trigger = str(obj(p.turn_attribution)?.turn_trigger);
        return;
      case "task_complete":
        this.b.replyEnd("no_tool_call", undefined, typeof p.duration_ms === "number" ? p.duration_ms : undefined);
        return;
      case "exec_command_end":
        this.command(str(p.call_id), p.exit_code, p.duration);
        return;
      case "item_completed": {
        // Paginated history: the items duplicate the response_items, except a command's exit code and time.
        const item = obj(p.item);
        if (item?.type === "CommandExecution") this.command(str(item.id), item.exit_code, item.duration);
        return;
      }
      case "model_reroute": {
        const to = str(p.to_model);
        this.b.note("info", `line ${lineNo}: the model was rerouted from ${str(p.from_model) ?? "?"} to ${to ?? "?"}${str(p.reason) ? ` (${str(p.reason)})` : ""}`);
        if (to !== null) {
          this.model = to;
          this.b.model(to);
        }
        return;
      }
      case "thread_rolled_back":
        this.b.note("warning", `line ${lineNo}: the thread was rolled back ${typeof p.num_turns === "number" ? `${p.num_turns} turn(s)` : ""}; the rolled-back turns stay counted (they ran)`);
        return;
      case "collab_agent_spawn_end": {
        const child = str(p.new_thread_id);
        if (child !== null) this.b.subagent(`thread:${child}`, 0);
        return;
      }
      case "turn_aborted":
        this.b.replyEnd("interrupted", str(p.reason) ?? undefined);
        return;
      case "error":
        this.b.note("warning", `line ${lineNo}: the agent reported an error: ${(str(p.message) ?? "").slice(0, 300)}`);
        return;
      case "thread_goal_updated": {
        const goal = obj(p.goal);
        const status = str(goal?.status);
        this.b.goal(this.goalStatus, status, str(p.reason) ?? "", "log");
        this.goalStatus = status;
        return;
      }
      default:
        if (IGNORED_EVENT_MSGS.has(type)) return;
        this.unknown.add(`event_msg/${type}`, lineNo);
    }
  }

  private command(id: string | null, exitCode: unknown, duration: unknown): void {
    if (id === null) return;
    this.commands.set(id, { exitCode: typeof exitCode === "number" && Number.isInteger(exitCode) ? exitCode : null, durationMs: durationMs(duration) });
    if (this.commands.size > 10_000) {
      const oldest = this.commands.keys().next();
      if (!oldest.done) this.commands.delete(oldest.value);
    }
  }

  end(): void {
    this.unknown.finish();
    if (this.replaying) this.b.note("info", `${this.replayedLines} lines replayed from the parent thread left out; no turn of this session's own followed`);
    this.b.finish({ status: "imported" });
  }
}

export const codexRollout: FormatSpec = {
  name: "codex",
  source: "codex",
  title: "Codex rollout JSONL (~/.codex/sessions/…/rollout-*.jsonl)",
  promptInStream: true,
  detect(first) {
    const hit = first.find((o) => typeof o.type === "string" && ["session_meta", "response_item", "event_msg", "turn_context"].includes(o.type) && obj(o.payload) !== null);
    return hit ? `a "${String(hit.type)}" line with a payload` : null;
  },
  create: (builder, context) => new CodexRolloutMapper(builder, context),
};
