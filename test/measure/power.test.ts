import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { independentDiscordance, normalQuantile, runsForMeans, runsForPairedRates, runsForTwoRates } from "../../src/measure/power.ts";

const round = (x: number, digits = 6): number => Number(x.toFixed(digits));

describe("normalQuantile", () => {
  it("gives the textbook quantiles", () => {
    expect([0.5, 0.8, 0.9, 0.95, 0.975, 0.995, 0.001].map((p) => round(normalQuantile(p)))).toEqual([0, 0.841621, 1.281552, 1.644854, 1.959964, 2.575829, -3.090232]);
  });
  it("is antisymmetric and non-decreasing", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 0.5, noNaN: true }), fc.double({ min: 1e-9, max: 0.5, noNaN: true }), (p, q) => {
        expect(Math.abs(normalQuantile(p) + normalQuantile(1 - p))).toBeLessThan(1e-8);
        // Non-decreasing: two p a few ulps apart may give the same double.
        if (p < q) expect(normalQuantile(p)).toBeLessThanOrEqual(normalQuantile(q));
      }),
    );
  });
  it("refuses p outside (0, 1)", () => {
    expect(() => normalQuantile(1)).toThrow("p must be in (0, 1), got 1");
  });
});

describe("sample sizes", () => {
  it("two independent rates (Fleiss, no continuity correction), worked by hand", () => {
    // p̄ = 0.45: (1.959964·√0.495 + 0.841621·√0.45)² / 0.3² = 3.77727 / 0.09 = 41.97 → 42.
    expect(runsForTwoRates(0.6, 0.3)).toEqual(42);
    // (1.959964·√0.32 + 0.841621·√0.32)² / 0.6² ... p̄ = 0.5: (1.959964·√0.5 + 0.841621·√0.42)² / 0.36 = 9.93 → 10.
    expect(runsForTwoRates(0.8, 0.2)).toEqual(10);
    expect(runsForTwoRates(0.3, 0.3)).toEqual(null);
    expect(runsForTwoRates(0.6, 0.3, { alpha: 0.01, power: 0.9 })).toBeGreaterThan(42);
  });
  it("paired rates (McNemar, Connor 1987), worked by hand", () => {
    // ψ = 0.4, δ = 0.2: (1.959964·√0.4 + 0.841621·√0.36)² / 0.04 = 76.09 → 77.
    expect(runsForPairedRates(0.3, 0.1)).toEqual(77);
    expect(runsForPairedRates(0.2, 0.2)).toEqual(null);
    expect(() => runsForPairedRates(0.7, 0.5)).toThrow("p10 + p01 cannot pass 1, got 1.2");
    expect(independentDiscordance(0.6, 0.2)).toEqual({ p10: 0.6 * 0.8, p01: 0.2 * 0.4 });
  });
  it("means: 2(zα+zβ)²σ²/δ²", () => {
    // 2 · 2.801585² · 4 / 1 = 62.79 → 63.
    expect(runsForMeans(1, 2)).toEqual(63);
    expect(runsForMeans(0, 2)).toEqual(null);
    expect(runsForMeans(3, 0)).toEqual(2);
  });
});
