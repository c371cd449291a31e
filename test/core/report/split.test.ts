import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadLabelledReplies, replyFiles } from "./labelled.ts";
import { HELD_OUT_SPLITS, RETIRED_SPLITS, SPLIT_1, SPLIT_2, SPLIT_3, SPLIT_4, SPLIT_5, SPLIT_6, SPLIT_7, SPLIT_8, SPLIT_9, SPLIT_10, SPLIT_11, SPLIT_12, SEALED_SPLITS, type SplitSpec, committedSplit, drawPool, drawSplit, withoutSealed } from "./split.ts";

// Each split file's digest when it was frozen: any edit to it, by hand or by a new draw, fails here.
// The last column is the least size a split may have: split 3 (0123) is 40 of the 60 replies found in time; split 7
// (0165) is 95 after the 15 replies of a project dev batch E shares were moved to dev. Splits 8 and 9 are retired to dev
// (0219) but their lists stay pinned as drawn: history of what their one looks measured.
const FROZEN: Array<[string, SplitSpec, string, string, number]> = [
  ["split 1 (docs/decisions/0090)", SPLIT_1, "62aef7f9eadbcbe081f34ae4ce7e70d160dd91d7ad0f118d9a2864e08e6b239e", "001–312", 50],
  ["split 2 (docs/decisions/0121)", SPLIT_2, "e68a91ee3f6a1cdca6e53f5081b584489551b1f7d4c3e5becbd46487d8ff5f6c", "313–437", 50],
  ["split 3 (docs/decisions/0123)", SPLIT_3, "0c097f5346345e5bb7eb7e45d0b4d9f351bfefc6682808841b5eb9ac5560ed36", "755–814", 40],
  ["split 4 (docs/decisions/0139)", SPLIT_4, "7a28c12ca8960919b1f5e7ea16fa0d5b85455e6748af9fcd7b634fd07a1602b8", "849–968", 50],
  ["split 5 (docs/decisions/0144)", SPLIT_5, "fd4117600b3dbbfd6ee505980770afd03d8b3d2abff44a8c31b368f3560f39d2", "1050–1153", 80],
  ["split 6 (docs/decisions/0148)", SPLIT_6, "bd64fd8f3ee3baf22338736bddbf9a767830086b9443f3ebf7562ba408e8b082", "1400–1541", 100],
  ["split 7 (docs/decisions/0165)", SPLIT_7, "4b24d0805147501f523323536c87299a7490dbd3b89d2d2c0b741a8e8002d7f5", "1800–1909 but 1876–1890", 90],
  ["split 8 (docs/decisions/0180)", SPLIT_8, "2a7c99d8e3a7fdcc14069454f1e659274ec0b0361586a46ada2dec7a831132a0", "2000–2141", 140],
  ["split 9 (docs/decisions/0215)", SPLIT_9, "c2e57a919ace594451c88445cf123d3917cffd1d7782dddfa0ca33669bb60b6b", "2600–2666", 60],
  ["split 10 (docs/decisions/0223)", SPLIT_10, "35658371248d2e0ef87b95fb80926913b1000b2023a8a1fda6a0d07a081ef14c", "3000–3100", 100],
  ["split 11 (docs/decisions/0228)", SPLIT_11, "924527d9fc0f3e9c8de91c458c5b1561a0247f844a0482ed8f149d64f2ec5811", "3200–3323", 120],
  ["split 12 (docs/decisions/0240)", SPLIT_12, "6f3f9cfa4801cff045eadc4e11acf50e1160a8f47b3a4837c6647a068854915a", "3400–3500", 100],
];

describe.each(FROZEN)("the held-out %s of fixtures/final-replies", (_name, spec, sha256, range, least) => {
  it("is byte for byte the file committed when it was drawn", () => {
    expect(createHash("sha256").update(readFileSync(spec.file)).digest("hex")).toBe(sha256);
  });

  it(`is the seeded draw over replies ${range}, so it was not picked by hand`, () => {
    const pool = drawPool(replyFiles(), spec);
    const left = spec.except === undefined ? 0 : spec.except.last - spec.except.first + 1;
    expect(pool.length).toBe(spec.last - spec.first + 1 - left);
    expect(committedSplit(spec)).toEqual(drawSplit(pool, spec));
  });

  it(`holds labelled replies only, and at least ${least}`, () => {
    const labelled = new Set(loadLabelledReplies().map((reply) => reply.file));
    const split = committedSplit(spec);
    expect(split.length).toBe(spec.size);
    expect(spec.size).toBeGreaterThanOrEqual(least);
    expect(split.filter((file) => !labelled.has(file))).toEqual([]);
  });
});

it("split 5 (docs/decisions/0144) is the whole of batch B: every reply numbered 1050–1153", () => {
  expect(committedSplit(SPLIT_5)).toEqual(drawPool(replyFiles(), SPLIT_5));
});

it("split 6 (docs/decisions/0148) is the whole of its batch: every reply numbered 1400–1541", () => {
  expect(committedSplit(SPLIT_6)).toEqual(drawPool(replyFiles(), SPLIT_6));
});

it("split 7 (docs/decisions/0165) is the whole of its batch: every reply numbered 1800–1909 but 1876–1890", () => {
  expect(committedSplit(SPLIT_7)).toEqual(drawPool(replyFiles(), SPLIT_7));
});

it("split 8 (docs/decisions/0180) is the whole of its batch: every reply numbered 2000–2141", () => {
  expect(committedSplit(SPLIT_8)).toEqual(drawPool(replyFiles(), SPLIT_8));
});

it("split 9 (docs/decisions/0215) is the whole of its batch: every reply numbered 2600–2666", () => {
  expect(committedSplit(SPLIT_9)).toEqual(drawPool(replyFiles(), SPLIT_9));
});

it("split 10 (docs/decisions/0223) is the whole of its batch: every reply numbered 3000–3100", () => {
  expect(committedSplit(SPLIT_10)).toEqual(drawPool(replyFiles(), SPLIT_10));
});

it("split 11 (docs/decisions/0228) is the whole of its batch: every reply numbered 3200–3323", () => {
  expect(committedSplit(SPLIT_11)).toEqual(drawPool(replyFiles(), SPLIT_11));
});

it("split 12 (docs/decisions/0240) is the whole of its batch: every reply numbered 3400–3500", () => {
  expect(committedSplit(SPLIT_12)).toEqual(drawPool(replyFiles(), SPLIT_12));
});

it("no split is sealed since split 12's look (docs/decisions/0244): withoutSealed drops nothing", () => {
  const all = loadLabelledReplies();
  expect(SEALED_SPLITS).toEqual([]);
  expect(withoutSealed(all).map((reply) => reply.file)).toEqual(all.map((reply) => reply.file));
});

it("the held-out, retired and sealed splits do not overlap", () => {
  const all = [SPLIT_1, SPLIT_2, SPLIT_3, SPLIT_4, SPLIT_5, SPLIT_6, SPLIT_7, SPLIT_8, SPLIT_9, SPLIT_10, SPLIT_11, SPLIT_12].flatMap((spec) => committedSplit(spec));
  expect(all.length).toBe(new Set(all).size);
});

it("holds splits 1–7, 10, 11 and 12 out (0219, 0227, 0239, 0244) and splits 8 and 9 retired to dev (0219)", () => {
  expect(HELD_OUT_SPLITS).toEqual([SPLIT_1, SPLIT_2, SPLIT_3, SPLIT_4, SPLIT_5, SPLIT_6, SPLIT_7, SPLIT_10, SPLIT_11, SPLIT_12]);
  expect(RETIRED_SPLITS).toEqual([SPLIT_8, SPLIT_9]);
});
