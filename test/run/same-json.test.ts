/**
 * sameJson (ADR 0131) may say "same" only when JSON.stringify gives the same text: for plain data
 * and its copies, reorderings, small edits, and values JSON treats specially (undefined, NaN,
 * -0, sparse arrays, Dates, toJSON, class instances, deep nesting).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameJson } from "../../src/run/same-json.ts";

const special = fc.constantFrom<unknown>(undefined, Number.NaN, -0, 0, Number.POSITIVE_INFINITY, null, new Date(0), { toJSON: () => "x" }, new (class Point {})(), [, 1], "", "0");
const leaf = fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 4 }), fc.boolean(), special);
const value = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("tree"), { maxLength: 3 }), fc.dictionary(fc.constantFrom("a", "b", "c", "0", "10"), tie("tree"), { maxKeys: 3 })),
})).tree;

/** A copy with some objects' keys in reverse order and some leaves replaced. */
function variant(input: unknown, edits: number[]): unknown {
  const edit = edits.shift() ?? 0;
  if (Array.isArray(input)) return input.map((item) => variant(item, edits));
  if (input !== null && typeof input === "object" && Object.getPrototypeOf(input) === Object.prototype && !("toJSON" in input)) {
    const entries = Object.entries(input).map(([key, item]) => [key, variant(item, edits)] as const);
    return Object.fromEntries(edit % 3 === 1 ? entries.reverse() : entries);
  }
  return edit % 5 === 2 ? "edited" : input;
}

describe("sameJson", () => {
  it("answers same only when JSON.stringify's texts are equal", () => {
    fc.assert(
      fc.property(value, fc.array(fc.nat(9), { maxLength: 20 }), (a, edits) => {
        const b = variant(a, [...edits]);
        if (sameJson(a, b)) expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        if (sameJson({ path: a }, { path: b })) expect(JSON.stringify({ path: b })).toBe(JSON.stringify({ path: a }));
      }),
      { numRuns: 3000 },
    );
  });

  it("finds copies of plain data the same, and tells apart what JSON tells apart", () => {
    const args = { path: "src/money.js", range: [1, 20], options: { exact: true, note: null } };
    expect([
      sameJson(args, structuredClone(args)),
      sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }),
      sameJson({ a: Number.NaN }, { a: Number.NaN }),
      sameJson({ a: new Date(0) }, { a: new Date(0) }),
      sameJson({ a: [1, 2] }, { a: [1, 2, 3] }),
      sameJson({ a: "1" }, { a: 1 }),
      sameJson({ a: {} }, { a: [] }),
    ]).toEqual([true, false, false, false, false, false, false]);
  });

  it("gives up, rather than recursing without end, past a depth", () => {
    const deep = (n: number): unknown => (n === 0 ? 1 : { a: deep(n - 1) });
    expect([sameJson(deep(10), deep(10)), sameJson(deep(200), deep(200))]).toEqual([true, false]);
  });
});
