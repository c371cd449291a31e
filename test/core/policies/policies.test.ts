/**
 * The rules of each policy that the shared scenarios do not pin down, the factory's validation,
 * and the combination rules.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  POLICY_NAMES,
  PolicyOptionsError,
  changedPathsOf,
  combinePolicies,
  createPolicies,
  createTurnEndControl,
  detectLoop,
  readMeasurement,
  type PolicySpec,
} from "../../../src/core/policies/index.ts";
import type { ToolCallView, TurnEndPolicy } from "../../../src/core/policies/contract.ts";
import type { PolicySpec as RunPolicySpec } from "../../../src/run/arms/types.ts";
import { RunEvent } from "../../../src/run/record.ts";
import { drive, trace, type ScriptedCall } from "./driver.ts";

const tc = (name: string, args: Record<string, unknown>, extra: Partial<ToolCallView> = {}): ToolCallView => ({
  id: "x",
  name,
  arguments: args,
  ok: true,
  output: "",
  changedFiles: false,
  isCommand: name === "shell",
  ...extra,
});

describe("createPolicies", () => {
  it("PolicySpec in core and in run are the same shape", () => {
    expectTypeOf<RunPolicySpec>().toEqualTypeOf<PolicySpec>();
    const fromArm: RunPolicySpec[] = [{ name: "goal", options: { rounds: 5 } }, { name: "loopGuard" }];
    expect(createPolicies(fromArm).map((p) => p.name)).toEqual(["goal", "loopGuard"]);
  });

  it("builds every policy with its defaults", () => {
    const specs: PolicySpec[] = POLICY_NAMES.map((name) => (name === "measureLoop" ? { name, options: { command: "wc -l", direction: "min" } } : { name }));
    for (const spec of specs) expect(createPolicies([spec]).map((p) => p.name)).toEqual([spec.name]);
  });

  it.each<[string, PolicySpec[], string]>([
    ["an unknown policy", [{ name: "stopHook" as PolicySpec["name"] }], 'unknown policy "stopHook" in arm.yaml (policies[].name); known: none, todoGate, everyReplyCheck, goal, workSlice, loopGuard, measureLoop, goalQueue'],
    ["a prototype key", [{ name: "toString" as PolicySpec["name"] }], 'unknown policy "toString" in arm.yaml (policies[].name); known: none, todoGate, everyReplyCheck, goal, workSlice, loopGuard, measureLoop, goalQueue'],
    ["a duplicate", [{ name: "loopGuard" }, { name: "loopGuard" }], 'policy "loopGuard" appears twice in arm.yaml (policies); list each policy once'],
    ["two claim checkers", [{ name: "goal" }, { name: "everyReplyCheck" }], 'policies "goal" and "everyReplyCheck" both check claims; an arm may use only one of everyReplyCheck, goal, goalQueue'],
    ["a measure loop with a checker", [{ name: "measureLoop", options: { command: "x", direction: "min" } }, { name: "goal" }], 'policy "measureLoop" cannot be combined with "goal": the measure is the loop\'s verdict'],
    ["an unknown option", [{ name: "workSlice", options: { toolcalls: 10 } }], 'policy "workSlice" in arm.yaml (policies[].options): unknown option "toolcalls" (allowed: toolCalls, minutes, newTokens, maxSlices)'],
    ["a wrong type", [{ name: "goal", options: { rounds: "ten" } }], 'policy "goal" in arm.yaml (policies[].options): option "rounds": Invalid input: expected number, received string'],
    ["a non-positive limit", [{ name: "todoGate", options: { maxNudges: 0 } }], 'policy "todoGate" in arm.yaml (policies[].options): option "maxNudges": Too small: expected number to be >0'],
    ["a missing measure command", [{ name: "measureLoop", options: { direction: "up" } }], 'policy "measureLoop" in arm.yaml (policies[].options): option "command": Invalid input: expected string, received undefined; option "direction": Invalid option: expected one of "min"|"max"'],
  ])("refuses %s with a message naming the place and the fix", (_, specs, message) => {
    let thrown: unknown;
    try {
      createPolicies(specs);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PolicyOptionsError);
    expect((thrown as Error).message).toEqual(message);
  });
});

describe("the shared records", () => {
  it("goal.update records are valid run-record events once the loop adds t", async () => {
    const result = await drive({ specs: [{ name: "goal" }], script: () => ({ endReason: "error", errorMessage: "boom" }) });
    const records = result.log.filter((e) => e.type === "goal.update");
    expect(records.length).toBe(2);
    for (const record of records) expect(RunEvent.parse(record)).toEqual(record);
  });
});

describe("combinePolicies", () => {
  it("with no policies it behaves as none", async () => {
    const result = await drive({ control: combinePolicies([]), script: () => ({ text: "done" }) });
    expect([result.status, trace(result)]).toEqual(["completed", ["none settle/completed"]]);
  });

  it("joins the continues of several policies into one message, in arm order", async () => {
    const result = await drive({
      specs: [{ name: "goal", options: { rounds: 2 } }, { name: "todoGate" }],
      script: () => ({ calls: [{ name: "shell", arguments: { command: "make" } }], todos: [{ text: "ship it", status: "pending" }], text: "more to do" }),
    });
    const first = result.log.find((e) => e.type === "decision");
    expect(first).toMatchObject({ type: "decision", policy: "goal+todoGate", kind: "continue", reason: "goal: goal active: next round; todoGate: 1 open todo item (nudge 1 of 3)" });
    const message = result.log.filter((e) => e.type === "message")[2]!;
    expect(message.type === "message" && message.kind).toBe("continuation");
    expect(message.type === "message" && message.text.indexOf("round 2 of at most 2") < message.text.indexOf("The list shows progress")).toBe(true);
  });

  it("a brake from any policy wins over another's continue", async () => {
    const fail: ScriptedCall = { name: "shell", arguments: { command: "npm test" }, ok: false, exitCode: 1 };
    const result = await drive({ specs: [{ name: "goal" }, { name: "loopGuard" }], script: () => ({ calls: [fail, { name: "read_file", arguments: { path: "a" } }, fail], text: "still failing" }) });
    expect(trace(result)).toEqual(["goal+loopGuard continue", "loopGuard settle/blocked"]);
  });

  it("a verdict goes to the policy that asked, and a continue verdict carries the held nudges", async () => {
    const result = await drive({
      specs: [{ name: "todoGate" }, { name: "everyReplyCheck", options: { maxContinues: 1 } }],
      script: (i) => ({ calls: i === 0 ? [{ name: "shell", arguments: { command: "make" } }] : [{ name: "write_file", arguments: { path: "b" }, changedFiles: true }], todos: [{ text: "b", status: "pending" }], text: "partial" }),
      checker: () => "VERDICT: continue\nREASON: b is not done",
    });
    expect(trace(result)).toEqual(["everyReplyCheck check_claim", "everyReplyCheck+todoGate continue", "everyReplyCheck check_claim", "everyReplyCheck settle/interrupted"]);
  });

  it("routes tool calls to the policy that offers them and refuses the rest", () => {
    const control = createTurnEndControl([{ name: "loopGuard" }, { name: "goal" }]);
    let state = control.initialState();
    expect(control.tools!(state)).toEqual([]);
    state = control.onRunStart!({ handoff: "Do it", replies: [], todos: [], elapsedMs: 0, continuations: 0 }, state).state;
    expect(control.tools!(state).map((t) => t.name)).toEqual(["get_goal", "update_goal"]);
    expect(control.onToolCall!({ id: "1", name: "get_goal", arguments: {} }, state, { nowMs: 0 }).result.ok).toBe(true);
    expect(control.onToolCall!({ id: "2", name: "create_goal", arguments: {} }, state, { nowMs: 0 }).result).toEqual({ ok: false, output: "create_goal is not offered in this run" });
  });

  it("onClaimVerdict without a pending check is a loop bug and throws with the fix", () => {
    const control = createTurnEndControl([{ name: "goal" }]);
    expect(() => control.onClaimVerdict!({ verdict: "done", reason: "", evidence: [], shield: "passed" }, control.initialState(), { nowMs: 0 })).toThrow(
      "goal: onClaimVerdict was called, but no policy asked for a claim check at the last reply end; call it only after a check_claim decision",
    );
  });

  it("the measure command is the measure loop's", () => {
    const control = createTurnEndControl([{ name: "loopGuard" }, { name: "measureLoop", options: { command: "npm run -s count", direction: "max" } }]);
    expect(control.measureCommand!(control.initialState())).toBe("npm run -s count");
    expect(createTurnEndControl([{ name: "none" }]).measureCommand!(createTurnEndControl([{ name: "none" }]).initialState())).toBeNull();
  });
});

describe("goal policy", () => {
  it("offers its tools from the run start and answers them", async () => {
    const result = await drive({
      specs: [{ name: "goal" }],
      script: () => ({ calls: [{ name: "update_goal", arguments: { status: "paused" } }], endReason: "error", errorMessage: "x" }),
    });
    expect(result.log.find((e) => e.type === "tool")).toEqual({
      type: "tool",
      name: "update_goal",
      ok: false,
      output: 'update_goal accepts status "complete" or "blocked"; got "paused". Pausing, resuming and limits are for the person and the harness; to stop for the person, say so in your reply.',
    });
  });

  it("without onRunStart it settles error, naming the missing call", () => {
    const policy = createPolicies([{ name: "goal" }])[0]! as TurnEndPolicy<unknown>;
    const view = { handoff: "h", todos: [], elapsedMs: 0, continuations: 0, replies: [{ index: 0, text: "", toolCalls: [], endReason: "no_tool_call" as const, startedAtMs: 0, endedAtMs: 0, tokens: { input: 0, output: 0 } }] };
    expect(policy.onReplyEnd(view, policy.initialState()).decision).toEqual({ kind: "settle", status: "error", reason: "goal: onRunStart was not called, so no goal was set; call it before the first request", policy: "goal" });
  });

  it("a blocker reported on three consecutive rounds settles blocked; a model without other tools still stalls first", async () => {
    const blocked = await drive({
      specs: [{ name: "goal" }],
      script: () => ({ calls: [{ name: "shell", arguments: { command: "npm publish" }, ok: false, exitCode: 1 }, { name: "update_goal", arguments: { status: "blocked", reason: "npm publish needs a login token" } }], text: "Blocked on the token." }),
    });
    expect([blocked.status, blocked.reason]).toEqual(["blocked", "blocker reported on 3 consecutive rounds: npm publish needs a login token"]);
    expect(blocked.view.replies.length).toBe(3);
  });

  it("no model for the check accepts the claim unchecked and completes", async () => {
    const result = await drive({ specs: [{ name: "goal" }], checker: null, script: () => ({ calls: [{ name: "update_goal", arguments: { status: "complete", reason: "done" } }], text: "Done." }) });
    expect([result.status, result.reason]).toEqual(["completed", "claim accepted unchecked (no_model)"]);
  });

  it("ARMSTUDY_COMPLETION_CHECK=off accepts every claim unchecked", async () => {
    const result = await drive({ specs: [{ name: "goal" }], checkMode: "off", checker: () => "VERDICT: continue", script: () => ({ calls: [{ name: "update_goal", arguments: { status: "complete", reason: "done" } }], text: "Done." }) });
    expect([result.status, result.reason, result.requests.length]).toEqual(["completed", "claim accepted unchecked (check_off)", 0]);
  });
});

describe("goalQueue", () => {
  it("a stop other than completion stops the queue and says what was not started", async () => {
    const result = await drive({
      specs: [{ name: "goalQueue", options: { items: ["first", "second", "third"] } }],
      script: () => ({ calls: [{ name: "shell", arguments: { command: "make" } }], endReason: "usage_limit", errorMessage: "quota" }),
    });
    expect([result.status, result.reason]).toEqual(["usage_limited", "queue item 1 of 3: usage limit: quota; 2 queued goals not started"]);
  });

  it("the last completed item settles the queue completed", async () => {
    const result = await drive({
      specs: [{ name: "goalQueue", options: { items: ["first", "second"] } }],
      checker: null,
      script: () => ({ calls: [{ name: "update_goal", arguments: { status: "complete", reason: "done" } }], text: "Done." }),
    });
    expect([result.status, result.reason, result.view.replies.length]).toEqual(["completed", "all 2 queued goals complete; last: claim accepted unchecked (no_model)", 2]);
  });
});

describe("everyReplyCheck", () => {
  it("a claim accepted unchecked settles completed", async () => {
    const result = await drive({ specs: [{ name: "everyReplyCheck" }], checker: null, script: () => ({ calls: [{ name: "shell", arguments: { command: "make" } }], text: "Done." }) });
    expect([result.status, result.reason]).toEqual(["completed", "check: accepted unchecked (no_model)"]);
  });

  it("a done verdict with real evidence settles completed; the claim is the reply's text, judged against the handoff", async () => {
    const result = await drive({
      specs: [{ name: "everyReplyCheck" }],
      handoff: "Make the build pass.",
      script: () => ({ calls: [{ name: "shell", arguments: { command: "make" }, output: "build finished: 0 errors, 0 warnings" }], text: "The build passes." }),
      checker: () => "VERDICT: done\nREASON: clean build\nEVIDENCE:\n> build finished: 0 errors, 0 warnings",
    });
    expect([result.status, result.reason]).toEqual(["completed", "check: done: clean build"]);
    expect(result.requests[0]!.messages[1]!.content.startsWith("<goal_objective>\nMake the build pass.\n</goal_objective>\n\n<claim>\nThe build passes.\n</claim>")).toBe(true);
  });
});

describe("todoGate", () => {
  it("keeps nudging while each nudged reply makes progress, up to maxNudges", async () => {
    const result = await drive({
      specs: [{ name: "todoGate", options: { maxNudges: 2 } }],
      script: (i) => ({ calls: i === 0 ? [] : [{ name: "write_file", arguments: { path: `f${i}` }, changedFiles: true }], todos: [{ text: "a", status: "pending" }], text: "stop" }),
    });
    expect([result.status, result.reason, trace(result)]).toEqual(["interrupted", "unfinished: 1 open todo item after 2 nudges", ["todoGate continue", "todoGate continue", "todoGate settle/interrupted"]]);
  });

  it("closing an item counts as progress; closing the last settles completed", async () => {
    const result = await drive({
      specs: [{ name: "todoGate" }],
      script: (i) => ({ todos: [{ text: "a", status: i >= 1 ? "completed" : "pending" }, { text: "b", status: i >= 2 ? "completed" : "pending" }], text: "stop" }),
    });
    expect([result.status, result.reason, trace(result)]).toEqual(["completed", "no open todo items", ["todoGate continue", "todoGate continue", "todoGate settle/completed"]]);
  });
});

describe("workSlice", () => {
  it("the minutes budget ends a reply at the step that crosses it", () => {
    const [policy] = createPolicies([{ name: "workSlice", options: { minutes: 10 } }]) as [TurnEndPolicy<unknown>];
    const view = { handoff: "h", replies: [], todos: [], elapsedMs: 0, continuations: 0 };
    const state = policy.initialState();
    expect(policy.onStep!(view, { index: 0, toolCalls: [], startedAtMs: 1000, nowMs: 1000 + 599_999 }, state).stop).toBeUndefined();
    expect(policy.onStep!(view, { index: 0, toolCalls: [], startedAtMs: 1000, nowMs: 1000 + 600_000 }, state).stop).toEqual({ reason: "slice budget: 10 minutes" });
  });

  it("a reply the model ends by itself is no boundary", async () => {
    const result = await drive({ specs: [{ name: "workSlice", options: { toolCalls: 10 } }], script: () => ({ calls: [{ name: "shell", arguments: { command: "make" } }], text: "done" }) });
    expect(trace(result)).toEqual(["workSlice settle/completed"]);
  });

  it("takes changed paths from the loop, else from the path argument", () => {
    expect(changedPathsOf(tc("apply_patch", {}, { changedFiles: true, changedPaths: ["a.ts", "b.ts"] }))).toEqual(["a.ts", "b.ts"]);
    expect(changedPathsOf(tc("edit", { file_path: "c.ts" }, { changedFiles: true }))).toEqual(["c.ts"]);
    expect(changedPathsOf(tc("edit", { file_path: "c.ts" }))).toEqual([]);
  });
});

describe("loopGuard: detectLoop", () => {
  const limits = { repeats: 3, failingRepeats: 2, idleSteps: 25 };
  const read = tc("read_file", { path: "a.ts" });
  const edit = tc("write_file", { path: "a.ts" }, { changedFiles: true });
  const fail = tc("shell", { command: "npm test" }, { ok: false, output: "1 failed" });
  const pass = tc("shell", { command: "npm test" }, { ok: true });

  it.each<[string, ToolCallView[], string | null]>([
    ["three identical calls", [read, read, read], 'the same call was made 3 times with no file change in between: read_file {"path":"a.ts"}'],
    ["the same arguments in another key order", [tc("grep", { a: 1, b: 2 }), tc("grep", { b: 2, a: 1 }), tc("grep", { a: 1, b: 2 })], 'the same call was made 3 times with no file change in between: grep {"a":1,"b":2}'],
    ["a file change in between", [read, read, edit, read], null],
    ["the same command failing twice", [fail, read, fail], "the same command failed 2 times in a row with no file change in between: npm test"],
    ["the same command three times, passing or not", [fail, pass, fail], 'the same call was made 3 times with no file change in between: shell {"command":"npm test"}'],
    ["an edit between two failures", [fail, edit, fail], null],
    ["25 steps without a change or a passing check", Array.from({ length: 25 }, (_, i) => tc("read_file", { path: `f${i}` })), "25 tool calls in a row without a file change or a passing check"],
    ["24 such steps", Array.from({ length: 24 }, (_, i) => tc("read_file", { path: `f${i}` })), null],
    ["a passing check resets the idle count", [...Array.from({ length: 20 }, (_, i) => tc("read_file", { path: `f${i}` })), pass, ...Array.from({ length: 20 }, (_, i) => tc("read_file", { path: `g${i}` }))], null],
  ])("%s", (_, calls, summary) => {
    expect(detectLoop(calls, limits)?.summary ?? null).toBe(summary);
  });

  it("a pass between two failures of the same command resets the failure count", () => {
    expect(detectLoop([fail, pass, fail], { ...limits, repeats: 10 })).toBeNull();
    expect(detectLoop([fail, read, fail], { ...limits, repeats: 10 })?.summary).toBe("the same command failed 2 times in a row with no file change in between: npm test");
  });

  it("after the one nudge only new calls count, and a second loop settles blocked", async () => {
    const readCall: ScriptedCall = { name: "read_file", arguments: { path: "a.ts" } };
    const result = await drive({ specs: [{ name: "loopGuard" }], script: (i) => (i === 0 ? { calls: [readCall, readCall, readCall] } : i === 1 ? { calls: [readCall], text: "ok" } : { text: "x" }) });
    expect(trace(result)).toEqual(["loopGuard continue", "loopGuard settle/completed"]);
    const again = await drive({ specs: [{ name: "loopGuard" }], script: () => ({ calls: [readCall, readCall, readCall] }) });
    expect([again.status, again.reason, trace(again)]).toEqual(["blocked", 'loop_guard: the same call was made 3 times with no file change in between: read_file {"path":"a.ts"}', ["loopGuard continue", "loopGuard settle/blocked"]]);
    expect(again.log.filter((e) => e.type === "stop").length).toBe(2);
  });
});

describe("measureLoop", () => {
  it.each<[string, number | null, string]>([
    ["a bare number", 42, "42\n"],
    ["the last number printed", 3.5, "files: 12\nscore: 3.5"],
    ["a negative and an exponent", -1.2e3, "delta -1.2e3"],
    ["no number", null, "nothing to count"],
  ])("reads %s", (_, value, output) => {
    expect(readMeasurement({ command: "m", exitCode: 0, output, atMs: 0 })).toBe(value);
  });

  it("a failing measure counts as no number", () => {
    expect(readMeasurement({ command: "m", exitCode: 2, output: "7", atMs: 0 })).toBeNull();
  });

  it("max direction: higher is better; the baseline is the run-start measurement", async () => {
    const values = [10, 12, 11, 13, 13, 13];
    const result = await drive({
      specs: [{ name: "measureLoop", options: { command: "score", direction: "max", window: 2 } }],
      script: () => ({ calls: [{ name: "write_file", arguments: { path: "a" }, changedFiles: true }] }),
      measure: (_, i) => ({ exitCode: 0, output: String(values[i]) }),
    });
    expect([result.status, result.reason, result.view.replies.length]).toEqual(["completed", "plateau: no new best in 2 iterations; best 13", 5]);
  });

  it("a baseline that is never beaten plateaus", async () => {
    const result = await drive({
      specs: [{ name: "measureLoop", options: { command: "count", direction: "min", window: 2 } }],
      script: () => ({ text: "tried" }),
      measure: () => ({ exitCode: 0, output: "5" }),
    });
    expect([result.status, result.reason, result.view.replies.length]).toEqual(["completed", "plateau: no new best in 2 iterations; best 5", 2]);
  });
});
