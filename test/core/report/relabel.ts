/**
 * The blind second labelling of dev replies (docs/decisions/0145): which replies were drawn, the second
 * labeller's booleans, and agreement with labels.yaml as raw share and Cohen's kappa per field.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { seededRng } from "../../../src/core/random.ts";
import { REPLIES_DIR, loadLabelledReplies, replyFiles } from "./labelled.ts";
import { SPLIT_1, SPLIT_2, SPLIT_3, SPLIT_5, committedSplit } from "./split.ts";

export const RELABEL_SEED = 20261209;
export const RELABEL_SIZE = 60;
export const RELABEL_FILE = join(REPLIES_DIR, "relabel-dev.yaml");
export const RELABEL_FIELDS = ["claimsComplete", "statesUnfinished", "asksPermission"] as const;
export type RelabelField = (typeof RELABEL_FIELDS)[number];

/**
 * Dev replies (in no held-out split) of those that existed when the sample was drawn, Fisher–Yates with
 * mulberry32(RELABEL_SEED), first 60, sorted. Everything numbered from 849 on (batch A, docs/decisions/0139, and
 * every later batch) came later, so it is outside the pool: a later reply must not move a draw already labelled.
 */
const DRAWN_BEFORE = 849;
export function drawRelabelSample(files: readonly string[] = replyFiles()): string[] {
  const held = new Set([SPLIT_1, SPLIT_2, SPLIT_3, SPLIT_5].flatMap((spec) => committedSplit(spec)));
  const order = files.filter((file) => !held.has(file) && Number.parseInt(file, 10) < DRAWN_BEFORE);
  const rng = seededRng(RELABEL_SEED);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  return order.slice(0, RELABEL_SIZE).sort();
}

/** A second labelling's file: reply file name to its booleans. */
export function loadRelabelFile<F extends string>(file: string): Record<string, Record<F, boolean>> {
  return parse(readFileSync(file, "utf8")) as Record<string, Record<F, boolean>>;
}

/** labels.yaml's labels by reply file name: the first labelling every second one is compared with. */
export function labelsByFile(): Map<string, Record<string, unknown>> {
  return new Map(loadLabelledReplies().map((reply) => [reply.file, reply.expected as unknown as Record<string, unknown>]));
}

export function loadRelabels(): Record<string, Record<RelabelField, boolean>> {
  return loadRelabelFile(RELABEL_FILE);
}

export interface Agreement<F extends string = RelabelField> {
  field: F;
  n: number;
  agree: number;
  raw: number;
  /** Cohen's kappa; null when both labellers gave one value to every reply (chance agreement 1). */
  kappa: number | null;
}

/** Raw agreement and Cohen's kappa over pairs of booleans (first labelling, second labelling). */
export function agreement<F extends string = RelabelField>(field: F, pairs: ReadonlyArray<readonly [boolean, boolean]>): Agreement<F> {
  const n = pairs.length;
  const agree = pairs.filter(([a, b]) => a === b).length;
  const pa = pairs.filter(([a]) => a).length / n;
  const pb = pairs.filter(([, b]) => b).length / n;
  const expected = pa * pb + (1 - pa) * (1 - pb);
  const raw = agree / n;
  return { field, n, agree, raw, kappa: expected === 1 ? null : (raw - expected) / (1 - expected) };
}
