import { describe, expect, it } from "vitest";
import { PLAN_RULES, type PlanInvalidReason, classifyPlanReply } from "../../../src/core/plan/classify.ts";
import { planRepairInstruction } from "../../../src/core/plan/repair.ts";

describe("planRepairInstruction: only an invalid reply is repaired", () => {
  it.each([
    ["plan_ready", "<proposed_plan>\n- a\n</proposed_plan>"],
    ["blocked", "<plan_blocked>\nneed the API key owner\n</plan_blocked>"],
    ["no_plan", "The work already exists; there is nothing to plan."],
    ["no_plan (quoted tags)", "Use `<proposed_plan>` when there is work."],
  ])("%s gets no repair", (_outcome, text) => {
    expect(planRepairInstruction(classifyPlanReply(text))).toBeNull();
  });

  it("an unclosed block is asked to be finished, with the three allowed endings and the limits", () => {
    expect(planRepairInstruction(classifyPlanReply("<proposed_plan>\n- a\n"))).toMatchInlineSnapshot(`
      "Your last reply opened an outcome block and never closed it. Repeat its content as written and close it.

      Answer with exactly one of these endings:
      - the block you started, complete, with each tag on a line of its own;
      - plain text saying there is nothing to plan, with no block at all;
      - one <plan_blocked> block naming the decision you could not get.

      Work only from what you already found. Do not start a new plan, do not research again, and do not invent steps, decisions or work to fill a block. Tags inside backticks or code fences are read as quotes, not outcomes."
    `);
  });

  it("every rule has its own first paragraph and the same choices and limits", () => {
    const reasons = Object.keys(PLAN_RULES) as PlanInvalidReason[];
    const texts = reasons.map((reason) => planRepairInstruction({ outcome: "invalid", reason }) as string);
    const firsts = texts.map((text) => text.split("\n\n")[0]);
    expect(new Set(firsts).size).toBe(reasons.length);
    const rests = new Set(texts.map((text) => text.split("\n\n").slice(1).join("\n\n")));
    expect(rests.size).toBe(1);
  });

  it("never invites a new plan or more research", () => {
    for (const reason of Object.keys(PLAN_RULES) as PlanInvalidReason[]) {
      const text = planRepairInstruction({ outcome: "invalid", reason }) as string;
      const invitations = text.match(/\b(write|make|create|produce) (a|another) (new )?plan\b|\b(investigate|explore|look) (further|again|more)\b/gi);
      expect({ reason, invitations }).toEqual({ reason, invitations: null });
    }
  });
});
