/**
 * A study's limits turned into each run's hard caps, and the price function the cost cap uses.
 * The study file's `limits` apply to every run; with `goalCapsFirst`, an arm that runs a goal gets
 * caps above the goal's own, so the goal reaches its own cap and its wrap-up round first (ADR 0101).
 */
import type { Usage } from "../core/model.ts";
import { DEFAULT_GOAL_LIMITS } from "../core/goal/types.ts";
import { MAX_TIME_LIMIT_MS } from "../core/limits.ts";
import type { PolicySpec } from "../core/policies/index.ts";
import { costOf, priceFor } from "../measure/prices.ts";
import type { RunLimits } from "../run/agent-contract.ts";

export interface StudyLimits extends RunLimits {
  /** Raise the request and wall caps of goal arms above the goal's own rounds and hours. */
  goalCapsFirst?: boolean;
}

/** Model requests allowed per goal round when the caps are raised for a goal (wrap-up included). */
export const REQUESTS_PER_GOAL_ROUND = 40;
/** Wall time beyond the goal's hours, as a share of them, for the wrap-up round. */
export const GOAL_WALL_MARGIN = 0.1;

/** The goal caps an arm's policies run with (the `goal` or `goalQueue` policy), or null. */
export function goalCapsOf(policies: readonly PolicySpec[]): { rounds: number; hours: number } | null {
  const spec = policies.find((p) => p.name === "goal" || p.name === "goalQueue");
  if (spec === undefined) return null;
  const rounds = spec.options?.["rounds"];
  const hours = spec.options?.["hours"];
  return {
    rounds: typeof rounds === "number" ? rounds : DEFAULT_GOAL_LIMITS.rounds,
    hours: typeof hours === "number" ? hours : DEFAULT_GOAL_LIMITS.hours,
  };
}

/** One run's hard caps: the study's, raised for a goal arm when the study asks for it. */
export function runLimitsFor(limits: StudyLimits, policies: readonly PolicySpec[]): RunLimits {
  const { goalCapsFirst, ...caps } = limits;
  const goal = goalCapsFirst === true ? goalCapsOf(policies) : null;
  if (goal === null) return caps;
  return {
    ...caps,
    maxRounds: Math.max(caps.maxRounds ?? 0, (goal.rounds + 1) * REQUESTS_PER_GOAL_ROUND),
    // Every time limit is at most 24 h (ADR 0084), so a longer goal keeps the hard wall cap there.
    maxWallMs: Math.min(MAX_TIME_LIMIT_MS, Math.max(caps.maxWallMs ?? 0, Math.round(goal.hours * 3_600_000 * (1 + GOAL_WALL_MARGIN)))),
  };
}

/** USD for one request from the dated price table; a spec's provider prefix (`openai:`) is ignored. */
export function priceRequest(model: string, usage: Usage): number | null {
  const price = priceFor(model) ?? priceFor(model.slice(model.indexOf(":") + 1));
  return price === null ? null : costOf(usage, price);
}
