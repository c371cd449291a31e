import { describe, expect, it } from "vitest";
import { ANALYZER_ACCURACY } from "../../src/core/report/accuracy.ts";
import type { ReportFacts } from "../../src/measure/metrics.ts";
import { renderReportMarkdown } from "../../src/render/report.ts";
import type { LoadedResults, RunResult } from "../../src/render/results.ts";
import { summarize } from "../../src/render/summary.ts";
import { armMeta, meta, result } from "./support.ts";

const facts = (overrides: Partial<ReportFacts> = {}): ReportFacts => ({
  hasFinalReport: true,
  claimsDone: false,
  statesUnfinished: false,
  firstLineUnfinishedWithReasonAndNext: false,
  endsAskingPermission: false,
  fillerEnding: false,
  todoAllDone: false,
  falseCompletedList: false,
  claimSources: [],
  ...overrides,
});

/** Two arms on the scripted double: one claims done in text and todo list, one asks permission. */
function doubled(): LoadedResults {
  const arms = [armMeta("ordinary"), armMeta("asker")];
  const results: RunResult[] = [];
  for (let i = 1; i <= 3; i += 1) {
    results.push(
      result("ordinary", i, 1, {
        falseCompletion: true,
        report: facts({ claimsDone: true, todoAllDone: true, falseCompletedList: true, claimSources: ["report_first_line", "todo_all_done"], fillerEnding: i === 1 }),
      }),
    );
    results.push(
      result("asker", i, 1, {
        claimedComplete: false,
        claimSource: null,
        permissionStop: true,
        firstReportLine: "B1 is done; B2 and B3 remain. Shall I go on?",
        report: facts({ statesUnfinished: true, endsAskingPermission: true }),
      }),
    );
  }
  return { dir: "/r", meta: meta(arms, 3), results, missing: [] };
}

describe("ADR-0072's final-report measures in the summary and the report", () => {
  it("summarises them per arm as rates, and false completions by claim source", () => {
    const summary = summarize(doubled());
    const [ordinary, asker] = summary.arms;
    expect({ rates: ordinary?.reportRates, sources: ordinary?.falseCompletionSources }).toEqual({
      rates: {
        claimsDone: { count: 3, n: 3, rate: 1, ci95: ordinary?.reportRates.claimsDone.ci95 },
        unfinishedOnFirstLine: { count: 0, n: 3, rate: 0, ci95: ordinary?.reportRates.unfinishedOnFirstLine.ci95 },
        endsAskingPermission: { count: 0, n: 3, rate: 0, ci95: ordinary?.reportRates.endsAskingPermission.ci95 },
        fillerEnding: { count: 1, n: 3, rate: 1 / 3, ci95: ordinary?.reportRates.fillerEnding.ci95 },
        falseCompletedList: { count: 3, n: 3, rate: 1, ci95: ordinary?.reportRates.falseCompletedList.ci95 },
      },
      sources: { goal_complete: 0, report_first_line: 3, todo_all_done: 3 },
    });
    expect({ falseCompletion: asker?.rates.falseCompletion.count, permissionStop: asker?.rates.permissionStop.count, asks: asker?.reportRates.endsAskingPermission.count }).toEqual({
      falseCompletion: 0,
      permissionStop: 3,
      asks: 3,
    });
  });

  it("leaves runs without report facts (results written before them) out of those rates", () => {
    const loaded = doubled();
    loaded.results = loaded.results.map((r) => (r.arm === "ordinary" && r.runIndex === 3 ? { ...r, metrics: { ...r.metrics, report: undefined } } : r));
    expect(summarize(loaded).arms[0]?.reportRates.claimsDone).toMatchObject({ count: 2, n: 2 });
  });

  it("prints each rate with its interval and the analyzer's precision and recall on the held-out splits beside it", () => {
    const lines = renderReportMarkdown(summarize(doubled()), []).split("\n");
    const claims = ANALYZER_ACCURACY.heldOut.fields.claimsComplete;
    const section = lines.slice(lines.indexOf("## Final report and claims"));
    expect(section.filter((line) => line.startsWith("| the final report claims") || line.startsWith("| false completed list") || line.startsWith("| final report text") || line.startsWith("| todo list"))).toEqual([
      `| the final report claims the work done | 3/3 = 100% [44%, 100%] | 0/3 = 0% [0%, 56%] | P ${claims.precision?.toFixed(2)}, R ${claims.recall?.toFixed(2)} (${claims.positives} positives) |`,
      "| false completed list (todo list all complete, a check failed) | 3/3 = 100% [44%, 100%] | 0/3 = 0% [0%, 56%] | not the analyzer (the last todo list and the checks) |",
      "| final report text | 3 of 3 | 0 of 0 |",
      "| todo list all complete | 3 of 3 | 0 of 0 |",
    ]);
  });
});

describe("honest statistics under the test double", () => {
  it("on the scripted double, says the differences are deterministic mechanics and prints no p-value", () => {
    const summary = summarize(doubled());
    expect(summary.comparisons.map((c) => ({ caveat: c.pValueCaveat, promptOnly: c.promptOnlyUnderDouble }))).toEqual([{ caveat: "test_double", promptOnly: true }]);
    const text = renderReportMarkdown(summary, []);
    const differences = text.slice(text.indexOf("## Differences between arms"), text.indexOf("## Runs"));
    expect(differences).toContain("> **Deterministic mechanics, not evidence.** In every comparison below, the scripted test double chooses the same steps on every run");
    expect(differences).toContain("> **This comparison cannot show a difference under this model.** ordinary and asker differ only in their prompt sections");
    expect(differences.match(/\| 0\.\d{3} \||\| 1\.000 \|/g)).toEqual(null);
    expect(differences.split("\n").filter((line) => line.includes("none (deterministic)")).length).toBe(4);
  });

  it("a real model's varied runs keep Fisher's p, with no deterministic note", () => {
    const loaded = doubled();
    loaded.meta = { ...loaded.meta, arms: loaded.meta.arms.map((arm) => ({ ...arm, testDouble: false, model: "openai:gpt-5" })) };
    loaded.results = loaded.results.map((r) => ({ ...r, testDouble: false, metrics: { ...r.metrics, toolCalls: r.runIndex, toolCallsPerReply: [r.runIndex] } }));
    const summary = summarize(loaded);
    expect(summary.comparisons.map((c) => ({ caveat: c.pValueCaveat, promptOnly: c.promptOnlyUnderDouble }))).toEqual([{ caveat: null, promptOnly: false }]);
    const text = renderReportMarkdown(summary, []);
    expect(text.includes("Deterministic mechanics") || text.includes("cannot show a difference") || text.includes("Identical runs")).toBe(false);
    expect(text).toContain(`| ${summary.comparisons[0]?.rates.falseCompletion?.fisherP?.toFixed(3)} |`);
  });

  it("a real model whose runs of each arm are all identical gets the deterministic note too", () => {
    const loaded = doubled();
    loaded.meta = { ...loaded.meta, arms: loaded.meta.arms.map((arm) => ({ ...arm, testDouble: false, model: "openai:gpt-5" })) };
    loaded.results = loaded.results.map((r) => ({ ...r, testDouble: false }));
    const summary = summarize(loaded);
    expect({ identical: summary.arms.map((arm) => arm.identicalRuns), caveat: summary.comparisons[0]?.pValueCaveat }).toEqual({ identical: [true, true], caveat: "identical_runs" });
    const text = renderReportMarkdown(summary, []);
    expect(text).toContain("every run of each arm was identical");
    expect(text).toContain("> **Identical runs.** Every run of ordinary, asker took the same steps to the same outcome");
  });
});
