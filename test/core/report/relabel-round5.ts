/**
 * The blind second labelling of round 5's batches (docs/decisions/0161): the seeded draws from split 6 and dev
 * batch D, the second labeller's booleans, and the pairs to compare with labels.yaml.
 */
import { join } from "node:path";
import { seededRng } from "../../../src/core/random.ts";
import { BOOLEAN_FIELDS, type BooleanField, REPLIES_DIR, replyFiles } from "./labelled.ts";
import { type Agreement, agreement, loadRelabelFile } from "./relabel.ts";
import { SPLIT_6, committedSplit } from "./split.ts";

export const ROUND5_RELABEL_FILE = join(REPLIES_DIR, "relabel-round5.yaml");
export const ROUND5_FIELDS = BOOLEAN_FIELDS;

export interface Round5Draw {
  batch: "split6" | "devD";
  seed: number;
  size: number;
}
export const SPLIT6_DRAW: Round5Draw = { batch: "split6", seed: 20261215, size: 50 };
export const DEV_D_DRAW: Round5Draw = { batch: "devD", seed: 20261217, size: 40 };
/** Batch D as merged (docs/decisions/0150): 1200–1362. Later numbers stay outside the pool so they cannot move the draw. */
export const DEV_D_FIRST = 1200;
export const DEV_D_LAST = 1362;
/** Split 6 held 1400–1526 when the draw was made; the 15 replies sealed into it later (1527–1541) stay outside the pool. */
export const SPLIT6_DRAWN_LAST = 1526;

function shuffleTake(pool: readonly string[], draw: Round5Draw): string[] {
  const order = [...pool].sort();
  const rng = seededRng(draw.seed);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  return order.slice(0, draw.size).sort();
}

/** Split 6's pool is its committed (sealed) list up to 1526; batch D's is the reply files numbered 1200–1362. */
export function round5Pools(files: readonly string[] = replyFiles()): { split6: string[]; devD: string[] } {
  const devD = files.filter((file) => {
    const n = Number(file.slice(0, file.indexOf("-")));
    return n >= DEV_D_FIRST && n <= DEV_D_LAST;
  });
  const split6 = committedSplit(SPLIT_6).filter((file) => Number(file.slice(0, file.indexOf("-"))) <= SPLIT6_DRAWN_LAST);
  return { split6, devD };
}

export function drawRound5Relabel(files: readonly string[] = replyFiles()): { split6: string[]; devD: string[] } {
  const pools = round5Pools(files);
  return { split6: shuffleTake(pools.split6, SPLIT6_DRAW), devD: shuffleTake(pools.devD, DEV_D_DRAW) };
}

export function loadRound5Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(ROUND5_RELABEL_FILE);
}

/** Raw agreement and Cohen's kappa, computed as for the first second labelling (relabel.ts). */
export type FieldAgreement = Agreement<BooleanField>;
export const fieldAgreement = (field: BooleanField, pairs: ReadonlyArray<readonly [boolean, boolean]>): FieldAgreement => agreement(field, pairs);
