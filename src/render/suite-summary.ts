/**
 * summary.json's `suite` part, for a study of more than one task: per task and arm the outcome
 * rates, checks passed (as a share of the task's checks), pass@k and pass^k; pooled per arm (every
 * task weighs the same; intervals resample tasks, then runs within tasks); and per pair of arms the
 * paired comparison by (task, run index) — exact McNemar on every-check-passed and on false
 * completion, a paired task-then-runs bootstrap of the difference in checks passed and tool calls —
 * and the tasks the second arm wins, loses and ties on. Runs that ended in a harness error are
 * faults, not outcomes: they are left out here. A pure function of the saved results.
 */
import { type RateSummary, SMALL_SAMPLE, deriveSeed, seededRng, summarizeRate } from "../measure/stats.ts";
import {
  type Estimate,
  type PairedBinary,
  meanOf,
  pairedBinary,
  passAtKOf,
  passHatKOf,
  runsEstimate,
  suiteEstimate,
} from "../measure/suite-stats.ts";
import { type LoadedResults, type RunResult, taskNameOf, tasksOf } from "./results.ts";

/** Outcomes of one run, as the suite statistics read them. */
export const allChecksPassed = (r: RunResult): boolean => r.acceptance.failed === 0 && r.acceptance.checks.length > 0;
export const checksShare = (r: RunResult): number => (r.acceptance.checks.length === 0 ? 0 : r.acceptance.passed / r.acceptance.checks.length);
export const tamperedRun = (r: RunResult): boolean => (r.tampered?.length ?? 0) > 0;

export interface KEstimate extends Estimate {
  k: number;
}

export interface TaskArmCell {
  arm: string;
  n: number;
  allChecksPassed: RateSummary;
  falseCompletion: RateSummary;
  permissionStop: RateSummary;
  tampered: RateSummary;
  /** Mean share of the task's checks passed per run, with a bootstrap interval over its runs. */
  checksShare: Estimate;
  passAtK: KEstimate[];
  passHatK: KEstimate[];
}

export interface TaskPair {
  a: string;
  b: string;
  allChecksPassed: PairedBinary;
}

export interface TaskSummary {
  name: string;
  description: string;
  tags: string[];
  checks: string[];
  repo: { source: string; commit: string };
  handoff: string;
  /** The small-sample warning for this task, or null. */
  warning: string | null;
  arms: TaskArmCell[];
  pairs: TaskPair[];
}

export interface PooledArm {
  arm: string;
  /** Runs, over every task. */
  n: number;
  tasks: number;
  /** Rates over every run (Wilson), beside the mean over tasks with the task-then-runs interval. */
  allChecksPassed: RateSummary & { overTasks: Estimate };
  falseCompletion: RateSummary;
  permissionStop: RateSummary;
  tampered: RateSummary;
  checksShare: Estimate;
  toolCalls: Estimate;
  passAtK: KEstimate[];
  passHatK: KEstimate[];
}

export interface SuitePair {
  a: string;
  b: string;
  /** Paired by (task, run index) over every task: exact McNemar (stratified by task). */
  allChecksPassed: PairedBinary;
  falseCompletion: PairedBinary;
  /** b − a, mean over tasks of the paired per-run difference, task-then-runs bootstrap interval. */
  checksShare: Estimate;
  toolCalls: Estimate;
  /** Tasks where b's every-check-passed rate is above a's (ties broken by the share of checks passed), below, or equal. */
  wins: string[];
  losses: string[];
  ties: string[];
}

export interface SuiteSummary {
  /** The k of pass@k and pass^k: 1 … runs per arm. */
  k: number[];
  tasks: TaskSummary[];
  pooled: PooledArm[];
  pairs: SuitePair[];
  /** Tasks with fewer than SMALL_SAMPLE runs in some arm. */
  smallTasks: string[];
}

function kEstimates(runs: readonly RunResult[], ks: readonly number[], of: (k: number) => (flags: readonly boolean[]) => number | null, seed: number, label: string): KEstimate[] {
  const flags = runs.map(allChecksPassed);
  return ks.map((k) => ({ k, ...runsEstimate(flags, of(k), seededRng(deriveSeed(seed, `${label}/k${k}`))) }));
}

/** Per task, the runs of two arms paired by run index (both present). */
function pairsByRun(a: readonly RunResult[], b: readonly RunResult[]): Array<[RunResult, RunResult]> {
  const byIndex = new Map(b.map((run) => [run.runIndex, run]));
  const out: Array<[RunResult, RunResult]> = [];
  for (const run of a) {
    const other = byIndex.get(run.runIndex);
    if (other !== undefined) out.push([run, other]);
  }
  return out;
}

/** b compared with a on one task: 1 (b better), −1 (worse), 0 (the same). */
function verdict(a: readonly RunResult[], b: readonly RunResult[]): number {
  const rate = (runs: readonly RunResult[]) => meanOf(runs.map((r) => (allChecksPassed(r) ? 1 : 0))) ?? 0;
  const share = (runs: readonly RunResult[]) => meanOf(runs.map(checksShare)) ?? 0;
  const byRate = Math.sign(rate(b) - rate(a));
  if (byRate !== 0) return byRate;
  const byShare = share(b) - share(a);
  return Math.abs(byShare) < 1e-9 ? 0 : Math.sign(byShare);
}

export function summarizeSuite(loaded: LoadedResults): SuiteSummary | null {
  const { meta } = loaded;
  const tasks = tasksOf(meta);
  if (tasks.length < 2) return null;
  const seed = meta.seed;
  const arms = meta.arms.map((arm) => arm.name);
  const ks = Array.from({ length: meta.runsPerArm }, (_, i) => i + 1);
  // task → arm → finished, fault-free runs in run-index order.
  const grid = new Map<string, Map<string, RunResult[]>>(tasks.map((task) => [task.name, new Map(arms.map((arm) => [arm, [] as RunResult[]]))]));
  for (const result of loaded.results) {
    if (result.error !== null) continue;
    grid.get(taskNameOf(meta, result))?.get(result.arm)?.push(result);
  }
  for (const byArm of grid.values()) for (const runs of byArm.values()) runs.sort((x, y) => x.runIndex - y.runIndex);
  const runsOf = (task: string, arm: string): RunResult[] => grid.get(task)?.get(arm) ?? [];

  const smallTasks: string[] = [];
  const taskSummaries: TaskSummary[] = tasks.map((task) => {
    const cells: TaskArmCell[] = arms.map((arm) => {
      const runs = runsOf(task.name, arm);
      const label = `suite/${task.name}/${arm}`;
      return {
        arm,
        n: runs.length,
        allChecksPassed: summarizeRate(runs.map(allChecksPassed)),
        falseCompletion: summarizeRate(runs.map((r) => r.metrics.falseCompletion)),
        permissionStop: summarizeRate(runs.map((r) => r.metrics.permissionStop)),
        tampered: summarizeRate(runs.map(tamperedRun)),
        checksShare: runsEstimate(runs.map(checksShare), meanOf, seededRng(deriveSeed(seed, `${label}/checksShare`))),
        passAtK: kEstimates(runs, ks, passAtKOf, seed, `${label}/passAtK`),
        passHatK: kEstimates(runs, ks, passHatKOf, seed, `${label}/passHatK`),
      };
    });
    const small = cells.filter((cell) => cell.n < SMALL_SAMPLE);
    if (small.length > 0) smallTasks.push(task.name);
    const pairs: TaskPair[] = [];
    for (let i = 0; i < arms.length; i += 1) {
      for (let j = i + 1; j < arms.length; j += 1) {
        const a = arms[i] as string;
        const b = arms[j] as string;
        pairs.push({ a, b, allChecksPassed: pairedBinary(pairsByRun(runsOf(task.name, a), runsOf(task.name, b)).map(([x, y]) => [allChecksPassed(x), allChecksPassed(y)] as const)) });
      }
    }
    return {
      name: task.name,
      description: task.description,
      tags: task.tags,
      checks: task.checks.map((check) => check.id),
      repo: task.repo,
      handoff: task.handoff.file,
      warning:
        small.length === 0
          ? null
          : `${task.name}: fewer than ${SMALL_SAMPLE} runs for ${small.map((cell) => `${cell.arm} (n=${cell.n})`).join(", ")}; its intervals are wide and only large differences can be told from chance.`,
      arms: cells,
      pairs,
    };
  });

  const pooled: PooledArm[] = arms.map((arm) => {
    const perTask = tasks.map((task) => runsOf(task.name, arm));
    const all = perTask.flat();
    const label = `suite/pooled/${arm}`;
    const rng = (metric: string) => seededRng(deriveSeed(seed, `${label}/${metric}`));
    const flagsPerTask = perTask.map((runs) => runs.map(allChecksPassed));
    return {
      arm,
      n: all.length,
      tasks: perTask.filter((runs) => runs.length > 0).length,
      allChecksPassed: {
        ...summarizeRate(all.map(allChecksPassed)),
        overTasks: suiteEstimate(flagsPerTask, (flags) => meanOf(flags.map((flag) => (flag ? 1 : 0))), rng("allChecksPassed")),
      },
      falseCompletion: summarizeRate(all.map((r) => r.metrics.falseCompletion)),
      permissionStop: summarizeRate(all.map((r) => r.metrics.permissionStop)),
      tampered: summarizeRate(all.map(tamperedRun)),
      checksShare: suiteEstimate(perTask.map((runs) => runs.map(checksShare)), meanOf, rng("checksShare")),
      toolCalls: suiteEstimate(perTask.map((runs) => runs.map((r) => r.metrics.toolCalls)), meanOf, rng("toolCalls")),
      passAtK: ks.map((k) => ({ k, ...suiteEstimate(flagsPerTask, passAtKOf(k), rng(`passAtK${k}`)) })),
      passHatK: ks.map((k) => ({ k, ...suiteEstimate(flagsPerTask, passHatKOf(k), rng(`passHatK${k}`)) })),
    };
  });

  const pairs: SuitePair[] = [];
  for (let i = 0; i < arms.length; i += 1) {
    for (let j = i + 1; j < arms.length; j += 1) {
      const a = arms[i] as string;
      const b = arms[j] as string;
      const perTask = tasks.map((task) => pairsByRun(runsOf(task.name, a), runsOf(task.name, b)));
      const flat = perTask.flat();
      const rng = (metric: string) => seededRng(deriveSeed(seed, `suite/${a}|${b}/${metric}`));
      const wins: string[] = [];
      const losses: string[] = [];
      const ties: string[] = [];
      for (const task of tasks) {
        const left = runsOf(task.name, a);
        const right = runsOf(task.name, b);
        if (left.length === 0 || right.length === 0) continue;
        const v = verdict(left, right);
        (v > 0 ? wins : v < 0 ? losses : ties).push(task.name);
      }
      pairs.push({
        a,
        b,
        allChecksPassed: pairedBinary(flat.map(([x, y]) => [allChecksPassed(x), allChecksPassed(y)] as const)),
        falseCompletion: pairedBinary(flat.map(([x, y]) => [x.metrics.falseCompletion, y.metrics.falseCompletion] as const)),
        checksShare: suiteEstimate(perTask.map((list) => list.map(([x, y]) => checksShare(y) - checksShare(x))), meanOf, rng("checksShare")),
        toolCalls: suiteEstimate(perTask.map((list) => list.map(([x, y]) => y.metrics.toolCalls - x.metrics.toolCalls)), meanOf, rng("toolCalls")),
        wins,
        losses,
        ties,
      });
    }
  }
  return { k: ks, tasks: taskSummaries, pooled, pairs, smallTasks };
}
