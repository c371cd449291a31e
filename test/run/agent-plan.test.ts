/** A plan run in our loop (ADR 0104): only read-only tools are offered, before and after a repair. */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelReply, ModelRequest } from "../../src/core/model.ts";
import { PLAN_TOOLS } from "../../src/core/plan/run.ts";
import { runAgent } from "../../src/run/agent.ts";
import { collector, testArm } from "./scripted-support.ts";

describe("a plan run", () => {
  it("offers read-only tools on every request, repairs an open block once, and records both outcomes", async () => {
    const dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-plan-")));
    const offered: string[][] = [];
    const usage = { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" as const };
    const model = {
      id: "list:planner",
      isTestDouble: true,
      async complete(request: ModelRequest): Promise<ModelReply> {
        offered.push(request.tools.map((t) => t.name));
        return offered.length === 1 ? { text: "<proposed_plan>\n1. Add it.", toolCalls: [], stop: "end_turn", usage } : { text: "<proposed_plan>\n1. Add it.\n</proposed_plan>", toolCalls: [], stop: "end_turn", usage };
      },
    };
    const { events, onEvent } = collector();
    try {
      const outcome = await runAgent({ arm: testArm([{ name: "none" }], { mode: "plan", plan: { noPlan: "valid" } }), model, dir, handoff: "Plan it.", runIndex: 0, seed: 1, onEvent });
      expect(outcome.status).toBe("completed");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(offered).toEqual([[...PLAN_TOOLS], [...PLAN_TOOLS]]);
    expect(events.filter((e) => e.type === "plan.outcome").map(({ t: _t, ...rest }) => rest)).toEqual([
      { type: "plan.outcome", outcome: "invalid", reason: "unclosed_block", attempt: 0, repair: true },
      { type: "plan.outcome", outcome: "plan_ready", attempt: 1, repair: false },
    ]);
    expect(events.filter((e) => e.type === "user.message").map((e) => (e.type === "user.message" ? e.kind : ""))).toEqual(["handoff", "nudge"]);
  });
});
