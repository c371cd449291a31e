import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  hierarchicalBootstrap,
  mcnemarExact,
  meanOf,
  meanOverTasks,
  pairedBinary,
  passAtK,
  passAtKOf,
  passHatK,
  suiteEstimate,
} from "../../src/measure/suite-stats.ts";
import { seededRng } from "../../src/measure/stats.ts";

const round = (x: number | null, digits = 6): number | null => (x === null ? null : Number(x.toFixed(digits)));

describe("mcnemarExact (two-sided exact binomial on the discordant pairs)", () => {
  it.each([
    // No discordant pairs: nothing to test.
    { aOnly: 0, bOnly: 0, p: 1 },
    // 5 against 0: 2 · (1/2)^5 = 0.0625.
    { aOnly: 5, bOnly: 0, p: 0.0625 },
    { aOnly: 0, bOnly: 5, p: 0.0625 },
    // 3 against 1, n = 4: 2 · (C(4,0) + C(4,1)) / 16 = 2 · 5/16 = 0.625.
    { aOnly: 3, bOnly: 1, p: 0.625 },
    // 10 against 2, n = 12: 2 · (1 + 12 + 66) / 4096 = 158/4096.
    { aOnly: 10, bOnly: 2, p: 158 / 4096 },
    // Balanced: the tail passes one half, so p is capped at 1.
    { aOnly: 4, bOnly: 4, p: 1 },
    // 6 against 0: 2/64 = 0.03125, the smallest p six discordant pairs can give.
    { aOnly: 6, bOnly: 0, p: 0.03125 },
  ])("$aOnly vs $bOnly → p = $p", ({ aOnly, bOnly, p }) => {
    expect(round(mcnemarExact(aOnly, bOnly))).toEqual(round(p));
  });

  it("refuses counts that are not non-negative integers, naming the cell", () => {
    expect(() => mcnemarExact(-1, 2)).toThrow("mcnemarExact: aOnly must be a non-negative integer, got -1");
    expect(() => mcnemarExact(1, 0.5)).toThrow("mcnemarExact: bOnly must be a non-negative integer, got 0.5");
  });

  it("is symmetric, in (0, 1], and never below the one-sided tail", () => {
    fc.assert(
      fc.property(fc.nat(60), fc.nat(60), (a, b) => {
        const p = mcnemarExact(a, b);
        return p === mcnemarExact(b, a) && p > 0 && p <= 1;
      }),
    );
  });
});

describe("pass@k and pass^k (unbiased estimators from n runs with c passes)", () => {
  it.each([
    // pass@1 is the pass rate.
    { n: 3, c: 1, k: 1, at: 1 / 3, hat: 1 / 3 },
    // pass@2 = 1 − C(2,2)/C(3,2) = 1 − 1/3; pass^2 = C(1,2)/C(3,2) = 0.
    { n: 3, c: 1, k: 2, at: 2 / 3, hat: 0 },
    // k = n: at least one of all runs passed; all passed only if c = n.
    { n: 3, c: 1, k: 3, at: 1, hat: 0 },
    { n: 3, c: 3, k: 3, at: 1, hat: 1 },
    // pass^2 with 2 of 3: C(2,2)/C(3,2) = 1/3.
    { n: 3, c: 2, k: 2, at: 1, hat: 1 / 3 },
    // n = 5, c = 2, k = 2: pass@2 = 1 − C(3,2)/C(5,2) = 1 − 3/10; pass^2 = C(2,2)/C(5,2) = 1/10.
    { n: 5, c: 2, k: 2, at: 0.7, hat: 0.1 },
    // n = 5, c = 3, k = 2: pass@2 = 1 − C(2,2)/10 = 0.9; pass^2 = C(3,2)/10 = 0.3.
    { n: 5, c: 3, k: 2, at: 0.9, hat: 0.3 },
    // Nothing passed.
    { n: 4, c: 0, k: 2, at: 0, hat: 0 },
  ])("n=$n c=$c k=$k → pass@k $at, pass^k $hat", ({ n, c, k, at, hat }) => {
    expect([round(passAtK(n, c, k)), round(passHatK(n, c, k))]).toEqual([round(at), round(hat)]);
  });

  it("is null when k exceeds the runs, and refuses impossible counts", () => {
    expect([passAtK(2, 1, 3), passHatK(2, 1, 3)]).toEqual([null, null]);
    expect(() => passAtK(3, 4, 1)).toThrow("passAtK: need integers n >= c >= 0 and k >= 1, got n=3 c=4 k=1");
    expect(() => passHatK(3, 1, 0)).toThrow("passHatK: need integers n >= c >= 0 and k >= 1, got n=3 c=1 k=0");
  });

  it("pass@k grows with k, pass^k shrinks, and pass@1 = pass^1 = c/n", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.nat(), (n, seed) => {
        const c = seed % (n + 1);
        const rate = c / n;
        if (Math.abs((passAtK(n, c, 1) as number) - rate) > 1e-12 || Math.abs((passHatK(n, c, 1) as number) - rate) > 1e-12) return false;
        for (let k = 1; k < n; k += 1) {
          if ((passAtK(n, c, k + 1) as number) < (passAtK(n, c, k) as number) - 1e-12) return false;
          if ((passHatK(n, c, k + 1) as number) > (passHatK(n, c, k) as number) + 1e-12) return false;
        }
        return true;
      }),
    );
  });
});

describe("the task-then-runs bootstrap", () => {
  it("weighs every task the same", () => {
    // Task means 1 and 0 (a task of four runs and one of one): the mean over tasks is 1/2, not 4/5.
    expect(meanOverTasks([[1, 1, 1, 1], [0]], meanOf)).toEqual(0.5);
    expect(meanOverTasks([[], [2, 4]], meanOf)).toEqual(3);
    expect(meanOverTasks([[], []], meanOf)).toEqual(null);
  });

  it("draws tasks, then runs within them: an rng stuck at 0 always takes the first run of the first task", () => {
    expect(hierarchicalBootstrap([[7, 1], [3, 5]], meanOf, () => 0, 10)).toEqual([7, 7]);
    // Stuck just below 1: the last run of the last task.
    expect(hierarchicalBootstrap([[7, 1], [3, 5]], meanOf, () => 0.999, 10)).toEqual([5, 5]);
  });

  it("an interval that holds the estimate, is a point when every run agrees, and stays within the values", () => {
    const tasks = [[0, 1, 1], [1, 1, 1], [0, 0, 1], [1, 0, 1]];
    const estimate = suiteEstimate(tasks, meanOf, seededRng(11), 2000);
    expect(round(estimate.value)).toEqual(round((2 / 3 + 1 + 1 / 3 + 2 / 3) / 4));
    const [lo, hi] = estimate.ci95 as [number, number];
    expect(lo <= (estimate.value as number) && (estimate.value as number) <= hi && lo >= 0 && hi <= 1 && hi - lo > 0.1).toEqual(true);
    expect(hierarchicalBootstrap([[2, 2], [2]], meanOf, seededRng(3), 200)).toEqual([2, 2]);
    expect(hierarchicalBootstrap([[], []], meanOf, seededRng(3), 200)).toEqual(null);
  });

  it("the same seed gives the same interval (a merged study reports what the unsharded one did)", () => {
    const tasks = [[true, false, true], [false, false, true]];
    expect(suiteEstimate(tasks, passAtKOf(2), seededRng(5), 500)).toEqual(suiteEstimate(tasks, passAtKOf(2), seededRng(5), 500));
  });
});

describe("pairedBinary", () => {
  it("counts each kind of pair and tests the discordant ones", () => {
    const pairs: Array<[boolean, boolean]> = [
      [true, true],
      [false, true],
      [false, true],
      [false, true],
      [false, true],
      [false, true],
      [true, false],
      [false, false],
    ];
    // 1 against 5, n = 6: 2 · (1 + 6) / 64 = 0.21875.
    expect(pairedBinary(pairs)).toEqual({ pairs: 8, both: 1, aOnly: 1, bOnly: 5, neither: 1, p: 0.21875 });
    expect(pairedBinary([])).toEqual({ pairs: 0, both: 0, aOnly: 0, bOnly: 0, neither: 0, p: null });
  });
});
