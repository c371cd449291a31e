import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  bootstrapMeanCI,
  bootstrapMeanDifference,
  compareRates,
  deriveSeed,
  fisherExact,
  mean,
  median,
  quantileSorted,
  seededRng,
  smallSampleWarning,
  summarizeCounts,
  summarizeRate,
  wilson,
} from "../../src/measure/stats.ts";

const round = (x: number, digits = 4): number => Number(x.toFixed(digits));
const roundPair = (pair: [number, number] | null, digits = 4): [number, number] | null =>
  pair === null ? null : [round(pair[0], digits), round(pair[1], digits)];

describe("fisherExact (two-sided, R's fisher.test convention)", () => {
  it.each([
    // Fisher's lady tasting tea: 3 of 4 cups right.
    { table: [3, 1, 1, 3], p: 0.4857 },
    // The textbook dieting example (men/women × dieting/not): p ≈ 0.002759.
    { table: [1, 9, 11, 3], p: 0.0028 },
    // Three runs per arm, all against none: the smallest p three-run arms can give.
    { table: [3, 0, 0, 3], p: 0.1 },
    // Four against four: 2 / C(8,4).
    { table: [4, 0, 0, 4], p: 0.0286 },
    // No difference at all.
    { table: [2, 1, 2, 1], p: 1 },
    { table: [0, 3, 0, 3], p: 1 },
    { table: [0, 0, 0, 0], p: 1 },
  ])("$table → p = $p", ({ table, p }) => {
    const [a, b, c, d] = table as [number, number, number, number];
    expect(round(fisherExact(a, b, c, d))).toEqual(p);
  });

  it("matches the dieting example to six significant digits", () => {
    expect(Number(fisherExact(1, 9, 11, 3).toPrecision(4))).toEqual(0.002759);
  });

  it("is a probability, and symmetric under swapping rows, columns and transposing", () => {
    const cell = fc.integer({ min: 0, max: 25 });
    fc.assert(
      fc.property(cell, cell, cell, cell, (a, b, c, d) => {
        const p = fisherExact(a, b, c, d);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(fisherExact(c, d, a, b)).toBeCloseTo(p, 10);
        expect(fisherExact(b, a, d, c)).toBeCloseTo(p, 10);
        expect(fisherExact(a, c, b, d)).toBeCloseTo(p, 10);
      }),
    );
  });

  it("names the bad cell", () => {
    expect(() => fisherExact(1, -1, 0, 0)).toThrow("fisherExact: cell b must be a non-negative integer, got -1");
  });
});

describe("wilson (95%)", () => {
  it.each([
    // Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (score interval).
    { x: 81, n: 263, ci: [0.2553, 0.3662] },
    { x: 15, n: 148, ci: [0.0624, 0.1605] },
    { x: 0, n: 20, ci: [0, 0.1611] },
    { x: 1, n: 29, ci: [0.0061, 0.1718] },
    // Small study sizes.
    { x: 0, n: 10, ci: [0, 0.2775] },
    { x: 5, n: 10, ci: [0.2366, 0.7634] },
    { x: 3, n: 3, ci: [0.4385, 1] },
    { x: 0, n: 3, ci: [0, 0.5615] },
  ])("$x of $n → $ci", ({ x, n, ci }) => {
    expect(roundPair(wilson(x, n))).toEqual(ci);
  });

  it("is null for no runs and rejects impossible counts", () => {
    expect(wilson(0, 0)).toEqual(null);
    expect(() => wilson(4, 3)).toThrow("wilson: need integers 0 <= successes <= n, got 4 of 3");
  });

  it("always contains the observed rate and stays in [0, 1]", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.nat(), (n, k) => {
        const x = k % (n + 1);
        const [lo, hi] = wilson(x, n) as [number, number];
        expect(lo).toBeGreaterThanOrEqual(0);
        expect(hi).toBeLessThanOrEqual(1);
        expect(lo).toBeLessThanOrEqual(x / n + 1e-12);
        expect(hi).toBeGreaterThanOrEqual(x / n - 1e-12);
      }),
    );
  });
});

describe("summaries", () => {
  it("computes mean, median and R type-7 quantiles", () => {
    expect(mean([1, 2, 3, 10])).toEqual(4);
    expect(median([3, 1, 2])).toEqual(2);
    expect(median([4, 1, 3, 2])).toEqual(2.5);
    expect(mean([])).toEqual(null);
    expect(median([])).toEqual(null);
    expect(quantileSorted([1, 2, 3, 4], 0.25)).toEqual(1.75);
    expect(quantileSorted([1, 2, 3, 4], 0.975)).toEqual(3.925);
  });

  it("summarises counts with a seeded bootstrap interval", () => {
    const values = [2, 4, 4, 5, 9];
    const first = summarizeCounts(values, seededRng(7));
    const again = summarizeCounts(values, seededRng(7));
    expect(again).toEqual(first);
    expect({ ...first, ci95: null }).toEqual({ n: 5, mean: 4.8, median: 4, min: 2, max: 9, ci95: null });
    const [lo, hi] = first.ci95 as [number, number];
    expect(lo).toBeGreaterThanOrEqual(2);
    expect(lo).toBeLessThan(4.8);
    expect(hi).toBeGreaterThan(4.8);
    expect(hi).toBeLessThanOrEqual(9);
    expect(summarizeCounts([], seededRng(1))).toEqual({ n: 0, mean: null, median: null, min: null, max: null, ci95: null });
  });

  it("gives a point interval for constant data and the exact percentiles for a two-point sample", () => {
    expect(bootstrapMeanCI([3, 3, 3], seededRng(1))).toEqual([3, 3]);
    // Means of two draws from {0, 1}: 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4.
    expect(bootstrapMeanCI([0, 1], seededRng(1))).toEqual([0, 1]);
  });

  it("summarises a rate with its Wilson interval", () => {
    expect(summarizeRate([true, false, false])).toEqual({ count: 1, n: 3, rate: 1 / 3, ci95: wilson(1, 3) });
    expect(summarizeRate([])).toEqual({ count: 0, n: 0, rate: null, ci95: null });
  });
});

describe("pairwise differences", () => {
  it("computes the difference of means b − a with a bootstrap interval that brackets it", () => {
    const result = bootstrapMeanDifference([1, 2, 3], [5, 6, 7], seededRng(3));
    expect(result.diff).toEqual(4);
    const [lo, hi] = result.ci95 as [number, number];
    expect(lo).toBeGreaterThanOrEqual(2);
    expect(lo).toBeLessThanOrEqual(4);
    expect(hi).toBeGreaterThanOrEqual(4);
    expect(hi).toBeLessThanOrEqual(6);
    expect(bootstrapMeanDifference([], [1], seededRng(3))).toEqual({ diff: null, ci95: null });
  });

  it("compares rates with Fisher's exact p", () => {
    const result = compareRates([true, true, true], [false, false, false], seededRng(5));
    expect(result).toEqual({ diff: -1, ci95: [-1, -1], fisherP: fisherExact(3, 0, 0, 3) });
    expect(compareRates([], [true], seededRng(5))).toEqual({ diff: null, ci95: null, fisherP: null });
  });
});

describe("seeded randomness", () => {
  it("repeats for the same seed, differs between seeds, and is uniform enough", () => {
    const a = seededRng(42);
    const b = seededRng(42);
    const c = seededRng(43);
    const seqA = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(seqA);
    expect(Array.from({ length: 5 }, c)).not.toEqual(seqA);
    const rng = seededRng(9);
    const draws = Array.from({ length: 20_000 }, rng);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(Math.abs((mean(draws) as number) - 0.5)).toBeLessThan(0.01);
  });

  it("derives distinct, stable seeds per label", () => {
    expect(deriveSeed(1, "goal/toolCalls")).toEqual(deriveSeed(1, "goal/toolCalls"));
    expect(deriveSeed(1, "goal/toolCalls")).not.toEqual(deriveSeed(1, "ordinary/toolCalls"));
    expect(deriveSeed(1, "x")).not.toEqual(deriveSeed(2, "x"));
  });
});

describe("smallSampleWarning", () => {
  it("names every small arm, and is null when all arms have five or more runs", () => {
    expect(smallSampleWarning({ goal: 3, ordinary: 5, "old-build": 4 })).toEqual(
      "Fewer than 5 runs per arm for goal (n=3), old-build (n=4): intervals are wide and only large differences can be told from chance; treat the comparisons as indicative.",
    );
    expect(smallSampleWarning({ goal: 5 })).toEqual(null);
  });
});
