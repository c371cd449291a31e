/**
 * o200k token counting. Every text is counted as plain text: special-token markers such as
 * `<|endoftext|>` inside a source file are ordinary characters and never throw.
 *
 * Counts equal js-tiktoken's (test/core/tokens.test.ts proves it with fast-check). The merge
 * never costs the square of a pre-token's length (tokens/bpe-merge.ts), and the rank table is
 * loaded on the first count, once per process (tokens/o200k.ts).
 */
import { hash } from "node:crypto";
import { o200k, type TextShape } from "./tokens/o200k.ts";
import { TextCache } from "./tokens/text-cache.ts";

export { MAX_EXACT_PIECE_BYTES, type TextShape } from "./tokens/o200k.ts";

/** The o200k count of `text`, read as plain text. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return o200k().count(text).tokens;
}

/**
 * The o200k count and whether it is exact. It is exact unless one pre-token (a run of letters,
 * of punctuation or of whitespace with no break) is longer than MAX_EXACT_PIECE_BYTES; such a
 * run is counted in pieces of that size, which bounds memory and time but may differ from the
 * whole-run count by a few tokens per cut.
 */
export function countTokensChecked(text: string): { tokens: number; exact: boolean } {
  if (text.length === 0) return { tokens: 0, exact: true };
  return o200k().count(text);
}

/** Sha-256 of a text, hex: the identity used for caches and prefix hashes. */
export function contentHash(text: string): string {
  // The one-shot form: no Hash object per text, which was a quarter of a scripted run's counting.
  return hash("sha256", text, "hex");
}

/**
 * A counter that remembers counts by text (tokens/text-cache.ts: by sha-256, and a text seen again
 * also as itself, found without a digest), so a long run pays for each distinct text once and a recompiled pack re-counts
 * only the sections whose text changed. Bounded: the oldest entries go first once `maxEntries` is
 * reached.
 */
export class TokenCounter {
  // A count, or a shape (which holds the count) once someone asked for the text's edges.
  private readonly cache: TextCache<number | TextShape>;
  private hits = 0;
  private misses = 0;

  constructor(maxEntries = 50_000) {
    this.cache = new TextCache(maxEntries);
  }

  count(text: string): number {
    if (text.length === 0) return 0;
    const cached = this.cache.get(text);
    if (cached !== undefined) {
      this.hits += 1;
      return typeof cached === "number" ? cached : cached.tokens;
    }
    this.misses += 1;
    const tokens = countTokens(text);
    this.cache.set(text, tokens);
    return tokens;
  }

  /** The count of a nonempty text with its edges, for joining texts without counting them again. */
  shape(text: string): TextShape {
    const cached = this.cache.get(text);
    if (cached !== undefined && typeof cached !== "number") {
      this.hits += 1;
      return cached;
    }
    this.misses += 1;
    const shape = o200k().shape(text);
    this.cache.set(text, shape);
    return shape;
  }

  /**
   * The exact count of `texts.join(separator)` from each text's cached shape: a text already
   * counted is not counted again, only the few pre-tokens around each join are read. That needs
   * a separator that starts with a line break and nonempty texts that do not end in white space
   * (then no pre-token but a text's last can reach into the join); otherwise the joined text is
   * counted.
   */
  countJoined(texts: readonly string[], separator: string): number {
    const parts = texts;
    const joined = parts.join(separator);
    if (joined.length === 0) return 0;
    const joinable = /^[\r\n]/.test(separator) && parts.every((text, i) => text.length > 0 && (i === parts.length - 1 || !/\s$/u.test(text)));
    if (!joinable) return this.count(joined);
    const shapes = parts.map((text) => this.shape(text));
    if (parts.length === 1) return (shapes[0] as TextShape).tokens;
    return o200k().countJoined(joined, shapes, parts.map((text) => text.length), separator);
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

let processCounter: TokenCounter | undefined;

/**
 * The process's one counter: study, import and report default to it, so a text (a handoff, a
 * tool list, a fixed instruction block) that several of them see is counted once per process.
 * Its memory is bounded by the counter's entry limit.
 */
export function processTokenCounter(): TokenCounter {
  processCounter ??= new TokenCounter();
  return processCounter;
}
