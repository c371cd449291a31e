/**
 * Values remembered by text, exactly (ADR 0117). A recent text is kept as itself and found by its
 * length, then compared with `===` (a memory compare): no digest, no native call, no hex key to
 * hash again, which is what a repeated tool output cost when every text was keyed by sha-256.
 * Kept texts are bounded in characters; past the bound the oldest are remembered by sha-256
 * instead, so a text seen long ago is still found, for the price of one digest.
 */
import { hash } from "node:crypto";

/** Texts up to this many UTF-16 units are kept as themselves; longer ones only by digest. */
export const KEPT_TEXT_CHARS = 1 << 16;
/** Characters of kept texts in all (≤ 8 MB as two-byte strings). */
export const KEPT_CHARS = 1 << 22;
/** Kept texts of one length: more are moved to the digest map, oldest first. */
const SAME_LENGTH = 8;

interface Entry<V> {
  value: V;
  /** The text itself while kept; null once remembered by digest only (then `digest` is set). */
  text: string | null;
  length: number;
  /** Its sha-256, once computed. */
  digest: string | null;
}

export class TextCache<V> {
  private readonly byLength = new Map<number, Entry<V>[]>();
  private readonly byDigest = new Map<string, Entry<V>>();
  // Insertion order is age: every entry, and the kept ones.
  private readonly entries = new Set<Entry<V>>();
  private readonly kept = new Set<Entry<V>>();
  private keptChars = 0;
  // The digest find() computed (null when it needed none), and the text of the last get() that
  // found nothing with it: the set() that follows a miss then neither looks again nor digests twice.
  private foundDigest: string | null = null;
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
    const entry = this.find(text);
    if (entry === undefined) {
      this.missText = text;
      this.missDigest = this.foundDigest;
    }
    return entry?.value;
  }

  set(text: string, value: V): void {
    const missed = text === this.missText;
    const known = missed ? undefined : this.find(text);
    const key = missed ? this.missDigest : this.foundDigest;
    this.missText = null;
    if (known !== undefined) {
      known.value = value;
      return;
    }
    const entry: Entry<V> = { value, text: null, length: text.length, digest: key };
    this.entries.add(entry);
    if (text.length <= KEPT_TEXT_CHARS && text.length <= this.maxKeptChars) this.keep(entry, text);
    else this.byDigest.set((entry.digest ??= digest(text)), entry);
    while (this.entries.size > this.maxEntries) this.forget(this.entries.values().next().value as Entry<V>);
  }

  clear(): void {
    this.byLength.clear();
    this.byDigest.clear();
    this.entries.clear();
    this.kept.clear();
    this.keptChars = 0;
    this.missText = null;
  }

  private find(text: string): Entry<V> | undefined {
    this.foundDigest = null;
    if (text.length <= KEPT_TEXT_CHARS) {
      const same = this.byLength.get(text.length);
      if (same !== undefined) for (const entry of same) if (entry.text === text) return entry;
    }
    if (this.byDigest.size === 0) return undefined;
    this.foundDigest = digest(text);
    return this.byDigest.get(this.foundDigest);
  }

  private keep(entry: Entry<V>, text: string): void {
    // A copy: a slice of a huge output would otherwise keep the whole output alive.
    entry.text = structuredClone(text);
    const same = this.byLength.get(text.length);
    if (same === undefined) this.byLength.set(text.length, [entry]);
    else {
      same.push(entry);
      if (same.length > SAME_LENGTH) this.demote(same[0] as Entry<V>);
    }
    this.kept.add(entry);
    this.keptChars += text.length;
    while (this.keptChars > this.maxKeptChars) this.demote(this.kept.values().next().value as Entry<V>);
  }

  /** Remembers a kept text by its digest instead. */
  private demote(entry: Entry<V>): void {
    const text = entry.text as string;
    this.unkeep(entry);
    this.byDigest.set((entry.digest ??= digest(text)), entry);
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
    else this.byDigest.delete(entry.digest as string);
    this.entries.delete(entry);
  }
}

function digest(text: string): string {
  return hash("sha256", text, "hex");
}
