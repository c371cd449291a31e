/**
 * Context management against a model over real HTTP on loopback (ADR 0103): the model id has a
 * window the study declares (16 k), the loop clears old tool results, summarises the oldest turns
 * through the same endpoint (a request with no tools), and after three compactions in one reply
 * starts again from the handoff and a checkpoint. The loopback server plays the provider.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SUMMARY_MARK, SUMMARY_SYSTEM } from "../../src/core/context/summary.ts";
import { runAgent } from "../../src/run/agent.ts";
import { createModelClient } from "../../src/run/models/spec.ts";
import { chatCompletion, startChatServer } from "../support/chat-server.ts";
import { collector, testArm } from "./scripted-support.ts";

describe("context management over HTTP with a declared 16 k window", () => {
  it("clears, summarises through the same model, records both, and hands off from a checkpoint", async () => {
    let calls = 0;
    const server = await startChatServer((request) => {
      const body = request.body as { messages: Array<{ role: string; content: string | null }>; tools?: unknown[] };
      if (body.tools === undefined || body.tools.length === 0) {
        return { json: chatCompletion({ content: "Ran `seq` several times; each printed its numbers. Nothing else is done.", usage: { prompt: 900, completion: 20 } }) };
      }
      if (body.messages.some((m) => m.role === "user" && (m.content ?? "").includes("compacted 3 times in one reply"))) {
        return { json: chatCompletion({ content: "Picked up from the checkpoint: the numbers are printed; nothing is left.", usage: { prompt: 2000, completion: 15 } }) };
      }
      calls += 1;
      // Five short outputs, then long ones: clearing the short ones is not enough, so old turns are summarised too.
      const command = calls <= 5 ? "seq 1 400" : "seq 1 2800";
      return { json: chatCompletion({ toolCalls: [{ id: `call_${calls}`, name: "shell", arguments: { command } }], usage: { prompt: 5000, completion: 10 } }) };
    });
    const dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-ctx-http-")));
    try {
      const model = await createModelClient(`openai-compatible:gpt-4o@${server.baseUrl}`, { cwd: dir, seed: 1, runIndex: 0, env: { PATH: process.env.PATH } });
      expect(model.isTestDouble).toBe(false);
      const { events, onEvent } = collector();
      const outcome = await runAgent({
        arm: testArm([{ name: "none" }], { context: { mode: "auto", } }),
        model,
        dir,
        handoff: "Print number lists with seq.",
        runIndex: 0,
        seed: 1,
        onEvent,
        env: { PATH: process.env.PATH },
        contextWindows: { "openai-compatible:gpt-4o": 16_000 },
      });
      expect(outcome.status).toBe("completed");
      const marks = events.flatMap((e) =>
        e.type === "compaction"
          ? [`compaction ${e.kind}`]
          : e.type === "model.request" && e.purpose !== "agent"
            ? [`request ${e.purpose}`]
            : e.type === "policy.decision"
              ? [`${e.policy} ${e.decision}`]
              : [],
      );
      // Clearing the short results is not enough, the summary of the oldest turns is not either, so the
      // last resort clears every result but the newest: three compactions, and the reply hands off.
      expect(marks).toEqual(["compaction clear_tool_results", "request compaction", "compaction summary", "compaction clear_tool_results", "context continue", "none settle"]);
      // Every compaction shrank the request, and the summary names what it replaced, restorably.
      for (const e of events) if (e.type === "compaction") expect((e.tokensAfter ?? Infinity) < (e.tokensBefore ?? 0)).toBe(true);
      const summary = events.find((e) => e.type === "compaction" && e.kind === "summary");
      expect(summary?.type === "compaction" ? summary.cleared : null).toEqual([{ tool: "shell", ref: "`seq 1 400`", digest: 'exit code: 0; "1"' }]);
      // The summarising request went to the same endpoint, with no tools and our summariser prompt.
      const summaryRequests = server.requests.filter((r) => (r.body.tools ?? []).length === 0);
      expect(summaryRequests.map((r) => r.body.messages[0])).toEqual([{ role: "system", content: SUMMARY_SYSTEM }]);
      // The next agent request (after the hand-off) still carries the summary, before the checkpoint.
      const after = server.requests[server.requests.indexOf(summaryRequests[0]!) + 1]!;
      expect(after.body.messages.filter((m: { content: string | null }) => (m.content ?? "").startsWith(SUMMARY_MARK)).length).toBe(1);
      // No agent request went over the threshold (80 % of the window).
      const agent = events.filter((e) => e.type === "model.request" && e.purpose === "agent");
      expect(agent.every((e) => e.type === "model.request" && (e.counted?.input ?? 0) <= 12_800)).toBe(true);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
