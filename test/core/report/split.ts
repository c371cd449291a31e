/**
 * The frozen test split of fixtures/final-replies (docs/decisions/0090): 110 replies drawn at random
 * with a fixed seed from the 312 replies labelled before the analyzer was reworked. Pattern
 * development reads only the other ("dev") replies; the test portion is scored, never studied.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { seededRng } from "../../../src/core/random.ts";
import { REPLIES_DIR } from "./labelled.ts";

export const SPLIT_SEED = 20261201;
export const TEST_SIZE = 110;
/** The replies that existed when the split was drawn: 001–312. Later replies are dev only. */
export const FROZEN_COUNT = 312;
export const SPLIT_FILE = join(REPLIES_DIR, "test-split.txt");

/** Fisher–Yates over the sorted names with mulberry32(seed); the first TEST_SIZE are the test portion. */
export function drawTestSplit(sortedFiles: readonly string[]): string[] {
  const rng = seededRng(SPLIT_SEED);
  const order = [...sortedFiles];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  return order.slice(0, TEST_SIZE).sort();
}

/** The committed list: one file name a line, `#` comments ignored. */
export function committedTestSplit(): string[] {
  return readFileSync(SPLIT_FILE, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
