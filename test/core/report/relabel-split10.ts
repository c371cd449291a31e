/**
 * The blind second labelling of the sealed split 10 (docs/decisions/0226): every reply of its committed list and the
 * second labeller's booleans for them. Labels only: nothing here runs the analyzer.
 */
import { join } from "node:path";
import { type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";
import type { Adjudicated } from "./relabel-split1.ts";
import { SPLIT_10, committedSplit } from "./split.ts";

export const SPLIT10_RELABEL_FILE = join(REPLIES_DIR, "relabel-split10.yaml");

/** Split 10's names, from its committed list (SPLIT_10, ADR 0223; no text, no label): the second labelling covers every one. */
export function split10Names(): string[] {
  return committedSplit(SPLIT_10);
}

export function loadSplit10Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT10_RELABEL_FILE);
}

/**
 * The fields of labels.yaml that the majority of three (docs/decisions/0224) changed on split 10, applied in their own
 * commit, with the value the first labelling gave: 0226's reliability test reads the first labelling.
 */
export const SPLIT10_ADJUDICATED: readonly Adjudicated[] = [
  { file: "3093-claude-bookminder-expert-council-deep.md", field: "statesUnfinished", first: true },
];
