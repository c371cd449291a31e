/**
 * The blind second labelling of split 12, sealed for the next session (docs/decisions/0241): every reply of its
 * committed list and the second labeller's booleans for them. Labels only: nothing here runs the analyzer.
 */
import { join } from "node:path";
import { type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";
import type { Adjudicated } from "./relabel-split1.ts";
import { SPLIT_12, committedSplit } from "./split.ts";

export const SPLIT12_RELABEL_FILE = join(REPLIES_DIR, "relabel-split12.yaml");

/** Split 12's names, from its committed list (SPLIT_12, ADR 0240; no text, no label): the second labelling covers every one. */
export function split12Names(): string[] {
  return committedSplit(SPLIT_12);
}

export function loadSplit12Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT12_RELABEL_FILE);
}

/**
 * The fields of labels.yaml that the majority of three (docs/decisions/0242) changed on split 12, applied in their own
 * commit, with the value the first labelling gave: 0241's reliability test reads the first labelling.
 */
export const SPLIT12_ADJUDICATED: readonly Adjudicated[] = [
  { file: "3407-claude-wakil-adr-0016-written.md", field: "asksPermission", first: false },
  { file: "3408-claude-wakil-there-s-nothing.md", field: "claimsComplete", first: true },
  { file: "3430-claude-flutterdocker-review-result-approved.md", field: "asksPermission", first: false },
  { file: "3454-claude-fitcheck-yes-now-i.md", field: "asksPermission", first: false },
  { file: "3480-claude-safecast-yes-all-code.md", field: "claimsComplete", first: true },
  { file: "3488-claude-safecast-yes-exactly-the.md", field: "statesUnfinished", first: true },
];
