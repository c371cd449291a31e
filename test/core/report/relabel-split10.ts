/**
 * The blind second labelling of the sealed split 10 (docs/decisions/0226): every reply numbered 3000–3199 and the
 * second labeller's booleans for them. Labels only: nothing here runs the analyzer.
 */
import { join } from "node:path";
import { type BooleanField, REPLIES_DIR, replyFiles } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";

export const SPLIT10_RELABEL_FILE = join(REPLIES_DIR, "relabel-split10.yaml");

/** Split 10's reply numbers (TEAM.md, ADR 0223): the second labelling covers every reply file in the range. */
export const SPLIT10_FIRST = 3000;
export const SPLIT10_LAST = 3199;

/** The reply files numbered 3000–3199, sorted: split 10's names, read from the folder (no text, no label). */
export function split10Names(files: readonly string[] = replyFiles()): string[] {
  return files.filter((file) => {
    const n = Number(file.slice(0, file.indexOf("-")));
    return n >= SPLIT10_FIRST && n <= SPLIT10_LAST;
  });
}

export function loadSplit10Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT10_RELABEL_FILE);
}
