/**
 * The blind second labelling of the sealed split 11 (docs/decisions/0229): every reply of its committed list and the
 * second labeller's booleans for them. Labels only: nothing here runs the analyzer.
 */
import { join } from "node:path";
import { type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";
import type { Adjudicated } from "./relabel-split1.ts";
import { SPLIT_11, committedSplit } from "./split.ts";

export const SPLIT11_RELABEL_FILE = join(REPLIES_DIR, "relabel-split11.yaml");

/** Split 11's names, from its committed list (SPLIT_11, ADR 0228; no text, no label): the second labelling covers every one. */
export function split11Names(): string[] {
  return committedSplit(SPLIT_11);
}

export function loadSplit11Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT11_RELABEL_FILE);
}

/**
 * The fields of labels.yaml that the majority of three (docs/decisions/0230) changed on split 11, applied in their own
 * commit, with the value the first labelling gave: 0229's reliability test reads the first labelling.
 */
export const SPLIT11_ADJUDICATED: readonly Adjudicated[] = [
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "claimsComplete", first: true },
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "statesUnfinished", first: false },
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "givesReasonAndNext", first: false },
  { file: "3310-claude-technocore-yes-all-three.md", field: "claimsComplete", first: false },
  { file: "3310-claude-technocore-yes-all-three.md", field: "statesUnfinished", first: true },
  { file: "3310-claude-technocore-yes-all-three.md", field: "givesReasonAndNext", first: true },
  { file: "3310-claude-technocore-yes-all-three.md", field: "asksPermission", first: false },
  { file: "3319-claude-technocore-pr-5-https.md", field: "claimsComplete", first: false },
  { file: "3319-claude-technocore-pr-5-https.md", field: "statesUnfinished", first: true },
  { file: "3319-claude-technocore-pr-5-https.md", field: "givesReasonAndNext", first: true },
];
