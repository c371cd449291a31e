/**
 * o200k token counting. Every text is counted as plain text: special-token markers such as
 * `<|endoftext|>` inside a source file are ordinary characters and never throw.
 */
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { createHash } from "node:crypto";

// gpt-tokenizer throws on special markers by default; an empty disallow set counts them as text.
// (allowedSpecial is avoided on purpose: 4.0.0 only recognises a special token at position 0.)
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** The o200k count of `text`, read as plain text. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return countO200k(text, PLAIN_TEXT);
}

/** Sha-256 of a text, hex: the identity used for caches and prefix hashes. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * A counter that remembers counts by content hash, so a long run pays for each message once and
 * a recompiled pack re-counts only the sections whose text changed. Bounded: the oldest entries
 * go first once `maxEntries` is reached.
 */
export class TokenCounter {
  private readonly cache = new Map<string, number>();
  private hits = 0;
  private misses = 0;

  constructor(private readonly maxEntries = 50_000) {}

  count(text: string): number {
    if (text.length === 0) return 0;
    const key = contentHash(text);
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.hits += 1;
      return cached;
    }
    this.misses += 1;
    const tokens = countTokens(text);
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(key, tokens);
    return tokens;
  }

  /** Cache statistics, for tests and benchmarks that prove only changed text is counted. */
  stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hits, misses: this.misses, size: this.cache.size };
  }

  clear(): void {
    this.cache.clear();
    this.hits = 0;
    this.misses = 0;
  }
}
