/**
 * The longest silence (ADR 0101) per arm: a count metric in summary.json and a row of the report's
 * per-arm table; results written before the metric existed are left out, not read as zero.
 */
import { describe, expect, it } from "vitest";
import { renderReportMarkdown } from "../../src/render/report.ts";
import { summarize } from "../../src/render/summary.ts";
import { armMeta, meta, result } from "./support.ts";

describe("longestSilenceMs per arm", () => {
  it("is summarised with its interval, shown in the per-arm table, and absent for old results", () => {
    const loaded = {
      dir: "/r",
      meta: meta([armMeta("beats"), armMeta("old")], 2),
      results: [result("beats", 1, 3, { longestSilenceMs: 10_000 }), result("beats", 2, 3, { longestSilenceMs: 30_000 }), result("old", 1, 3), result("old", 2, 3)],
      missing: [],
    };
    const summary = summarize(loaded);
    const counts = summary.arms.map((arm) => ({ arm: arm.name, n: arm.counts.longestSilenceMs.n, mean: arm.counts.longestSilenceMs.mean, median: arm.counts.longestSilenceMs.median, max: arm.counts.longestSilenceMs.max }));
    expect(counts).toEqual([
      { arm: "beats", n: 2, mean: 20_000, median: 20_000, max: 30_000 },
      { arm: "old", n: 0, mean: null, median: null, max: null },
    ]);
    const row = renderReportMarkdown(summary, []).split("\n").filter((line) => line.startsWith("| longest silence"));
    // Two runs: every bootstrap mean is 10 000, 20 000 or 30 000, so the interval is the whole range.
    expect(summary.arms[0]!.counts.longestSilenceMs.ci95).toEqual([10_000, 30_000]);
    expect(row).toEqual(["| longest silence (ms, no record event) | 20,000 [10,000, 30,000] (median 20,000, 10,000–30,000) | – |"]);
  });
});
