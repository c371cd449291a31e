import { describe, expect, it } from "vitest";
import { GOAL_STATUSES, GoalStatusError, isResumable, isRunnable, isTerminal, parseGoalStatus } from "../../../src/core/goal/index.ts";

describe("goal status", () => {
  it("is the closed union of six states", () => {
    expect(GOAL_STATUSES).toEqual(["active", "paused", "blocked", "usage_limited", "budget_limited", "complete"]);
  });

  it("predicates: only active runs; complete and budget_limited are terminal; the rest wait for the person", () => {
    expect(Object.fromEntries(GOAL_STATUSES.map((s) => [s, { terminal: isTerminal(s), runnable: isRunnable(s), resumable: isResumable(s) }]))).toEqual({
      active: { terminal: false, runnable: true, resumable: false },
      paused: { terminal: false, runnable: false, resumable: true },
      blocked: { terminal: false, runnable: false, resumable: true },
      usage_limited: { terminal: false, runnable: false, resumable: true },
      budget_limited: { terminal: true, runnable: false, resumable: false },
      complete: { terminal: true, runnable: false, resumable: false },
    });
  });

  it("parses known values and names an unknown one", () => {
    expect(parseGoalStatus("usage_limited")).toBe("usage_limited");
    expect(() => parseGoalStatus("usageLimited")).toThrow(new GoalStatusError("usageLimited"));
    expect(() => parseGoalStatus("usageLimited")).toThrow('unknown goal status "usageLimited"; expected one of active, paused, blocked, usage_limited, budget_limited, complete');
    expect(new GoalStatusError(1).code).toBe("goal_unknown_status");
  });
});
