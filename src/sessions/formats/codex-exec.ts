/**
 * `codex exec --json` events: `thread.started`, `turn.started`, `item.started` / `item.updated` /
 * `item.completed` (agent_message, reasoning, command_execution, file_change, mcp_tool_call,
 * collab_tool_call, web_search, todo_list, error), `turn.completed {usage}`, `turn.failed`, `error`.
 * `turn.completed.usage` is the thread's cumulative total, so each turn's request is the
 * difference from the previous total. The prompt is not in the stream (a driver adds it).
 * Lines have no timestamps: a driver times them by its clock; a file import sees t = 0 throughout.
 */
import type { RecordBuilder } from "../builder.ts";
import { arr, type FormatMapper, type FormatSpec, type MapperContext, obj, str, UnknownTypes } from "../format.ts";
import { codexUsage, CumulativeUsage } from "./codex.ts";

/** Item types that are tool calls: the tool name and the arguments to record. */
const TOOL_ITEMS: Record<string, (item: Record<string, unknown>) => { name: string; args: Record<string, unknown> }> = {
  command_execution: (i) => ({ name: "command_execution", args: { command: i.command ?? "" } }),
  file_change: (i) => ({ name: "file_change", args: { changes: i.changes ?? [] } }),
  mcp_tool_call: (i) => ({ name: `mcp:${str(i.server) ?? "?"}/${str(i.tool) ?? "?"}`, args: obj(i.arguments) ?? {} }),
  collab_tool_call: (i) => ({ name: `collab:${str(i.tool) ?? "?"}`, args: { prompt: i.prompt ?? null } }),
  web_search: (i) => ({ name: "web_search", args: { query: i.query ?? "" } }),
};

const KNOWN_TYPES = new Set(["thread.started", "turn.started", "item.started", "item.updated", "item.completed", "turn.completed", "turn.failed", "error"]);

function todoStatus(completed: unknown): "completed" | "pending" {
  return completed === true ? "completed" : "pending";
}

class CodexExecMapper implements FormatMapper {
  private readonly unknown: UnknownTypes;
  private readonly usage = new CumulativeUsage();
  private readonly started = new Set<string>();

  constructor(private readonly b: RecordBuilder, context: MapperContext) {
    this.unknown = new UnknownTypes(context, "codex exec event type");
  }

  line(value: Record<string, unknown>, lineNo: number): void {
    const type = str(value.type) ?? "";
    this.b.time(undefined);
    switch (type) {
      case "thread.started":
        this.b.meta({});
        return;
      case "turn.started":
        return;
      case "item.started":
      case "item.updated":
      case "item.completed":
        this.item(obj(value.item) ?? {}, type === "item.completed", lineNo);
        return;
      case "turn.completed": {
        const delta = this.usage.next(codexUsage(obj(value.usage) ?? {}));
        if (delta !== null) this.b.request(delta);
        this.b.replyEnd("no_tool_call");
        return;
      }
      case "turn.failed": {
        const message = str(obj(value.error)?.message) ?? "turn failed";
        this.b.replyEnd(/usage limit/i.test(message) ? "usage_limit" : "error", message);
        return;
      }
      case "error":
        this.b.note("warning", `line ${lineNo}: codex reported an error: ${(str(value.message) ?? "").slice(0, 300)}`);
        return;
      default:
        if (!KNOWN_TYPES.has(type)) this.unknown.add(type, lineNo);
    }
  }

  private item(item: Record<string, unknown>, completed: boolean, lineNo: number): void {
    const type = str(item.type) ?? "";
    const id = str(item.id) ?? `line-${lineNo}`;
    const tool = TOOL_ITEMS[type];
    if (tool !== undefined) {
      if (!this.started.has(id)) {
        this.started.add(id);
        const { name, args } = tool(item);
        this.b.toolCall(id, name, args);
      }
      if (completed) {
        this.started.delete(id);
        const exitCode = typeof item.exit_code === "number" ? item.exit_code : null;
        const status = str(item.status);
        const ok = status === "failed" || status === "declined" ? false : exitCode === null ? true : exitCode === 0;
        const output = str(item.aggregated_output) ?? str(obj(item.result)?.content) ?? (item.error !== undefined ? JSON.stringify(item.error) : "");
        this.b.toolResult(id, { ok, output, exitCode, rejected: status === "declined" ? true : undefined });
      }
      return;
    }
    if (!completed) return;
    switch (type) {
      case "agent_message":
        this.b.text(str(item.text) ?? "");
        return;
      case "reasoning":
        return;
      case "todo_list":
        this.b.plan(arr(item.items).map((raw) => {
          const t = obj(raw) ?? {};
          return { text: str(t.text) ?? "", status: todoStatus(t.completed) };
        }));
        return;
      case "error":
        this.b.note("warning", `line ${lineNo}: codex item error: ${(str(item.message) ?? "").slice(0, 300)}`);
        return;
      default:
        this.unknown.add(`item/${type}`, lineNo);
    }
  }

  end(): void {
    this.unknown.finish();
    this.b.finish({ status: "imported" });
  }
}

export const codexExec: FormatSpec = {
  name: "codex-exec",
  source: "codex",
  title: "codex exec --json events",
  promptInStream: false,
  detect(first) {
    const hit = first.find((o) => typeof o.type === "string" && (o.type === "thread.started" || o.type === "turn.started" || o.type.startsWith("item.")));
    return hit ? `a "${String(hit.type)}" event` : null;
  },
  create: (builder, context) => new CodexExecMapper(builder, context),
};
