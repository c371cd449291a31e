/**
 * The o200k rank of a byte sequence, looked up straight from bytes: an open-addressing hash
 * table over one pool of every token's bytes. A byte-pair merge asks for the rank of a span of
 * the piece it is merging, so the lookup takes (bytes, start, end) and allocates nothing.
 */

/** No token is longer than this many bytes (128 in o200k); a longer span has no rank. */
export interface RankTable {
  readonly maxTokenBytes: number;
  /** The rank of bytes[start, end), or -1 when that sequence is not a token. */
  rank(bytes: Uint8Array, start: number, end: number): number;
}

/**
 * What a table is made of. pool: every token's bytes back to back; starts[r]..starts[r+1]: rank
 * r's bytes in it (empty for a rank with no token); slots: open addressing by the FNV-1a hash of
 * a token's bytes (a power of two long, -1 = empty, else a rank).
 */
export interface RankTableParts {
  readonly maxTokenBytes: number;
  readonly pool: Uint8Array;
  readonly starts: Int32Array;
  readonly slots: Int32Array;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashSpan(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return h >>> 0;
}

/**
 * Builds the table from a rank-indexed list (index = rank) of tokens, each a string (its UTF-8
 * bytes) or an array of byte values (tokens that are not valid UTF-8 on their own).
 */
export function buildRankTable(tokens: ReadonlyArray<string | readonly number[] | undefined>): RankTable {
  return rankTableFromParts(rankTableParts(tokens));
}

/** The arrays a table is made of, built from a rank-indexed list (see buildRankTable). */
export function rankTableParts(tokens: ReadonlyArray<string | readonly number[] | undefined>): RankTableParts {
  const encoder = new TextEncoder();
  // Every token's bytes, back to back; starts[r]..starts[r+1] are rank r's.
  let pool = new Uint8Array(tokens.length * 8);
  const starts = new Int32Array(tokens.length + 1);
  let used = 0;
  let maxTokenBytes = 0;
  for (let r = 0; r < tokens.length; r++) {
    starts[r] = used;
    const token = tokens[r];
    if (token === undefined) continue;
    // A UTF-8 string takes at most 3 bytes per UTF-16 unit.
    const room = typeof token === "string" ? token.length * 3 : token.length;
    if (used + room > pool.length) {
      const grown = new Uint8Array(Math.max(pool.length * 2, used + room));
      grown.set(pool.subarray(0, used));
      pool = grown;
    }
    if (typeof token === "string") {
      used += encoder.encodeInto(token, pool.subarray(used)).written;
    } else {
      for (const byte of token) pool[used++] = byte;
    }
    maxTokenBytes = Math.max(maxTokenBytes, used - starts[r]!);
  }
  starts[tokens.length] = used;

  let size = 1;
  while (size < tokens.length * 2) size <<= 1;
  const mask = size - 1;
  const slots = new Int32Array(size).fill(-1);
  for (let r = 0; r < tokens.length; r++) {
    const from = starts[r]!;
    const to = starts[r + 1]!;
    if (to === from) continue;
    let slot = hashSpan(pool, from, to) & mask;
    while (slots[slot] !== -1) slot = (slot + 1) & mask;
    slots[slot] = r;
  }
  // Trimmed to the bytes used: the growing pool may hold up to twice that.
  return { maxTokenBytes, pool: pool.slice(0, used), starts, slots };
}

/**
 * The table over arrays built by rankTableParts, or read back from its compact file form
 * (rank-table-file.ts) without building anything.
 */
export function rankTableFromParts(parts: RankTableParts): RankTable {
  const { maxTokenBytes, pool, starts, slots } = parts;
  const mask = slots.length - 1;
  return {
    maxTokenBytes,
    rank(bytes, start, end) {
      const length = end - start;
      if (length > maxTokenBytes || length <= 0) return -1;
      let slot = hashSpan(bytes, start, end) & mask;
      for (;;) {
        const r = slots[slot]!;
        if (r === -1) return -1;
        const from = starts[r]!;
        if (starts[r + 1]! - from === length) {
          let same = true;
          for (let i = 0; i < length; i++) {
            if (pool[from + i] !== bytes[start + i]) {
              same = false;
              break;
            }
          }
          if (same) return r;
        }
        slot = (slot + 1) & mask;
      }
    },
  };
}
