/**
 * `goalQueue` (seed 003, `/list`): a queue of goals run one after another in the same run. Each
 * item is a full goal (the goal policy's rounds, tools, claim check and brakes); when one completes,
 * the next is set at once. Any other stop (blocked, paused, a limit, an error) stops the queue with
 * that status, and the reason says which item it was and how many are left.
 */
import { z } from "zod";
import { reduceGoal } from "../goal/reducer.ts";
import { goalToolSpecs } from "../goal/tools.ts";
import { DEFAULT_GOAL_LIMITS } from "../goal/types.ts";
import { parseOptions, plural, positiveInt, positiveNumber } from "./common.ts";
import type { PolicyDecision, PolicyRecord, TurnEndPolicy } from "./contract.ts";
import { effectsToDecision, goalHooks, type GoalPolicyState } from "./goal.ts";

export interface GoalQueueState {
  items: string[];
  /** The item being worked on (0-based). */
  index: number;
  inner: GoalPolicyState;
}

const Options = z
  .object({
    items: z.array(z.string().trim().min(1)).min(1).optional(),
    rounds: positiveInt.default(DEFAULT_GOAL_LIMITS.rounds),
    hours: positiveNumber.default(DEFAULT_GOAL_LIMITS.hours),
    /** The elapsed-time line in each continuation; off by default (ADR 0102). */
    elapsedTime: z.boolean().default(false),
  })
  .strict();

function label(state: GoalQueueState): string {
  return `queue item ${state.index + 1} of ${state.items.length}`;
}

/** A stop of the current goal stops the queue; the reason names the item and what is left. */
function stopQueue(decision: PolicyDecision, state: GoalQueueState): PolicyDecision {
  if (decision.kind !== "settle") return decision;
  const left = state.items.length - state.index - 1;
  return { ...decision, reason: `${label(state)}: ${decision.reason}${left > 0 ? `; ${plural(left, "queued goal")} not started` : ""}` };
}

export function createGoalQueue(options?: Record<string, unknown>): TurnEndPolicy<GoalQueueState> {
  const parsed = parseOptions("goalQueue", Options, options);
  const limits = { rounds: parsed.rounds, hours: parsed.hours, elapsedTime: parsed.elapsedTime };
  return {
    name: "goalQueue",
    initialState: () => ({ items: [], index: 0, inner: { goal: null, started: false } }),
    onRunStart(view, state) {
      const items = parsed.items ?? [view.handoff];
      const start = goalHooks.runStart(items[0]!, limits, view.elapsedMs, "goalQueue", `queue item 1 of ${items.length}, set by the person`);
      return { ...start, state: { ...state, items, index: 0, inner: start.state } };
    },
    tools: (state) => goalToolSpecs(state.inner.goal),
    onToolCall(call, state, at) {
      const out = goalHooks.toolCall(call, state.inner, at.nowMs);
      return { ...out, state: { ...state, inner: out.state } };
    },
    onReplyEnd(view, state) {
      const out = goalHooks.replyEnd(view, state.inner, "goalQueue");
      const next = { ...state, inner: out.state };
      return { decision: stopQueue(out.decision, next), state: next, records: out.records };
    },
    onHardCap(_view, state, cap) {
      const out = goalHooks.hardCap(state.inner, cap.reason, cap.nowMs, "goalQueue");
      const next = { ...state, inner: out.state };
      return { decision: stopQueue(out.decision, next), state: next, records: out.records };
    },
    onClaimVerdict(verdict, state, at) {
      const out = goalHooks.verdict(verdict, state.inner, at.nowMs, "goalQueue");
      const done = { ...state, inner: out.state };
      const finished = out.decision.kind === "settle" && out.decision.status === "completed" && out.state.goal?.status === "complete";
      if (!finished) return { decision: stopQueue(out.decision, done), state: done, records: out.records };
      if (state.index + 1 >= state.items.length) {
        return { decision: { ...out.decision, reason: `all ${state.items.length} queued goals complete; last: ${out.decision.reason}` }, state: done, records: out.records };
      }
      const index = state.index + 1;
      const step = reduceGoal(out.state.goal, {
        type: "set",
        objective: state.items[index]!,
        rounds: limits.rounds,
        hours: limits.hours,
        ...(limits.elapsedTime ? { showElapsed: true } : {}),
        reason: `queue item ${index + 1} of ${state.items.length}, set by the person`,
        atMs: at.nowMs,
      });
      const started = effectsToDecision(step.effects, "", "goalQueue");
      const records: PolicyRecord[] = [...out.records, ...started.records];
      const next: GoalQueueState = { ...state, index, inner: { goal: step.goal, started: true } };
      if (started.decision?.kind !== "continue") {
        return { decision: { kind: "settle", status: "error", reason: `${label(next)} could not be set: ${started.decision?.reason ?? "no effect"}`, policy: "goalQueue" }, state: next, records };
      }
      return {
        decision: { ...started.decision, reason: `queue item ${state.index + 1} complete; starting ${label(next)}` },
        state: next,
        records,
      };
    },
  };
}
