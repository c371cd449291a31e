/**
 * Statistics over a suite of tasks, where runs are paired across arms by (task, run index):
 *
 * - `mcnemarExact`: the exact McNemar test for paired binary outcomes (two-sided, binomial on the
 *   discordant pairs). Pooled over tasks it is the exact conditional test stratified by task: under
 *   "no difference" every discordant pair, in any task, is a fair coin.
 * - `passAtK` / `passHatK`: the unbiased estimators of "at least one of k runs passes" and "all k
 *   runs pass" from n runs with c passes (pass@k as in the Codex paper; pass^k likewise, C(c,k)/C(n,k)).
 * - `hierarchicalBootstrap`: resamples tasks, then runs within each resampled task, so an interval
 *   reflects both how many tasks there are and how many runs each has; every task weighs the same.
 *
 * Pure: randomness comes in as an injected `Rng`.
 */
import type { Rng } from "../core/random.ts";
import { DEFAULT_RESAMPLES, type Interval, quantileSorted } from "./stats.ts";

/** log C(n, k) for 0 <= k <= n. */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i += 1) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/**
 * Exact two-sided McNemar p for `aOnly` pairs where only the first arm had the event and `bOnly`
 * where only the second did: 2 · P(X <= min) with X ~ Binomial(aOnly + bOnly, 1/2), at most 1.
 * No discordant pairs is p = 1.
 */
export function mcnemarExact(aOnly: number, bOnly: number): number {
  for (const [name, value] of Object.entries({ aOnly, bOnly })) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`mcnemarExact: ${name} must be a non-negative integer, got ${value}`);
  }
  const n = aOnly + bOnly;
  if (n === 0) return 1;
  const low = Math.min(aOnly, bOnly);
  let tail = 0;
  if (n <= 1000) {
    // Term by term from (1/2)^n, so small tables come out exact (2^-1000 is still a normal double).
    let term = 2 ** -n;
    for (let x = 0; x <= low; x += 1) {
      tail += term;
      term = (term * (n - x)) / (x + 1);
    }
  } else {
    for (let x = 0; x <= low; x += 1) tail += Math.exp(logChoose(n, x) - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

function checkCounts(n: number, c: number, k: number, name: string): void {
  if (![n, c, k].every(Number.isInteger) || n < 0 || c < 0 || c > n || k < 1) {
    throw new RangeError(`${name}: need integers n >= c >= 0 and k >= 1, got n=${n} c=${c} k=${k}`);
  }
}

/** Unbiased pass@k from n runs with c passes: 1 − C(n−c, k) / C(n, k); null when k > n. */
export function passAtK(n: number, c: number, k: number): number | null {
  checkCounts(n, c, k, "passAtK");
  if (k > n) return null;
  if (n - c < k) return 1;
  return 1 - Math.exp(logChoose(n - c, k) - logChoose(n, k));
}

/** Unbiased pass^k (all k runs pass) from n runs with c passes: C(c, k) / C(n, k); null when k > n. */
export function passHatK(n: number, c: number, k: number): number | null {
  checkCounts(n, c, k, "passHatK");
  if (k > n) return null;
  if (c < k) return 0;
  return Math.exp(logChoose(c, k) - logChoose(n, k));
}

/** The mean over tasks of a per-task statistic (each task weighs the same); null when no task has runs. */
export function meanOverTasks<T>(tasks: ReadonlyArray<readonly T[]>, perTask: (runs: readonly T[]) => number | null): number | null {
  let sum = 0;
  let count = 0;
  for (const runs of tasks) {
    if (runs.length === 0) continue;
    const value = perTask(runs);
    if (value === null) continue;
    sum += value;
    count += 1;
  }
  return count === 0 ? null : sum / count;
}

function resample<T>(values: readonly T[], rng: Rng): T[] {
  const out: T[] = new Array(values.length);
  for (let i = 0; i < values.length; i += 1) out[i] = values[Math.floor(rng() * values.length)] as T;
  return out;
}

/**
 * Percentile-bootstrap 95% interval of `meanOverTasks(tasks, perTask)`: each resample draws the
 * tasks with replacement, then each drawn task's runs with replacement. Tasks with no runs are
 * left out first; null when none is left.
 */
export function hierarchicalBootstrap<T>(
  tasks: ReadonlyArray<readonly T[]>,
  perTask: (runs: readonly T[]) => number | null,
  rng: Rng,
  resamples = DEFAULT_RESAMPLES,
): Interval | null {
  const present = tasks.filter((runs) => runs.length > 0);
  if (present.length === 0 || meanOverTasks(present, perTask) === null) return null;
  const values: number[] = [];
  for (let r = 0; r < resamples; r += 1) {
    const value = meanOverTasks(
      resample(present, rng).map((runs) => resample(runs, rng)),
      perTask,
    );
    if (value !== null) values.push(value);
  }
  values.sort((a, b) => a - b);
  return [quantileSorted(values, 0.025), quantileSorted(values, 0.975)];
}

export interface Estimate {
  value: number | null;
  ci95: Interval | null;
}

/** An estimate over one task's runs, with a bootstrap interval over its runs. */
export function runsEstimate<T>(runs: readonly T[], statistic: (runs: readonly T[]) => number | null, rng: Rng, resamples = DEFAULT_RESAMPLES): Estimate {
  return { value: runs.length === 0 ? null : statistic(runs), ci95: hierarchicalBootstrap([runs], statistic, rng, resamples) };
}

/** An estimate over a suite (mean over tasks), with the task-then-runs bootstrap interval. */
export function suiteEstimate<T>(tasks: ReadonlyArray<readonly T[]>, perTask: (runs: readonly T[]) => number | null, rng: Rng, resamples = DEFAULT_RESAMPLES): Estimate {
  return { value: meanOverTasks(tasks, perTask), ci95: hierarchicalBootstrap(tasks, perTask, rng, resamples) };
}

/** pass@k of a list of pass/fail flags (the estimator over these runs). */
export const passAtKOf = (k: number) => (flags: readonly boolean[]): number | null => passAtK(flags.length, flags.filter(Boolean).length, k);
/** pass^k of a list of pass/fail flags. */
export const passHatKOf = (k: number) => (flags: readonly boolean[]): number | null => passHatK(flags.length, flags.filter(Boolean).length, k);
/** The mean of numbers (null for none). */
export const meanOf = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Paired binary outcomes of two arms: counts of each kind of pair, and the exact McNemar p. */
export interface PairedBinary {
  pairs: number;
  both: number;
  aOnly: number;
  bOnly: number;
  neither: number;
  /** Exact two-sided McNemar p; null with no pairs. */
  p: number | null;
}

export function pairedBinary(pairs: ReadonlyArray<readonly [boolean, boolean]>): PairedBinary {
  let both = 0;
  let aOnly = 0;
  let bOnly = 0;
  let neither = 0;
  for (const [a, b] of pairs) {
    if (a && b) both += 1;
    else if (a) aOnly += 1;
    else if (b) bOnly += 1;
    else neither += 1;
  }
  return { pairs: pairs.length, both, aOnly, bOnly, neither, p: pairs.length === 0 ? null : mcnemarExact(aOnly, bOnly) };
}
