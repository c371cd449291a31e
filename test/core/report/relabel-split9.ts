/**
 * The blind second labelling of the sealed split 9 (docs/decisions/0216): all 67 names of test-split-9.txt and the
 * second labeller's booleans for them. Labels only: nothing here runs the analyzer.
 */
import { join } from "node:path";
import { type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";
import type { Adjudicated } from "./relabel-split1.ts";

export const SPLIT9_RELABEL_FILE = join(REPLIES_DIR, "relabel-split9.yaml");

export function loadSplit9Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT9_RELABEL_FILE);
}

/**
 * The fields of labels.yaml that the majority of three (docs/decisions/0217) changed on split 9, applied in their own
 * commit, with the value the first labelling gave: 0216's reliability test reads the first labelling.
 */
export const SPLIT9_ADJUDICATED: readonly Adjudicated[] = [
  { file: "2600-eqri-i-understand-your.md", field: "asksPermission", first: false },
  { file: "2605-eqri-i-completely-understand.md", field: "asksPermission", first: false },
  { file: "2655-rooport-now-that-the.md", field: "claimsComplete", first: false },
  { file: "2655-rooport-now-that-the.md", field: "statesUnfinished", first: true },
  { file: "2659-rooport-the-migration-workflow.md", field: "claimsComplete", first: false },
  { file: "2659-rooport-the-migration-workflow.md", field: "statesUnfinished", first: true },
  { file: "2661-rooport-please-clarify-the.md", field: "asksPermission", first: false },
  { file: "2664-rooport-the-simulated-execution.md", field: "claimsComplete", first: false },
  { file: "2664-rooport-the-simulated-execution.md", field: "statesUnfinished", first: true },
];
