/**
 * A plan run's turn end (ADR 0104, from ADR-0077): the final reply is classified with the outcome
 * table; `invalid` gets at most one repair turn in the same run, and the repair's reply is final.
 * `noPlan: "repair"` plays the rule before ADR-0077 — a reply with no block counts as a missing
 * block and is sent back once, asking for one — so a study can compare the two.
 */
import type { PolicyDecision, PolicyRecord, TurnEndPolicy } from "../policies/contract.ts";
import { brake, lastReply } from "../policies/common.ts";
import { classifyPlanReply, type PlanResult } from "./classify.ts";
import { planRepairInstruction } from "./repair.ts";

/** The tools a plan run offers: it researches and changes nothing (no shell, no writes). */
export const PLAN_TOOLS = ["read_file", "list_files", "search", "ask_user"] as const;

export interface PlanRunSettings {
  /** `valid` (ADR-0077): prose with no block is a conclusion. `repair`: the earlier rule. */
  noPlan: "valid" | "repair";
}

export interface PlanRunState {
  attempts: number;
  last: PlanResult | null;
}

/** The earlier repair (ADR-0055/0057): every plan reply must carry a block. */
export const BLOCK_REQUIRED_REPAIR = [
  "Your last reply did not end with a plan block, so it was returned to you once.",
  "Send the plan again inside exactly one <proposed_plan> block, with each tag on a line of its own. If a decision only the person can make blocks the plan, send one <plan_blocked> block naming it instead.",
].join("\n\n");

function repairFor(result: PlanResult, settings: PlanRunSettings): string | null {
  if (result.outcome === "no_plan" && settings.noPlan === "repair") return BLOCK_REQUIRED_REPAIR;
  return planRepairInstruction(result);
}

function settleOf(result: PlanResult): PolicyDecision {
  switch (result.outcome) {
    case "plan_ready":
      return { kind: "settle", status: "completed", reason: "plan_ready: the reply ends with one plan block", policy: "plan" };
    case "no_plan":
      return { kind: "settle", status: "completed", reason: "no_plan: the reply concludes there is nothing to plan", policy: "plan" };
    case "blocked":
      return { kind: "settle", status: "blocked", reason: "blocked: the reply names a decision only the person can make", policy: "plan" };
    case "invalid":
      return { kind: "settle", status: "unfinished", reason: `invalid after the repair turn: ${result.reason ?? "no reason"}`, policy: "plan" };
    default: {
      const unreachable: never = result.outcome;
      return unreachable;
    }
  }
}

export function createPlanRun(settings: PlanRunSettings = { noPlan: "valid" }): TurnEndPolicy<PlanRunState> {
  return {
    name: "plan",
    initialState: () => ({ attempts: 0, last: null }),
    onReplyEnd(view, state) {
      const reply = lastReply(view, "plan");
      const stop = brake(reply);
      if (stop !== null) return { decision: { ...stop, policy: "plan" }, state };
      const result = classifyPlanReply(reply.text);
      const repair = state.attempts === 0 ? repairFor(result, settings) : null;
      const effective = result.outcome === "no_plan" && settings.noPlan === "repair" ? { ...result, reason: "no block (a block is required)" } : result;
      const record: PolicyRecord = {
        type: "plan.outcome",
        outcome: result.outcome,
        ...(effective.reason === undefined ? {} : { reason: effective.reason }),
        attempt: state.attempts,
        repair: repair !== null,
      };
      const next = { attempts: state.attempts + 1, last: result };
      if (repair !== null) {
        return { decision: { kind: "continue", message: repair, messageKind: "nudge", reason: `${result.outcome}: one repair turn`, policy: "plan" }, state: next, records: [record] };
      }
      // Under the earlier rule a second reply with no block is still a missing block.
      const final = result.outcome === "no_plan" && settings.noPlan === "repair" ? settleOf({ outcome: "invalid", reason: "empty_block" }) : settleOf(result);
      const decision = result.outcome === "no_plan" && settings.noPlan === "repair" ? { ...final, reason: "invalid after the repair turn: still no plan block" } : final;
      return { decision, state: next, records: [record] };
    },
  };
}
