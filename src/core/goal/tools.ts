/**
 * The two goal tools the model sees while a goal exists, and their handlers as pure functions over
 * goal state. There is no tool that creates, pauses or resumes a goal: those are the person's.
 * A bad call is answered with `ok: false` and a message the model can act on; it never throws.
 */
import type { ToolSpec } from "../model.ts";
import { reduceGoal } from "./reducer.ts";
import { formatDuration } from "./template.ts";
import { BLOCKED_ROUNDS, type Goal, type GoalEffect } from "./types.ts";

export const GET_GOAL = "get_goal";
export const UPDATE_GOAL = "update_goal";
export const GOAL_TOOL_NAMES: readonly string[] = [GET_GOAL, UPDATE_GOAL];

export const GET_GOAL_SPEC: ToolSpec = {
  name: GET_GOAL,
  description:
    "Show the goal the person set for this session: its objective, status, how many rounds and how much time it has used against its limits, and any completion claim or blocker you have reported.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
};

export const UPDATE_GOAL_SPEC: ToolSpec = {
  name: UPDATE_GOAL,
  description: [
    "Report that the goal the person set is complete, or that it is blocked.",
    '"complete": only after you have checked every requirement of the objective against evidence in this session (passing checks, file contents). The claim is recorded, and when your reply ends an independent reviewer compares it with the objective and the tool output of this conversation; the goal completes only if the reviewer finds proof. In `reason`, say what you verified and how.',
    `"blocked": only when the same blocker has stopped you on ${BLOCKED_ROUNDS} rounds in a row. Earlier reports are counted and answered with "keep working". In \`reason\`, name the blocker in the same words each time and what the person must do about it.`,
    "No other status is accepted: pausing, resuming and the limits belong to the person and the harness.",
  ].join("\n\n"),
  parameters: {
    type: "object",
    properties: {
      status: { type: "string", enum: ["complete", "blocked"], description: "complete or blocked" },
      reason: { type: "string", description: "For complete: what you verified and how. For blocked: the blocker, in the same words each time, and what the person must do." },
    },
    required: ["status", "reason"],
    additionalProperties: false,
  },
};

/** The tools to offer on the next request: both while a goal exists, none otherwise. */
export function goalToolSpecs(goal: Goal | null): ToolSpec[] {
  return goal === null ? [] : [GET_GOAL_SPEC, UPDATE_GOAL_SPEC];
}

/** What `get_goal` answers: a plain object, sent as JSON. */
export function goalSnapshot(goal: Goal): Record<string, unknown> {
  return {
    objective: goal.objective,
    status: goal.status,
    round: goal.rounds + 1,
    roundLimit: goal.limits.rounds,
    timeUsed: formatDuration(goal.elapsedMs),
    timeLimit: formatDuration(goal.limits.hours * 3_600_000),
    pendingClaim: goal.claim?.reason ?? null,
    blocker: goal.blocker === null ? null : { reason: goal.blocker.reason, consecutiveRounds: goal.blocker.streak, needed: BLOCKED_ROUNDS },
    lastCheck: goal.lastRejection,
  };
}

export interface GoalToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface GoalToolOutcome {
  result: { ok: boolean; output: string };
  goal: Goal | null;
  /** The reducer's effects (a `goal_update` when a blocker is accepted). */
  effects: GoalEffect[];
}

function fail(goal: Goal | null, output: string): GoalToolOutcome {
  return { result: { ok: false, output }, goal, effects: [] };
}

export function handleGoalTool(goal: Goal | null, call: GoalToolCall, atMs: number): GoalToolOutcome {
  if (call.name !== GET_GOAL && call.name !== UPDATE_GOAL) return fail(goal, `${call.name} is not a goal tool; the goal tools are ${GOAL_TOOL_NAMES.join(" and ")}`);
  if (goal === null) return fail(goal, "There is no goal in this session. Only the person can set one; carry on with the request as given.");
  if (call.name === GET_GOAL) return { result: { ok: true, output: JSON.stringify(goalSnapshot(goal), null, 2) }, goal, effects: [] };

  const status = call.arguments["status"];
  const reasonArg = call.arguments["reason"];
  const reason = typeof reasonArg === "string" ? reasonArg : "";
  if (status !== "complete" && status !== "blocked") {
    return fail(
      goal,
      `update_goal accepts status "complete" or "blocked"; got ${JSON.stringify(status ?? null)}. Pausing, resuming and limits are for the person and the harness; to stop for the person, say so in your reply.`,
    );
  }
  if (status === "blocked" && reason.trim() === "") {
    return fail(goal, 'status "blocked" needs a reason: name the blocker in the same words each time, and what the person must do.');
  }

  const step = reduceGoal(goal, { type: "claim", claim: { kind: status, reason }, atMs });
  const rejection = step.effects.find((effect) => effect.kind === "rejected");
  if (rejection !== undefined && rejection.kind === "rejected") return fail(goal, rejection.message);
  const next = step.goal!;

  if (status === "complete") {
    return {
      result: {
        ok: true,
        output:
          "Completion claim recorded. When this reply ends, an independent reviewer compares it with the objective and the tool output of this conversation. End the reply with a short report of what was done and how it was verified.",
      },
      goal: next,
      effects: step.effects,
    };
  }
  if (next.status === "blocked") {
    return {
      result: {
        ok: true,
        output: `The goal is now blocked: the same blocker was reported on ${BLOCKED_ROUNDS} consecutive rounds. End your reply by telling the person exactly what they must do to unblock it.`,
      },
      goal: next,
      effects: step.effects,
    };
  }
  const streak = next.blocker?.streak ?? 1;
  return {
    result: {
      ok: true,
      output: `Blocker noted (${streak} of ${BLOCKED_ROUNDS} consecutive rounds); the goal stays active. Keep working: look for a way around it and go on with every part of the objective it does not touch. Report it again in a later round only if it still stops you.`,
    },
    goal: next,
    effects: step.effects,
  };
}
