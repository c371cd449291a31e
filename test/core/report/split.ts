/**
 * The held-out splits of fixtures/final-replies. Pattern development reads only the other ("dev")
 * replies; the held-out ones are scored, never studied.
 * - Split 1 (docs/decisions/0090): 110 replies drawn with a fixed seed from the 312 replies
 *   labelled before the analyzer was reworked per clause.
 * - Split 2 (docs/decisions/0121): 60 replies drawn with another seed from replies 313–437, added
 *   and labelled in round 3 before that round changed the analyzer.
 * - Split 3 (docs/decisions/0123): 40 replies drawn with a third seed from replies 755–814, real
 *   replies of a project not used before, labelled before the analyzer ran on them.
 * - Split 4 (docs/decisions/0139): 50 replies drawn with a fourth seed from replies 849–968, real
 *   replies of ten projects not used before, labelled before the analyzer ran on them.
 * - Split 5 (docs/decisions/0144): all 104 replies 1050–1153, Aider and IBM Bob sessions from six repositories not used
 *   before, labelled by a labeller who never ran the analyzer on them; held out whole and never tuned on.
 * - Split 6 (docs/decisions/0148): all 142 replies 1400–1541, Cursor, Copilot, Codex CLI, Claude Code and Gemini CLI
 *   sessions from fourteen repositories not used before, labelled from the text alone, the analyzer never run on them.
 *   Sealed through round 5's rules; scored and generated like the others since its one look (0164).
 * - Split 7 (docs/decisions/0165): the 95 replies 1800–1909 but 1876–1890 (moved to dev: a project dev batch E shares), Cursor and Aider sessions from ten repositories not used
 *   before, labelled from the text alone, the analyzer never run on them. Sealed until a later look: no test runs the
 *   analyzer on it unless SHOW_HELD_OUT=1 (`withoutSealed`).
 * - Split 8 (docs/decisions/0180): all 142 replies 2000–2141, Claude Code, Codex CLI, Gemini CLI, OpenCode, Copilot, Cursor and
 *   Barnaby sessions from nine repositories not used before, labelled from the text alone, the analyzer never run on them. Sealed through round 7's
 *   rules, second-labelled whole and adjudicated blind (0184, 0200, 0205); scored and generated like the others since
 *   its one look (0206).
 * - Split 9 (docs/decisions/0215): all replies 2600–2666, GitHub Copilot Chat, Claude Code, Roo Code and Copilot CLI sessions from six repositories
 *   not used before, labelled from the text alone, the analyzer never run on them. Sealed through round 8's rules,
 *   second-labelled whole and adjudicated blind (0216, 0217); scored and generated like the others since its one look (0218).
 * - Split 10 (docs/decisions/0223): all replies 3000–3100, Claude Code and Codex sessions (Entire checkpoints, Claude Code's
 *   terminal transcripts) from six repositories not used before, labelled from the text alone, the analyzer never run on
 *   them. Sealed through round 9's rules, second-labelled whole and adjudicated blind (0226, 0224); scored and generated
 *   like splits 1–7 since its one look (0227).
 * - Split 11 (docs/decisions/0228): all replies 3200–3323, Codex, Claude Code, OpenCode, Oh My Pi and pi sessions (Entire
 *   checkpoints, committed session JSONL) from eight repositories not used before, labelled from the text alone, the
 *   analyzer never run on them. Sealed through round 10's rules, second-labelled whole and adjudicated blind (0229,
 *   0230); scored and generated like the others since its one look (0239).
 * - Split 12 (docs/decisions/0240): all replies 3400–3500, Claude Code sessions (Entire checkpoints) from five repositories
 *   not used before, labelled from the text alone, the analyzer never run on them. Sealed through round 10's rules, second-labelled whole and adjudicated blind
 *   (0241, 0242); scored and generated like the others since its one look (0244).
 * Splits 8 and 9 are retired to dev since round 9 (docs/decisions/0219): looked at once each, they measure nothing
 * fairly any more, and their replies are the best evidence of how new projects state unfinished work. Their lists and
 * specs stay (SHA-pinned in split.test.ts) as history; `HELD_OUT_SPLITS` is splits 1–7, 10, 11 and 12.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { seededRng } from "../../../src/core/random.ts";
import { REPLIES_DIR } from "./labelled.ts";

export interface SplitSpec {
  /** The split's number, as docs/metrics.md, accuracy.ts and the ADRs name it. */
  number: number;
  seed: number;
  size: number;
  /** Reply numbers the draw is over, inclusive: later replies are dev only. */
  first: number;
  last: number;
  /** Replies inside the range left out of the pool (and so dev), inclusive. */
  except?: { first: number; last: number };
  file: string;
}

export const SPLIT_1: SplitSpec = { number: 1, seed: 20261201, size: 110, first: 1, last: 312, file: join(REPLIES_DIR, "test-split.txt") };
export const SPLIT_2: SplitSpec = { number: 2, seed: 20261203, size: 60, first: 313, last: 437, file: join(REPLIES_DIR, "test-split-2.txt") };
export const SPLIT_3: SplitSpec = { number: 3, seed: 20261205, size: 40, first: 755, last: 814, file: join(REPLIES_DIR, "test-split-3.txt") };
export const SPLIT_4: SplitSpec = { number: 4, seed: 20261209, size: 50, first: 849, last: 968, file: join(REPLIES_DIR, "test-split-4.txt") };
// The whole batch is held out (size = pool), so the seed only orders the draw; the list is sorted.
export const SPLIT_5: SplitSpec = { number: 5, seed: 20261207, size: 104, first: 1050, last: 1153, file: join(REPLIES_DIR, "test-split-5.txt") };
// Split 6 is also a whole batch (size = pool), drawn over 1400–1541 (12a's range is 1400–1599; 142 were found and labelled).
export const SPLIT_6: SplitSpec = { number: 6, seed: 20261213, size: 142, first: 1400, last: 1541, file: join(REPLIES_DIR, "test-split-6.txt") };
// Split 7 is a whole batch too (size = pool), drawn over 1800–1909 (12e's range is 1800–1999; 110 were found and labelled).
// 1876–1890 are simbolico/politipo, a project dev batch E (0166) also took from: they are dev, not held out (0165).
export const SPLIT_7: SplitSpec = { number: 7, seed: 20261215, size: 95, first: 1800, last: 1909, except: { first: 1876, last: 1890 }, file: join(REPLIES_DIR, "test-split-7.txt") };
// Split 8 is a whole batch too (size = pool), drawn over 2000–2141 (12j's range is 2000–2199; 142 were found and labelled).
export const SPLIT_8: SplitSpec = { number: 8, seed: 20261217, size: 142, first: 2000, last: 2141, file: join(REPLIES_DIR, "test-split-8.txt") };
// Split 9 is a whole batch too (size = pool), drawn over 2600–2666 (12p's range is 2600–2799; 67 were found and labelled).
export const SPLIT_9: SplitSpec = { number: 9, seed: 20261221, size: 67, first: 2600, last: 2666, file: join(REPLIES_DIR, "test-split-9.txt") };
// Split 10 is a whole batch too (size = pool), drawn over 3000–3100 (12d's range is 3000–3199; 101 were found and labelled).
export const SPLIT_10: SplitSpec = { number: 10, seed: 20261223, size: 101, first: 3000, last: 3100, file: join(REPLIES_DIR, "test-split-10.txt") };
// Split 11 is a whole batch too (size = pool), drawn over 3200–3323 (12s's range is 3200–3399; 124 were found and labelled).
export const SPLIT_11: SplitSpec = { number: 11, seed: 20261225, size: 124, first: 3200, last: 3323, file: join(REPLIES_DIR, "test-split-11.txt") };
// Split 12 is a whole batch too (size = pool), drawn over 3400–3500 (12s2's range is 3400–3599; 101 were found and labelled).
export const SPLIT_12: SplitSpec = { number: 12, seed: 20261227, size: 101, first: 3400, last: 3500, file: join(REPLIES_DIR, "test-split-12.txt") };

/** The held-out splits: scored and generated, never studied (split 1 is the frozen split the bar is read on). */
export const HELD_OUT_SPLITS: readonly SplitSpec[] = [SPLIT_1, SPLIT_2, SPLIT_3, SPLIT_4, SPLIT_5, SPLIT_6, SPLIT_7, SPLIT_10, SPLIT_11, SPLIT_12];

/** Held out until their one look (0206, 0218), then retired to dev (docs/decisions/0219): history, not a portion. */
export const RETIRED_SPLITS: readonly SplitSpec[] = [SPLIT_8, SPLIT_9];

/** The splits no ordinary run may analyse, print or generate anything from, each until its own look. */
export const SEALED_SPLITS: readonly SplitSpec[] = [];

// Split 1's names, kept for the code written against them.
export const SPLIT_SEED = SPLIT_1.seed;
export const TEST_SIZE = SPLIT_1.size;
export const FROZEN_COUNT = SPLIT_1.last;
export const SPLIT_FILE = SPLIT_1.file;

/** The reply files a split is drawn from. */
export function drawPool(sortedFiles: readonly string[], spec: SplitSpec): string[] {
  return sortedFiles.filter((file) => {
    // Three- or four-digit numbers (1050– is batch B's range): the digits before the first "-".
    const n = Number(file.slice(0, file.indexOf("-")));
    return n >= spec.first && n <= spec.last && !(spec.except !== undefined && n >= spec.except.first && n <= spec.except.last);
  });
}

/** Fisher–Yates over the sorted names with mulberry32(seed); the first `size` are the held-out portion. */
export function drawSplit(sortedPool: readonly string[], spec: SplitSpec): string[] {
  const rng = seededRng(spec.seed);
  const order = [...sortedPool];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  return order.slice(0, spec.size).sort();
}

/** Split 1's draw (docs/decisions/0090). */
export function drawTestSplit(sortedFiles: readonly string[]): string[] {
  return drawSplit(sortedFiles, SPLIT_1);
}

/** A committed split list: one file name a line, `#` comments ignored. */
export function committedSplit(spec: SplitSpec): string[] {
  return readFileSync(spec.file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/**
 * The labelled replies minus any sealed split (none since split 12's look, 0244), each sealed until its one look: tests and scripts that run the
 * analyzer or its reader over every labelled reply run it over these, so nothing an ordinary run prints or writes carries a
 * trace of a sealed split. Splits 7, 8, 9, 10 and 11 (0165, 0180, 0215, 0223, 0228) were sealed this way until their looks
 * (0182, 0206, 0218, 0227, 0239).
 */
export function withoutSealed<T extends { file: string }>(replies: readonly T[]): T[] {
  const sealed = new Set(SEALED_SPLITS.flatMap((spec) => committedSplit(spec)));
  return replies.filter((reply) => !sealed.has(reply.file));
}

/** A split's committed list as a set of file names, with its number: what `portions` (labelled.ts) takes. */
export interface SplitFiles {
  number: number;
  files: ReadonlySet<string>;
}

export function splitFiles(specs: readonly SplitSpec[]): SplitFiles[] {
  return specs.map((spec) => ({ number: spec.number, files: new Set(committedSplit(spec)) }));
}

export function committedTestSplit(): string[] {
  return committedSplit(SPLIT_1);
}
