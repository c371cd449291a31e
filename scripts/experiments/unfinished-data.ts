/**
 * Dev replies only, grouped by the project they came from, for the unfinished-reader experiment (docs/decisions/0197).
 * The held-out splits 1–7 (test/core/report/split.ts; 8 and 9 are dev since 0219) are dropped by name before any reply
 * text is read — a sealed list is read only as names, as `withoutSealed` reads it — and `assertDevOnly` fails the run if a held-out name
 * ever reaches training or scoring.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { seededRng } from "../../src/core/random.ts";
import { type LabelledReply, REPLIES_DIR, labelledReply } from "../../test/core/report/labelled.ts";
import { HELD_OUT_SPLITS, committedSplit, withoutSealed } from "../../test/core/report/split.ts";

/** Every held-out reply name (splits 1–7), read from the committed split lists. */
export function heldOutNames(): ReadonlySet<string> {
  return new Set(HELD_OUT_SPLITS.flatMap((spec) => committedSplit(spec)));
}

/** Throws if any of the replies is held out: the one guard every training and scoring path goes through. */
export function assertDevOnly(replies: readonly { file: string }[], heldOut: ReadonlySet<string>): void {
  const leaked = replies.filter((reply) => heldOut.has(reply.file));
  if (leaked.length > 0) throw new Error(`unfinished reader: ${leaked.length} held-out replies reached a dev-only path`);
}

/** The dev replies (labels.yaml minus splits 1–7), their texts read only after the held-out names are dropped. */
export function loadDevReplies(heldOut: ReadonlySet<string> = heldOutNames()): LabelledReply[] {
  const labels = parse(readFileSync(join(REPLIES_DIR, "labels.yaml"), "utf8")) as Record<string, Record<string, unknown>>;
  // withoutSealed as well, so the repo's own guard for the sealed split stands even if a list changes.
  const names = withoutSealed(Object.keys(labels).map((file) => ({ file }))).filter(({ file }) => !heldOut.has(file));
  const dev = names.map(({ file }) => labelledReply(file, labels[file] as Record<string, unknown>));
  assertDevOnly(dev, heldOut);
  return dev;
}

/** The dev replies with each one's project (SOURCES.md's repository) and statesUnfinished label: every script's start. */
export function devCorpus(): { heldOut: ReadonlySet<string>; dev: LabelledReply[]; group: string[]; labels: boolean[] } {
  const heldOut = heldOutNames();
  const dev = loadDevReplies(heldOut);
  const projects = projectsFromSources(readFileSync(join(REPLIES_DIR, "SOURCES.md"), "utf8"), new Set(dev.map((r) => r.file)));
  return { heldOut, dev, group: dev.map((r) => projects.get(r.file) ?? "unknown"), labels: dev.map((r) => r.expected.statesUnfinished === true) };
}

/**
 * Reply name → project, from SOURCES.md's tables: the `repository` column (the fourth) of a source row; a written
 * reply (a row of a two-column table) is `written`; a locally recorded run is `local`. Only the names asked for are kept.
 */
export function projectsFromSources(sources: string, names: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  let repoColumn = -1;
  for (const line of sources.split("\n")) {
    if (!line.startsWith("|")) continue;
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    if (cells[0] === "file") {
      repoColumn = cells.indexOf("repository");
      continue;
    }
    const file = cells[0] ?? "";
    if (!names.has(file) || out.has(file)) continue;
    const repo = repoColumn === -1 ? "written" : (cells[repoColumn] ?? "");
    out.set(file, repo.startsWith("recorded locally") ? "local" : repo === "" || repo === "–" ? "unknown" : repo);
  }
  return out;
}

/**
 * Fold numbers 0…k−1 by group: the groups in a seeded order, then (largest first, the seeded order breaking ties) each
 * dealt to the fold with the fewest items so far (the lowest index on a tie). A whole group is always in one fold.
 */
export function groupedFolds(groups: readonly string[], k: number, seed: number): number[] {
  const sizes = new Map<string, number>();
  for (const group of groups) sizes.set(group, (sizes.get(group) ?? 0) + 1);
  const order = [...sizes.keys()].sort();
  const rng = seededRng(seed);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  const rank = new Map(order.map((group, i) => [group, i]));
  const bySize = [...order].sort((a, b) => (sizes.get(b) as number) - (sizes.get(a) as number) || (rank.get(a) as number) - (rank.get(b) as number));
  const load = new Array<number>(k).fill(0);
  const foldOf = new Map<string, number>();
  for (const group of bySize) {
    let best = 0;
    for (let f = 1; f < k; f += 1) if ((load[f] as number) < (load[best] as number)) best = f;
    foldOf.set(group, best);
    load[best] = (load[best] as number) + (sizes.get(group) as number);
  }
  return groups.map((group) => foldOf.get(group) as number);
}
