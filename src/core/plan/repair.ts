/**
 * The one bounded repair turn of ADR-0077. It exists only for an `invalid` reply: a block the model
 * started and left unfinished, empty or in conflict. It lets the model finish that block, say that
 * there is nothing to plan, or return the blocked block. It never asks for a new plan, more research
 * or invented work. `plan_ready`, `blocked` and `no_plan` are conclusions and get no repair (null).
 */
import type { PlanInvalidReason, PlanResult } from "./classify.ts";

/** What went wrong, and the fix closest to what the model was doing, one entry per rule. */
const PROBLEM: Readonly<Record<PlanInvalidReason, string>> = {
  empty_reply: "Your last reply was empty, so it did not say how the planning ended.",
  legacy_clarification:
    "Your last reply used a <plan_clarification> block, which is no longer read. Questions go through ask_user; a decision you could not get goes in <plan_blocked>.",
  conflicting_blocks:
    "Your last reply mixed <proposed_plan> and <plan_blocked> tags, so it states two outcomes. Keep the one it was reaching and send it alone.",
  unopened_close: "Your last reply has a closing outcome tag with no opening tag before it.",
  nested_block: "Your last reply opens an outcome block again before closing the first one. Open and close it once.",
  unclosed_block: "Your last reply opened an outcome block and never closed it. Repeat its content as written and close it.",
  duplicate_block: "Your last reply has more than one outcome block. Send one: the final version of what you wrote.",
  empty_block: "Your last reply has an outcome block with nothing inside it.",
};

const CHOICES = [
  "Answer with exactly one of these endings:",
  "- the block you started, complete, with each tag on a line of its own;",
  "- plain text saying there is nothing to plan, with no block at all;",
  "- one <plan_blocked> block naming the decision you could not get.",
].join("\n");

const LIMITS =
  "Work only from what you already found. Do not start a new plan, do not research again, and do not invent steps, decisions or work to fill a block. Tags inside backticks or code fences are read as quotes, not outcomes.";

/** The repair instruction for an `invalid` result, or null for any other outcome. */
export function planRepairInstruction(result: PlanResult): string | null {
  if (result.outcome !== "invalid") return null;
  const reason = result.reason ?? "empty_reply";
  return [PROBLEM[reason], CHOICES, LIMITS].join("\n\n");
}
