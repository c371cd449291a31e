/**
 * The goal's closed status union and its predicates. Who may set which status is the reducer's
 * business (reducer.ts); this file only names the states.
 */

export const GOAL_STATUSES = ["active", "paused", "blocked", "usage_limited", "budget_limited", "complete"] as const;

export type GoalStatus = (typeof GOAL_STATUSES)[number];

export class GoalStatusError extends Error {
  readonly code = "goal_unknown_status";
  constructor(value: unknown) {
    super(`unknown goal status ${JSON.stringify(value)}; expected one of ${GOAL_STATUSES.join(", ")}`);
    this.name = "GoalStatusError";
  }
}

/** Parses a status read from outside (a record, a restored goal); unknown values throw, naming the value. */
export function parseGoalStatus(value: unknown): GoalStatus {
  if (typeof value === "string" && (GOAL_STATUSES as readonly string[]).includes(value)) return value as GoalStatus;
  throw new GoalStatusError(value);
}

/**
 * Terminal: the goal will not run again, by itself or on the person's `resume`. A budget-limited
 * goal still gets its one wrap-up round, but that round cannot extend it. The person starts over
 * with a new `set`.
 */
export function isTerminal(status: GoalStatus): boolean {
  switch (status) {
    case "complete":
    case "budget_limited":
      return true;
    case "active":
    case "paused":
    case "blocked":
    case "usage_limited":
      return false;
    default: {
      const unreachable: never = status;
      throw new GoalStatusError(unreachable);
    }
  }
}

/** Runnable: the loop may start the next round on its own. Only an active goal is. */
export function isRunnable(status: GoalStatus): boolean {
  switch (status) {
    case "active":
      return true;
    case "paused":
    case "blocked":
    case "usage_limited":
    case "budget_limited":
    case "complete":
      return false;
    default: {
      const unreachable: never = status;
      throw new GoalStatusError(unreachable);
    }
  }
}

/** Waiting for the person: not runnable, but `resume` brings it back. */
export function isResumable(status: GoalStatus): boolean {
  return !isTerminal(status) && !isRunnable(status);
}
