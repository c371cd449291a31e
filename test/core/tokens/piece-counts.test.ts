/**
 * PieceCounts (ADR 0156): short pieces kept inside their slot, longer ones in a Map, found where
 * they lie in a longer text. Whatever the pieces (any UTF-16 units, lone surrogates, lengths either
 * side of the inline limit, hash collisions from a table that grows), a lookup answers exactly the
 * count stored for that very piece, or nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INLINE_CHARS, PieceCounts } from "../../../src/core/tokens/piece-counts.ts";

const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const piece = fc.oneof(fc.array(unit, { minLength: 1, maxLength: INLINE_CHARS + 4 }).map((units) => units.join("")), fc.constantFrom("a", " the", "\n", "ab", "ba", "\uffff", "\u0000"));

describe("PieceCounts", () => {
  it("answers exactly what a Map of the same pieces answers, for pieces found inside longer texts", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, fc.integer({ min: 1, max: 40 }), fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 })), { minLength: 600, maxLength: 3000 }), fc.integer({ min: 50, max: 4000 }), (operations, maxEntries) => {
        const counts = new PieceCounts(maxEntries);
        const model = new Map<string, number>();
        for (const [text, count, before, after] of operations) {
          const around = before + text + after;
          const from = before.length;
          const end = from + text.length;
          const found = counts.find(around, from, end);
          // Forgotten (the table was cleared when full) or exactly the stored count.
          if (found !== -1) expect(found).toBe(model.get(text));
          if (found === -1) {
            if (counts.size >= maxEntries) model.clear();
            counts.add(around, from, end, count);
            model.set(text, count);
          }
          expect(counts.find(text, 0, text.length)).toBe(model.get(text));
          expect(counts.size).toBeLessThanOrEqual(maxEntries);
        }
        for (const [text, count] of model) expect(counts.find(text, 0, text.length)).toBe(count);
      }),
      { numRuns: 60 },
    );
  });

  it("tells apart two pieces of one length whose hashes collide", () => {
    // FNV-1a of both is 2016701745 (found by search): only the unit by unit check can part them.
    const counts = new PieceCounts(100);
    counts.add("aL2Gh", 0, 5, 3);
    expect([counts.find("aPAaa", 0, 5), counts.find("xaL2Ghx", 1, 6)]).toEqual([-1, 3]);
    counts.add("aPAaa", 0, 5, 4);
    expect([counts.find("aPAaa", 0, 5), counts.find("aL2Gh", 0, 5)]).toEqual([4, 3]);
  });

  it("tells apart pieces that share a length and all but one unit, across growth and a clear", () => {
    const counts = new PieceCounts(100_000);
    const pieces = Array.from({ length: 5000 }, (_, i) => `p${String(i).padStart(INLINE_CHARS - 1, "0")}`);
    pieces.forEach((p, i) => counts.add(p, 0, p.length, i % 40));
    expect(pieces.map((p) => counts.find(p, 0, p.length))).toEqual(pieces.map((_, i) => i % 40));
    expect([counts.find("p" + "9".repeat(INLINE_CHARS - 1), 0, INLINE_CHARS), counts.size]).toEqual([-1, 5000]);
    counts.clear();
    expect([counts.find(pieces[7] as string, 0, INLINE_CHARS), counts.size]).toEqual([-1, 0]);
  });
});
