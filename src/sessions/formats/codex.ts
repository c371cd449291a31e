/**
 * Codex rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
 * `{timestamp, type, payload}` per line. Tool calls are `response_item`s; usage is the cumulative
 * `total_token_usage` of `event_msg` token_count, so each request is the difference between two
 * totals and the run total is the last one (a sum of the per-request figures would double-count
 * repeated token_count lines). A total that goes down means the log restarted (a resumed or
 * concatenated session): the new total counts from zero.
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
const IGNORED_LINE_TYPES = new Set(["world_state", "inter_agent_communication", "inter_agent_communication_metadata", "token_usage_record"]);
const IGNORED_RESPONSE_ITEMS = new Set(["reasoning", "ghost_snapshot", "compaction_summary"]);
const IGNORED_EVENT_MSGS = new Set([
  "agent_message", // duplicated by the response_item message
  "agent_reasoning",
  "agent_reasoning_raw_content",
  "exec_command_begin",
  "exec_command_end", // duplicated by function_call_output
  "patch_apply_begin",
  "patch_apply_end",
  "web_search_begin",
  "web_search_end",
  "mcp_tool_call_begin",
  "mcp_tool_call_end",
  "item_started",
  "item_completed", // paginated history: duplicates of response_items
  "thread_settings_applied",
  "task_started",
  "turn_started",
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

class CodexRolloutMapper implements FormatMapper {
  private readonly unknown: UnknownTypes;
  private readonly usage = new CumulativeUsage();
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
    this.b.time(value.timestamp);
    switch (type) {
      case "session_meta": {
        const instructions = obj(payload.base_instructions);
        this.b.meta({
          cwd: str(payload.cwd),
          startedAt: str(payload.timestamp) ?? str(value.timestamp),
          prefixText: str(instructions?.text) ?? str(payload.instructions),
        });
        return;
      }
      case "turn_context":
        this.model = str(payload.model) ?? this.model;
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

  private user(text: string): void {
    if (text.trim().length === 0) return;
    if (CONTEXT_PREFIXES.some((p) => text.startsWith(p))) return;
    // The legacy history has the prompt twice (response_item and event_msg user_message).
    if (text === this.lastUserText && !this.assistantSinceUser) return;
    const kind = CONTINUATION_PREFIXES.some((p) => text.startsWith(p)) ? "continuation" : undefined;
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
      const exitCode = exitCodeOf(typeof p.output === "string" ? p.output : text);
      this.b.toolResult(str(p.call_id) ?? `line-${lineNo}`, { ok: exitCode === null ? true : exitCode === 0, output: text, exitCode });
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
        if (delta !== null) this.b.request(delta, { model: this.model });
        return;
      }
      case "task_complete":
        this.b.replyEnd("no_tool_call");
        return;
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

  end(): void {
    this.unknown.finish();
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
