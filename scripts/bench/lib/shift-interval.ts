/**
 * How far one set of samples lies from another, distribution-free (ADR 0174): the Hodges–Lehmann
 * shift (the median of every difference a_i − b_j) with the interval the exact Mann–Whitney
 * distribution gives: of the m·n differences sorted, the c-th smallest to the c-th largest, c the
 * largest for which P(U ≤ c − 1) ≤ (1 − level) / 2 when both come from one distribution. It
 * assumes only independent samples and a shift between their distributions, not their shape.
 * The accounting bench uses it to ask whether a finer profile interval moves the share.
 */
export interface Shift {
  low: number;
  shift: number;
  high: number;
  /** The interval's actual coverage, e.g. 0.97 (1 when there are too few samples for any). */
  coverage: number;
}

/** P(U = u) for u = 0 … m·n, U the Mann–Whitney count of (a, b) pairs with a below b, no ties. */
export function mannWhitneyNull(m: number, n: number): number[] {
  // ways[j][u]: orderings of i a's and j b's with u pairs (a before b); built up over i.
  let ways: number[][] = Array.from({ length: n + 1 }, () => [1]);
  for (let i = 1; i <= m; i += 1) {
    const next: number[][] = [];
    for (let j = 0; j <= n; j += 1) {
      // The last of i a's and j b's is an a (below all j b's: j pairs more) or a b.
      const size = i * j + 1;
      const row = new Array<number>(size).fill(0);
      const lastA = ways[j] as number[];
      for (let u = 0; u < lastA.length; u += 1) row[u] = lastA[u] as number;
      if (j > 0) {
        const lastB = next[j - 1] as number[];
        for (let u = 0; u < lastB.length; u += 1) row[u + i] = (row[u + i] as number) + (lastB[u] as number);
      }
      next.push(row);
    }
    ways = next;
  }
  const counts = ways[n] as number[];
  const total = counts.reduce((sum, c) => sum + c, 0);
  return counts.map((c) => c / total);
}

export function shiftInterval(a: readonly number[], b: readonly number[], level = 0.95): Shift {
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) throw new Error("shiftInterval: no samples");
  const differences: number[] = [];
  for (const x of a) for (const y of b) differences.push(x - y);
  differences.sort((x, y) => x - y);
  const mid = Math.floor(differences.length / 2);
  const shift = differences.length % 2 === 1 ? (differences[mid] as number) : ((differences[mid - 1] as number) + (differences[mid] as number)) / 2;
  const p = mannWhitneyNull(m, n);
  let c = 0;
  let below = 0; // P(U ≤ c − 1)
  while (c < mid && below + (p[c] as number) <= (1 - level) / 2) {
    below += p[c] as number;
    c += 1;
  }
  if (c === 0) return { low: differences[0] as number, shift, high: differences[differences.length - 1] as number, coverage: 1 };
  return { low: differences[c - 1] as number, shift, high: differences[differences.length - c] as number, coverage: 1 - 2 * below };
}

/**
 * A share extrapolated to no sampling, if it grows in proportion to the samples taken: `share`
 * read at `rate` samples a set, `shift` the finer reading's excess at `finerRate`.
 */
export function toNoSampling(share: number, shift: number, rate: number, finerRate: number): number {
  if (!(finerRate > rate)) throw new Error("toNoSampling: the finer rate must be higher");
  return share - (shift * rate) / (finerRate - rate);
}
