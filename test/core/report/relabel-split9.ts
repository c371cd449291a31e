/**
 * The blind second labelling of the sealed split 9 (docs/decisions/0216): all 67 names of test-split-9.txt and the
 * second labeller's booleans for them. Labels only: nothing here runs the analyzer.
 */
import { join } from "node:path";
import { type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";

export const SPLIT9_RELABEL_FILE = join(REPLIES_DIR, "relabel-split9.yaml");

export function loadSplit9Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT9_RELABEL_FILE);
}
