import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildRankTable, rankTableFromParts, rankTableParts } from "../../../src/core/tokens/rank-table.ts";
import { decodeRankTable, encodeRankTable } from "../../../src/core/tokens/rank-table-file.ts";

const SOURCE = "test list 1";

/** A rank list as gpt-tokenizer gives it: strings, byte arrays for non-UTF-8 tokens, and holes. */
const rankList = fc
  .uniqueArray(fc.uint8Array({ minLength: 1, maxLength: 12 }), { maxLength: 300, selector: (bytes) => bytes.join(",") })
  .chain((tokens) =>
    fc.tuple(fc.constant(tokens), fc.array(fc.boolean(), { minLength: tokens.length, maxLength: tokens.length }), fc.array(fc.nat(tokens.length), { maxLength: 5 })),
  )
  .map(([tokens, asString, holes]) =>
    tokens.map((bytes, r): string | number[] | undefined => {
      if (holes.includes(r)) return undefined;
      const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
      // Only bytes that round-trip through UTF-8 may be given as a string.
      return asString[r] && Buffer.from(text).equals(Buffer.from(bytes)) ? text : [...bytes];
    }),
  );

const bytesOf = (token: string | number[]): Uint8Array => (typeof token === "string" ? new TextEncoder().encode(token) : Uint8Array.from(token));

describe("rank-table file form", () => {
  it("reads back exactly the arrays it was written from, and the table answers every rank the same", () => {
    fc.assert(
      fc.property(rankList, fc.array(fc.uint8Array({ maxLength: 14 }), { maxLength: 40 }), (list, probes) => {
        const parts = rankTableParts(list);
        const read = decodeRankTable(encodeRankTable(parts, SOURCE), SOURCE);
        expect(read).toEqual({ parts });
        if (!("parts" in read)) return;
        const built = buildRankTable(list);
        const loaded = rankTableFromParts(read.parts);
        expect(loaded.maxTokenBytes).toBe(built.maxTokenBytes);
        list.forEach((token, r) => {
          if (token === undefined) return;
          const bytes = bytesOf(token);
          expect([loaded.rank(bytes, 0, bytes.length), built.rank(bytes, 0, bytes.length)]).toEqual([r, r]);
        });
        for (const probe of probes) expect(loaded.rank(probe, 0, probe.length)).toBe(built.rank(probe, 0, probe.length));
      }),
      { numRuns: 150 },
    );
  });

  it("reads a buffer that does not start on a 4-byte boundary", () => {
    const parts = rankTableParts(["a", "b", "ab", [0xff]]);
    const file = encodeRankTable(parts, SOURCE);
    const shifted = new Uint8Array(file.length + 1).subarray(1);
    shifted.set(file);
    expect(decodeRankTable(shifted, SOURCE)).toEqual({ parts });
  });

  it("refuses another list, another format and every truncation or damage instead of half-using it", () => {
    const parts = rankTableParts(["a", "b", "ab", "abc", [0xff]]);
    const file = encodeRankTable(parts, SOURCE);
    expect(decodeRankTable(file, "test list 2")).toEqual({ problem: 'built from "test list 1", not from "test list 2"' });
    expect(decodeRankTable(new TextEncoder().encode("module.exports = [\"a\", \"b\", \"ab\", \"abc\"];"), SOURCE)).toEqual({ problem: "not a rank-table file of this format" });
    expect(decodeRankTable(file.subarray(0, 10), SOURCE)).toEqual({ problem: "10 bytes is shorter than the header" });
    for (let cut = 32; cut < file.length; cut += 1) expect(decodeRankTable(file.slice(0, cut), SOURCE)).toHaveProperty("problem");
    const damagedSlot = file.slice();
    // The first slot (after the 32-byte header, the padded source and starts): a rank past the end.
    const slotsAt = 32 + 12 + (parts.starts.length * 4);
    new DataView(damagedSlot.buffer).setInt32(slotsAt, 99, true);
    expect(decodeRankTable(damagedSlot, SOURCE)).toEqual({ problem: "slot 0 holds rank 99" });
    const damagedStart = file.slice();
    new DataView(damagedStart.buffer).setInt32(32 + 12 + 4, 200, true);
    expect(decodeRankTable(damagedStart, SOURCE)).toEqual({ problem: "rank 0 has 200 bytes" });
  });
});
