/**
 * Values remembered by text, exactly (ADRs 0117, 0131). A text up to KEPT_TEXT_CHARS is kept as
 * itself from its first sighting and found by its sketch (its length and a few of its characters at its ends,
 * an integer) and then `===` (a memory compare): no digest, no native call, no hex key to hash,
 * for a text seen once or a thousand times. Kept texts are bounded in characters and per sketch;
 * past a bound the oldest go to a map by sha-256 (the digest is taken then, once), where a later
 * sighting finds them and keeps them again. Longer texts are found by digest, but for the last
 * LONG_KEPT of them, kept as themselves too (a flat copy each, LONG_KEPT_CHARS in all) and found by
 * `===`, a compare, before any digest is taken: a long reply looked up again (its analysis, its
 * record, its report) costs no digest of the whole (docs/decisions/0193). A sketch with no text in
 * the digest map is known to miss without a digest.
 */
import { hash } from "node:crypto";

/** Texts up to this many UTF-16 units may be kept as themselves; longer ones only by digest. */
export const KEPT_TEXT_CHARS = 1 << 16;
/** Characters of kept texts in all (≤ 8 MB as two-byte strings). */
export const KEPT_CHARS = 1 << 22;
/** Kept texts of one sketch: more go to the digest map, oldest first. */
const SAME_SKETCH = 8;
/** Characters a sketch reads at each end of a text. */
const SKETCH_EDGE = 8;
/** Texts too long to keep among the others that are kept as themselves all the same, the latest ones; and their characters in all. */
const LONG_KEPT = 4;
const LONG_KEPT_CHARS = KEPT_CHARS;

interface Entry<V> {
  value: V;
  /** Its sha-256 once taken (it left the kept set, or is too long to keep). */
  digest: string | null;
  length: number;
  sketch: number;
  /** The text itself while kept; null while it is found by digest only. */
  text: string | null;
}

export class TextCache<V> {
  private readonly byDigest = new Map<string, Entry<V>>();
  // How many entries of each sketch are in byDigest (keepable lengths only): a sketch not here misses without a digest.
  private readonly digestSketches = new Map<number, number>();
  private readonly bySketch = new Map<number, Entry<V>[]>();
  // Insertion order is age: every entry, and the kept ones.
  private readonly entries = new Set<Entry<V>>();
  private readonly kept = new Set<Entry<V>>();
  private keptChars = 0;
  // The latest texts longer than the kept ones (see above), newest last, each with its entry.
  private readonly longKept: Array<{ text: string; entry: Entry<V> }> = [];
  // The text of the last get() that found nothing, and its digest if that get() took one: the
  // set() that follows a miss neither looks again nor digests the text twice.
  private missText: string | null = null;
  private missDigest: string | null = null;

  constructor(
    private readonly maxEntries: number,
    private readonly maxKeptChars = KEPT_CHARS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(text: string): V | undefined {
    const keepable = this.keepable(text.length);
    if (keepable) {
      const key = sketch(text);
      const same = this.bySketch.get(key);
      if (same !== undefined) for (const entry of same) if (entry.text === text) return entry.value;
      if (!this.digestSketches.has(key)) return this.missed(text, null);
    } else {
      for (const slot of this.longKept) if (slot.text === text) return slot.entry.value;
    }
    const key = digest(text);
    const entry = this.byDigest.get(key);
    if (entry === undefined) return this.missed(text, key);
    // Seen again: kept as itself from now on, while it stays among the recent ones.
    if (keepable) this.keep(entry, text);
    else this.keepLong(entry, text);
    return entry.value;
  }

  set(text: string, value: V): void {
    if (text !== this.missText && this.get(text) !== undefined) {
      this.update(text, value);
      return;
    }
    // Missed, by the get() before this call or just now.
    const known = this.missDigest;
    this.missText = null;
    this.missDigest = null;
    const keepable = this.keepable(text.length);
    const entry: Entry<V> = { value, digest: null, length: text.length, sketch: keepable ? sketch(text) : 0, text: null };
    this.entries.add(entry);
    if (keepable) this.keep(entry, text);
    else {
      entry.digest = known ?? digest(text);
      this.toDigestMap(entry);
      this.keepLong(entry, text);
    }
    while (this.entries.size > this.maxEntries) this.forget(this.entries.values().next().value as Entry<V>);
  }

  clear(): void {
    this.byDigest.clear();
    this.digestSketches.clear();
    this.bySketch.clear();
    this.entries.clear();
    this.kept.clear();
    this.keptChars = 0;
    this.longKept.length = 0;
    this.missText = null;
    this.missDigest = null;
  }

  private keepable(length: number): boolean {
    return length <= KEPT_TEXT_CHARS && length <= this.maxKeptChars;
  }

  private missed(text: string, key: string | null): undefined {
    this.missText = text;
    this.missDigest = key;
    return undefined;
  }

  /** The value of a text known to be remembered (just found, so now kept or by digest). */
  private update(text: string, value: V): void {
    const same = this.keepable(text.length) ? this.bySketch.get(sketch(text)) : undefined;
    if (same !== undefined) {
      for (const entry of same) {
        if (entry.text === text) {
          entry.value = value;
          return;
        }
      }
    }
    for (const slot of this.longKept) {
      if (slot.text === text) {
        slot.entry.value = value;
        return;
      }
    }
    (this.byDigest.get(digest(text)) as Entry<V>).value = value;
  }

  /** Keeps a long text as itself too, among the latest LONG_KEPT (a flat copy, as keep() makes; none past LONG_KEPT_CHARS). */
  private keepLong(entry: Entry<V>, text: string): void {
    if (text.length > LONG_KEPT_CHARS) return;
    this.longKept.push({ text: (text + " ").slice(0, -1), entry });
    let chars = 0;
    for (const slot of this.longKept) chars += slot.text.length;
    while (this.longKept.length > LONG_KEPT || chars > LONG_KEPT_CHARS) chars -= (this.longKept.shift() as { text: string }).text.length;
  }

  /** Keeps an entry's text as itself (a new entry, or one just found by digest). */
  private keep(entry: Entry<V>, text: string): void {
    if (entry.digest !== null && this.byDigest.get(entry.digest) === entry) this.fromDigestMap(entry);
    entry.sketch = sketch(text);
    // A flat copy of its own: a slice of a huge output would otherwise keep the whole output alive
    // (slice flattens the concatenation into a new string and points only into that).
    entry.text = (text + " ").slice(0, -1);
    const same = this.bySketch.get(entry.sketch);
    if (same === undefined) this.bySketch.set(entry.sketch, [entry]);
    else {
      same.push(entry);
      if (same.length > SAME_SKETCH) this.release(same[0] as Entry<V>);
    }
    this.kept.add(entry);
    this.keptChars += text.length;
    while (this.keptChars > this.maxKeptChars) this.release(this.kept.values().next().value as Entry<V>);
  }

  /** A kept text goes to the digest map, its digest taken now if it never was. */
  private release(entry: Entry<V>): void {
    entry.digest ??= digest(entry.text as string);
    this.unkeep(entry);
    this.toDigestMap(entry);
  }

  private unkeep(entry: Entry<V>): void {
    const same = this.bySketch.get(entry.sketch) as Entry<V>[];
    same.splice(same.indexOf(entry), 1);
    if (same.length === 0) this.bySketch.delete(entry.sketch);
    this.kept.delete(entry);
    this.keptChars -= entry.length;
    entry.text = null;
  }

  private toDigestMap(entry: Entry<V>): void {
    this.byDigest.set(entry.digest as string, entry);
    if (this.keepable(entry.length)) this.digestSketches.set(entry.sketch, (this.digestSketches.get(entry.sketch) ?? 0) + 1);
  }

  private fromDigestMap(entry: Entry<V>): void {
    this.byDigest.delete(entry.digest as string);
    if (this.keepable(entry.length)) {
      const left = (this.digestSketches.get(entry.sketch) as number) - 1;
      if (left === 0) this.digestSketches.delete(entry.sketch);
      else this.digestSketches.set(entry.sketch, left);
    }
  }

  private forget(entry: Entry<V>): void {
    const long = this.longKept.findIndex((slot) => slot.entry === entry);
    if (long !== -1) this.longKept.splice(long, 1);
    if (entry.text !== null) this.unkeep(entry);
    else this.fromDigestMap(entry);
    this.entries.delete(entry);
  }
}

/**
 * The length and a few characters, mixed into a small integer: the first and last SKETCH_EDGE and
 * the middle one (all of a short text). Equal texts have equal sketches; unequal ones usually
 * differ (texts of one length that differ only elsewhere share a bucket, which costs a compare,
 * never a wrong answer). Characters next to each other share a cache line: reads spread over the
 * whole text were each a miss while the counter's memory is cold between calls (ADR 0156).
 */
export function sketch(text: string): number {
  const length = text.length;
  let h = length;
  if (length <= 2 * SKETCH_EDGE) {
    for (let i = 0; i < length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h & 0x3fffffff;
  }
  for (let i = 0; i < SKETCH_EDGE; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ text.charCodeAt(length >> 1), 0x01000193);
  for (let i = length - SKETCH_EDGE; i < length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

function digest(text: string): string {
  return hash("sha256", text, "hex");
}
