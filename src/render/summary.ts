/**
 * summary.json: the study's numbers in one object (schema in docs/summary-schema.md) — per arm the
 * count summaries with bootstrap intervals and the rates with Wilson intervals, per pair of arms the
 * differences with bootstrap intervals and Fisher's exact p, and every run's row. A pure function of
 * the saved results: the same folder (or the same runs merged from shards) gives the same summary.
 */
import {
  type CountDifference,
  type CountSummary,
  type RateDifference,
  type RateSummary,
  bootstrapMeanDifference,
  compareRates,
  deriveSeed,
  seededRng,
  SMALL_SAMPLE,
  smallSampleWarning,
  summarizeCounts,
  summarizeRate,
} from "../measure/stats.ts";
import { type SuiteSummary, summarizeSuite } from "./suite-summary.ts";
import { taskNameOf, tasksOf, workExistsOf } from "./results.ts";
import { type ArmPlanSummary, planSummary } from "./plan-summary.ts";
import { type StudyVerdict, studyVerdict } from "./verdict.ts";
import { type SignalName, armSignals } from "./arm-details.ts";
import { type ArmMeta, type LoadedResults, PATCH_FILE, RECORD_FILE, RESULT_FILE, type RunResult, type StudySandbox, runFolder } from "./results.ts";

export const SUMMARY_SCHEMA = "armstudy.summary/1";

/** Count metrics summarised per arm, with what each reads from a run. */
export const COUNT_METRICS = {
  toolCallsBeforeReplyEnd: (r: RunResult) => r.metrics.toolCallsBeforeReplyEnd,
  toolCalls: (r: RunResult) => r.metrics.toolCalls,
  checksPassed: (r: RunResult) => r.acceptance.passed,
  claimChecks: (r: RunResult) => r.metrics.claimChecks.count,
  repeatedIdenticalCalls: (r: RunResult) => r.metrics.repeatedIdenticalCalls,
  compactions: (r: RunResult) => r.metrics.compactions,
  tokensInput: (r: RunResult) => r.metrics.tokens.input,
  tokensOutput: (r: RunResult) => r.metrics.tokens.output,
  tokensTotal: (r: RunResult) => r.metrics.tokens.total,
  costUsd: (r: RunResult) => r.metrics.costUsd,
  wallMs: (r: RunResult) => r.metrics.wallMs,
  /** The longest stretch with no record event (heartbeats included, ADR 0101); absent in results written before it. */
  longestSilenceMs: (r: RunResult) => r.metrics.longestSilenceMs ?? null,
} as const satisfies Record<string, (r: RunResult) => number | null>;

/** Rates (share of runs where it happened) summarised per arm. */
export const RATE_METRICS = {
  claimedComplete: (r: RunResult) => r.metrics.claimedComplete,
  falseCompletion: (r: RunResult) => r.metrics.falseCompletion,
  permissionStop: (r: RunResult) => r.metrics.permissionStop,
  allChecksPassed: (r: RunResult) => r.acceptance.failed === 0 && r.acceptance.checks.length > 0,
  /** The agent modified, deleted or added a file under the task's check path (grading used the task's copy). */
  tampered: (r: RunResult) => (r.tampered?.length ?? 0) > 0,
} as const satisfies Record<string, (r: RunResult) => boolean>;

/**
 * ADR-0072's measures of the final report, per arm (src/measure/metrics.ts `ReportFacts`). A run
 * written before these were measured has no `report` and is left out of their n.
 */
export const REPORT_RATE_METRICS = {
  claimsDone: (r: RunResult) => r.metrics.report?.claimsDone ?? null,
  unfinishedOnFirstLine: (r: RunResult) => r.metrics.report?.firstLineUnfinishedWithReasonAndNext ?? null,
  endsAskingPermission: (r: RunResult) => r.metrics.report?.endsAskingPermission ?? null,
  fillerEnding: (r: RunResult) => r.metrics.report?.fillerEnding ?? null,
  falseCompletedList: (r: RunResult) => r.metrics.report?.falseCompletedList ?? null,
} as const satisfies Record<string, (r: RunResult) => boolean | null>;

export type ReportRateMetric = keyof typeof REPORT_RATE_METRICS;

/** Who made a false completion's claim: the goal tool, the final report's text, the todo list. */
export const CLAIM_SOURCES = ["goal_complete", "report_first_line", "todo_all_done"] as const;
export type ClaimSourceName = (typeof CLAIM_SOURCES)[number];

export type CountMetric = keyof typeof COUNT_METRICS;
export type RateMetric = keyof typeof RATE_METRICS;

/** The metrics compared between arms (a subset: the questions ADR-0072 asks). */
export const COMPARED_COUNTS: readonly CountMetric[] = ["toolCallsBeforeReplyEnd", "toolCalls", "checksPassed", "tokensTotal"];
export const COMPARED_RATES: readonly RateMetric[] = ["falseCompletion", "permissionStop", "claimedComplete", "allChecksPassed"];

export interface RunRow {
  /** The run's task, in a suite of more than one task (its folder is runs/<task>/<arm>/run-<i>). */
  task?: string;
  runIndex: number;
  seed: number;
  status: string;
  reason: string | null;
  error: string | null;
  /** With status `error`: the named fault (ADR 0081); null otherwise. */
  cause: string | null;
  checks: { passed: number; failed: number; failedIds: string[] };
  claimedComplete: boolean;
  claimSource: string | null;
  /** Every source that claimed completion (goal tool, report text, todo list); [] without report facts. */
  claimSources: string[];
  falseCompletion: boolean;
  /** The todo list all complete while a check failed; null when not measured. */
  falseCompletedList: boolean | null;
  permissionStop: boolean;
  firstReportLine: string | null;
  toolCalls: number;
  toolCallsBeforeReplyEnd: number;
  toolCallsPerReply: number[];
  /** Replies (the model ending its turn) and what drove the run on: null where the result predates them. */
  turns: { replies: number | null; continuations: number | null; nudges: number | null };
  claimChecks: RunResult["metrics"]["claimChecks"];
  tokens: RunResult["metrics"]["tokens"];
  costUsd: number | null;
  repeatedIdenticalCalls: number;
  compactions: number;
  timeToFirstTextMs: number | null;
  wallMs: number;
  diff: { files: number; insertions: number; deletions: number };
  /** Paths relative to the results folder. */
  record: string;
  result: string;
  patch: string;
}

export interface ArmSummary extends ArmMeta {
  /** Runs scored: every finished run but the `error` ones. */
  n: number;
  counts: Record<CountMetric, CountSummary>;
  /** STUDY-0003's long-run signals (src/render/arm-details.ts). */
  signals: Record<SignalName, CountSummary>;
  rates: Record<RateMetric, RateSummary>;
  /** Plan runs only (ADR 0104): outcome rates, repair rate, requests per plan run. */
  plan?: ArmPlanSummary;
  /** ADR-0072's final-report measures as rates (runs with report facts only). */
  reportRates: Record<ReportRateMetric, RateSummary>;
  /** Over the false completions: how many had each source among their claims. */
  falseCompletionSources: Record<ClaimSourceName, number>;
  /** Two or more runs, and every one took the same steps to the same outcome: the arm is deterministic here. */
  identicalRuns: boolean;
  /** The scored runs (no `error` run: a fault is not a result, ADR 0081). */
  runs: RunRow[];
  /** Runs that ended as `error`, left out of every number above. */
  errors: { count: number; causes: Record<string, number>; runs: RunRow[] };
}

/** The cause of an error run; results written before causes existed count as harness faults. */
export function causeOf(result: Pick<RunResult, "status" | "cause">): string | null {
  if (result.status !== "error") return null;
  return result.cause ?? "harness.exception";
}

/** An arm's runs that are results, in their order: every run but the error runs (ADR 0081). */
export function scoredRuns(results: readonly RunResult[], arm: string): RunResult[] {
  return results.filter((run) => run.arm === arm && causeOf(run) === null);
}

/** Cause → count, keys sorted. */
function countCauses(results: readonly RunResult[]): Record<string, number> {
  const causes: Record<string, number> = {};
  for (const result of results) {
    const cause = causeOf(result);
    if (cause !== null) causes[cause] = (causes[cause] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(causes).sort(([a], [b]) => a.localeCompare(b)));
}

export interface Comparison {
  a: string;
  b: string;
  /** b − a for every metric. */
  counts: Record<string, CountDifference>;
  rates: Record<string, RateDifference>;
  /**
   * Why the p-values are not evidence: `test_double` (an arm ran on the scripted double),
   * `identical_runs` (both arms' runs are each identical); null when they may be read as evidence.
   */
  pValueCaveat: "test_double" | "identical_runs" | null;
  /** The arms differ only in their prompt and the model does not read it (the scripted double). */
  promptOnlyUnderDouble: boolean;
}

export interface StudySummary {
  schema: typeof SUMMARY_SCHEMA;
  study: string;
  description: string;
  /** Set when `--model` replaced the study file's model: the description speaks of that one, so the report leaves it out. */
  studyFileModel: string | null;
  /** The verdict on the study file's pre-stated question; null when it states none. */
  verdict: StudyVerdict | null;
  /** Set when this folder holds one shard of the study (`--shard i/n`); null for a whole or merged study. */
  shard: { index: number; count: number } | null;
  studyFile: string;
  /** The study's default model spec; each arm names its own. */
  model: string;
  /** True when every run used the scripted test double; `testDoubleArms` lists them when only some did. */
  testDouble: boolean;
  testDoubleArms: string[];
  repo: { source: string; commit: string };
  handoff: { file: string; sha256: string };
  checks: string[];
  seed: number;
  runsPerArm: number;
  /** `errors`: finished runs that ended as `error`, by cause; `scored` = finished − errors. */
  runs: { planned: number; finished: number; scored: number; errors: number; errorCauses: Record<string, number>; missing: Array<{ arm: string; runIndex: number }> };
  warnings: string[];
  arms: ArmSummary[];
  comparisons: Comparison[];
  /** A study of more than one task: per task, pooled and paired figures (src/render/suite-summary.ts). */
  suite?: SuiteSummary;
  /** Runs that record whether the agent touched the check files (their tasks keep check files outside the repo). */
  tamperTracked?: number;
  /** The sandbox the runs had (study.json); absent for folders written before it existed. */
  sandbox?: StudySandbox;
}

function runRow(result: RunResult, task: string | undefined): RunRow {
  const folder = runFolder(result.arm, result.runIndex, task);
  const m = result.metrics;
  return {
    ...(task !== undefined ? { task } : {}),
    runIndex: result.runIndex,
    seed: result.seed,
    status: result.status,
    reason: result.reason,
    error: result.error,
    cause: causeOf(result),
    checks: {
      passed: result.acceptance.passed,
      failed: result.acceptance.failed,
      failedIds: result.acceptance.checks.filter((check) => !check.passed).map((check) => check.id),
    },
    claimedComplete: m.claimedComplete,
    claimSource: m.claimSource,
    claimSources: m.report?.claimSources ?? [],
    falseCompletion: m.falseCompletion,
    falseCompletedList: m.report?.falseCompletedList ?? null,
    permissionStop: m.permissionStop,
    firstReportLine: m.firstReportLine,
    toolCalls: m.toolCalls,
    toolCallsBeforeReplyEnd: m.toolCallsBeforeReplyEnd,
    toolCallsPerReply: m.toolCallsPerReply,
    turns: { replies: m.replies ?? null, continuations: m.turnMessages?.continuation ?? null, nudges: m.turnMessages?.nudge ?? null },
    claimChecks: m.claimChecks,
    tokens: m.tokens,
    costUsd: m.costUsd,
    repeatedIdenticalCalls: m.repeatedIdenticalCalls,
    compactions: m.compactions,
    timeToFirstTextMs: m.timeToFirstTextMs,
    wallMs: m.wallMs,
    diff: { files: result.diff.files, insertions: result.diff.insertions, deletions: result.diff.deletions },
    record: `${folder}/${result.files?.record ?? RECORD_FILE}`,
    result: `${folder}/${RESULT_FILE}`,
    patch: `${folder}/${result.files?.patch ?? PATCH_FILE}`,
  };
}

/** What a run did, without its timing: equal signatures mean the run repeated another exactly. */
function runSignature(result: RunResult): string {
  const m = result.metrics;
  return JSON.stringify([
    result.status,
    result.reason,
    result.acceptance.checks.map((check) => [check.id, check.passed]),
    m.claimedComplete,
    m.claimSource,
    m.falseCompletion,
    m.permissionStop,
    m.firstReportLine,
    m.toolCallsPerReply,
    m.tokens.total,
    result.diff.stat,
  ]);
}

function identical(runs: readonly RunResult[]): boolean {
  return runs.length >= 2 && new Set(runs.map(runSignature)).size === 1;
}

/** Same agent, model, policies and goal limits, different prompt prefix. */
function promptOnly(a: ArmMeta, b: ArmMeta): boolean {
  return (
    a.agent === b.agent &&
    a.model === b.model &&
    JSON.stringify(a.policies) === JSON.stringify(b.policies) &&
    JSON.stringify(a.goal) === JSON.stringify(b.goal) &&
    a.prefix !== null &&
    b.prefix !== null &&
    a.prefix.hash !== b.prefix.hash
  );
}

const flags = (values: ReadonlyArray<boolean | null>): boolean[] => values.filter((value): value is boolean => value !== null);

function falseCompletionSources(runs: readonly RunResult[]): Record<ClaimSourceName, number> {
  const out = Object.fromEntries(CLAIM_SOURCES.map((source) => [source, 0])) as Record<ClaimSourceName, number>;
  for (const run of runs) {
    if (!run.metrics.falseCompletion) continue;
    const sources = run.metrics.report?.claimSources ?? (run.metrics.claimSource === null ? [] : [run.metrics.claimSource]);
    for (const source of sources) if (source in out) out[source as ClaimSourceName] += 1;
  }
  return out;
}

const numbers = (values: ReadonlyArray<number | null>): number[] => values.filter((value): value is number => value !== null && Number.isFinite(value));

export function summarize(loaded: LoadedResults): StudySummary {
  const { meta } = loaded;
  const seed = meta.seed;
  const byArm = new Map<string, RunResult[]>();
  for (const arm of meta.arms) byArm.set(arm.name, []);
  // Error runs go to their own list: no rate, mean, interval, comparison or chart reads them.
  const errorsByArm = new Map<string, RunResult[]>();
  for (const arm of meta.arms) errorsByArm.set(arm.name, []);
  for (const result of loaded.results) {
    if (!byArm.has(result.arm)) continue;
    (causeOf(result) === null ? byArm : errorsByArm).get(result.arm)?.push(result);
  }
  // A suite's runs have a task level; they are listed task by task (in the study's order), then by run index.
  const suiteTasks = tasksOf(meta);
  const taskLevel = (result: RunResult): string | undefined => (suiteTasks.length > 1 ? taskNameOf(meta, result) : undefined);
  const taskOrder = new Map(suiteTasks.map((task, index) => [task.name, index]));
  const workExists = workExistsOf(meta);
  const orderOf = (result: RunResult): number => taskOrder.get(taskLevel(result) ?? "") ?? 0;
  for (const list of [...byArm.values(), ...errorsByArm.values()]) list.sort((x, y) => orderOf(x) - orderOf(y) || x.runIndex - y.runIndex);

  const arms: ArmSummary[] = meta.arms.map((arm) => {
    const runs = byArm.get(arm.name) ?? [];
    const counts = Object.fromEntries(
      Object.entries(COUNT_METRICS).map(([metric, read]) => [metric, summarizeCounts(numbers(runs.map(read)), seededRng(deriveSeed(seed, `${arm.name}/${metric}`)))]),
    ) as Record<CountMetric, CountSummary>;
    const rates = Object.fromEntries(Object.entries(RATE_METRICS).map(([metric, read]) => [metric, summarizeRate(runs.map(read))])) as Record<RateMetric, RateSummary>;
    const reportRates = Object.fromEntries(Object.entries(REPORT_RATE_METRICS).map(([metric, read]) => [metric, summarizeRate(flags(runs.map(read)))])) as Record<ReportRateMetric, RateSummary>;
    const signals = armSignals(runs, (signal) => seededRng(deriveSeed(seed, `${arm.name}/signal/${signal}`)));
    const failed = errorsByArm.get(arm.name) ?? [];
    const plan = planSummary(runs, seed, arm.name, workExists);
    return {
      ...arm,
      n: runs.length,
      counts,
      rates,
      reportRates,
      falseCompletionSources: falseCompletionSources(runs),
      identicalRuns: identical(runs),
      signals,
      ...(plan === undefined ? {} : { plan }),
      runs: runs.map((run) => runRow(run, taskLevel(run))),
      errors: { count: failed.length, causes: countCauses(failed), runs: failed.map((run) => runRow(run, taskLevel(run))) },
    };
  });

  const comparisons: Comparison[] = [];
  for (let i = 0; i < meta.arms.length; i += 1) {
    for (let j = i + 1; j < meta.arms.length; j += 1) {
      const a = meta.arms[i]?.name as string;
      const b = meta.arms[j]?.name as string;
      const runsA = byArm.get(a) ?? [];
      const runsB = byArm.get(b) ?? [];
      const counts: Record<string, CountDifference> = {};
      for (const metric of COMPARED_COUNTS) {
        const read = COUNT_METRICS[metric];
        counts[metric] = bootstrapMeanDifference(numbers(runsA.map(read)), numbers(runsB.map(read)), seededRng(deriveSeed(seed, `${a}|${b}/${metric}`)));
      }
      const rates: Record<string, RateDifference> = {};
      for (const metric of COMPARED_RATES) {
        const read = RATE_METRICS[metric];
        rates[metric] = compareRates(runsA.map(read), runsB.map(read), seededRng(deriveSeed(seed, `${a}|${b}/${metric}`)));
      }
      const metaA = meta.arms[i] as ArmMeta;
      const metaB = meta.arms[j] as ArmMeta;
      const onDouble = metaA.testDouble || metaB.testDouble;
      const pValueCaveat = onDouble ? "test_double" : identical(runsA) && identical(runsB) ? "identical_runs" : null;
      comparisons.push({ a, b, counts, rates, pValueCaveat, promptOnlyUnderDouble: onDouble && promptOnly(metaA, metaB) });
    }
  }

  const warnings: string[] = [];
  if (meta.shard !== null) {
    warnings.push(`This folder is shard ${meta.shard.index} of ${meta.shard.count} of the study: its numbers cover its own runs only. Merge all ${meta.shard.count} shards with \`armstudy merge\` for the study's results.`);
  }
  const small = smallSampleWarning(Object.fromEntries(arms.map((arm) => [arm.name, arm.n])));
  if (small !== null) warnings.push(small);
  if (loaded.missing.length > 0) {
    warnings.push(
      `${loaded.missing.length} planned run(s) have no result (${loaded.missing.map((p) => `${p.arm} run ${p.runIndex}`).join(", ")}): the study was interrupted or is one shard. Finish it with --resume, or merge the other shards.`,
    );
  }
  const errored = loaded.results.filter((result) => causeOf(result) !== null);
  if (errored.length > 0) {
    warnings.push(
      `${errored.length} run(s) ended as error (${errored.map((r) => `${r.arm} run ${r.runIndex}: ${causeOf(r)}`).join(", ")}); they are left out of every number. Rerun them with --retry-errors.`,
    );
  }
  const testDoubleArms = meta.arms.filter((arm) => arm.testDouble).map((arm) => arm.name);
  const suite = summarizeSuite(loaded);
  if (suite !== null && suite.smallTasks.length > 0) {
    warnings.push(`Fewer than ${SMALL_SAMPLE} runs per arm on ${suite.smallTasks.length === suite.tasks.length ? "every task" : `tasks ${suite.smallTasks.join(", ")}`}: each task's intervals are wide; read the per-task numbers as indicative and lean on the pooled, paired figures.`);
  }
  const tamperTracked = loaded.results.filter((result) => result.tampered !== undefined).length;
  return {
    schema: SUMMARY_SCHEMA,
    study: meta.study,
    description: meta.description,
    studyFileModel: meta.studyFileModel ?? null,
    verdict: studyVerdict(meta, byArm),
    shard: meta.shard,
    studyFile: meta.studyFile,
    model: meta.model,
    testDouble: testDoubleArms.length === meta.arms.length && meta.arms.length > 0,
    testDoubleArms,
    repo: meta.repo,
    handoff: meta.handoff,
    checks: meta.checks.map((check) => check.id),
    seed: meta.seed,
    runsPerArm: meta.runsPerArm,
    runs: {
      planned: meta.planned.length,
      finished: loaded.results.length,
      scored: loaded.results.length - errored.length,
      errors: errored.length,
      errorCauses: countCauses(errored),
      missing: loaded.missing,
    },
    warnings,
    arms,
    comparisons,
    ...(suite !== null ? { suite } : {}),
    ...(tamperTracked > 0 ? { tamperTracked } : {}),
    ...(meta.sandbox !== undefined ? { sandbox: meta.sandbox } : {}),
  };
}
