/**
 * Remembered counts of pre-tokens, found where they lie in their text (ADR 0156). A piece of up
 * to INLINE_CHARS code units is kept inside its slot of one Int32Array, with its hash, length and
 * count: a lookup reads one cache line, never slices the piece out of its text and never follows
 * a pointer to a string, which matters because counting runs between other work, its memory cold.
 * Longer pieces go to a Map by their text. Exact: a slot matches only on every code unit.
 */

/** Code units a slot holds: two to an int. */
export const INLINE_CHARS = 12;
/** Ints per slot: hash, length << 16 | count, the code units. */
const SLOT_INTS = 2 + INLINE_CHARS / 2;
const FIRST_SLOTS = 1024;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class PieceCounts {
  private table = new Int32Array(FIRST_SLOTS * SLOT_INTS);
  private mask = FIRST_SLOTS - 1;
  private inline = 0;
  private readonly long = new Map<string, number>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.inline + this.long.size;
  }

  /** The count of text[from, end), or -1 when it is not remembered. */
  find(text: string, from: number, end: number): number {
    const length = end - from;
    if (length > INLINE_CHARS) return this.long.get(text.slice(from, end)) ?? -1;
    const hash = hashOf(text, from, end);
    const table = this.table;
    const mask = this.mask;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const base = slot * SLOT_INTS;
      const meta = table[base + 1] as number;
      if (meta === 0) return -1;
      if (table[base] !== hash || meta >>> 16 !== length) continue;
      let i = 0;
      for (; i < length; i += 1) {
        const packed = table[base + 2 + (i >> 1)] as number;
        if (((i & 1) === 0 ? packed & 0xffff : packed >>> 16) !== text.charCodeAt(from + i)) break;
      }
      if (i === length) return meta & 0xffff;
    }
  }

  /** Remembers the count of text[from, end), not yet remembered; when full, everything is forgotten first. */
  add(text: string, from: number, end: number, count: number): void {
    if (this.size >= this.maxEntries) this.clear();
    const length = end - from;
    if (length > INLINE_CHARS) {
      // Its own copy: a piece sliced from a long text would otherwise keep the whole text alive.
      this.long.set((text.slice(from, end) + " ").slice(0, -1), count);
      return;
    }
    if ((this.inline + 1) * 2 > this.mask + 1) this.grow();
    this.place(this.table, this.mask, hashOf(text, from, end), length, count, text, from);
    this.inline += 1;
  }

  clear(): void {
    this.table = new Int32Array(FIRST_SLOTS * SLOT_INTS);
    this.mask = FIRST_SLOTS - 1;
    this.inline = 0;
    this.long.clear();
  }

  private place(table: Int32Array, mask: number, hash: number, length: number, count: number, text: string, from: number): void {
    let slot = hash & mask;
    while (table[slot * SLOT_INTS + 1] !== 0) slot = (slot + 1) & mask;
    const base = slot * SLOT_INTS;
    table[base] = hash;
    table[base + 1] = (length << 16) | count;
    for (let i = 0; i < length; i += 2) table[base + 2 + (i >> 1)] = text.charCodeAt(from + i) | (i + 1 < length ? text.charCodeAt(from + i + 1) << 16 : 0);
  }

  private grow(): void {
    const old = this.table;
    const slots = (this.mask + 1) * 2;
    const table = new Int32Array(slots * SLOT_INTS);
    for (let base = 0; base < old.length; base += SLOT_INTS) {
      if (old[base + 1] === 0) continue;
      let slot = (old[base] as number) & (slots - 1);
      while (table[slot * SLOT_INTS + 1] !== 0) slot = (slot + 1) & (slots - 1);
      table.set(old.subarray(base, base + SLOT_INTS), slot * SLOT_INTS);
    }
    this.table = table;
    this.mask = slots - 1;
  }
}

function hashOf(text: string, from: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = from; i < end; i += 1) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}
