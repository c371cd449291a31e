/**
 * Statistics over the runs of a study: per-arm summaries of counts (mean, median, min, max and a
 * percentile-bootstrap 95% interval), Wilson intervals for rates, and for each pair of arms the
 * difference with a bootstrap interval and, for rates, Fisher's exact two-sided p.
 *
 * Pure: the randomness of the bootstrap comes in as an injected `Rng`, so a study's seed gives the
 * same intervals every time (and two shards merged give the same report as one unsharded study).
 */
import type { Rng } from "../core/random.ts";

export { deriveSeed, type Rng, seededRng } from "../core/random.ts";

/** Fewer runs per arm than this and the report shows a visible warning next to the numbers. */
export const SMALL_SAMPLE = 5;

/** Bootstrap resamples per interval: enough for stable 2.5/97.5 percentiles at study sizes. */
export const DEFAULT_RESAMPLES = 4000;

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

export type Interval = [lo: number, hi: number];

export interface CountSummary {
  n: number;
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
  /** Percentile-bootstrap 95% interval of the mean; null when n = 0. */
  ci95: Interval | null;
}

export interface RateSummary {
  /** Runs where the event happened. */
  count: number;
  n: number;
  rate: number | null;
  /** Wilson score 95% interval; null when n = 0. */
  ci95: Interval | null;
}

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** The sample standard deviation (n − 1); 0 for fewer than two values. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values) as number;
  let sum = 0;
  for (const value of values) sum += (value - m) ** 2;
  return Math.sqrt(sum / (values.length - 1));
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The q-quantile (0..1) of sorted values, linear interpolation between order statistics (R type 7). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError("quantileSorted: no values");
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  const high = sorted[upper] as number;
  return low + (high - low) * (position - lower);
}

function resampleMean(values: readonly number[], rng: Rng): number {
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[Math.floor(rng() * values.length)] as number;
  return sum / values.length;
}

/** Percentile-bootstrap 95% interval of the mean of `values`. */
export function bootstrapMeanCI(values: readonly number[], rng: Rng, resamples = DEFAULT_RESAMPLES): Interval | null {
  if (values.length === 0) return null;
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) means[r] = resampleMean(values, rng);
  means.sort();
  return [quantileSorted(Array.from(means), 0.025), quantileSorted(Array.from(means), 0.975)];
}

export function summarizeCounts(values: readonly number[], rng: Rng, resamples = DEFAULT_RESAMPLES): CountSummary {
  if (values.length === 0) return { n: 0, mean: null, median: null, min: null, max: null, ci95: null };
  return {
    n: values.length,
    mean: mean(values),
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    ci95: bootstrapMeanCI(values, rng, resamples),
  };
}

/** Wilson score interval for `successes` of `n` (95% by default). */
export function wilson(successes: number, n: number, z = Z95): Interval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || n < 0 || successes > n) {
    throw new RangeError(`wilson: need integers 0 <= successes <= n, got ${successes} of ${n}`);
  }
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Clamp rounding noise: the exact interval is [0, …] at 0 successes and […, 1] at n.
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === n ? 1 : Math.min(1, centre + half)];
}

export function summarizeRate(flags: readonly boolean[]): RateSummary {
  const count = flags.filter(Boolean).length;
  const n = flags.length;
  return { count, n, rate: n === 0 ? null : count / n, ci95: wilson(count, n) };
}

const logFactorialCache: number[] = [0];
function logFactorial(n: number): number {
  for (let k = logFactorialCache.length; k <= n; k += 1) logFactorialCache[k] = (logFactorialCache[k - 1] as number) + Math.log(k);
  return logFactorialCache[n] as number;
}

/**
 * Fisher's exact test, two-sided, for the 2×2 table [[a, b], [c, d]] (rows = arms, columns =
 * event / no event). The p-value sums the probabilities of every table with the same margins that
 * is no more likely than the observed one (the convention of R's fisher.test).
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  for (const [name, value] of Object.entries({ a, b, c, d })) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`fisherExact: cell ${name} must be a non-negative integer, got ${value}`);
  }
  const row1 = a + b;
  const row2 = c + d;
  const col1 = a + c;
  const total = row1 + row2;
  if (total === 0) return 1;
  const logDenominator = logFactorial(total) - logFactorial(row1) - logFactorial(row2) - logFactorial(col1) - logFactorial(total - col1);
  const logP = (x: number): number =>
    -logDenominator - logFactorial(x) - logFactorial(row1 - x) - logFactorial(col1 - x) - logFactorial(row2 - col1 + x);
  const observed = logP(a);
  const low = Math.max(0, col1 - row2);
  const high = Math.min(row1, col1);
  // R's relative tolerance, so tables equal to the observed one up to rounding count as "as extreme".
  const threshold = observed + Math.log1p(1e-7);
  let p = 0;
  for (let x = low; x <= high; x += 1) {
    const lp = logP(x);
    if (lp <= threshold) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

export interface CountDifference {
  /** mean(b) − mean(a); null when either arm has no values. */
  diff: number | null;
  ci95: Interval | null;
}

/** Difference of means with a percentile-bootstrap interval (each arm resampled on its own). */
export function bootstrapMeanDifference(
  a: readonly number[],
  b: readonly number[],
  rng: Rng,
  resamples = DEFAULT_RESAMPLES,
): CountDifference {
  const meanA = mean(a);
  const meanB = mean(b);
  if (meanA === null || meanB === null) return { diff: null, ci95: null };
  const diffs = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) diffs[r] = resampleMean(b, rng) - resampleMean(a, rng);
  diffs.sort();
  const sorted = Array.from(diffs);
  return { diff: meanB - meanA, ci95: [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)] };
}

export interface RateDifference extends CountDifference {
  /** Fisher's exact two-sided p for the 2×2 table of the two arms; null when either arm is empty. */
  fisherP: number | null;
}

/** Difference of rates (b − a), a bootstrap interval, and Fisher's exact p. */
export function compareRates(a: readonly boolean[], b: readonly boolean[], rng: Rng, resamples = DEFAULT_RESAMPLES): RateDifference {
  const toNumbers = (flags: readonly boolean[]): number[] => flags.map((flag) => (flag ? 1 : 0));
  const difference = bootstrapMeanDifference(toNumbers(a), toNumbers(b), rng, resamples);
  if (a.length === 0 || b.length === 0) return { ...difference, fisherP: null };
  const yesA = a.filter(Boolean).length;
  const yesB = b.filter(Boolean).length;
  return { ...difference, fisherP: fisherExact(yesA, a.length - yesA, yesB, b.length - yesB) };
}

/** The warning the report shows when an arm has fewer than SMALL_SAMPLE runs; null otherwise. */
export function smallSampleWarning(countsByArm: Readonly<Record<string, number>>): string | null {
  const small = Object.entries(countsByArm).filter(([, n]) => n < SMALL_SAMPLE);
  if (small.length === 0) return null;
  const list = small.map(([arm, n]) => `${arm} (n=${n})`).join(", ");
  return `Fewer than ${SMALL_SAMPLE} runs per arm for ${list}: intervals are wide and only large differences can be told from chance; treat the comparisons as indicative.`;
}
