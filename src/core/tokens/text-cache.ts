/**
 * Values remembered by text, exactly (ADR 0117). A text is remembered by its sha-256; once it is
 * seen again it is also kept as itself, found by its length and then `===` (a memory compare), so
 * a text that keeps coming back (the same file read again and again, a repeated reply) costs no
 * digest, no native call and no hex key to hash. A text seen once costs one digest, as before.
 * Kept texts are bounded in characters; past the bound the oldest go back to the digest map.
 */
import { hash } from "node:crypto";

/** Texts up to this many UTF-16 units may be kept as themselves; longer ones only by digest. */
export const KEPT_TEXT_CHARS = 1 << 16;
/** Characters of kept texts in all (≤ 8 MB as two-byte strings). */
export const KEPT_CHARS = 1 << 22;
/** Kept texts of one length: more go back to the digest map, oldest first. */
const SAME_LENGTH = 8;

interface Entry<V> {
  value: V;
  digest: string;
  length: number;
  /** The text itself while kept; null while it is found by digest only. */
  text: string | null;
}

export class TextCache<V> {
  private readonly byDigest = new Map<string, Entry<V>>();
  private readonly byLength = new Map<number, Entry<V>[]>();
  // Insertion order is age: every entry, and the kept ones.
  private readonly entries = new Set<Entry<V>>();
  private readonly kept = new Set<Entry<V>>();
  private keptChars = 0;
  // The text and digest of the last get() that found nothing: the set() that follows a miss
  // neither looks again nor digests the text twice.
  private missText: string | null = null;
  private missDigest = "";

  constructor(
    private readonly maxEntries: number,
    private readonly maxKeptChars = KEPT_CHARS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(text: string): V | undefined {
    const same = text.length <= KEPT_TEXT_CHARS ? this.byLength.get(text.length) : undefined;
    if (same !== undefined) for (const entry of same) if (entry.text === text) return entry.value;
    const key = digest(text);
    const entry = this.byDigest.get(key);
    if (entry === undefined) {
      this.missText = text;
      this.missDigest = key;
      return undefined;
    }
    // Seen again: kept as itself from now on, while it stays among the recent ones.
    if (text.length <= KEPT_TEXT_CHARS && text.length <= this.maxKeptChars) this.keep(entry, text);
    return entry.value;
  }

  set(text: string, value: V): void {
    if (text !== this.missText && this.get(text) !== undefined) {
      this.update(text, value);
      return;
    }
    // Missed, by the get() before this call or just now: missDigest is this text's digest.
    const key = this.missDigest;
    this.missText = null;
    const entry: Entry<V> = { value, digest: key, length: text.length, text: null };
    this.entries.add(entry);
    this.byDigest.set(key, entry);
    while (this.entries.size > this.maxEntries) this.forget(this.entries.values().next().value as Entry<V>);
  }

  clear(): void {
    this.byDigest.clear();
    this.byLength.clear();
    this.entries.clear();
    this.kept.clear();
    this.keptChars = 0;
    this.missText = null;
  }

  /** The value of a text known to be remembered (just found, so now kept or by digest). */
  private update(text: string, value: V): void {
    const same = text.length <= KEPT_TEXT_CHARS ? this.byLength.get(text.length) : undefined;
    if (same !== undefined) {
      for (const entry of same) {
        if (entry.text === text) {
          entry.value = value;
          return;
        }
      }
    }
    (this.byDigest.get(digest(text)) as Entry<V>).value = value;
  }

  private keep(entry: Entry<V>, text: string): void {
    this.byDigest.delete(entry.digest);
    // A copy: a slice of a huge output would otherwise keep the whole output alive.
    entry.text = structuredClone(text);
    const same = this.byLength.get(text.length);
    if (same === undefined) this.byLength.set(text.length, [entry]);
    else {
      same.push(entry);
      if (same.length > SAME_LENGTH) this.release(same[0] as Entry<V>);
    }
    this.kept.add(entry);
    this.keptChars += text.length;
    while (this.keptChars > this.maxKeptChars) this.release(this.kept.values().next().value as Entry<V>);
  }

  /** A kept text goes back to being found by its digest. */
  private release(entry: Entry<V>): void {
    this.unkeep(entry);
    this.byDigest.set(entry.digest, entry);
  }

  private unkeep(entry: Entry<V>): void {
    const same = this.byLength.get(entry.length) as Entry<V>[];
    same.splice(same.indexOf(entry), 1);
    if (same.length === 0) this.byLength.delete(entry.length);
    this.kept.delete(entry);
    this.keptChars -= entry.length;
    entry.text = null;
  }

  private forget(entry: Entry<V>): void {
    if (entry.text !== null) this.unkeep(entry);
    else this.byDigest.delete(entry.digest);
    this.entries.delete(entry);
  }
}

function digest(text: string): string {
  return hash("sha256", text, "hex");
}
