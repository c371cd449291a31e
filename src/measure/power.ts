/**
 * How many runs a study needs: sample sizes for a pre-stated difference at a given alpha and power.
 *
 * - Two independent proportions: the normal-approximation formula without continuity correction
 *   (Fleiss, Levin & Paik, "Statistical Methods for Rates and Proportions", 3rd ed., eq. 4.14).
 * - Two paired proportions (arms that share tasks, seeds and run indices): McNemar's test with the
 *   discordant-pair probabilities (Connor 1987, "Sample size for testing differences in proportions
 *   for the paired-sample design", Biometrics 43:207–211).
 * - A difference of means: the two-sample normal formula with a common standard deviation.
 *
 * Pure functions of numbers; they return runs per arm (or pairs), rounded up.
 */

/**
 * The standard normal quantile (inverse CDF) by Acklam's rational approximation: relative error
 * below 1.2e-9 over (0, 1), far finer than any sample size or interval needs.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  return x === 0 ? 0 : x;
}

export interface PowerTarget {
  /** Two-sided significance level; 0.05 by default. */
  alpha?: number;
  /** The chance of detecting the difference when it is real; 0.8 by default. */
  power?: number;
}

function zPair(target: PowerTarget): { zAlpha: number; zBeta: number } {
  const alpha = target.alpha ?? 0.05;
  const power = target.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  return { zAlpha: normalQuantile(1 - alpha / 2), zBeta: normalQuantile(power) };
}

function checkRate(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be a rate between 0 and 1, got ${value}`);
}

/**
 * Runs per arm to tell rate `p1` from rate `p2` (two-sided, independent arms). Null when the two
 * rates are equal (no number of runs detects a zero difference).
 */
export function runsForTwoRates(p1: number, p2: number, target: PowerTarget = {}): number | null {
  checkRate("p1", p1);
  checkRate("p2", p2);
  if (p1 === p2) return null;
  const { zAlpha, zBeta } = zPair(target);
  const pBar = (p1 + p2) / 2;
  const numerator = zAlpha * Math.sqrt(2 * pBar * (1 - pBar)) + zBeta * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((numerator * numerator) / ((p1 - p2) * (p1 - p2)));
}

/**
 * Pairs needed for McNemar's test, from the two discordant probabilities: `p10` (the event in the
 * first arm only) and `p01` (in the second only). Null when they are equal.
 */
export function runsForPairedRates(p10: number, p01: number, target: PowerTarget = {}): number | null {
  checkRate("p10", p10);
  checkRate("p01", p01);
  if (p10 + p01 > 1) throw new RangeError(`p10 + p01 cannot pass 1, got ${p10 + p01}`);
  if (p10 === p01) return null;
  const { zAlpha, zBeta } = zPair(target);
  const psi = p10 + p01;
  const delta = p10 - p01;
  const numerator = zAlpha * Math.sqrt(psi) + zBeta * Math.sqrt(psi - delta * delta);
  return Math.ceil((numerator * numerator) / (delta * delta));
}

/**
 * The discordant probabilities of two paired arms when their outcomes are independent given the
 * rates — what to assume before a pilot shows how often paired runs disagree.
 */
export function independentDiscordance(p1: number, p2: number): { p10: number; p01: number } {
  checkRate("p1", p1);
  checkRate("p2", p2);
  return { p10: p1 * (1 - p2), p01: p2 * (1 - p1) };
}

/** Runs per arm to detect a difference `delta` of means when each arm's standard deviation is `sd`. */
export function runsForMeans(delta: number, sd: number, target: PowerTarget = {}): number | null {
  if (!(sd >= 0) || !Number.isFinite(sd)) throw new RangeError(`sd must be a non-negative number, got ${sd}`);
  if (!Number.isFinite(delta)) throw new RangeError(`delta must be a number, got ${delta}`);
  if (delta === 0) return null;
  if (sd === 0) return 2;
  const { zAlpha, zBeta } = zPair(target);
  return Math.max(2, Math.ceil((2 * (zAlpha + zBeta) ** 2 * sd * sd) / (delta * delta)));
}
