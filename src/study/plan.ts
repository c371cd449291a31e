/**
 * Which (task, arm, run) triples a study runs, in which order, with which seed, and which of them a shard
 * takes. All of it is a pure function of the study, so every machine computes the same plan and
 * shards merged give exactly the unsharded study.
 *
 * Order is run-major (run 1 of every arm, then run 2, …): a study stopped halfway has every arm
 * equally far along. Shard i of n takes the pairs at positions p with p mod n = i − 1, which spreads
 * each arm over the shards. A run's seed depends on the study seed and the run index only, so run k
 * of every arm meets the same persona randomness (a paired design).
 */
import { deriveSeed } from "../measure/stats.ts";
import { StudyInputError } from "./errors.ts";

export interface PlannedRun {
  /** The task's name; absent in a study of one inline task (its runs have no task level). */
  task?: string;
  arm: string;
  /** 1-based. */
  runIndex: number;
  seed: number;
}

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function runSeed(studySeed: number, runIndex: number): number {
  // Keep it a positive 31-bit integer: friendly to every generator and to JSON readers.
  return deriveSeed(studySeed, `run-${runIndex}`) & 0x7fffffff;
}

export function planRuns(arms: readonly string[], runsPerArm: number, studySeed: number): PlannedRun[] {
  const plan: PlannedRun[] = [];
  for (let runIndex = 1; runIndex <= runsPerArm; runIndex += 1) {
    for (const arm of arms) plan.push({ arm, runIndex, seed: runSeed(studySeed, runIndex) });
  }
  return plan;
}

/**
 * The suite's plan: for each run index, each task, each arm (run-major, so a study stopped halfway
 * has every arm equally far along on every task). Run k has the same seed on every task and arm.
 */
export function planSuite(tasks: ReadonlyArray<{ name: string; flat: boolean }>, arms: readonly string[], runsPerArm: number, studySeed: number): PlannedRun[] {
  const plan: PlannedRun[] = [];
  for (let runIndex = 1; runIndex <= runsPerArm; runIndex += 1) {
    const seed = runSeed(studySeed, runIndex);
    for (const task of tasks) for (const arm of arms) plan.push(task.flat ? { arm, runIndex, seed } : { task: task.name, arm, runIndex, seed });
  }
  return plan;
}

export function shardOf<T>(plan: readonly T[], shard: Shard | null): T[] {
  if (shard === null) return [...plan];
  return plan.filter((_, position) => position % shard.count === shard.index - 1);
}

/** Parses `--shard i/n` (1 <= i <= n). */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index < 1 || index > count) {
    throw new StudyInputError("STUDY_SHARD", `--shard "${text}" is not i/n with 1 <= i <= n (for example --shard 1/3).`);
  }
  return { index, count };
}
