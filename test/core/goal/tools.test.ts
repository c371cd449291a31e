import { describe, expect, it } from "vitest";
import { GOAL_TOOL_NAMES, goalToolSpecs, handleGoalTool, reduceGoal, type Goal } from "../../../src/core/goal/index.ts";

const goal = (): Goal => reduceGoal(null, { type: "set", objective: "Ship the parser", rounds: 10, hours: 2, atMs: 0 }).goal!;

describe("goal tools", () => {
  it("exist only while a goal exists, and there is no tool to create one", () => {
    expect(goalToolSpecs(null)).toEqual([]);
    expect(goalToolSpecs(goal()).map((t) => t.name)).toEqual(["get_goal", "update_goal"]);
    expect(GOAL_TOOL_NAMES).toEqual(["get_goal", "update_goal"]);
    const cleared = reduceGoal(goal(), { type: "clear", atMs: 1 }).goal;
    expect(goalToolSpecs(cleared)).toEqual([]);
  });

  it("update_goal's schema allows only complete and blocked", () => {
    const spec = goalToolSpecs(goal())[1]!;
    expect(spec.parameters).toEqual({
      type: "object",
      properties: {
        status: { type: "string", enum: ["complete", "blocked"], description: "complete or blocked" },
        reason: { type: "string", description: "For complete: what you verified and how. For blocked: the blocker, in the same words each time, and what the person must do." },
      },
      required: ["status", "reason"],
      additionalProperties: false,
    });
  });

  it("get_goal answers the goal's state as JSON", () => {
    const out = handleGoalTool(goal(), { name: "get_goal", arguments: {} }, 5);
    expect(out.result.ok).toBe(true);
    expect(JSON.parse(out.result.output)).toEqual({
      objective: "Ship the parser",
      status: "active",
      round: 1,
      roundLimit: 10,
      timeUsed: "0 min",
      timeLimit: "2 h",
      pendingClaim: null,
      blocker: null,
      lastCheck: null,
    });
    expect(out.goal).toEqual(goal());
  });

  it.each([
    [{ status: "paused" }, 'update_goal accepts status "complete" or "blocked"; got "paused". Pausing, resuming and limits are for the person and the harness; to stop for the person, say so in your reply.'],
    [{ status: "active" }, 'update_goal accepts status "complete" or "blocked"; got "active". Pausing, resuming and limits are for the person and the harness; to stop for the person, say so in your reply.'],
    [{ status: "budget_limited" }, 'update_goal accepts status "complete" or "blocked"; got "budget_limited". Pausing, resuming and limits are for the person and the harness; to stop for the person, say so in your reply.'],
    [{}, 'update_goal accepts status "complete" or "blocked"; got null. Pausing, resuming and limits are for the person and the harness; to stop for the person, say so in your reply.'],
    [{ status: "blocked", reason: " " }, 'status "blocked" needs a reason: name the blocker in the same words each time, and what the person must do.'],
  ])("update_goal %j is a tool error with a clear message, and changes nothing", (args, message) => {
    const before = goal();
    expect(handleGoalTool(before, { name: "update_goal", arguments: args }, 1)).toEqual({ result: { ok: false, output: message }, goal: before, effects: [] });
  });

  it("without a goal, the tools say that only the person sets one", () => {
    expect(handleGoalTool(null, { name: "get_goal", arguments: {} }, 1).result).toEqual({
      ok: false,
      output: "There is no goal in this session. Only the person can set one; carry on with the request as given.",
    });
  });

  it("complete records a claim to be checked at the reply's end", () => {
    const out = handleGoalTool(goal(), { name: "update_goal", arguments: { status: "complete", reason: "all 12 tests pass" } }, 7);
    expect(out.result.ok).toBe(true);
    expect(out.result.output).toBe(
      "Completion claim recorded. When this reply ends, an independent reviewer compares it with the objective and the tool output of this conversation. End the reply with a short report of what was done and how it was verified.",
    );
    expect(out.goal!.claim).toEqual({ reason: "all 12 tests pass", round: 1, atMs: 7 });
    expect(out.goal!.status).toBe("active");
  });

  it("blocked answers keep working until the third consecutive round, then blocks the goal", () => {
    let g: Goal | null = goal();
    const outputs: string[] = [];
    for (let round = 1; round <= 3; round++) {
      const out = handleGoalTool(g, { name: "update_goal", arguments: { status: "blocked", reason: "no network access to the registry" } }, round);
      outputs.push(out.result.output);
      g = out.goal;
      if (round < 3) g = reduceGoal(g, { type: "roundEnded", toolCalls: 1, okCommands: 0, failedCommands: 0, fileChanges: 0, tokens: { input: 0, output: 0 }, elapsedMs: 0, atMs: round }).goal;
      else expect(out.effects).toEqual([{ kind: "goal_update", change: { from: "active", to: "blocked", by: "model", reason: "blocker reported on 3 consecutive rounds: no network access to the registry", atMs: 3 } }]);
    }
    expect(outputs).toEqual([
      "Blocker noted (1 of 3 consecutive rounds); the goal stays active. Keep working: look for a way around it and go on with every part of the objective it does not touch. Report it again in a later round only if it still stops you.",
      "Blocker noted (2 of 3 consecutive rounds); the goal stays active. Keep working: look for a way around it and go on with every part of the objective it does not touch. Report it again in a later round only if it still stops you.",
      "The goal is now blocked: the same blocker was reported on 3 consecutive rounds. End your reply by telling the person exactly what they must do to unblock it.",
    ]);
    expect(g!.status).toBe("blocked");
  });

  it("a paused goal takes no claim", () => {
    const paused = reduceGoal(goal(), { type: "pause", atMs: 1 }).goal!;
    expect(handleGoalTool(paused, { name: "update_goal", arguments: { status: "complete", reason: "done" } }, 2).result).toEqual({
      ok: false,
      output: "the goal is paused; a completion claim is taken only while it is active or in its wrap-up round",
    });
  });

  it("an unknown tool name is an error, not a throw", () => {
    expect(handleGoalTool(goal(), { name: "create_goal", arguments: { objective: "x" } }, 1).result).toEqual({
      ok: false,
      output: "create_goal is not a goal tool; the goal tools are get_goal and update_goal",
    });
  });
});
