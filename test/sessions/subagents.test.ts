import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runMetrics } from "../../src/measure/metrics.ts";
import { importSessionFile } from "../../src/sessions/import.ts";

const usage = { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 0, output_tokens: 20 };
const assistant = (id: string, requestId: string, content: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "assistant", sessionId: "s", timestamp: "2026-01-01T00:00:01Z", requestId, message: { id, model: "claude-sonnet-4-5", role: "assistant", content, stop_reason: "tool_use", usage }, ...extra });
const toolResult = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "user", sessionId: "s", timestamp: "2026-01-01T00:00:02Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] }, ...extra });

describe("Claude Code sub-agent files", () => {
  it("a sidechain replay of a parent message is dropped (content and usage); the sub-agent's own calls count for it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-subagents-"));
    const parent = join(dir, "sess.jsonl");
    writeFileSync(
      parent,
      [
        JSON.stringify({ type: "user", sessionId: "s", timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: "research it" } }),
        assistant("msg_parent", "req_1", [{ type: "tool_use", id: "tu_agent", name: "Agent", input: { prompt: "go" } }]),
        toolResult("tu_agent", { toolUseResult: { status: "completed", agentId: "abc" } }),
      ].join("\n"),
    );
    mkdirSync(join(dir, "sess", "subagents"), { recursive: true });
    writeFileSync(
      join(dir, "sess", "subagents", "agent-abc.jsonl"),
      [
        assistant("msg_parent", "req_1", [{ type: "tool_use", id: "tu_agent", name: "Agent", input: { prompt: "go" } }], { isSidechain: true }),
        assistant("msg_sub", "req_9", [
          { type: "tool_use", id: "tu_1", name: "Read", input: { file_path: "a" } },
          { type: "tool_use", id: "tu_2", name: "Grep", input: { pattern: "b" } },
        ], { isSidechain: true }),
        toolResult("tu_1", { isSidechain: true }),
        toolResult("tu_2", { isSidechain: true }),
      ].join("\n"),
    );
    const { events } = await importSessionFile(parent);
    // The replayed parent message is not the sub-agent's: only msg_sub's usage is.
    const subUsage = { input: 105, cachedInput: 0, cacheWrite: 100, output: 20, reasoning: null, source: "reported", lowerBound: false };
    expect(events.filter((e) => e.type === "subagent")).toEqual([{ t: 2000, type: "subagent", ref: "subagents/agent-abc.jsonl", toolCalls: 2, model: "claude-sonnet-4-5", usage: subUsage }]);
    const m = runMetrics(events);
    // sonnet-4-5: 5 × $3 + 100 × $3.75 + 20 × $15 per million, for each of parent and sub-agent.
    const each = (5 * 3 + 100 * 3.75 + 20 * 15) / 1e6;
    expect([m.toolCalls, m.subagents, m.modelRequests]).toEqual([1, { count: 1, toolCalls: 2, tokens: { input: 105, cachedInput: 0, cacheWrite: 100, output: 20, reasoning: null }, costUsd: each }, 1]);
    // The session's own tokens stay the main thread's; the sum with sub-agents is named as such.
    expect([m.tokens.input, m.tokens.output, m.tokensIncludingSubagents.input, m.tokensIncludingSubagents.output, m.tokensIncludingSubagents.total]).toEqual([105, 20, 210, 40, 250]);
    expect(m.costUsd).toBeCloseTo(each, 12);
    expect(m.costUsdIncludingSubagents).toBeCloseTo(2 * each, 12);
  });
});
