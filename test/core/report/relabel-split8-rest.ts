/**
 * The blind second labelling of the rest of the sealed split 8 (docs/decisions/0200): the 92 of its 142 names that
 * ADR 0184's draw left, and the second labeller's booleans for them. Labels only: nothing here runs the analyzer.
 */
import { join } from "node:path";
import { type BooleanField, REPLIES_DIR, replyFiles } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";
import { drawSplit8Relabel, split8Pool } from "./relabel-split8.ts";

export const SPLIT8_REST_FILE = join(REPLIES_DIR, "relabel-split8-rest.yaml");

/** Split 8's sealed names, sorted, minus 0184's draw: so the two second labellings together cover the split once. */
export function split8Rest(files: readonly string[] = replyFiles()): string[] {
  const drawn = new Set(drawSplit8Relabel(files));
  return split8Pool(files).filter((file) => !drawn.has(file));
}

export function loadSplit8RestRelabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT8_REST_FILE);
}
