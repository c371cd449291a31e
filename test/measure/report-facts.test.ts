import { describe, expect, it } from "vitest";
import { type ReportFacts, runMetrics, runReportFacts } from "../../src/measure/metrics.ts";
import type { RunEvent } from "../../src/run/record.ts";

const STEPS = ["B1", "B2", "B3", "B4", "B5", "B6"];
const failing = { passed: 3, failed: 3, checks: STEPS.map((id, i) => ({ id, passed: i < 3 })) };
const passing = { passed: 6, failed: 0, checks: STEPS.map((id) => ({ id, passed: true })) };

function run(finalText: string, plan: Array<"completed" | "pending"> | null, extra: RunEvent[] = []): RunEvent[] {
  const events: RunEvent[] = [
    { t: 0, type: "run.start", arm: "ordinary", runIndex: 1, seed: 1, model: "scripted:x", testDouble: true, prefixHash: "h", prefixTokens: 10, source: "armstudy", cwd: "/w" },
    { t: 1, type: "user.message", text: "Do B1..B6", kind: "handoff" },
  ];
  if (plan !== null) {
    events.push({ t: 2, type: "tool.call", id: "p", name: "update_plan", arguments: { plan: plan.map((status, i) => ({ step: `B${i + 1}`, status })) } });
    events.push({ t: 3, type: "tool.result", id: "p", ok: true, output: "", durationMs: 1 });
  }
  events.push(...extra);
  events.push({ t: 4, type: "assistant.text", text: finalText, final: true }, { t: 4, type: "reply.end", reason: "no_tool_call" }, { t: 5, type: "run.end", status: "settled", wallMs: 5 });
  return events;
}

const base: ReportFacts = {
  hasFinalReport: true,
  claimsDone: false,
  statesUnfinished: false,
  firstLineUnfinishedWithReasonAndNext: false,
  endsAskingPermission: false,
  fillerEnding: false,
  todoAllDone: false,
  falseCompletedList: false,
  claimSources: [],
};

describe("report facts (ADR-0072's measures of the final report)", () => {
  it("the permission-asker's reply is a permission stop with no claim, once the steps are known", () => {
    const events = run("Progress: B1–B3 are done and their checks pass.\n\nShall I go on with B4–B6?", ["completed", "completed", "completed", "pending", "pending", "pending"]);
    expect(runReportFacts(events, { acceptance: failing, steps: STEPS })).toEqual({ ...base, statesUnfinished: true, endsAskingPermission: true });
    const metrics = runMetrics(events, { acceptance: failing, steps: STEPS });
    expect({ claimed: metrics.claimedComplete, falseCompletion: metrics.falseCompletion, permissionStop: metrics.permissionStop }).toEqual({ claimed: false, falseCompletion: false, permissionStop: true });
  });

  it("names every source that claimed, and the false completed list apart from the text", () => {
    const events = run("All six steps are done.\n\nNothing needed next.", ["completed", "completed", "completed", "completed", "completed", "completed"], [
      { t: 3, type: "goal.update", from: "active", to: "complete", reason: "claimed", by: "model" },
    ]);
    expect(runReportFacts(events, { acceptance: failing, steps: STEPS })).toEqual({
      ...base,
      claimsDone: true,
      fillerEnding: true,
      todoAllDone: true,
      falseCompletedList: true,
      claimSources: ["goal_complete", "report_first_line", "todo_all_done"],
    });
    expect(runReportFacts(events, { acceptance: passing, steps: STEPS }).falseCompletedList).toBe(false);
    expect(runReportFacts(events).falseCompletedList).toBe(null);
  });

  it("reads ADR-0072's first reporting rule from the first line alone", () => {
    const onFirst = run("Not finished: B4 fails because `jq` is missing; install it and rerun `make check`.\n\nB1–B3 are done.", null);
    const later = run("B1–B3 are done.\n\nB4 is not finished: `jq` is missing; install it and rerun `make check`.", null);
    expect([runReportFacts(onFirst, { acceptance: failing, steps: STEPS }), runReportFacts(later, { acceptance: failing, steps: STEPS })]).toEqual([
      { ...base, statesUnfinished: true, firstLineUnfinishedWithReasonAndNext: true },
      { ...base, statesUnfinished: true },
    ]);
  });

  it("a run with no final text has no report", () => {
    const events: RunEvent[] = [{ t: 0, type: "run.end", status: "settled", wallMs: 0 }];
    expect(runReportFacts(events, { acceptance: failing })).toEqual({ ...base, hasFinalReport: false });
  });
});
