/** A plan run's turn end (ADR 0104): classification, the one repair turn, and the earlier rule. */
import { describe, expect, it } from "vitest";
import { BLOCK_REQUIRED_REPAIR, createPlanRun } from "../../../src/core/plan/run.ts";
import { planRepairInstruction } from "../../../src/core/plan/repair.ts";
import type { ReplyView, RunView } from "../../../src/core/policies/contract.ts";

const reply = (text: string, index = 0): ReplyView => ({ index, text, toolCalls: [], endReason: "no_tool_call", startedAtMs: 0, endedAtMs: 1, tokens: { input: 0, output: 0 } });
const view = (...texts: string[]): RunView => ({ handoff: "Plan it.", replies: texts.map((t, i) => reply(t, i)), todos: [], elapsedMs: 1, continuations: 0, measurements: [] });

const PLAN = "<proposed_plan>\n1. Do it.\n</proposed_plan>";
const OPEN = "<proposed_plan>\n1. Do it.";
const PROSE = "Nothing to plan: it is all there.";

function play(noPlan: "valid" | "repair", ...texts: string[]) {
  const policy = createPlanRun({ noPlan });
  let state = policy.initialState();
  const steps = [];
  for (let i = 0; i < texts.length; i += 1) {
    const out = policy.onReplyEnd(view(...texts.slice(0, i + 1)), state);
    state = out.state;
    steps.push({ decision: out.decision.kind === "settle" ? `settle ${out.decision.status}: ${out.decision.reason}` : `continue ${out.decision.kind === "continue" ? out.decision.messageKind : ""}`, records: out.records });
  }
  return steps;
}

describe("createPlanRun", () => {
  it("after ADR-0077: a plan and no_plan are conclusions (one request); invalid gets one repair", () => {
    expect(play("valid", PLAN)).toEqual([{ decision: "settle completed: plan_ready: the reply ends with one plan block", records: [{ type: "plan.outcome", outcome: "plan_ready", attempt: 0, repair: false }] }]);
    expect(play("valid", PROSE)).toEqual([{ decision: "settle completed: no_plan: the reply concludes there is nothing to plan", records: [{ type: "plan.outcome", outcome: "no_plan", attempt: 0, repair: false }] }]);
    expect(play("valid", OPEN, PLAN)).toEqual([
      { decision: "continue nudge", records: [{ type: "plan.outcome", outcome: "invalid", reason: "unclosed_block", attempt: 0, repair: true }] },
      { decision: "settle completed: plan_ready: the reply ends with one plan block", records: [{ type: "plan.outcome", outcome: "plan_ready", attempt: 1, repair: false }] },
    ]);
  });

  it("repairs at most once: an invalid repair ends the run unfinished", () => {
    expect(play("valid", OPEN, OPEN).at(-1)).toEqual({
      decision: "settle unfinished: invalid after the repair turn: unclosed_block",
      records: [{ type: "plan.outcome", outcome: "invalid", reason: "unclosed_block", attempt: 1, repair: false }],
    });
  });

  it("before ADR-0077: a reply with no block is sent back asking for one, and a second still counts as invalid", () => {
    const policy = createPlanRun({ noPlan: "repair" });
    const first = policy.onReplyEnd(view(PROSE), policy.initialState());
    expect(first.decision).toEqual({ kind: "continue", message: BLOCK_REQUIRED_REPAIR, messageKind: "nudge", reason: "no_plan: one repair turn", policy: "plan" });
    expect(play("repair", PROSE, PLAN).at(-1)?.decision).toBe("settle completed: plan_ready: the reply ends with one plan block");
    expect(play("repair", PROSE, PROSE).at(-1)?.decision).toBe("settle unfinished: invalid after the repair turn: still no plan block");
  });

  it("sends the classifier's own repair instruction for an invalid reply", () => {
    const out = createPlanRun().onReplyEnd(view(OPEN), { attempts: 0, last: null });
    expect(out.decision.kind === "continue" ? out.decision.message : null).toBe(planRepairInstruction({ outcome: "invalid", reason: "unclosed_block" }));
  });
});
