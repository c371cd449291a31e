import { describe, expect, it } from "vitest";
import { seededRng } from "../../src/measure/stats.ts";
import { type PrimaryQuestion, decideVerdict, newcombeInterval } from "../../src/measure/verdict.ts";

const round = (pair: [number, number] | null): [number, number] | null => (pair === null ? null : [Number(pair[0].toFixed(4)), Number(pair[1].toFixed(4))]);
const flags = (yes: number, n: number): number[] => Array.from({ length: n }, (_, i) => (i < yes ? 1 : 0));

const question: PrimaryQuestion = { metric: "falseCompletion", kind: "rate", baseline: "ordinary", treatment: "goal", direction: "lower", minDifference: 0.2, alpha: 0.05 };

describe("newcombeInterval (hybrid score, Newcombe 1998 method 10)", () => {
  it("matches the paper's worked examples", () => {
    // Newcombe's Table II: 56/70 − 48/80 → [0.0524, 0.3339]; 9/10 − 3/10 → [0.1705, 0.8090].
    expect(round(newcombeInterval(48, 80, 56, 70))).toEqual([0.0524, 0.3339]);
    expect(round(newcombeInterval(3, 10, 9, 10))).toEqual([0.1705, 0.809]);
    expect(newcombeInterval(0, 0, 1, 2)).toEqual(null);
  });
});

describe("decideVerdict", () => {
  const rng = () => seededRng(7);
  it("supported: a large drop with enough runs", () => {
    const verdict = decideVerdict({ question, baseline: flags(16, 20), treatment: flags(2, 20), testDouble: false, rng: rng() });
    expect(verdict.kind).toEqual("supported");
    expect(verdict.difference).toBeCloseTo(-0.7, 10);
    expect(verdict.runsNeeded).toEqual(null);
  });
  it("contradicted: the interval rules out a drop as large as the one that matters", () => {
    const verdict = decideVerdict({ question, baseline: flags(20, 40), treatment: flags(21, 40), testDouble: false, rng: rng() });
    expect(verdict.kind).toEqual("contradicted");
  });
  it("inconclusive: says how many runs per arm would detect the stated difference", () => {
    const verdict = decideVerdict({ question, baseline: flags(2, 3), treatment: flags(1, 3), testDouble: false, rng: rng() });
    expect(verdict).toEqual({
      kind: "inconclusive",
      difference: 1 / 3 - 2 / 3,
      interval: verdict.interval,
      level: 0.95,
      baseline: { n: 3, value: 2 / 3 },
      treatment: { n: 3, value: 1 / 3 },
      // From the observed 2/3 down to 2/3 − 0.2 (p̄ = 0.5667): (1.959964·√0.49111 + 0.841621·√0.47111)² / 0.04 = 95.2 → 96.
      runsNeeded: 96,
    });
  });
  it("mechanics-only under the scripted test double, however large the difference", () => {
    const verdict = decideVerdict({ question, baseline: flags(3, 3), treatment: flags(0, 3), testDouble: true, rng: rng() });
    expect(verdict.kind).toEqual("mechanics-only");
    expect(verdict.difference).toEqual(-1);
  });
  it("no-data when an arm has no runs", () => {
    expect(decideVerdict({ question, baseline: [], treatment: flags(0, 3), testDouble: false, rng: rng() }).kind).toEqual("no-data");
  });
  it("counts use a bootstrap interval and the pooled spread for the runs needed", () => {
    const count: PrimaryQuestion = { ...question, metric: "tokensTotal", kind: "count", minDifference: 100 };
    const verdict = decideVerdict({ question: count, baseline: [1000, 1100, 900], treatment: [950, 1050, 1000], testDouble: false, rng: rng() });
    expect(verdict.kind).toEqual("inconclusive");
    expect(verdict.runsNeeded).toEqual(16);
  });
});
