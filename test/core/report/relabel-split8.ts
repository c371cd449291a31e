/**
 * The blind second labelling of the sealed split 8 (docs/decisions/0184): the seeded draw of 50 of its 142 names, the
 * second labeller's booleans, and their agreement with labels.yaml. Labels only: nothing here runs the analyzer.
 */
import { join } from "node:path";
import { BOOLEAN_FIELDS, type BooleanField, REPLIES_DIR, replyFiles } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";
import type { Adjudicated } from "./relabel-split1.ts";
import { SPLIT_8, committedSplit, drawSplit } from "./split.ts";

export const SPLIT8_RELABEL_FILE = join(REPLIES_DIR, "relabel-split8.yaml");
export const SPLIT8_FIELDS = BOOLEAN_FIELDS;
export const SPLIT8_RELABEL_SEED = 20261219;
export const SPLIT8_RELABEL_SIZE = 50;

/** The pool: the reply files named in split 8's committed (sealed) list, so a file outside the list cannot enter it. */
export function split8Pool(files: readonly string[] = replyFiles()): string[] {
  const sealed = new Set(committedSplit(SPLIT_8));
  return files.filter((file) => sealed.has(file)).sort();
}

/** The pool sorted, Fisher–Yates with mulberry32(SPLIT8_RELABEL_SEED) (split.ts's drawSplit), first 50, sorted. */
export function drawSplit8Relabel(files: readonly string[] = replyFiles()): string[] {
  return drawSplit(split8Pool(files), { ...SPLIT_8, seed: SPLIT8_RELABEL_SEED, size: SPLIT8_RELABEL_SIZE });
}

export function loadSplit8Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT8_RELABEL_FILE);
}

/**
 * The four fields of labels.yaml that the majority of three (docs/decisions/0205) changed on split 8, applied in their
 * own commit, with the value the first labelling gave: 0184's and 0200's reliability tests read the first labelling.
 */
export const SPLIT8_ADJUDICATED: readonly Adjudicated[] = [
  { file: "2079-mgemini-i-do-not.md", field: "fillerEnding", first: false },
  { file: "2092-leecodex-section-1-written.md", field: "claimsComplete", first: true },
  { file: "2092-leecodex-section-1-written.md", field: "statesUnfinished", first: false },
  { file: "2141-barnaby-hi-what-do.md", field: "fillerEnding", first: false },
];
