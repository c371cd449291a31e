/**
 * Every rule of the goal loop as a transition of the reducer. Each test names the rule it holds.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_GOAL_LIMITS,
  isRunnable,
  normalizeBlocker,
  reduceGoal,
  renderBudgetLimit,
  renderContinuation,
  renderObjectiveUpdated,
  type Goal,
  type GoalEffect,
  type GoalEvent,
  type GoalStep,
  type RoundSummary,
} from "../../../src/core/goal/index.ts";

const OBJECTIVE = "Make `npm test` pass and document the --dry-run flag.";

function set(extra: Partial<Extract<GoalEvent, { type: "set" }>> = {}): GoalStep {
  return reduceGoal(null, { type: "set", objective: OBJECTIVE, atMs: 0, ...extra });
}

function active(extra: Partial<Extract<GoalEvent, { type: "set" }>> = {}): Goal {
  return set(extra).goal!;
}

const WORK: RoundSummary = { toolCalls: 3, okCommands: 1, failedCommands: 0, fileChanges: 1, tokens: { input: 1000, output: 200 }, elapsedMs: 60_000 };
const IDLE: RoundSummary = { toolCalls: 0, okCommands: 0, failedCommands: 0, fileChanges: 0, tokens: { input: 900, output: 50 }, elapsedMs: 10_000 };
const FAILING: RoundSummary = { toolCalls: 2, okCommands: 0, failedCommands: 2, fileChanges: 0, tokens: { input: 900, output: 50 }, elapsedMs: 20_000 };

function round(goal: Goal, summary: RoundSummary = WORK, atMs = 1): GoalStep {
  return reduceGoal(goal, { type: "roundEnded", ...summary, atMs });
}

/** Applies events in order and returns the last step. */
function run(goal: Goal | null, events: GoalEvent[]): GoalStep {
  let step: GoalStep = { goal, effects: [] };
  for (const event of events) step = reduceGoal(step.goal, event);
  return step;
}

const kinds = (effects: GoalEffect[]) => effects.map((e) => (e.kind === "start_round" || e.kind === "inject" ? `${e.kind}:${e.promptKind}` : e.kind === "settle" ? `settle:${e.status}` : e.kind));

describe("the person creates goals", () => {
  it("set creates an active goal with default caps, records who set it, and starts the first round", () => {
    const step = set({ atMs: 5 });
    const goal = step.goal!;
    expect(goal).toEqual({
      objective: OBJECTIVE,
      status: "active",
      limits: { rounds: 30, hours: 8 },
      rounds: 0,
      elapsedMs: 0,
      tokens: { input: 0, output: 0 },
      roundTrigger: "person",
      stall: { noActivity: 0, onlyFailures: 0 },
      blocker: null,
      claim: null,
      awaitingVerdict: false,
      lastRejection: null,
      provenance: { from: null, to: "active", by: "person", reason: "set by the person", atMs: 5 },
    });
    expect(step.effects).toEqual([
      { kind: "goal_update", change: { from: null, to: "active", by: "person", reason: "set by the person", atMs: 5 } },
      { kind: "start_round", promptKind: "continuation", prompt: renderContinuation(goal) },
    ]);
    expect(DEFAULT_GOAL_LIMITS).toEqual({ rounds: 30, hours: 8 });
  });

  it("per-goal rounds and hours replace the defaults", () => {
    expect(active({ rounds: 5, hours: 0.5 }).limits).toEqual({ rounds: 5, hours: 0.5 });
  });

  it("refuses a second goal while one is unfinished, unless the person replaces it", () => {
    const goal = active();
    const refused = reduceGoal(goal, { type: "set", objective: "Something else", atMs: 9 });
    expect(refused).toEqual({
      goal,
      effects: [{ kind: "rejected", code: "goal_exists", message: `there is already a active goal "Make \`npm test\` pass and document the --dry-run flag."; replace it (replace: true) or clear it first` }],
    });
    const replaced = reduceGoal(goal, { type: "set", objective: "Something else", replace: true, atMs: 9 });
    expect(replaced.goal!.objective).toBe("Something else");
    expect(replaced.goal!.provenance).toEqual({ from: "active", to: "active", by: "person", reason: "replaced by the person", atMs: 9 });
  });

  it("a finished goal can be followed by a new one without replace", () => {
    const complete = { ...active(), status: "complete" as const };
    expect(reduceGoal(complete, { type: "set", objective: "Next", atMs: 1 }).goal!.status).toBe("active");
  });

  it("refuses an empty objective and bad limits", () => {
    expect(reduceGoal(null, { type: "set", objective: "   ", atMs: 0 }).effects).toEqual([
      { kind: "rejected", code: "objective_empty", message: "the goal's objective is empty; write what should be true when the goal is done" },
    ]);
    expect(reduceGoal(null, { type: "set", objective: "x", rounds: 0, atMs: 0 }).effects).toEqual([
      { kind: "rejected", code: "bad_limits", message: "rounds must be a positive whole number; got 0" },
    ]);
    expect(reduceGoal(null, { type: "set", objective: "x", hours: -1, atMs: 0 }).effects).toEqual([{ kind: "rejected", code: "bad_limits", message: "hours must be a positive number; got -1" }]);
  });
});

describe("rounds", () => {
  it("a round that did work starts the next automatic round with the continuation prompt", () => {
    const step = round(active());
    expect(step.goal).toMatchObject({ rounds: 1, elapsedMs: 60_000, tokens: { input: 1000, output: 200 }, roundTrigger: "continuation", status: "active" });
    expect(step.effects).toEqual([{ kind: "start_round", promptKind: "continuation", prompt: renderContinuation(step.goal!) }]);
    expect(renderContinuation(step.goal!)).toContain("It starts round 2 of at most 30");
  });
});

describe("stall brakes", () => {
  it("three automatic rounds with no activity pause the goal (no_activity)", () => {
    const goal = round(active()).goal!; // round 1 is the person's
    const s2 = round(goal, IDLE, 2);
    const s3 = round(s2.goal!, IDLE, 3);
    expect(kinds(s3.effects)).toEqual(["start_round:continuation"]);
    const s4 = round(s3.goal!, IDLE, 4);
    expect(s4.goal!.status).toBe("paused");
    expect(s4.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "paused", by: "system", reason: "no_activity: 3 automatic rounds in a row made no tool call", atMs: 4 } },
      { kind: "settle", status: "paused", reason: "no_activity" },
    ]);
  });

  it("the person's own round does not count towards a stall", () => {
    // Round 1 (the person's) idle, then two idle automatic rounds: not yet three automatic ones.
    const s1 = round(active(), IDLE);
    const s2 = round(s1.goal!, IDLE);
    const s3 = round(s2.goal!, IDLE);
    expect(s3.goal!.status).toBe("active");
    expect(round(s3.goal!, IDLE).goal!.status).toBe("paused");
  });

  it("activity in between resets the count", () => {
    let goal = round(active()).goal!;
    goal = round(goal, IDLE).goal!;
    goal = round(goal, IDLE).goal!;
    goal = round(goal, WORK).goal!;
    goal = round(goal, IDLE).goal!;
    goal = round(goal, IDLE).goal!;
    expect(goal.status).toBe("active");
  });

  it("three automatic rounds with only failed commands pause the goal (only_failures)", () => {
    let goal = round(active()).goal!;
    goal = round(goal, FAILING).goal!;
    goal = round(goal, FAILING).goal!;
    const last = round(goal, FAILING, 7);
    expect(last.goal!.status).toBe("paused");
    expect(last.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "paused", by: "system", reason: "only_failures: 3 automatic rounds in a row ran only failing commands", atMs: 7 } },
      { kind: "settle", status: "paused", reason: "only_failures" },
    ]);
  });

  it("a passing command or a file change breaks an only-failures streak", () => {
    let goal = round(active()).goal!;
    goal = round(goal, FAILING).goal!;
    goal = round(goal, FAILING).goal!;
    goal = round(goal, { ...FAILING, okCommands: 1 }).goal!;
    goal = round(goal, FAILING).goal!;
    goal = round(goal, { ...FAILING, fileChanges: 1 }).goal!;
    goal = round(goal, FAILING).goal!;
    expect(goal.status).toBe("active");
    expect(goal.stall).toEqual({ noActivity: 0, onlyFailures: 1 });
  });
});

describe("caps", () => {
  it("at the rounds cap the goal is budget_limited and gets exactly one wrap-up round", () => {
    let goal = active({ rounds: 2 });
    goal = round(goal).goal!;
    const capped = round(goal, WORK, 50);
    expect(capped.goal!.status).toBe("budget_limited");
    expect(capped.goal!.roundTrigger).toBe("wrap_up");
    expect(capped.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "budget_limited", by: "system", reason: "cap reached: 2 rounds; one wrap-up round follows", atMs: 50 } },
      { kind: "start_round", promptKind: "budget_limit", prompt: renderBudgetLimit(capped.goal!, "2 rounds") },
    ]);
    const wrapped = round(capped.goal!, WORK, 60);
    expect(wrapped.effects).toEqual([{ kind: "settle", status: "budget_limited", reason: "the wrap-up round after the cap is over" }]);
    expect(wrapped.goal!.rounds).toBe(3);
  });

  it("the default cap is 30 rounds", () => {
    let step = set();
    for (let i = 0; i < 29; i++) step = round(step.goal!);
    expect(step.goal!.status).toBe("active");
    step = round(step.goal!);
    expect(step.goal!.status).toBe("budget_limited");
  });

  it("at the hours cap the goal is budget_limited too (8 hours by default, per goal `hours`)", () => {
    const long = round(active(), { ...WORK, elapsedMs: 8 * 3_600_000 });
    expect(long.goal!.status).toBe("budget_limited");
    expect(long.goal!.provenance.reason).toBe("cap reached: 8 h; one wrap-up round follows");
    const short = round(active({ hours: 0.5 }), { ...WORK, elapsedMs: 30 * 60_000 });
    expect(short.goal!.provenance.reason).toBe("cap reached: 30 min; one wrap-up round follows");
    expect(round(active(), { ...WORK, elapsedMs: 8 * 3_600_000 - 1 }).goal!.status).toBe("active");
  });

  it("a budget-limited goal cannot be resumed", () => {
    const capped = round(active({ rounds: 1 })).goal!;
    expect(reduceGoal(capped, { type: "resume", atMs: 1 }).effects).toEqual([
      { kind: "rejected", code: "goal_finished", message: "the goal is budget_limited and cannot resume; set a new goal" },
    ]);
  });
});

describe("claims and verdicts", () => {
  it("a complete claim only records the claim; the round's end asks for a check", () => {
    const claimed = reduceGoal(active(), { type: "claim", claim: { kind: "complete", reason: "tests pass" }, atMs: 3 });
    expect(claimed.goal!.status).toBe("active");
    expect(claimed.goal!.claim).toEqual({ reason: "tests pass", round: 1, atMs: 3 });
    expect(claimed.effects).toEqual([]);
    const ended = round(claimed.goal!);
    expect(ended.goal!.awaitingVerdict).toBe(true);
    expect(ended.effects).toEqual([{ kind: "check_claim", claim: { reason: "tests pass", round: 1, atMs: 3 }, objective: OBJECTIVE }]);
  });

  it("a done verdict completes the goal, by the check", () => {
    const waiting = run(active(), [{ type: "claim", claim: { kind: "complete", reason: "r" }, atMs: 1 }, { type: "roundEnded", ...WORK, atMs: 2 }]).goal!;
    const done = reduceGoal(waiting, { type: "verdict", verdict: "done", reason: "12 tests pass", atMs: 3 });
    expect(done.goal!.status).toBe("complete");
    expect(done.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "complete", by: "check", reason: "claim accepted by the check: 12 tests pass", atMs: 3 } },
      { kind: "settle", status: "completed", reason: "claim accepted by the check: 12 tests pass" },
    ]);
  });

  it("an unchecked acceptance completes the goal and records the cause", () => {
    const waiting = run(active(), [{ type: "claim", claim: { kind: "complete", reason: "r" }, atMs: 1 }, { type: "roundEnded", ...WORK, atMs: 2 }]).goal!;
    const done = reduceGoal(waiting, { type: "verdict", verdict: "accepted_unchecked", reason: "no_model: none", cause: "no_model", atMs: 3 });
    expect(done.goal!.provenance).toEqual({ from: "active", to: "complete", by: "model", reason: "claim accepted unchecked (no_model)", atMs: 3 });
  });

  it("a continue verdict keeps the goal active and puts the reviewer's reason in the next prompt", () => {
    const waiting = run(active(), [{ type: "claim", claim: { kind: "complete", reason: "r" }, atMs: 1 }, { type: "roundEnded", ...WORK, atMs: 2 }]).goal!;
    const back = reduceGoal(waiting, { type: "verdict", verdict: "continue", reason: "evidence not found", atMs: 3 });
    expect(back.goal).toMatchObject({ status: "active", claim: null, awaitingVerdict: false, lastRejection: "evidence not found", roundTrigger: "continuation" });
    expect(back.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "active", by: "check", reason: "claim sent back by the check: evidence not found", atMs: 3 } },
      { kind: "start_round", promptKind: "continuation", prompt: renderContinuation(back.goal!) },
    ]);
    expect(renderContinuation(back.goal!)).toContain("<review_reason>\nevidence not found\n</review_reason>");
  });

  it("a verdict without a pending claim, and a round end while a verdict is due, are refused", () => {
    expect(reduceGoal(active(), { type: "verdict", verdict: "done", reason: "", atMs: 0 }).effects[0]).toMatchObject({ kind: "rejected", code: "no_pending_claim" });
    const waiting = run(active(), [{ type: "claim", claim: { kind: "complete", reason: "r" }, atMs: 1 }, { type: "roundEnded", ...WORK, atMs: 2 }]).goal!;
    expect(round(waiting).effects[0]).toMatchObject({ kind: "rejected", code: "awaiting_verdict" });
  });

  it("a claim in the wrap-up round is still checked; a continue then settles budget_limited", () => {
    const capped = round(active({ rounds: 1 })).goal!;
    const waiting = run(capped, [{ type: "claim", claim: { kind: "complete", reason: "r" }, atMs: 1 }, { type: "roundEnded", ...WORK, atMs: 2 }]);
    expect(kinds(waiting.effects)).toEqual(["check_claim"]);
    const back = reduceGoal(waiting.goal, { type: "verdict", verdict: "continue", reason: "no", atMs: 3 });
    expect(kinds(back.effects)).toEqual(["goal_update", "settle:budget_limited"]);
  });
});

describe("the blocked rule: the same blocker on three consecutive rounds", () => {
  const block = (reason: string, atMs = 1): GoalEvent => ({ type: "claim", claim: { kind: "blocked", reason }, atMs });

  it("is not accepted on the first or second round, and is on the third", () => {
    const r1 = run(active(), [block("The registry token is missing")]);
    expect(r1.goal!.status).toBe("active");
    expect(r1.goal!.blocker).toEqual({ reason: "The registry token is missing", normalized: "the registry token is missing", streak: 1, round: 1 });
    const r2 = run(r1.goal, [{ type: "roundEnded", ...WORK, atMs: 2 }, block("the registry token is missing.")]);
    expect(r2.goal!.status).toBe("active");
    expect(r2.goal!.blocker!.streak).toBe(2);
    const r3 = run(r2.goal, [{ type: "roundEnded", ...WORK, atMs: 3 }, block("THE REGISTRY TOKEN IS MISSING!", 4)]);
    expect(r3.goal!.status).toBe("blocked");
    expect(r3.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "blocked", by: "model", reason: "blocker reported on 3 consecutive rounds: THE REGISTRY TOKEN IS MISSING!", atMs: 4 } },
    ]);
    expect(round(r3.goal!).effects).toEqual([{ kind: "settle", status: "blocked", reason: "blocker reported on 3 consecutive rounds: THE REGISTRY TOKEN IS MISSING!" }]);
  });

  it("a round without the report breaks the streak", () => {
    const step = run(active(), [
      block("token missing"),
      { type: "roundEnded", ...WORK, atMs: 2 },
      block("token missing"),
      { type: "roundEnded", ...WORK, atMs: 3 },
      { type: "roundEnded", ...WORK, atMs: 4 }, // no report in round 3
      block("token missing"),
    ]);
    expect(step.goal!.blocker).toMatchObject({ streak: 1, round: 4 });
  });

  it("a different blocker starts over, and two reports in one round count once", () => {
    const step = run(active(), [block("token missing"), block("token missing"), { type: "roundEnded", ...WORK, atMs: 2 }, block("disk full")]);
    expect(step.goal!.blocker).toMatchObject({ normalized: "disk full", streak: 1, round: 2 });
    const twice = run(active(), [block("token missing"), block("token missing")]);
    expect(twice.goal!.blocker!.streak).toBe(1);
  });

  it("needs a reason", () => {
    expect(run(active(), [block("  ... ")]).effects).toEqual([
      { kind: "rejected", code: "blocked_reason_required", message: "say what blocks the goal in `reason`; the same words each time it recurs" },
    ]);
  });

  it("normalises case, punctuation and spacing only", () => {
    expect(normalizeBlocker("  Missing   API-key!  ")).toBe("missing api key");
    expect(normalizeBlocker("Missing API key (port 5432)")).not.toBe(normalizeBlocker("Missing API key (port 5433)"));
  });
});

describe("system brakes", () => {
  it("a provider error blocks the goal and the run settles error", () => {
    const step = reduceGoal(active(), { type: "providerError", message: "HTTP 502", atMs: 9 });
    expect(step.goal!.status).toBe("blocked");
    expect(step.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "blocked", by: "system", reason: "provider error: HTTP 502", atMs: 9 } },
      { kind: "settle", status: "error", reason: "provider error: HTTP 502" },
    ]);
  });

  it("a usage limit makes the goal usage_limited", () => {
    const step = reduceGoal(active(), { type: "usageLimit", message: "quota exhausted", atMs: 9 });
    expect(step.goal!.status).toBe("usage_limited");
    expect(step.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "usage_limited", by: "system", reason: "usage limit: quota exhausted", atMs: 9 } },
      { kind: "settle", status: "usage_limited", reason: "usage limit: quota exhausted" },
    ]);
  });

  it("a question to the person pauses the goal and drops a claim made in that reply", () => {
    const step = run(active(), [
      { type: "claim", claim: { kind: "complete", reason: "r" }, atMs: 1 },
      { type: "awaitPerson", question: "Shall I publish?", atMs: 2 },
      { type: "roundEnded", ...WORK, atMs: 3 },
    ]);
    expect(step.goal!.status).toBe("paused");
    expect(step.goal!.claim).toBeNull();
    expect(step.effects).toEqual([{ kind: "settle", status: "paused", reason: "waiting for the person's answer: Shall I publish?" }]);
  });
});

describe("the person's controls", () => {
  it("pause holds the goal; the round in progress ends and the run settles paused", () => {
    const paused = reduceGoal(active(), { type: "pause", atMs: 4 });
    expect(paused.effects).toEqual([{ kind: "goal_update", change: { from: "active", to: "paused", by: "person", reason: "paused by the person", atMs: 4 } }]);
    expect(round(paused.goal!).effects).toEqual([{ kind: "settle", status: "paused", reason: "paused by the person" }]);
    expect(reduceGoal(paused.goal, { type: "pause", atMs: 5 }).effects[0]).toMatchObject({ code: "already_paused" });
  });

  it("resume starts a round at once, with a fresh stall count and a fresh blocked audit", () => {
    const blocked = { ...active(), status: "blocked" as const, stall: { noActivity: 2, onlyFailures: 1 }, blocker: { reason: "x", normalized: "x", streak: 3, round: 3 } };
    const resumed = reduceGoal(blocked, { type: "resume", atMs: 8 });
    expect(resumed.goal).toMatchObject({ status: "active", roundTrigger: "person", stall: { noActivity: 0, onlyFailures: 0 }, blocker: null });
    expect(kinds(resumed.effects)).toEqual(["goal_update", "start_round:continuation"]);
    expect(resumed.goal!.provenance).toEqual({ from: "blocked", to: "active", by: "person", reason: "resumed by the person from blocked", atMs: 8 });
    expect(reduceGoal(active(), { type: "resume", atMs: 0 }).effects[0]).toMatchObject({ code: "already_active" });
  });

  it("edit replaces the objective, tells a running round, and drops claims about the old one", () => {
    const claimed = reduceGoal(active(), { type: "claim", claim: { kind: "complete", reason: "r" }, atMs: 1 }).goal!;
    const edited = reduceGoal(claimed, { type: "edit", objective: "Only fix the <parser>", atMs: 2 });
    expect(edited.goal).toMatchObject({ objective: "Only fix the <parser>", claim: null, status: "active" });
    expect(edited.effects).toEqual([
      { kind: "goal_update", change: { from: "active", to: "active", by: "person", reason: "objective edited by the person", atMs: 2 } },
      { kind: "inject", promptKind: "objective_updated", prompt: renderObjectiveUpdated(edited.goal!) },
    ]);
    const limits = reduceGoal(claimed, { type: "edit", rounds: 40, atMs: 2 });
    expect(limits.goal!.claim).not.toBeNull();
    expect(kinds(limits.effects)).toEqual(["goal_update"]);
    expect(reduceGoal(claimed, { type: "edit", objective: claimed.objective, atMs: 2 })).toEqual({ goal: claimed, effects: [] });
  });

  it("edit of a paused goal injects nothing; edit of a finished goal is refused", () => {
    const paused = reduceGoal(active(), { type: "pause", atMs: 1 }).goal!;
    expect(kinds(reduceGoal(paused, { type: "edit", objective: "new", atMs: 2 }).effects)).toEqual(["goal_update"]);
    expect(reduceGoal({ ...paused, status: "complete" }, { type: "edit", objective: "new", atMs: 2 }).effects[0]).toMatchObject({ code: "goal_finished" });
  });

  it("clear removes the goal, with provenance", () => {
    expect(reduceGoal(active(), { type: "clear", atMs: 3 })).toEqual({
      goal: null,
      effects: [{ kind: "goal_update", change: { from: "active", to: null, by: "person", reason: "cleared by the person", atMs: 3 } }],
    });
    expect(reduceGoal(null, { type: "clear", atMs: 3 }).effects[0]).toMatchObject({ code: "no_goal" });
  });
});

describe("restore", () => {
  it("a restored active goal comes back paused, with no pending check, and nothing resumes by itself", () => {
    const waiting = run(active(), [{ type: "claim", claim: { kind: "complete", reason: "r" }, atMs: 1 }, { type: "roundEnded", ...WORK, atMs: 2 }]).goal!;
    const restored = reduceGoal(null, { type: "restored", goal: waiting, atMs: 100 });
    expect(restored.goal).toMatchObject({ status: "paused", claim: null, awaitingVerdict: false });
    expect(isRunnable(restored.goal!.status)).toBe(false);
    expect(restored.effects).toEqual([{ kind: "goal_update", change: { from: "active", to: "paused", by: "system", reason: "restored; the person resumes it", atMs: 100 } }]);
  });

  it("other statuses are kept", () => {
    const blocked = { ...active(), status: "blocked" as const };
    expect(reduceGoal(null, { type: "restored", goal: blocked, atMs: 1 }).goal!.status).toBe("blocked");
  });
});

describe("provenance", () => {
  it("every status change carries who and why, and the goal keeps the last one", () => {
    const events: GoalEvent[] = [
      { type: "pause", atMs: 1 },
      { type: "resume", atMs: 2 },
      { type: "providerError", message: "boom", atMs: 3 },
      { type: "resume", atMs: 4 },
      { type: "usageLimit", message: "quota", atMs: 5 },
      { type: "resume", atMs: 6 },
      { type: "clear", atMs: 7 },
    ];
    let goal: Goal | null = active();
    const changes: string[] = [];
    for (const event of events) {
      const step = reduceGoal(goal, event);
      for (const effect of step.effects) if (effect.kind === "goal_update") changes.push(`${effect.change.from}→${effect.change.to} by ${effect.change.by} @${effect.change.atMs}`);
      if (step.goal !== null) expect(step.goal.provenance.atMs).toBe(event.atMs);
      goal = step.goal;
    }
    expect(changes).toEqual([
      "active→paused by person @1",
      "paused→active by person @2",
      "active→blocked by system @3",
      "blocked→active by person @4",
      "active→usage_limited by system @5",
      "usage_limited→active by person @6",
      "active→null by person @7",
    ]);
  });
});
