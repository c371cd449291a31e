import { describe, expect, it } from "vitest";
import { labellerAsReader } from "./labeller-as-reader.ts";

// ADR 0245's table: a blind second labeller scored as a reader. Labels only; a label edit on any twice-labelled split
// moves a pinned count here, and the ADR's figures must be re-read.
describe("a second labeller scored as a reader (ADR 0245)", () => {
  const rows = labellerAsReader();

  it("reads six splits against both baselines, then the pool", () => {
    expect(rows.map((row) => [row.split, row.replies, row.against])).toEqual([
      ...[["1 (frozen)", 110], ["8", 142], ["9", 67], ["10", 101], ["11", 124], ["12", 101]].flatMap(([split, replies]) => [
        [split, replies, "first labelling"],
        [split, replies, "labels.yaml"],
      ]),
      ["pooled", 645, "first labelling"],
      ["pooled", 645, "labels.yaml"],
    ]);
  });

  it("gives the frozen split's and the pool's counts as ADR 0245 reports them", () => {
    const pick = (split: string, against: string) => rows.find((row) => row.split === split && row.against === against)?.fields;
    expect(pick("1 (frozen)", "first labelling")).toEqual({
      claimsComplete: { tp: 47, fp: 2, fn: 0 },
      statesUnfinished: { tp: 28, fp: 2, fn: 1 },
      givesReasonAndNext: { tp: 9, fp: 5, fn: 0 },
      asksPermission: { tp: 20, fp: 0, fn: 0 },
    });
    expect(pick("pooled", "first labelling")).toEqual({
      claimsComplete: { tp: 330, fp: 12, fn: 7 },
      statesUnfinished: { tp: 75, fp: 6, fn: 14 },
      givesReasonAndNext: { tp: 44, fp: 7, fn: 7 },
      asksPermission: { tp: 195, fp: 8, fn: 0 },
    });
    expect(pick("pooled", "labels.yaml")).toEqual({
      claimsComplete: { tp: 336, fp: 6, fn: 3 },
      statesUnfinished: { tp: 79, fp: 2, fn: 7 },
      givesReasonAndNext: { tp: 50, fp: 1, fn: 5 },
      asksPermission: { tp: 202, fp: 1, fn: 0 },
    });
  });
});
