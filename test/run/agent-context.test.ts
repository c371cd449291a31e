/**
 * Context management in our loop (ADR 0103). The Done-when run: the scripted test double, declared
 * to have a 16 k window, works the stockbook handoff under the goal arm; its requests pass the
 * threshold, old tool results are cleared (then old turns summarised), each compaction is a record
 * event, and the handoff still finishes: every acceptance check passes. The numbers are the
 * harness's mechanics, not a model's.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import path from "node:path";
import { runMetrics } from "../../src/measure/metrics.ts";
import { runAgent } from "../../src/run/agent.ts";
import { loadArm } from "../../src/run/arms/load.ts";
import { createModelClient } from "../../src/run/models/spec.ts";
import type { EventOf } from "../../src/run/record.ts";
import { CLEARED_MARK } from "../../src/core/context/clear.ts";
import { acceptance, collector, fixtureRepo, HANDOFF, PERSONAS, ROOT } from "./scripted-support.ts";

let repo: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await fixtureRepo();
});
afterEach(async () => {
  await repo.cleanup();
});

async function contextRun(persona: string, armName: string, contextWindows: Record<string, number>) {
  const arm = { ...(await loadArm(path.join(ROOT, "arms"), armName, { cwd: ROOT })), context: { mode: "auto" as const } };
  const model = await createModelClient(`scripted:${path.join(PERSONAS, `${persona}.yaml`)}`, { cwd: ROOT, seed: 1, runIndex: 1, env: {} });
  const { events, onEvent } = collector();
  const outcome = await runAgent({ arm, model, dir: repo.dir, handoff: HANDOFF, runIndex: 1, seed: 1, onEvent, env: { PATH: process.env.PATH }, contextWindows });
  return { outcome, events };
}

describe("a run on a model with a 16 k window", () => {
  it("compacts, records each compaction, and finishes the handoff", async () => {
    const { outcome, events } = await contextRun("early-stopper", "goal", { "scripted:early-stopper": 16_000 });
    const compactions = events.filter((e): e is EventOf<"compaction"> => e.type === "compaction");
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    for (const c of compactions) {
      expect(c.tokensAfter ?? Infinity).toBeLessThan(c.tokensBefore ?? 0);
      expect(c.cleared?.length ?? 0).toBeGreaterThan(0);
    }
    // Each cleared result keeps its path or command and a digest; a command keeps its exit code.
    const first = compactions[0]!;
    expect(first.kind).toBe("clear_tool_results");
    expect(first.cleared?.every((r) => r.ref !== "" && r.digest !== "")).toBe(true);
    expect(first.cleared?.filter((r) => r.tool === "shell").every((r) => /^exit code: -?\d+/.test(r.digest))).toBe(true);
    // No request after the first compaction is over the threshold (80 % of 16 k) unless both steps ran.
    const agentRequests = events.filter((e): e is EventOf<"model.request"> => e.type === "model.request" && e.purpose === "agent");
    const over = agentRequests.filter((r) => (r.counted?.input ?? 0) > 12_800);
    expect(over.length).toBe(0);
    expect(outcome.status).toBe("completed");
    expect(await acceptance(repo.dir)).toEqual({ B1: true, B2: true, B3: true, B4: true, B5: true, B6: true });
    expect(runMetrics(events).compactions).toBe(compactions.length);
  }, 120_000);

  it("with the window undeclared the double is not compacted (auto is for real models with a known window)", async () => {
    const { events } = await contextRun("diligent", "ordinary", {});
    expect(events.filter((e) => e.type === "compaction")).toEqual([]);
    expect(events.some((e) => e.type === "tool.result" && e.output.startsWith(CLEARED_MARK))).toBe(false);
  }, 120_000);
});

describe("three compactions in one reply", () => {
  it("end the reply with a checkpoint, and the run goes on from the handoff and the checkpoint", async () => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(path.join(repo.dir, "big.txt"), Array.from({ length: 400 }, (_, i) => `row ${i} of a large generated file`).join("\n"));
    const { testArm } = await import("./scripted-support.ts");
    const sent: string[][] = [];
    const model = {
      id: "list:reader",
      isTestDouble: true,
      async complete(request: import("../../src/core/model.ts").ModelRequest) {
        sent.push(request.messages.map((m) => m.role));
        const usage = { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" as const };
        const restarted = request.messages.some((m) => m.role === "user" && m.content.includes("compacted 3 times in one reply"));
        if (restarted) return { text: "Picked up from the checkpoint; done.", toolCalls: [], stop: "end_turn" as const, usage };
        return { text: "", toolCalls: [{ id: `r${sent.length}`, name: "read_file", arguments: { path: "big.txt" } }], stop: "tool_calls" as const, usage };
      },
    };
    const { events, onEvent } = collector();
    const arm = testArm([{ name: "none" }], { context: { mode: "on", window: 6_000, keepToolResults: 0 } });
    const outcome = await runAgent({ arm, model, dir: repo.dir, handoff: "Read big.txt.", runIndex: 0, seed: 1, onEvent, env: { PATH: process.env.PATH } });
    expect(outcome.status).toBe("completed");
    const marks = events.flatMap((e) =>
      e.type === "compaction" ? [`compaction ${e.kind}`] : e.type === "reply.end" ? [`reply.end ${e.reason}${e.errorMessage ? `: ${e.errorMessage}` : ""}`] : e.type === "policy.decision" ? [`${e.policy} ${e.decision}`] : [],
    );
    expect(marks).toEqual([
      "compaction clear_tool_results",
      "compaction clear_tool_results",
      "compaction clear_tool_results",
      "reply.end slice_budget: context: 3 compactions in one reply; the run goes on from a checkpoint",
      "context continue",
      "reply.end no_tool_call",
      "none settle",
    ]);
    // The request after the checkpoint holds the system prompt, the handoff and the checkpoint only.
    expect(sent.at(-1)).toEqual(["system", "user", "user"]);
    const checkpoint = events.filter((e) => e.type === "user.message").at(-1);
    expect(checkpoint?.type === "user.message" ? checkpoint.text.split("\n").slice(2, 5) : null).toEqual([
      "- Files changed so far: none.",
      "- Checks failing at their last run: none.",
      "- Next step: not recorded; state it in your first sentences, from the handoff and the checkpoint.",
    ]);
    expect(runMetrics(events).compactionsPerReply).toEqual([3, 0]);
  });

  it("context: on with no known window is the caller's mistake, named before anything runs", async () => {
    const { testArm } = await import("./scripted-support.ts");
    const model = await createModelClient(`scripted:${path.join(PERSONAS, "diligent.yaml")}`, { cwd: ROOT, seed: 1, runIndex: 1, env: {} });
    const { onEvent, events } = collector();
    await expect(runAgent({ arm: testArm([{ name: "none" }], { context: { mode: "on" } }), model, dir: repo.dir, handoff: HANDOFF, runIndex: 1, seed: 1, onEvent })).rejects.toThrow(
      'arm "test-arm": context: on, but no context window is known for model "scripted:diligent"; set context.window in arm.yaml or contextWindows in the study file',
    );
    expect(events).toEqual([]);
  });
});
