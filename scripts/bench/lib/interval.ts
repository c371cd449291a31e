/**
 * A distribution-free confidence interval for a median (ADR 0131): of n samples sorted, the k-th
 * smallest and the k-th largest, with k the largest for which a Binomial(n, ½) count falls below
 * k with probability ≤ (1 − level) / 2. It assumes nothing about the shape of the noise (load,
 * preemption and collections give long one-sided tails), only that the samples are independent.
 */
export interface Interval {
  low: number;
  median: number;
  high: number;
  /** The interval's actual coverage (≥ the level asked for), e.g. 0.969 for 6 samples. */
  coverage: number;
}

export function medianInterval(values: readonly number[], level = 0.95): Interval {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) throw new Error("medianInterval: no samples");
  const mid = Math.floor(n / 2);
  const median = n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  // P(Binomial(n, ½) ≤ j), by summing the terms.
  let k = 0;
  let below = 0; // P(count ≤ k - 1)
  let term = 0.5 ** n; // P(count = k)
  while (k < mid && below + term <= (1 - level) / 2) {
    below += term;
    term = (term * (n - k)) / (k + 1);
    k += 1;
  }
  // k ≥ 1 is needed for any coverage; with too few samples the interval is the whole range.
  const at = Math.max(1, k);
  return { low: sorted[at - 1] as number, median, high: sorted[n - at] as number, coverage: k === 0 ? 1 - 2 * 0.5 ** n : 1 - 2 * below };
}
