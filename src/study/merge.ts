/**
 * `armstudy merge DIR...`: combines the results folders of shards (or of any runs of one study)
 * into one folder, which then renders like an unsharded study. The folders must hold the same study
 * (same repository commit, handoff, checks, arms, model, runs and seed); a run present in two
 * folders is refused rather than counted twice.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, rm, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { RESULT_FILE, type RunKey, STUDY_META_FILE, type StudyMeta, listRunFolders, readRunResult, readStudyMeta, runFolder, runKeyOf, tasksOf } from "../render/results.ts";
import { writeJsonAtomic } from "../run/fs/atomic-write.ts";
import { StudyInputError } from "./errors.ts";
import { planSuite } from "./plan.ts";
import { identityDifferences } from "./runner.ts";

export interface MergeOutcome {
  outDir: string;
  meta: StudyMeta;
  /** Finished runs copied, per source folder. */
  copied: Array<{ dir: string; runs: number }>;
}

function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

export async function mergeStudies(dirs: readonly string[], outDir: string, cwd: string): Promise<MergeOutcome> {
  if (dirs.length === 0) throw new StudyInputError("STUDY_MERGE", "name at least one results folder to merge (reports/<study>/<stamp>).");
  const out = resolve(outDir);
  for (const dir of dirs) {
    if (resolve(dir) === out) throw new StudyInputError("STUDY_MERGE", `--out ${shown(out, cwd)} is one of the folders being merged; choose a new folder.`);
  }
  const outInfo = await stat(out).catch(() => undefined);
  if (outInfo !== undefined && !outInfo.isDirectory()) {
    throw new StudyInputError("STUDY_MERGE", `--out ${shown(out, cwd)} is a file, not a folder; choose a new folder.`);
  }
  if (outInfo !== undefined && (await readdir(out)).length > 0) {
    throw new StudyInputError("STUDY_MERGE", `--out ${shown(out, cwd)} already exists and is not empty; choose a new folder.`);
  }
  const metas: StudyMeta[] = [];
  for (const dir of dirs) {
    try {
      metas.push(await readStudyMeta(dir));
    } catch (error) {
      throw new StudyInputError("STUDY_MERGE", (error as Error).message);
    }
  }
  const first = metas[0] as StudyMeta;
  for (const [index, meta] of metas.entries()) {
    const differences = identityDifferences(first, meta);
    if (differences.length > 0) {
      throw new StudyInputError(
        "STUDY_MERGE",
        `${shown(resolve(dirs[index] as string), cwd)} holds a different study from ${shown(resolve(dirs[0] as string), cwd)} (${differences.join(", ")} differ); merge only shards of one study.`,
      );
    }
  }

  // Which folder each finished run comes from; a run in two folders is an error, not a double count.
  const sources = new Map<string, { dir: string; pair: RunKey }>();
  const planned = new Set<string>();
  for (const [index, dir] of dirs.entries()) {
    for (const pair of metas[index]?.planned ?? []) planned.add(runKeyOf(pair));
    for (const pair of await listRunFolders(dir)) {
      if (!existsSync(join(dir, runFolder(pair.arm, pair.runIndex, pair.task), RESULT_FILE))) continue;
      const key = runKeyOf(pair);
      const earlier = sources.get(key)?.dir;
      if (earlier !== undefined) {
        throw new StudyInputError(
          "STUDY_MERGE",
          `${pair.task === undefined ? "" : `task ${pair.task}, `}${pair.arm} run ${pair.runIndex} is in both ${shown(resolve(earlier), cwd)} and ${shown(resolve(dir), cwd)}; a run must come from one folder. Remove one of them, or merge shards of one --shard i/n split only.`,
        );
      }
      // Read every result before anything is written, so a broken one is reported where it is.
      await readRunResult(dir, pair.arm, pair.runIndex, pair.task);
      sources.set(key, { dir, pair });
      planned.add(key);
    }
  }

  const fullPlan = planSuite(tasksOf(first), first.arms.map((arm) => arm.name), first.runsPerArm, first.seed);
  const mergedPlan = fullPlan.filter((pair) => planned.has(runKeyOf(pair))).map(({ task, arm, runIndex }) => (task === undefined ? { arm, runIndex } : { task, arm, runIndex }));
  const meta: StudyMeta = { ...first, shard: null, planned: mergedPlan };

  await mkdir(out, { recursive: true });
  const copied = new Map<string, number>(dirs.map((dir) => [dir, 0]));
  try {
    for (const { dir, pair } of sources.values()) {
      const folder = runFolder(pair.arm, pair.runIndex, pair.task);
      await cp(join(dir, folder), join(out, folder), { recursive: true, errorOnExist: true, force: false });
      copied.set(dir, (copied.get(dir) ?? 0) + 1);
    }
    await writeJsonAtomic(join(out, STUDY_META_FILE), meta);
  } catch (error) {
    // --out was new or empty: leave no half-merged folder behind.
    await rm(out, { recursive: true, force: true });
    throw error;
  }
  return { outDir: out, meta, copied: dirs.map((dir) => ({ dir, runs: copied.get(dir) ?? 0 })) };
}
