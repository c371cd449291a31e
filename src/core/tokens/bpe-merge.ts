/**
 * Byte-pair merge of one pre-token, counting the tokens it ends as. The rule is tiktoken's: merge
 * the adjacent pair whose joined bytes have the lowest rank, the leftmost on ties, until no pair
 * is a token. Short pieces use tiktoken's own loop (a scan per merge, quadratic but tiny); long
 * ones an indexed min-heap of pairs keyed by (rank, start), which picks the same pair each step in
 * O(log n), so a 1 MB run of one character is ~20 million steps instead of ~10^12.
 */
import type { RankTable } from "./rank-table.ts";

/** Pieces up to this many bytes take the scan loop: below it a heap's upkeep costs more. */
export const SCAN_LIMIT = 64;

const NONE = 0x7fffffff;

/** Reusable buffers for the scan loop, so short pieces allocate nothing. */
export class BpeMerger {
  private starts = new Int32Array(SCAN_LIMIT + 2);
  private ranks = new Int32Array(SCAN_LIMIT + 2);

  constructor(private readonly table: RankTable) {}

  /** How many tokens bytes[0, length) merges into. */
  count(bytes: Uint8Array, length: number): number {
    if (length <= 1) return length;
    return length <= SCAN_LIMIT ? this.scan(bytes, length) : heapMerge(this.table, bytes, length);
  }

  private scan(bytes: Uint8Array, n: number): number {
    const { starts, ranks, table } = this;
    for (let i = 0; i <= n; i++) starts[i] = i;
    for (let i = 0; i < n - 1; i++) ranks[i] = orNone(table.rank(bytes, i, i + 2));
    ranks[n - 1] = NONE;
    ranks[n] = NONE;
    let bounds = n + 1; // starts[0..bounds) are the part boundaries, the last one is n
    for (;;) {
      let lowest = NONE;
      let at = -1;
      for (let i = 0; i < bounds - 2; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      }
      if (at === -1) break;
      // Join part `at` with the next: drop boundary at+1 and the pair rank that started there.
      starts.copyWithin(at + 1, at + 2, bounds);
      ranks.copyWithin(at, at + 1, bounds);
      bounds -= 1;
      ranks[at] = at + 2 < bounds ? orNone(table.rank(bytes, starts[at]!, starts[at + 2]!)) : NONE;
      if (at > 0) ranks[at - 1] = orNone(table.rank(bytes, starts[at - 1]!, starts[at + 1]!));
    }
    return bounds - 1;
  }
}

function orNone(rank: number): number {
  return rank < 0 ? NONE : rank;
}

/**
 * The heap merge. A part is named by its first byte; `next[p]` is where the following part
 * starts (n after the last). The heap holds exactly the parts whose pair with their successor
 * is a token, ordered by (rank, start), and re-keys or removes a member in place, so no stale
 * entries pile up: memory is 20 bytes per byte of the piece.
 */
function heapMerge(table: RankTable, bytes: Uint8Array, n: number): number {
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const pairs = new PairHeap(n);
  for (let p = 0; p < n; p++) {
    next[p] = p + 1;
    prev[p] = p - 1;
    const r = p + 2 <= n ? table.rank(bytes, p, p + 2) : -1;
    if (r >= 0) pairs.append(p, r);
  }
  pairs.heapify();

  let parts = n;
  while (pairs.size > 0) {
    const p = pairs.top();
    const q = next[p]!;
    pairs.remove(q);
    const after = next[q]!;
    next[p] = after;
    if (after < n) prev[after] = p;
    parts -= 1;
    // The pair starting at p, and the one ending at p, now span other bytes.
    const r = after < n ? table.rank(bytes, p, next[after]!) : -1;
    if (r < 0) pairs.remove(p);
    else pairs.set(p, r);
    if (p > 0) {
      const left = prev[p]!;
      const l = table.rank(bytes, left, after);
      if (l < 0) pairs.remove(left);
      else pairs.set(left, l);
    }
  }
  return parts;
}

/**
 * A binary min-heap of pairs ordered by (rank, start), indexed by part so any member can be
 * re-keyed or removed. Rank and part sit in two parallel arrays in heap order, so a sift compares
 * neighbouring integers instead of chasing an index per comparison.
 */
class PairHeap {
  size = 0;
  private readonly ranks: Int32Array;
  private readonly parts: Int32Array;
  private readonly slot: Int32Array;

  constructor(n: number) {
    this.ranks = new Int32Array(n);
    this.parts = new Int32Array(n);
    this.slot = new Int32Array(n).fill(-1);
  }

  top(): number {
    return this.parts[0]!;
  }

  /** Adds without ordering; call heapify() once after the last append. */
  append(p: number, rank: number): void {
    this.ranks[this.size] = rank;
    this.parts[this.size] = p;
    this.slot[p] = this.size;
    this.size += 1;
  }

  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.down(i, this.ranks[i]!, this.parts[i]!);
  }

  set(p: number, rank: number): void {
    const at = this.slot[p]!;
    if (at < 0) {
      this.size += 1;
      this.up(this.size - 1, rank, p);
    } else if (rank > this.ranks[at]!) this.down(at, rank, p);
    else this.up(at, rank, p);
  }

  remove(p: number): void {
    const at = this.slot[p]!;
    if (at < 0) return;
    this.slot[p] = -1;
    this.size -= 1;
    if (at === this.size) return;
    const rank = this.ranks[this.size]!;
    const part = this.parts[this.size]!;
    const r = this.ranks[at]!;
    if (rank < r || (rank === r && part < p)) this.up(at, rank, part);
    else this.down(at, rank, part);
  }

  /** Puts (rank, p) at i or above, moving larger parents down. */
  private up(i: number, rank: number, p: number): void {
    const { ranks, parts, slot } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const r = ranks[parent]!;
      if (r < rank || (r === rank && parts[parent]! < p)) break;
      ranks[i] = r;
      const q = parts[parent]!;
      parts[i] = q;
      slot[q] = i;
      i = parent;
    }
    ranks[i] = rank;
    parts[i] = p;
    slot[p] = i;
  }

  /** Puts (rank, p) at i or below, moving smaller children up. */
  private down(i: number, rank: number, p: number): void {
    const { ranks, parts, slot } = this;
    const size = this.size;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      let r = ranks[child]!;
      if (child + 1 < size) {
        const r2 = ranks[child + 1]!;
        if (r2 < r || (r2 === r && parts[child + 1]! < parts[child]!)) {
          child += 1;
          r = r2;
        }
      }
      if (r > rank || (r === rank && parts[child]! > p)) break;
      ranks[i] = r;
      const q = parts[child]!;
      parts[i] = q;
      slot[q] = i;
      i = child;
    }
    ranks[i] = rank;
    parts[i] = p;
    slot[p] = i;
  }
}
