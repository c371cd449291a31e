/**
 * TextCache (ADR 0117): texts remembered by sha-256, and those seen again kept as themselves and
 * found by length and `===`. Whatever mix of texts, lengths and budgets, a lookup answers exactly
 * what was stored for that text, or nothing; never another text's value.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TextCache } from "../../../src/core/tokens/text-cache.ts";

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

  it("keeps at most eight texts of one length as themselves; the rest are found by digest", () => {
    const cache = new TextCache<number>(100);
    for (let i = 0; i < 20; i += 1) {
      cache.set(`line ${String(i).padStart(2, "0")}`, i);
      cache.get(`line ${String(i).padStart(2, "0")}`);
    }
    expect(Array.from({ length: 20 }, (_, i) => cache.get(`line ${String(i).padStart(2, "0")}`))).toEqual(Array.from({ length: 20 }, (_, i) => i));
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
          const cache = new TextCache<number>(maxEntries, maxKeptChars);
          const model = new Map<string, number>();
          for (const [key, value] of operations) {
            const found = cache.get(key);
            // Either forgotten or exactly the last value stored for this very text.
            if (found !== undefined) expect(found).toBe(model.get(key));
            cache.set(key, value);
            model.set(key, value);
            expect(cache.get(key)).toBe(value);
            expect(cache.size).toBeLessThanOrEqual(maxEntries);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
