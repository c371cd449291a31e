/**
 * The accounting bench's statistics (ADR 0131): the distribution-free interval for a median, and
 * the share of a CPU profile's busy samples in given files.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { medianInterval } from "../../scripts/bench/lib/interval.ts";
import { profileShare } from "../../scripts/bench/lib/profile-share.ts";

/** P(Binomial(n, ½) ≤ j). */
function below(n: number, j: number): number {
  let p = 0;
  let term = 0.5 ** n;
  for (let k = 0; k <= j; k += 1) {
    p += term;
    term = (term * (n - k)) / (k + 1);
  }
  return p;
}

describe("medianInterval", () => {
  it("takes the order statistics the binomial gives, with their coverage", () => {
    const ranks = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect([6, 9, 11, 20].map((n) => medianInterval(ranks(n)))).toEqual([
      { low: 1, median: 3.5, high: 6, coverage: 0.96875 },
      { low: 2, median: 5, high: 8, coverage: 1 - 2 * below(9, 1) },
      { low: 2, median: 6, high: 10, coverage: 1 - 2 * below(11, 1) },
      { low: 6, median: 10.5, high: 15, coverage: 1 - 2 * below(20, 5) },
    ]);
  });

  it("never claims less than the level it was asked for, and holds the median, for any samples", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { minLength: 6, maxLength: 80 }), (values) => {
        const interval = medianInterval(values);
        expect(interval.coverage).toBeGreaterThanOrEqual(0.95);
        expect(interval.low).toBeLessThanOrEqual(interval.median);
        expect(interval.median).toBeLessThanOrEqual(interval.high);
        // The k-th smallest and the k-th largest, k the most for which P(count ≤ k - 1) ≤ 2.5 %.
        const n = values.length;
        let k = 1;
        while (k < n / 2 && below(n, k) <= 0.025) k += 1;
        const sorted = [...values].sort((x, y) => x - y);
        expect([interval.low, interval.high, interval.coverage]).toEqual([sorted[k - 1], sorted[n - k], 1 - 2 * below(n, k - 1)]);
      }),
    );
  });

  it("spans every sample when there are too few for the level", () => {
    expect(medianInterval([3, 1, 2])).toEqual({ low: 1, median: 2, high: 3, coverage: 0.75 });
  });
});

describe("profileShare", () => {
  it("counts busy samples whose stack passes through the files, leaving idle ones out", () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, scriptId: "0", lineNumber: 0, columnNumber: 0 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame("(root)", ""), children: [2, 5, 6] },
        { id: 2, callFrame: frame("runAgentLoop", "file:///x/src/run/agent.ts"), children: [3] },
        { id: 3, callFrame: frame("request", "file:///x/src/run/agent-tokens.ts"), children: [4] },
        { id: 4, callFrame: frame("stringify", ""), children: [] },
        { id: 5, callFrame: frame("(idle)", ""), children: [] },
        { id: 6, callFrame: frame("(garbage collector)", ""), children: [] },
      ],
      startTime: 0,
      endTime: 10,
      samples: [2, 3, 4, 5, 5, 6, 2, 4],
      timeDeltas: [1, 1, 1, 1, 1, 1, 1, 1],
    };
    expect(profileShare(profile, /\/src\/run\/agent-tokens\.ts/)).toEqual({ inFiles: 3, busy: 6 });
  });
});
