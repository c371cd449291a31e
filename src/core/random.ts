/**
 * Seeded randomness: the same seed always yields the same numbers, so a study's intervals and the
 * scripted model's choices repeat exactly. Pure — nothing here reads a clock or Math.random.
 */

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/**
 * mulberry32: a small, fast, seeded generator with a 2^32 period, plenty for bootstrap resampling.
 * The same seed always yields the same sequence.
 */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit seed from a text and a base seed (FNV-1a), so each use has its own stream. */
export function deriveSeed(base: number, label: string): number {
  let hash = (0x811c9dc5 ^ (base >>> 0)) >>> 0;
  for (let i = 0; i < label.length; i += 1) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
