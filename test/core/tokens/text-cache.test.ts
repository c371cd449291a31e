/**
 * TextCache (ADRs 0117, 0131): texts kept as themselves and found by a sketch (length and a few
 * characters) and `===`, the oldest past a bound remembered by sha-256. Whatever mix of texts,
 * lengths, sketches and budgets, a lookup answers exactly what was stored for that text, or
 * nothing; never another text's value.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KEPT_TEXT_CHARS, sketch, TextCache } from "../../../src/core/tokens/text-cache.ts";

/**
 * Stores each (text, value) in a cache and in a Map beside it: a lookup before each store is either
 * forgotten or exactly the last value stored for that very text; a store is found at once; the
 * cache keeps its bound.
 */
function replayAgainstMap(operations: ReadonlyArray<readonly [string, number]>, maxEntries: number, maxKeptChars: number): { cache: TextCache<number>; model: Map<string, number> } {
  const cache = new TextCache<number>(maxEntries, maxKeptChars);
  const model = new Map<string, number>();
  for (const [key, value] of operations) {
    const found = cache.get(key);
    if (found !== undefined) expect(found).toBe(model.get(key));
    cache.set(key, value);
    model.set(key, value);
    expect(cache.get(key)).toBe(value);
    expect(cache.size).toBeLessThanOrEqual(maxEntries);
  }
  return { cache, model };
}

describe("TextCache", () => {
  it("finds a text stored before, by value, not by object", () => {
    const cache = new TextCache<number>(10);
    const text = "exit code: 0\nok - B1";
    cache.set(text, 7);
    const again = ["exit code: 0", "ok - B1"].join("\n");
    expect([cache.get(again), cache.get("exit code: 0\nok - B2"), cache.size]).toEqual([7, undefined, 1]);
  });

  it("moves the oldest kept texts back to the digest map past its character budget, and still finds them", () => {
    const cache = new TextCache<number>(100, 25);
    for (let i = 0; i < 10; i += 1) {
      cache.set(`text number ${i}`, i);
      cache.get(`text number ${i}`); // seen again: kept as itself
    }
    expect(Array.from({ length: 10 }, (_, i) => cache.get(`text number ${i}`))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(cache.size).toBe(10);
  });

  it("keeps at most eight texts of one sketch as themselves; the rest are found by digest", () => {
    // 100 characters that differ only at index 30, which a sketch does not read: one sketch for all.
    const text = (i: number) => `${"abc".repeat(10)}${String.fromCharCode(65 + i)}${"x".repeat(69)}`;
    expect(new Set(Array.from({ length: 20 }, (_, i) => sketch(text(i)))).size).toBe(1);
    const cache = new TextCache<number>(100);
    for (let i = 0; i < 20; i += 1) cache.set(text(i), i);
    expect(Array.from({ length: 20 }, (_, i) => cache.get(text(i)))).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect([cache.get(text(20)), cache.get(`${text(0)}y`), cache.size]).toEqual([undefined, undefined, 20]);
  });

  it("finds texts longer than it keeps by digest, and a slice's value by its content", () => {
    const long = "0123456789".repeat(KEPT_TEXT_CHARS / 8);
    const cache = new TextCache<number>(10);
    cache.set(long, 1);
    cache.set(long.slice(5, 205), 2);
    expect([cache.get(`${long.slice(0, -1)}9`), cache.get(`${long.slice(0, -1)}8`), cache.get(long.slice(15, 215)), cache.get(long.slice(16, 216))]).toEqual([1, undefined, 2, undefined]);
  });

  it("answers exactly for long texts, kept as themselves among the latest (docs/decisions/0193) or found by digest", () => {
    // Texts longer than it keeps among the others, differing at one character in the middle (which no sketch reads): more
    // of them than it keeps as themselves, so some are found by compare, some by digest, some forgotten.
    const base = "0123456789".repeat(KEPT_TEXT_CHARS / 8);
    const text = fc.tuple(fc.integer({ min: 0, max: 7 }), fc.constantFrom("a", "b")).map(([n, char]) => `${base.slice(0, 40_000)}${char}${n}${base.slice(40_002)}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.integer({ min: 0, max: 1000 })), { maxLength: 60 }), fc.integer({ min: 1, max: 12 }), (operations, maxEntries) => {
        const { cache, model } = replayAgainstMap(operations, maxEntries, 1 << 22);
        for (const [key, value] of model) {
          const found = cache.get(key);
          if (found !== undefined) expect(found).toBe(value);
        }
      }),
      { numRuns: 40 },
    );
    // The latest long text, looked up as another object of the same characters, and a text one character away.
    const cache = new TextCache<number>(10);
    cache.set(base, 1);
    expect([cache.get(`${base.slice(0, -1)}9`), cache.get(`${base.slice(0, 50_000)}x${base.slice(50_001)}`)]).toEqual([1, undefined]);
  });

  it("forgets the oldest entries past maxEntries, and updates a value in place", () => {
    const cache = new TextCache<number>(2);
    cache.set("one", 1);
    cache.set("two", 2);
    cache.set("two", 22);
    cache.get("two");
    cache.set("two", 22);
    cache.set("three", 3);
    expect([cache.get("one"), cache.get("two"), cache.get("three"), cache.size]).toEqual([undefined, 22, 3, 2]);
  });

  it("answers exactly what was last stored for each text, for any sequence and budgets", () => {
    // Few letters and lengths, so texts collide in length and repeat often.
    const text = fc.string({ unit: fc.constantFrom("a", "b", "é", "\n", "😀"), maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, fc.integer({ min: 0, max: 1000 })), { maxLength: 200 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 60 }),
        (operations, maxEntries, maxKeptChars) => {
          replayAgainstMap(operations, maxEntries, maxKeptChars);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("answers exactly for long texts that share sketches (differences between the sampled characters)", () => {
    // A 40-character base with a few characters changed: many texts of one length, some of one sketch.
    const edit = fc.array(fc.tuple(fc.integer({ min: 0, max: 39 }), fc.constantFrom("a", "b", "\n")), { maxLength: 3 });
    const text = edit.map((edits) => {
      const chars = [..."the quick brown fox jumps over a lazy do"];
      for (const [at, char] of edits) chars[at] = char;
      return chars.join("");
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.integer({ min: 0, max: 1000 })), { maxLength: 200 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 40, max: 600 }), (operations, maxEntries, maxKeptChars) => {
        const { cache, model } = replayAgainstMap(operations, maxEntries, maxKeptChars);
        // Everything still remembered answers its own last value.
        for (const [key, value] of model) {
          const found = cache.get(key);
          if (found !== undefined) expect(found).toBe(value);
        }
      }),
      { numRuns: 300 },
    );
  });
  it("answers exactly with 3000 texts, far more than its first slots, kept and forgotten in any order", () => {
    // 3000 distinct texts: slots are shared, kept texts are released and forgotten (written for ADR 0172's front table, kept when it was not).
    const text = fc.integer({ min: 0, max: 2999 }).map((n) => `text ${n}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.integer({ min: 0, max: 1000 })), { minLength: 200, maxLength: 2000 }), fc.integer({ min: 50, max: 5000 }), fc.integer({ min: 100, max: 20_000 }), (operations, maxEntries, maxKeptChars) => {
        const { cache, model } = replayAgainstMap(operations, maxEntries, maxKeptChars);
        for (const [key, value] of model) {
          const found = cache.get(key);
          if (found !== undefined) expect(found).toBe(value);
        }
      }),
      { numRuns: 60 },
    );
  });
});
