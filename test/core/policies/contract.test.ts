/**
 * One contract suite over every turn-end policy: the same scripted model behaviours, and what
 * each policy makes of them. A dropped rule changes a row of this table.
 */
import { describe, expect, it } from "vitest";
import { POLICY_NAMES, type PolicyName } from "../../../src/core/policies/index.ts";
import { drive, trace } from "./driver.ts";
import { SCENARIOS, SUITE_SPECS } from "./scenarios.ts";

type Outcome = { status: string; reason: string; trace: string[] };

const c = (p: PolicyName, n = 1) => Array.from({ length: n }, () => `${p} continue`);
const checkThenContinue = (p: PolicyName, n: number) => Array.from({ length: n }, () => [`${p} check_claim`, `${p} continue`]).flat();

const EXPECTED: Record<string, Record<PolicyName, Outcome>> = {
  "early stop with open todos": {
    none: { status: "completed", reason: "the model ended its reply", trace: ["none settle/completed"] },
    todoGate: { status: "interrupted", reason: "unfinished: no progress after nudge 1; 2 open todo items", trace: [...c("todoGate"), "todoGate settle/interrupted"] },
    everyReplyCheck: {
      status: "completed",
      reason: "the reply made no tool call; nothing to check",
      trace: [...checkThenContinue("everyReplyCheck", 1), "everyReplyCheck settle/completed"],
    },
    goal: { status: "paused", reason: "no_activity", trace: [...c("goal", 3), "goal settle/paused"] },
    workSlice: { status: "completed", reason: "the model ended its reply", trace: ["workSlice settle/completed"] },
    loopGuard: { status: "completed", reason: "the model ended its reply", trace: ["loopGuard settle/completed"] },
    measureLoop: { status: "completed", reason: "plateau: no new best in 3 iterations; best 7", trace: [...c("measureLoop", 2), "measureLoop settle/completed"] },
    goalQueue: { status: "paused", reason: "queue item 1 of 1: no_activity", trace: [...c("goalQueue", 3), "goalQueue settle/paused"] },
  },
  "false claim": {
    none: { status: "completed", reason: "the model ended its reply", trace: ["none settle/completed"] },
    todoGate: { status: "completed", reason: "no open todo items", trace: ["todoGate settle/completed"] },
    everyReplyCheck: {
      status: "interrupted",
      reason: "unfinished: the check sent the reply back 3 times; last reason: evidence not found",
      trace: [...checkThenContinue("everyReplyCheck", 3), "everyReplyCheck check_claim", "everyReplyCheck settle/interrupted"],
    },
    goal: {
      status: "budget_limited",
      reason: "the wrap-up round after the cap is over",
      trace: [...checkThenContinue("goal", 4), "goal check_claim", "goal settle/budget_limited"],
    },
    workSlice: { status: "completed", reason: "the model ended its reply", trace: ["workSlice settle/completed"] },
    loopGuard: { status: "completed", reason: "the model ended its reply", trace: ["loopGuard settle/completed"] },
    measureLoop: { status: "completed", reason: "plateau: no new best in 3 iterations; best 7", trace: [...c("measureLoop", 2), "measureLoop settle/completed"] },
    goalQueue: {
      status: "budget_limited",
      reason: "queue item 1 of 1: the wrap-up round after the cap is over",
      trace: [...checkThenContinue("goalQueue", 4), "goalQueue check_claim", "goalQueue settle/budget_limited"],
    },
  },
  "permission question": {
    none: { status: "paused", reason: "the model asked the person a question", trace: ["none settle/paused"] },
    todoGate: { status: "paused", reason: "the model asked the person a question", trace: ["todoGate settle/paused"] },
    everyReplyCheck: { status: "paused", reason: "the model asked the person a question", trace: ["everyReplyCheck settle/paused"] },
    goal: { status: "paused", reason: "waiting for the person's answer: May I delete the old config file?", trace: ["goal settle/paused"] },
    workSlice: { status: "paused", reason: "the model asked the person a question", trace: ["workSlice settle/paused"] },
    loopGuard: { status: "paused", reason: "the model asked the person a question", trace: ["loopGuard settle/paused"] },
    measureLoop: { status: "paused", reason: "the model asked the person a question", trace: ["measureLoop settle/paused"] },
    goalQueue: { status: "paused", reason: "queue item 1 of 1: waiting for the person's answer: May I delete the old config file?", trace: ["goalQueue settle/paused"] },
  },
  "repeated calls": {
    none: { status: "completed", reason: "the model ended its reply", trace: ["none settle/completed"] },
    todoGate: { status: "completed", reason: "no open todo items", trace: ["todoGate settle/completed"] },
    everyReplyCheck: {
      status: "interrupted",
      reason: "unfinished: the check sent the reply back 3 times; last reason: the tests fail.",
      trace: [...checkThenContinue("everyReplyCheck", 3), "everyReplyCheck check_claim", "everyReplyCheck settle/interrupted"],
    },
    goal: { status: "paused", reason: "only_failures", trace: [...c("goal", 3), "goal settle/paused"] },
    workSlice: { status: "interrupted", reason: "slice_limit: 3 slices used (slice budget: 4 tool calls)", trace: [...c("workSlice", 2), "workSlice settle/interrupted"] },
    loopGuard: {
      status: "blocked",
      reason: "loop_guard: the same command failed 2 times in a row with no file change in between: npm test",
      trace: [...c("loopGuard"), "loopGuard settle/blocked"],
    },
    measureLoop: { status: "completed", reason: "plateau: no new best in 3 iterations; best 7", trace: [...c("measureLoop", 2), "measureLoop settle/completed"] },
    goalQueue: { status: "paused", reason: "queue item 1 of 1: only_failures", trace: [...c("goalQueue", 3), "goalQueue settle/paused"] },
  },
  "provider error": Object.fromEntries(
    POLICY_NAMES.map((p) => [
      p,
      { status: "error", reason: `${p === "goalQueue" ? "queue item 1 of 1: " : ""}provider error: HTTP 502 from the model server`, trace: [`${p} settle/error`] },
    ]),
  ) as Record<PolicyName, Outcome>,
  "budget cap": {
    none: { status: "completed", reason: "the model ended its reply", trace: ["none settle/completed"] },
    todoGate: { status: "interrupted", reason: "unfinished: 1 open todo item after 3 nudges", trace: [...c("todoGate", 3), "todoGate settle/interrupted"] },
    everyReplyCheck: {
      status: "interrupted",
      reason: "unfinished: the check sent the reply back 3 times; last reason: more parts remain.",
      trace: [...checkThenContinue("everyReplyCheck", 3), "everyReplyCheck check_claim", "everyReplyCheck settle/interrupted"],
    },
    goal: { status: "budget_limited", reason: "the wrap-up round after the cap is over", trace: [...c("goal", 4), "goal settle/budget_limited"] },
    workSlice: { status: "interrupted", reason: "slice_limit: 3 slices used (slice budget: 4 tool calls)", trace: [...c("workSlice", 2), "workSlice settle/interrupted"] },
    loopGuard: { status: "completed", reason: "the model ended its reply", trace: ["loopGuard settle/completed"] },
    measureLoop: { status: "budget_limited", reason: "max_iterations: 6 iterations; best 94", trace: [...c("measureLoop", 5), "measureLoop settle/budget_limited"] },
    goalQueue: { status: "budget_limited", reason: "queue item 1 of 1: the wrap-up round after the cap is over", trace: [...c("goalQueue", 4), "goalQueue settle/budget_limited"] },
  },
};

describe("turn-end policy contract", () => {
  it("covers every policy in every scenario", () => {
    expect(Object.keys(EXPECTED)).toEqual(Object.keys(SCENARIOS));
    for (const row of Object.values(EXPECTED)) expect(Object.keys(row).sort()).toEqual([...POLICY_NAMES].sort());
  });

  for (const [scenario, setup] of Object.entries(SCENARIOS)) {
    describe(scenario, () => {
      it.each(POLICY_NAMES)("%s", async (policy) => {
        const result = await drive({ specs: [SUITE_SPECS[policy]], ...setup });
        expect({ status: result.status, reason: result.reason, trace: trace(result) }).toEqual(EXPECTED[scenario]![policy]);
      });
    });
  }

  it.each(POLICY_NAMES)("%s is deterministic: the same scenario gives the same log", async (policy) => {
    const setup = SCENARIOS["budget cap"]!;
    const first = await drive({ specs: [SUITE_SPECS[policy]], ...setup });
    const second = await drive({ specs: [SUITE_SPECS[policy]], ...setup });
    expect(second.log).toEqual(first.log);
  });

  it("no policy ever continues past a question to the person, even combined", async () => {
    const result = await drive({ specs: Object.values(SUITE_SPECS).filter((s) => s.name !== "everyReplyCheck" && s.name !== "goalQueue" && s.name !== "measureLoop"), ...SCENARIOS["permission question"]! });
    expect([result.status, result.reason]).toEqual(["paused", "the model asked the person a question"]);
  });
});
