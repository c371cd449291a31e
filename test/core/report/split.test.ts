import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadLabelledReplies, replyFiles } from "./labelled.ts";
import { FROZEN_COUNT, SPLIT_FILE, TEST_SIZE, committedTestSplit, drawTestSplit } from "./split.ts";

// The split file's digest when it was frozen: any edit to it, by hand or by a new draw, fails here.
const FROZEN_SHA256 = "62aef7f9eadbcbe081f34ae4ce7e70d160dd91d7ad0f118d9a2864e08e6b239e";

describe("the frozen test split of fixtures/final-replies", () => {
  it("is byte for byte the file committed when it was drawn", () => {
    expect(createHash("sha256").update(readFileSync(SPLIT_FILE)).digest("hex")).toBe(FROZEN_SHA256);
  });

  it("is the seeded draw over replies 001–312, so it was not picked by hand", () => {
    const frozen = replyFiles().filter((file) => Number(file.slice(0, 3)) <= FROZEN_COUNT);
    expect(frozen.length).toBe(FROZEN_COUNT);
    expect(committedTestSplit()).toEqual(drawTestSplit(frozen));
  });

  it("holds at least 100 labelled replies", () => {
    const labelled = new Set(loadLabelledReplies().map((reply) => reply.file));
    const split = committedTestSplit();
    expect(split.length).toBe(TEST_SIZE);
    expect(TEST_SIZE).toBeGreaterThanOrEqual(100);
    expect(split.filter((file) => !labelled.has(file))).toEqual([]);
  });
});
