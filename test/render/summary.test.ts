import { describe, expect, it } from "vitest";
import { fisherExact, wilson } from "../../src/measure/stats.ts";
import { summarize } from "../../src/render/summary.ts";
import { armMeta, meta, result, threeArms } from "./support.ts";

describe("summarize", () => {
  it("summarises rates with Wilson intervals and counts with bootstrap intervals, per arm", () => {
    const summary = summarize(threeArms());
    const [oldBuild, ordinary, goal] = summary.arms;
    expect(ordinary?.rates.falseCompletion).toEqual({ count: 3, n: 3, rate: 1, ci95: wilson(3, 3) });
    expect(oldBuild?.rates.falseCompletion).toEqual({ count: 0, n: 3, rate: 0, ci95: wilson(0, 3) });
    expect(ordinary?.rates.allChecksPassed).toEqual({ count: 0, n: 3, rate: 0, ci95: wilson(0, 3) });
    expect(ordinary?.counts.toolCalls).toEqual({ n: 3, mean: 9, median: 9, min: 9, max: 9, ci95: [9, 9] });
    const before = goal?.counts.toolCallsBeforeReplyEnd;
    expect({ ...before, ci95: null }).toEqual({ n: 3, mean: 12, median: 12, min: 11, max: 13, ci95: null });
    const [lo, hi] = before?.ci95 as [number, number];
    expect(lo).toBeGreaterThanOrEqual(11);
    expect(hi).toBeLessThanOrEqual(13);
    expect(lo).toBeLessThan(hi);
    expect(goal?.counts.costUsd).toEqual({ n: 0, mean: null, median: null, min: null, max: null, ci95: null });
  });

  it("compares every pair of arms in study order, b − a, with Fisher's exact p for rates", () => {
    const summary = summarize(threeArms());
    expect(summary.comparisons.map((c) => `${c.b} − ${c.a}`)).toEqual(["ordinary − old-build", "goal − old-build", "goal − ordinary"]);
    const first = summary.comparisons[0];
    expect(first?.rates.falseCompletion).toEqual({ diff: 1, ci95: [1, 1], fisherP: fisherExact(0, 3, 3, 0) });
    expect(first?.rates.falseCompletion?.fisherP).toBeCloseTo(0.1, 10);
    expect(first?.counts.toolCalls).toEqual({ diff: -21, ci95: [-21, -21] });
    expect(Object.keys(first?.rates ?? {})).toEqual(["falseCompletion", "permissionStop", "claimedComplete", "allChecksPassed"]);
    expect(Object.keys(first?.counts ?? {})).toEqual(["toolCallsBeforeReplyEnd", "toolCalls", "checksPassed", "tokensTotal"]);
  });

  it("keeps one row per run with links into the results folder", () => {
    const summary = summarize(threeArms());
    expect(summary.arms[1]?.runs[0]).toEqual({
      runIndex: 1,
      seed: 101,
      status: "completed",
      reason: null,
      error: null,
      cause: null,
      checks: { passed: 1, failed: 2, failedIds: ["B2", "B3"] },
      claimedComplete: true,
      claimSource: "report_first_line",
      falseCompletion: true,
      permissionStop: false,
      firstReportLine: "Done: the handoff is complete.",
      toolCalls: 9,
      toolCallsBeforeReplyEnd: 9,
      toolCallsPerReply: [10],
      turns: { replies: null, continuations: null, nudges: null },
      claimChecks: { count: 0, done: 0, continue: 0, acceptedUnchecked: 0, shieldRejected: 0, agreesWithAcceptance: null },
      tokens: { prefix: 1000, input: 20_000, cachedInput: 0, output: 1000, reasoning: 0, total: 21_000, source: "counted" },
      costUsd: null,
      repeatedIdenticalCalls: 0,
      compactions: 0,
      timeToFirstTextMs: 100,
      wallMs: 1000,
      diff: { files: 1, insertions: 10, deletions: 0 },
      record: "runs/ordinary/run-1/record.jsonl",
      result: "runs/ordinary/run-1/result.json",
      patch: "runs/ordinary/run-1/diff.patch",
    });
  });

  it("warns about small samples, missing runs and harness errors, and says whether the model was the test double", () => {
    const loaded = threeArms();
    loaded.results = loaded.results.filter((r) => !(r.arm === "goal" && r.runIndex === 3));
    loaded.missing = [{ arm: "goal", runIndex: 3 }];
    loaded.results[0] = { ...loaded.results[0]!, error: "TypeError: broke", status: "error" };
    const summary = summarize(loaded);
    expect(summary.warnings).toEqual([
      "Fewer than 5 runs per arm for old-build (n=2), ordinary (n=3), goal (n=2): intervals are wide and only large differences can be told from chance; treat the comparisons as indicative.",
      "1 planned run(s) have no result (goal run 3): the study was interrupted or is one shard. Finish it with --resume, or merge the other shards.",
      "1 run(s) ended as error (old-build run 1: harness.exception); they are left out of every number. Rerun them with --retry-errors.",
    ]);
    expect(summary.runs).toEqual({ planned: 9, finished: 8, scored: 7, errors: 1, errorCauses: { "harness.exception": 1 }, missing: [{ arm: "goal", runIndex: 3 }] });
    // The error run is in no statistic: the arm is scored on its other two runs, and lists it apart.
    const oldBuild = summary.arms.find((arm) => arm.name === "old-build");
    expect([oldBuild?.n, oldBuild?.runs.map((run) => run.runIndex), oldBuild?.errors.count, oldBuild?.errors.causes, oldBuild?.errors.runs.map((run) => [run.runIndex, run.cause])]).toEqual([
      2,
      [2, 3],
      1,
      { "harness.exception": 1 },
      [[1, "harness.exception"]],
    ]);
    expect(oldBuild?.rates.allChecksPassed.n).toEqual(2);
    expect({ testDouble: summary.testDouble, arms: summary.testDoubleArms }).toEqual({ testDouble: true, arms: ["old-build", "ordinary", "goal"] });
    const real = summarize({ dir: "/r", meta: meta([armMeta("a", { testDouble: false, model: "openai:gpt-5" })], 5), results: [1, 2, 3, 4, 5].map((i) => result("a", i, 3)), missing: [] });
    expect({ testDouble: real.testDouble, arms: real.testDoubleArms, warnings: real.warnings }).toEqual({ testDouble: false, arms: [], warnings: [] });
  });

  it("does not depend on the order results were read in", () => {
    const loaded = threeArms();
    const shuffled = { ...loaded, results: [...loaded.results].reverse() };
    expect(summarize(shuffled)).toEqual(summarize(loaded));
  });
});
