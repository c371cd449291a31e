/**
 * The paths the real fixtures do not reach, each in a few hand-written lines shaped like the
 * documented formats (shared/research/session-formats.md): compactions, aborted turns, goal
 * continuations, usage limits, error results, repeated cumulative totals.
 */
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/run/record.ts";
import type { SessionFormat } from "../../src/sessions/format.ts";
import { openSession } from "../../src/sessions/import.ts";

async function read(format: SessionFormat, lines: unknown[]): Promise<RunEvent[]> {
  async function* source() {
    yield `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
  }
  const session = await openSession(source(), { format });
  const out: RunEvent[] = [];
  for await (const e of session.events) out.push(e);
  return out;
}

/** Each event as a short tag, so a whole sequence can be compared at once. */
function tags(events: RunEvent[]): string[] {
  return events.map((e) => {
    switch (e.type) {
      case "user.message":
        return `user:${e.kind}:${e.text}`;
      case "assistant.text":
        return `text${e.final ? "(final)" : ""}:${e.text}`;
      case "tool.call":
        return `call:${e.name}`;
      case "tool.result":
        return `result:${e.ok ? "ok" : "fail"}`;
      case "model.request":
        return `request:${e.input}/${e.cachedInput}/${e.output}`;
      case "reply.end":
        return `end:${e.reason}`;
      case "compaction":
        return `compaction:${e.tokensBefore}`;
      case "goal.update":
        return `goal:${e.from}->${e.to}`;
      case "run.end":
        return `run.end:${e.status}:${e.usage?.input ?? "-"}/${e.usage?.output ?? "-"}`;
      case "note":
        return `note:${e.text}`;
      default:
        return e.type;
    }
  });
}

const ts = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, "0")}Z`;
const codex = (s: number, type: string, payload: Record<string, unknown>) => ({ timestamp: ts(s), type, payload });
const total = (input: number, output: number) => ({ type: "token_count", info: { total_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output }, last_token_usage: { input_tokens: input } } });

describe("format edge cases", () => {
  it("Codex rollout: a repeated total adds nothing, compaction, an aborted turn, a goal continuation, a restart of the count", async () => {
    const events = await read("codex", [
      codex(0, "session_meta", { id: "x", cwd: "/w" }),
      codex(0, "turn_context", { model: "gpt-5" }),
      codex(1, "event_msg", { type: "user_message", message: "fix it" }),
      codex(2, "response_item", { type: "function_call", name: "exec_command", arguments: '{"cmd":"ls"}', call_id: "c1" }),
      codex(3, "event_msg", total(100, 10)),
      codex(3, "event_msg", total(100, 10)),
      codex(4, "response_item", { type: "function_call_output", call_id: "c1", output: "Process exited with code 2\nOutput:\nno" }),
      codex(5, "compacted", { message: "summary" }),
      codex(6, "event_msg", { type: "turn_aborted", reason: "interrupted" }),
      codex(7, "response_item", { type: "message", role: "user", content: [{ type: "input_text", text: '<codex_internal_context source="goal">\nContinue\n</codex_internal_context>' }] }),
      codex(8, "response_item", { type: "message", role: "assistant", phase: "final_answer", content: [{ type: "output_text", text: "Done." }] }),
      codex(8, "event_msg", total(250, 30)),
      codex(9, "event_msg", { type: "thread_goal_updated", goal: { status: "complete" } }),
      codex(10, "event_msg", total(40, 4)),
    ]);
    expect(tags(events)).toEqual([
      "run.start",
      "user:handoff:fix it",
      "call:exec_command",
      "request:100/0/10",
      "result:fail",
      "compaction:100",
      "end:interrupted",
      'user:continuation:<codex_internal_context source="goal">\nContinue\n</codex_internal_context>',
      "text(final):Done.",
      "end:no_tool_call",
      "request:150/0/20",
      "goal:null->complete",
      "request:40/0/4",
      "run.end:imported:290/34",
    ]);
  });

  it("codex exec --json: a failed turn for a usage limit, a todo list, a declined command", async () => {
    const events = await read("codex-exec", [
      { type: "thread.started", thread_id: "t" },
      { type: "turn.started" },
      { type: "item.completed", item: { id: "i1", type: "todo_list", items: [{ text: "a", completed: true }, { text: "b", completed: false }] } },
      { type: "item.completed", item: { id: "i2", type: "command_execution", command: "rm -rf /", aggregated_output: "", exit_code: null, status: "declined" } },
      { type: "turn.failed", error: { message: "You've hit your usage limit." } },
    ]);
    // No usage in the stream: the visible text (here the command) is counted, an estimate.
    expect(tags(events)).toEqual(["run.start", "plan.update", "call:command_execution", "result:fail", "end:usage_limit", "run.end:imported:0/8"]);
    expect(events.at(-1)).toMatchObject({ usage: { source: "estimated", lowerBound: true } });
    expect(events.find((e) => e.type === "tool.result")).toMatchObject({ rejected: true });
  });

  it("Claude Code transcript: a compact boundary, an old-style null stop reason decided by what follows, meta lines skipped", async () => {
    const a = (id: string, content: unknown[], stop: string | null, out: number) => ({ type: "assistant", sessionId: "s", timestamp: ts(2), requestId: `r${id}`, message: { id, model: "claude-sonnet-4-5", content, stop_reason: stop, usage: { input_tokens: 1, cache_read_input_tokens: 10, cache_creation_input_tokens: 0, output_tokens: out } } });
    const events = await read("claude", [
      { type: "user", sessionId: "s", timestamp: ts(0), isMeta: true, message: { role: "user", content: "Caveat: …" } },
      { type: "user", sessionId: "s", timestamp: ts(1), message: { role: "user", content: "go" } },
      a("m1", [{ type: "text", text: "Looking." }], null, 1),
      a("m1", [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "a" } }], null, 7),
      { type: "user", sessionId: "s", timestamp: ts(3), message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] } },
      { type: "system", sessionId: "s", timestamp: ts(4), subtype: "compact_boundary", compactMetadata: { trigger: "auto", preTokens: 150000 } },
      a("m2", [{ type: "text", text: "All done." }], null, 3),
    ]);
    expect(tags(events)).toEqual([
      "run.start",
      "user:handoff:go",
      "request:11/10/7",
      "text:Looking.",
      "call:Read",
      "result:ok",
      "compaction:150000",
      "request:11/10/3",
      "text(final):All done.",
      "end:no_tool_call",
      "run.end:imported:22/10",
    ]);
  });

  it("claude -p stream-json: an error result ends the reply with the error and keeps the log's cost", async () => {
    const events = await read("claude-stream", [
      { type: "system", subtype: "init", session_id: "s", model: "claude-opus-4-5", cwd: "/w" },
      { type: "assistant", session_id: "s", parent_tool_use_id: null, message: { id: "m", content: [{ type: "tool_use", id: "t", name: "Bash", input: { command: "ls" } }], usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: "user", session_id: "s", parent_tool_use_id: null, message: { content: [{ type: "tool_result", tool_use_id: "t", content: "boom", is_error: true }] } },
      { type: "result", subtype: "error_max_turns", is_error: true, session_id: "s", total_cost_usd: 0.5, usage: { input_tokens: 9, output_tokens: 4 } },
    ]);
    expect(tags(events)).toEqual(["run.start", "request:5/0/1", "call:Bash", "result:fail", "end:error", "run.end:error:9/4"]);
    expect(events.at(-1)).toMatchObject({ costUsd: 0.5 });
  });

  it("pi session v3: an aborted reply, an error, a compaction entry, a person's ! command ignored", async () => {
    const msg = (s: number, message: Record<string, unknown>) => ({ type: "message", id: `e${s}`, parentId: null, timestamp: ts(s), message });
    const u = { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, cost: { total: 0.01 } };
    const events = await read("pi", [
      { type: "session", version: 3, id: "x", timestamp: ts(0), cwd: "/w" },
      msg(1, { role: "user", content: [{ type: "text", text: "go" }] }),
      msg(2, { role: "assistant", model: "m", usage: u, stopReason: "toolUse", content: [{ type: "toolCall", id: "c", name: "bash", arguments: { command: "ls" } }] }),
      msg(3, { role: "assistant", model: "m", usage: u, stopReason: "aborted", content: [] }),
      msg(4, { role: "bashExecution", command: "ls", output: "x" }),
      { type: "compaction", id: "k", parentId: null, timestamp: ts(5), summary: "s", firstKeptEntryId: "e1", tokensBefore: 9000 },
      msg(6, { role: "user", content: "again" }),
      msg(7, { role: "assistant", model: "m", usage: u, stopReason: "error", errorMessage: "overloaded", content: [] }),
    ]);
    expect(tags(events)).toEqual([
      "run.start",
      "user:handoff:go",
      "request:8/3/2",
      "call:bash",
      "request:8/3/2",
      "end:interrupted",
      "compaction:9000",
      "user:person:again",
      "request:8/3/2",
      "end:error",
      "run.end:imported:24/6",
    ]);
  });
});
