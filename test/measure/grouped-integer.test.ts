import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupedInteger } from "../../src/measure/session-analysis.ts";

describe("groupedInteger", () => {
  it("writes every integer exactly as toLocaleString('en-US') does", () => {
    const edges = [0, -0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, -1e22];
    expect(edges.map(groupedInteger)).toEqual(edges.map((n) => n.toLocaleString("en-US")));
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }).map(Math.round)), (n) => {
        expect(groupedInteger(n)).toBe(n.toLocaleString("en-US"));
      }),
      { numRuns: 2000 },
    );
  });
});
