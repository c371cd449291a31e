import { describe, expect, it } from "vitest";
import { checkAgainstBaseline, checkThresholds, githubAnnotations, parseThreshold } from "../../src/render/gates.ts";
import { type LoadedResults, tasksOf } from "../../src/render/results.ts";
import { armMeta, meta, result } from "./support.ts";

function loaded(dir: string, falseCompletions: number, runs = 4): LoadedResults {
  const arms = [armMeta("ordinary"), armMeta("goal")];
  const results = [];
  for (let i = 1; i <= runs; i += 1) {
    results.push(result("ordinary", i, 1, { falseCompletion: true }));
    results.push(result("goal", i, 3, { falseCompletion: i <= falseCompletions, toolCalls: 30 }));
  }
  return { dir, meta: meta(arms, runs), results, missing: [] };
}

describe("parseThreshold", () => {
  it("reads ARM.METRIC.STAT OP NUMBER", () => {
    expect(parseThreshold(" ordinary.falseCompletion.rate > 0.2 ")).toEqual({ text: "ordinary.falseCompletion.rate > 0.2", arm: "ordinary", metric: "falseCompletion", stat: "rate", operator: ">", value: 0.2 });
    expect(parseThreshold("goal.tokensTotal.mean>=1e5")).toEqual({ text: "goal.tokensTotal.mean>=1e5", arm: "goal", metric: "tokensTotal", stat: "mean", operator: ">=", value: 100000 });
  });
  it.each([
    ["ordinary falseCompletion > 1", 'not of the form ARM.METRIC.STAT OP NUMBER'],
    ["ordinary.falseCompletions.rate > 0.2", '"falseCompletions" is not a study metric'],
    ["ordinary.falseCompletion.mean > 0.2", '"mean" is not a statistic of falseCompletion (a rate); use one of rate, count, n.'],
    ["goal.toolCalls.rate > 1", '"rate" is not a statistic of toolCalls (a count); use one of mean, median, min, max, n.'],
  ])("refuses %s", (text, message) => {
    expect(() => parseThreshold(text)).toThrow(message);
  });
});

describe("checkThresholds", () => {
  it("fires on the runs that are scored, and names the value", () => {
    const results = loaded("cur", 1);
    expect(checkThresholds(results, ["ordinary.falseCompletion.rate > 0.2", "goal.falseCompletion.count >= 2", "goal.toolCalls.max == 30"].map(parseThreshold))).toEqual([
      { gate: "ordinary.falseCompletion.rate > 0.2", message: "ordinary.falseCompletion.rate > 0.2: is 1." },
      { gate: "goal.toolCalls.max == 30", message: "goal.toolCalls.max == 30: is 30." },
    ]);
  });
  it("leaves errored runs out", () => {
    const results = loaded("cur", 0);
    results.results.push(result("goal", 5, 0, { falseCompletion: true }, { status: "error", error: "model.unreachable" }));
    expect(checkThresholds(results, [parseThreshold("goal.falseCompletion.count > 0")])).toEqual([]);
  });
  it("refuses an arm the study did not run", () => {
    expect(() => checkThresholds(loaded("cur", 0), [parseThreshold("old-build.falseCompletion.rate > 0")])).toThrow('the study has no arm "old-build" (arms: ordinary, goal).');
  });
});

describe("checkAgainstBaseline", () => {
  it("fails on a change beyond its interval in the worse direction, and only then", () => {
    const baseline = loaded("base", 0, 8);
    expect(checkAgainstBaseline(baseline, loaded("same", 0, 8)).failures).toEqual([]);
    // One more false completion in 8 stays inside its interval; seven do not.
    expect(checkAgainstBaseline(baseline, loaded("slight", 1, 8)).failures).toEqual([]);
    const { failures } = checkAgainstBaseline(baseline, loaded("broken", 7, 8));
    expect(failures.map((f) => f.gate)).toEqual(["worse than baseline: goal.falseCompletion"]);
    expect(failures[0]?.message).toMatch(/^goal\.falseCompletion got worse than the baseline base: 87\.5 points \[\d+\.?\d*, \d+\.?\d*\] \(lower is better\)\.$/);
    expect(githubAnnotations(failures)).toEqual(`::error title=armstudy gate::${failures[0]?.message}\n`);
  });
});

describe("gates on rates measured on some runs only", () => {
  const plan = (outcome: string) => ({ firstOutcome: "no_plan", outcome, repaired: outcome === "plan_ready" });
  function planStudy(): LoadedResults {
    const arms = [armMeta("plan-before")];
    const study = meta(arms, 3);
    const task = (name: string, workExists: boolean) => ({ ...tasksOf(study)[0]!, name, flat: false, ...(workExists ? { workExists: true } : {}) });
    // Three runs on the work-exists task (two end with a plan), three on a task that needs the work (all plans).
    const results = [1, 2, 3].flatMap((i) => [
      result("plan-before", i, 3, { plan: plan(i === 3 ? "no_plan" : "plan_ready") }, { task: "already-done" }),
      result("plan-before", i, 3, { plan: plan("plan_ready") }, { task: "stockbook" }),
    ]);
    return { dir: "plans", meta: { ...study, tasks: [task("stockbook", false), task("already-done", true)] }, results, missing: [] };
  }
  it("reads plansForExistingWork over the work-exists runs alone", () => {
    expect(parseThreshold("plan-before.plansForExistingWork.rate > 0.5")).toEqual({ text: "plan-before.plansForExistingWork.rate > 0.5", arm: "plan-before", metric: "plansForExistingWork", stat: "rate", operator: ">", value: 0.5 });
    const gates = ["plan-before.plansForExistingWork.rate > 0.5", "plan-before.plansForExistingWork.n != 3", "plan-before.plansForExistingWork.count >= 3"].map(parseThreshold);
    expect(checkThresholds(planStudy(), gates)).toEqual([{ gate: "plan-before.plansForExistingWork.rate > 0.5", message: "plan-before.plansForExistingWork.rate > 0.5: is 0.666667." }]);
  });
  it("reads the final report's rates, and says when no run measured one", () => {
    const results = loaded("cur", 0);
    const withReport = (i: number, falseCompletedList: boolean) => result("goal", 10 + i, 3, {
        report: { hasFinalReport: true, claimsDone: true, statesUnfinished: false, firstLineUnfinishedWithReasonAndNext: false, endsAskingPermission: false, fillerEnding: false, todoAllDone: true, falseCompletedList, claimSources: ["todo_all_done"] },
      });
    results.results.push(withReport(1, true), withReport(2, false));
    expect(checkThresholds(results, ["goal.falseCompletedList.rate >= 0.5", "goal.falseCompletedList.n == 2", "ordinary.falseCompletedList.rate > 0"].map(parseThreshold))).toEqual([
      { gate: "goal.falseCompletedList.rate >= 0.5", message: "goal.falseCompletedList.rate >= 0.5: is 0.5." },
      { gate: "goal.falseCompletedList.n == 2", message: "goal.falseCompletedList.n == 2: is 2." },
      { gate: "ordinary.falseCompletedList.rate > 0", message: "ordinary.falseCompletedList.rate > 0: no value (the arm has no finished runs that measure falseCompletedList), so the gate cannot pass." },
    ]);
  });
  it("names the measured rates among the metrics a gate can read", () => {
    expect(() => parseThreshold("goal.plansForExisting.rate > 0")).toThrow(/use one of .*claimsDone, unfinishedOnFirstLine, endsAskingPermission, fillerEnding, falseCompletedList, plansForExistingWork\.$/);
    expect(() => parseThreshold("goal.plansForExistingWork.mean > 0")).toThrow('"mean" is not a statistic of plansForExistingWork (a rate); use one of rate, count, n.');
  });
});
