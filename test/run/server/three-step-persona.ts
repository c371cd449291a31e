/**
 * A tiny persona for the server tests: a todo update (which no client can carry out, so the
 * server answers it), a file write, a failing command, then a final message quoting every tool
 * result it saw. Its decisions depend only on the conversation, as a persona's must.
 */
import type { Message, ModelClient, ModelReply } from "../../../src/core/model.ts";

const usage = { input: 10, cachedInput: 2, output: 5, reasoning: 0, source: "counted" as const };

export const threeStepPersona: ModelClient = {
  id: "test:three-step",
  isTestDouble: true,
  async complete(request): Promise<ModelReply> {
    const results = request.messages.filter((m): m is Extract<Message, { role: "tool" }> => m.role === "tool");
    const call = (id: string, name: string, args: Record<string, unknown>): ModelReply => ({ text: "", toolCalls: [{ id, name, arguments: args }], stop: "tool_calls", usage });
    if (results.length === 0) return call("call_1", "update_plan", { items: [{ text: "write the file", status: "in_progress" }] });
    if (results.length === 1) return call("call_2", "write_file", { path: "sub/hello.txt", content: "world\nline2\n" });
    if (results.length === 2) return call("call_3", "shell", { command: "cat sub/hello.txt; exit 3" });
    const seen = results.map((r) => `${r.name}: ${r.name === "write_file" ? "(written)" : r.content}`).join(" | ");
    return { text: `Finished. ${seen}`, toolCalls: [], stop: "end_turn", usage };
  },
};

export const EXPECTED_FINAL = "Finished. update_plan: Recorded. | write_file: (written) | shell: exit code: 3\nworld\nline2";
