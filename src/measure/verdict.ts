/**
 * The verdict on a study's pre-stated question: did the treatment arm move the primary metric in
 * the stated direction by at least the smallest difference that matters?
 *
 * - supported: the (1 − alpha) interval of the improvement lies above 0 and the estimate reaches
 *   the smallest difference that matters;
 * - contradicted: the interval's upper end is below that difference (the data rule out an
 *   improvement that matters — including a change for the worse);
 * - inconclusive: neither; it says how many runs per arm would detect the stated difference at 80 %
 *   power from the observed baseline rate (or spread, for counts);
 * - mechanics-only: the runs came from the scripted test double, whose deterministic runs show what
 *   the harness does, never how a model behaves — no verdict is drawn from them.
 *
 * Rates use Newcombe's hybrid score interval for a difference of two independent proportions
 * (method 10 of Newcombe 1998), which needs no resampling; counts use a seeded percentile bootstrap.
 * Pure: the bootstrap's randomness comes in as an Rng.
 */
import type { Rng } from "../core/random.ts";
import { runsForMeans, runsForTwoRates, normalQuantile } from "./power.ts";
import { type Interval, mean, quantileSorted, standardDeviation, wilson } from "./stats.ts";

export type Direction = "lower" | "higher";

export interface PrimaryQuestion {
  metric: string;
  kind: "rate" | "count";
  baseline: string;
  treatment: string;
  direction: Direction;
  /** The smallest difference that matters, in the metric's units (a rate difference as a fraction). */
  minDifference: number;
  alpha: number;
}

export type VerdictKind = "supported" | "contradicted" | "inconclusive" | "mechanics-only" | "no-data";

export interface Verdict {
  kind: VerdictKind;
  /** treatment − baseline; null when either arm has no runs. */
  difference: number | null;
  /** The (1 − alpha) interval of treatment − baseline. */
  interval: Interval | null;
  level: number;
  baseline: { n: number; value: number | null };
  treatment: { n: number; value: number | null };
  /** For an inconclusive verdict: runs per arm that would detect `minDifference` at 80 % power. */
  runsNeeded: number | null;
}

/** Newcombe's hybrid score interval for p2 − p1 at level 1 − alpha. */
export function newcombeInterval(x1: number, n1: number, x2: number, n2: number, alpha = 0.05): Interval | null {
  if (n1 === 0 || n2 === 0) return null;
  const z = normalQuantile(1 - alpha / 2);
  const [l1, u1] = wilson(x1, n1, z) as Interval;
  const [l2, u2] = wilson(x2, n2, z) as Interval;
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const d = p2 - p1;
  const below = Math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2);
  const above = Math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2);
  return [Math.max(-1, d - below), Math.min(1, d + above)];
}

/** Percentile-bootstrap interval of mean(b) − mean(a) at level 1 − alpha. */
function bootstrapDifference(a: readonly number[], b: readonly number[], alpha: number, rng: Rng, resamples = 4000): Interval {
  const draw = (values: readonly number[]): number => {
    let sum = 0;
    for (let i = 0; i < values.length; i += 1) sum += values[Math.floor(rng() * values.length)] as number;
    return sum / values.length;
  };
  const diffs: number[] = new Array(resamples);
  for (let r = 0; r < resamples; r += 1) diffs[r] = draw(b) - draw(a);
  diffs.sort((x, y) => x - y);
  return [quantileSorted(diffs, alpha / 2), quantileSorted(diffs, 1 - alpha / 2)];
}

export interface VerdictInput {
  question: PrimaryQuestion;
  /** Per-run values of the metric: 0/1 for a rate. */
  baseline: readonly number[];
  treatment: readonly number[];
  /** True when any run of the two arms came from the scripted test double. */
  testDouble: boolean;
  rng: Rng;
}

export function decideVerdict(input: VerdictInput): Verdict {
  const { question, baseline, treatment } = input;
  const level = 1 - question.alpha;
  const base = { n: baseline.length, value: mean(baseline) };
  const treat = { n: treatment.length, value: mean(treatment) };
  if (base.value === null || treat.value === null) {
    return { kind: "no-data", difference: null, interval: null, level, baseline: base, treatment: treat, runsNeeded: null };
  }
  const difference = treat.value - base.value;
  const interval =
    question.kind === "rate"
      ? (newcombeInterval(sum(baseline), baseline.length, sum(treatment), treatment.length, question.alpha) as Interval)
      : bootstrapDifference(baseline, treatment, question.alpha, input.rng);
  if (input.testDouble) return { kind: "mechanics-only", difference, interval, level, baseline: base, treatment: treat, runsNeeded: null };

  // Orient so that a positive number is an improvement in the stated direction.
  const sign = question.direction === "lower" ? -1 : 1;
  const gain = sign * difference;
  const gainLow = Math.min(sign * interval[0], sign * interval[1]);
  const gainHigh = Math.max(sign * interval[0], sign * interval[1]);
  const min = question.minDifference;
  let kind: VerdictKind;
  if (gainLow > 0 && gain >= min) kind = "supported";
  else if (gainHigh < min) kind = "contradicted";
  else kind = "inconclusive";
  let runsNeeded: number | null = null;
  if (kind === "inconclusive") {
    if (question.kind === "rate") {
      const target = clamp01(base.value + sign * min);
      runsNeeded = runsForTwoRates(base.value, target, { alpha: question.alpha, power: 0.8 });
    } else {
      const spread = Math.max(standardDeviation(baseline), standardDeviation(treatment));
      runsNeeded = runsForMeans(min, spread, { alpha: question.alpha, power: 0.8 });
    }
  }
  return { kind, difference, interval, level, baseline: base, treatment: treat, runsNeeded };
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
const clamp01 = (value: number): number => Math.min(1, Math.max(0, value));
