/**
 * The turn-end policies and their factory. The agent loop calls `createTurnEndControl(arm.policies)`
 * and drives the one policy it returns (docs/goal-loop.md, "Driving the policies from the agent loop").
 */
import { PolicyOptionsError, type PolicyName, type PolicySpec } from "./common.ts";
import type { TurnEndPolicy } from "./contract.ts";
import { combinePolicies, type CombinedState } from "./combine.ts";
import { createEveryReplyCheck } from "./every-reply-check.ts";
import { createGoal } from "./goal.ts";
import { createGoalQueue } from "./goal-queue.ts";
import { createLoopGuard } from "./loop-guard.ts";
import { createMeasureLoop } from "./measure-loop.ts";
import { createNone } from "./none.ts";
import { createTodoGate } from "./todo-gate.ts";
import { createWorkSlice } from "./work-slice.ts";

export const POLICY_FACTORIES: { readonly [N in PolicyName]: (options?: Record<string, unknown>) => TurnEndPolicy<any> } = {
  none: createNone,
  todoGate: createTodoGate,
  everyReplyCheck: createEveryReplyCheck,
  goal: createGoal,
  workSlice: createWorkSlice,
  loopGuard: createLoopGuard,
  measureLoop: createMeasureLoop,
  goalQueue: createGoalQueue,
};

/** Policies that run a claim check; an arm may hold at most one (one verdict per reply end). */
const CHECKING: readonly PolicyName[] = ["everyReplyCheck", "goal", "goalQueue"];

/** Builds the arm's policies in order, validating names, options and combinations. */
export function createPolicies(specs: readonly PolicySpec[]): TurnEndPolicy<any>[] {
  const unknown = specs.find((spec) => !Object.hasOwn(POLICY_FACTORIES, spec.name));
  if (unknown !== undefined) {
    throw new PolicyOptionsError(`unknown policy "${String(unknown.name)}" in arm.yaml (policies[].name); known: ${Object.keys(POLICY_FACTORIES).join(", ")}`);
  }
  const names = specs.map((spec) => spec.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw new PolicyOptionsError(`policy "${duplicate}" appears twice in arm.yaml (policies); list each policy once`);
  const checking = names.filter((name) => CHECKING.includes(name));
  if (checking.length > 1) {
    throw new PolicyOptionsError(`policies ${checking.map((n) => `"${n}"`).join(" and ")} both check claims; an arm may use only one of ${CHECKING.join(", ")}`);
  }
  if (names.includes("measureLoop") && checking.length > 0) {
    throw new PolicyOptionsError(`policy "measureLoop" cannot be combined with "${checking[0]}": the measure is the loop's verdict`);
  }
  return specs.map((spec) => POLICY_FACTORIES[spec.name](spec.options));
}

/** What is wrong with an arm's policy list: the entry at fault (null for a combination) and why. */
export interface PolicySpecProblem {
  index: number | null;
  message: string;
  /** The option at fault, when one is. */
  option?: string;
}

/**
 * Checks every option of every policy, then the combination, without running anything: what an
 * arm loader calls so a typo fails when the arm loads, not in the middle of a study.
 */
export function checkPolicySpecs(specs: readonly PolicySpec[]): PolicySpecProblem | null {
  for (const [index, spec] of specs.entries()) {
    if (!Object.hasOwn(POLICY_FACTORIES, spec.name)) continue;
    try {
      POLICY_FACTORIES[spec.name](spec.options);
    } catch (error) {
      if (!(error instanceof PolicyOptionsError)) throw error;
      if (error.detail === undefined) return { index, message: error.message };
      const message = `policy "${error.detail.policy}": ${error.detail.problem}`;
      return error.detail.option === undefined ? { index, message } : { index, message, option: error.detail.option };
    }
  }
  try {
    createPolicies(specs);
  } catch (error) {
    if (!(error instanceof PolicyOptionsError)) throw error;
    return { index: null, message: error.message };
  }
  return null;
}

/** The one policy the agent loop drives: the arm's policies combined. */
export function createTurnEndControl(specs: readonly PolicySpec[]): TurnEndPolicy<CombinedState> {
  return combinePolicies(createPolicies(specs));
}

export { combinePolicies, mergeContinues, CombineError, type CombinedState } from "./combine.ts";
export { POLICY_NAMES, PolicyOptionsError, PolicyViewError, brake, callSignature, stableJson, type PolicyName, type PolicySpec } from "./common.ts";
export { createNone, type NoneState } from "./none.ts";
export { createTodoGate, openItems, DEFAULT_TODO_NUDGES, type TodoGateState } from "./todo-gate.ts";
export { createEveryReplyCheck, DEFAULT_CHECK_CONTINUES, type EveryReplyCheckState } from "./every-reply-check.ts";
export { createGoal, claimText, roundSummary, type GoalPolicyState } from "./goal.ts";
export { createGoalQueue, type GoalQueueState } from "./goal-queue.ts";
export { createWorkSlice, checkpoint, changedPathsOf, DEFAULT_SLICE, type WorkSliceState } from "./work-slice.ts";
export { createLoopGuard, detectLoop, DEFAULT_LOOP_GUARD, type LoopGuardLimits, type LoopGuardState } from "./loop-guard.ts";
export { createMeasureLoop, readMeasurement, DEFAULT_MEASURE, type MeasureLoopState } from "./measure-loop.ts";
export type * from "./contract.ts";
