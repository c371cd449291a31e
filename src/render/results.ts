/**
 * The saved results of a study, as the runner writes them and the report reads them back:
 *
 *   <out>/study.json                      what was run (StudyMeta)
 *   <out>/runs/<arm>/run-<i>/record.jsonl the run record (a suite: runs/<task>/<arm>/run-<i>/)
 *   <out>/runs/<arm>/run-<i>/diff.patch   the patch the run left (after `git add -A`)
 *   <out>/runs/<arm>/run-<i>/result.json  the run's result (RunResult), written last and atomically
 *
 * A run folder without result.json is unfinished. These types live below the study layer so the
 * renderer can read results without knowing the runner.
 */
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { ReportFacts } from "../measure/metrics.ts";

export const STUDY_META_FILE = "study.json";
export const RESULT_FILE = "result.json";
export const RECORD_FILE = "record.jsonl";
export const PATCH_FILE = "diff.patch";

/**
 * The run folder of one (arm, run index) — of one task in a suite —, relative to the results folder
 * (always `/`). A study of one inline task has no task level, as before suites.
 */
export function runFolder(arm: string, runIndex: number, task?: string): string {
  return task === undefined ? `runs/${arm}/run-${runIndex}` : `runs/${task}/${arm}/run-${runIndex}`;
}

/** One planned run: (task, arm, run index); `task` is absent in a study of one inline task. */
export interface RunKey {
  task?: string;
  arm: string;
  runIndex: number;
}

/** A stable string for a run key (maps, duplicate checks). */
export function runKeyOf(key: RunKey): string {
  return key.task === undefined ? `${key.arm}#${key.runIndex}` : `${key.task}/${key.arm}#${key.runIndex}`;
}

export interface SectionSize {
  id: string;
  chars: number;
  tokens: number;
}

export interface ArmMeta {
  name: string;
  description: string;
  /** Who ran it: `armstudy` (our loop) or a real client (`codex`, `claude`, `pi`). */
  agent: string;
  /** The model spec this arm's runs used. */
  model: string;
  testDouble: boolean;
  policies: Array<{ name: string; options?: Record<string, unknown> }>;
  goal: { rounds?: number; hours?: number } | null;
  /** This arm's hard caps when they differ from the study's (`limits.goalCapsFirst` raised them). */
  limits?: { maxRounds?: number; maxWallMs?: number; maxTokens?: number; maxCostUsd?: number };
  /** The compiled stable prefix; null for a real client that uses its own prompt. */
  prefix: { hash: string; tokens: number; chars: number; sections: SectionSize[] | null } | null;
}

/** One acceptance check as a study file lists it. */
export interface CheckSpec {
  id: string;
  /** A shell command, run with `sh -c` in the worktree. */
  command: string;
  description?: string;
  timeoutMs?: number;
  /** Set on every check of a checks file that says `sequential: true`: run them one at a time, in order. */
  sequential?: true;
}

/** One task of the study as it ran: where it started, its handoff and checks, and its check files. */
export interface TaskMeta {
  name: string;
  description: string;
  tags: string[];
  /** The requested work is already in the repository (task.yaml `workExists`, ADR 0125); absent: false. */
  workExists?: boolean;
  /** task.yaml (or the study file for an inline task), relative to where the command ran. */
  file: string;
  repo: { source: string; commit: string };
  handoff: { file: string; sha256: string };
  checks: CheckSpec[];
  /** The files the checks need, where grading puts them, whether the agent saw a copy, and their hash. */
  checkFiles: { to: string; visible: boolean; sha256: string } | null;
  setup: string | null;
  limits: { maxRounds?: number; maxWallMs?: number };
  /** True for a study file's own repo/handoff/checks (runs/<arm>/run-<i>, no task level). */
  flat: boolean;
}

/** The question a study file states before any run (validated in src/study/question.ts). */
export interface StudyQuestion {
  decision: { adr: string; title: string; link?: string } | null;
  hypothesis: string;
  primary: {
    metric: string;
    kind: "rate" | "count";
    baseline: string;
    treatment: string;
    direction: "lower" | "higher";
    minDifference: number;
    alpha: number;
  };
  secondary: Array<{ metric: string; kind: "rate" | "count"; direction: "lower" | "higher" | null }>;
}


/** What a results folder holds: everything that identifies the study, plus the shard it is. */
export interface StudyMeta {
  schema: "armstudy.study/1";
  study: string;
  description: string;
  /** The pre-stated question; absent in folders written before it existed. */
  question?: StudyQuestion | null;
  /** The study file, relative to where the command ran. */
  studyFile: string;
  repo: { source: string; commit: string };
  handoff: { file: string; sha256: string };
  checks: CheckSpec[];
  seed: number;
  runsPerArm: number;
  /** The study's default model spec. */
  model: string;
  /** The model the study file names, when `--model` replaced it (the file's description speaks of its own model). */
  studyFileModel?: string;
  arms: ArmMeta[];
  limits: { maxRounds?: number; maxWallMs?: number; maxTokens?: number; maxCostUsd?: number; goalCapsFirst?: boolean };
  /** Context windows the study declared (ADR 0103). */
  contextWindows?: Record<string, number>;
  /** Model request timeouts and retries (ADR 0082). Absent in folders written before it. */
  requests?: { connectTimeoutMs: number; idleTimeoutMs: number; maxRetries: number; retryDelayMs: number };
  /** Null for an unsharded study (or a merge of shards). */
  shard: { index: number; count: number } | null;
  /** The (task, arm, run) triples this folder is meant to hold (no task for an inline task). */
  planned: RunKey[];
  /** The tasks, in order (absent in folders written before suites: one task, the fields above). */
  tasks?: TaskMeta[];
  /** The sandbox the study's runs had (src/run/sandbox/); absent in folders written before it existed. */
  sandbox?: StudySandbox;
}

/** A study's tasks; an old folder's single task is read from its top-level fields. */
export function tasksOf(meta: StudyMeta): TaskMeta[] {
  if (meta.tasks !== undefined && meta.tasks.length > 0) return meta.tasks;
  return [
    {
      name: meta.handoff.file.split("/").at(-1)?.replace(/\.md$/, "") ?? "main",
      description: "",
      tags: [],
      file: meta.studyFile,
      repo: meta.repo,
      handoff: meta.handoff,
      checks: meta.checks,
      checkFiles: null,
      setup: null,
      limits: meta.limits,
      flat: true,
    },
  ];
}

/** The task a run belongs to: its own name, or the study's only (flat) task. */
export function taskNameOf(meta: StudyMeta, key: { task?: string }): string {
  return key.task ?? (tasksOf(meta)[0] as TaskMeta).name;
}

/** Whether a run's task asks for work the repository already has (task.yaml `workExists`, ADR 0125). */
export function workExistsOf(meta: StudyMeta): (key: { task?: string }) => boolean {
  const exists = new Set(tasksOf(meta).filter((task) => task.workExists === true).map((task) => task.name));
  return (key) => exists.has(taskNameOf(meta, key));
}

/** What study.json says about the sandbox: the report's first screen shows it. */
export interface StudySandbox {
  kind: "bwrap" | "none";
  version?: string;
  /** For `none`: why (bubblewrap missing or failing its self-test, or `--no-sandbox`). */
  reason?: string;
  /** True when `--no-sandbox` was given. */
  disabled: boolean;
  /** `cgroup`: CPU, memory and processes capped per run (ADR 0114); `ulimit`: per process, and why. */
  limitsKind?: "cgroup" | "ulimit";
  limitsReason?: string;
}

/** A file under the check paths that the agent changed: grading used the task's own copy instead. */
export interface TamperedPath {
  path: string;
  kind: "modified" | "deleted" | "added";
}

/** One acceptance check as it ran in the worktree (src/study/checks.ts runs them). */
export interface CheckOutcome {
  id: string;
  command: string;
  passed: boolean;
  exitCode: number | null;
  /** The signal that ended it, when one did (a timeout kills with SIGKILL). */
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The tail of stdout + stderr, capped. */
  output: string;
}

export interface AcceptanceResult {
  passed: number;
  failed: number;
  checks: CheckOutcome[];
}

/**
 * The per-run metrics the report reads (src/measure/metrics.ts computes them from the run record
 * and the acceptance result; docs/metrics.md defines them). Fields the report does not read may be
 * present too.
 */
export interface MetricsView {
  toolCalls: number;
  toolCallsBeforeReplyEnd: number;
  toolCallsPerReply: number[];
  claimedComplete: boolean;
  claimSource: string | null;
  falseCompletion: boolean;
  permissionStop: boolean;
  firstReportLine: string | null;
  claimChecks: {
    count: number;
    done: number;
    continue: number;
    acceptedUnchecked: number;
    shieldRejected: number;
    agreesWithAcceptance: boolean | null;
  };
  tokens: {
    prefix: number;
    input: number;
    cachedInput: number;
    output: number;
    reasoning: number;
    total: number;
    source: string;
  };
  costUsd: number | null;
  repeatedIdenticalCalls: number;
  readsPerDistinctFile: number | null;
  maxReadsOfOneFile: number;
  compactions: number;
  timeToFirstTextMs: number | null;
  toolCallsPerVisibleText: number | null;
  wallMs: number;
  modelMs: number;
  toolMs: number;
  /** ADR-0072's final-report measures (src/measure/metrics.ts `ReportFacts`); absent in results written before them. */
  report?: ReportFacts;
  /** Continuations, nudges and person messages after the handoff; absent in results written before it. */
  turnMessages?: { continuation: number; nudge: number; person: number };
  /** Replies (the model ending its turn), and the longest one; written by runMetrics, absent in hand-built results. */
  replies?: number;
  modelRequests?: number;
  longestReply?: { ms: number; toolCalls: number };
  compactionsPerReply?: number[];
  /** Plan runs only (ADR 0104); absent or null otherwise. */
  plan?: { firstOutcome: string; outcome: string; repaired: boolean } | null;
  /** The longest gap between two record events (ADR 0101); absent in older results. */
  longestSilenceMs?: number;
}

export interface RunResult {
  schema: "armstudy.result/1";
  /** The task, in a suite (absent for a study of one inline task). */
  task?: string;
  arm: string;
  runIndex: number;
  seed: number;
  model: string;
  testDouble: boolean;
  agent: string;
  /** The settled status of the run (`completed`, `unfinished`, `blocked`, …), or `error`. */
  status: string;
  reason: string | null;
  /** With status `error`: what went wrong, in words (a harness failure, a model fault); null otherwise. */
  error: string | null;
  /** With status `error`: the named fault (`model.timeout`, `harness.exception`, …; ADR 0081). Absent in older results. */
  cause?: string | null;
  acceptance: AcceptanceResult;
  diff: { stat: string; files: number; insertions: number; deletions: number };
  metrics: MetricsView;
  /**
   * Files under the task's check paths the agent modified, deleted or added (empty: untouched). The
   * checks ran on the task's own copy either way. Absent when the task keeps no check files.
   */
  tampered?: TamperedPath[];
  /** Files beside result.json. */
  files: { record: string; patch: string; envelope?: string };
  /** Harness overhead of this run, by phase, in milliseconds. */
  timing: { worktreeMs: number; agentMs: number; checksMs: number; diffMs: number; cleanupMs: number };
  /** The sandbox the agent's commands and the checks ran in, as run.start records it. */
  sandbox?: { kind: "bwrap" | "none"; version?: string; network: string; reason?: string; disabled: boolean };
  /** What the agent did to the `.git` armstudy made in its folder (null: left a folder); never trusted either way. */
  gitTampered?: string | null;
}

export interface LoadedResults {
  dir: string;
  meta: StudyMeta;
  /** Finished runs, in the order of `meta.planned`, then any others sorted by arm and index. */
  results: RunResult[];
  /** Planned runs with no result. */
  missing: RunKey[];
}

export class ResultsError extends Error {
  readonly code = "STUDY_RESULTS";
  // A folder that is not a study, or one whose files do not validate, is bad input (exit 2), never a gate that fired (1).
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "ResultsError";
  }
}

// The parts of study.json and result.json the report reads, checked when they are read back, so a
// hand-edited or foreign file is an error naming its field rather than a crash in the renderer.
// Other fields may be present (loose objects).
const STUDY_META_SHAPE = z.looseObject({
  study: z.string(),
  description: z.string(),
  repo: z.looseObject({ source: z.string(), commit: z.string() }),
  handoff: z.looseObject({ file: z.string(), sha256: z.string() }),
  checks: z.array(z.looseObject({ id: z.string(), command: z.string() })),
  seed: z.number(),
  runsPerArm: z.number(),
  model: z.string(),
  arms: z.array(z.looseObject({ name: z.string(), agent: z.string(), model: z.string(), testDouble: z.boolean(), policies: z.array(z.looseObject({ name: z.string() })) })),
  limits: z.looseObject({}),
  shard: z.looseObject({ index: z.number(), count: z.number() }).nullable(),
  planned: z.array(z.looseObject({ task: z.string().optional(), arm: z.string(), runIndex: z.number() })),
  tasks: z.array(z.looseObject({ name: z.string(), repo: z.looseObject({ source: z.string(), commit: z.string() }), checks: z.array(z.looseObject({ id: z.string() })), flat: z.boolean() })).optional(),
});

const RUN_RESULT_SHAPE = z.looseObject({
  schema: z.literal("armstudy.result/1"),
  arm: z.string(),
  runIndex: z.number(),
  status: z.string(),
  acceptance: z.looseObject({ passed: z.number(), failed: z.number(), checks: z.array(z.looseObject({ id: z.string(), passed: z.boolean() })) }),
  diff: z.looseObject({ stat: z.string() }),
  metrics: z.looseObject({
    toolCalls: z.number(),
    toolCallsBeforeReplyEnd: z.number(),
    claimedComplete: z.boolean(),
    falseCompletion: z.boolean(),
    permissionStop: z.boolean(),
    claimChecks: z.looseObject({ count: z.number() }),
    tokens: z.looseObject({ input: z.number(), output: z.number(), total: z.number() }),
    wallMs: z.number(),
    report: z
      .looseObject({
        claimsDone: z.boolean(),
        firstLineUnfinishedWithReasonAndNext: z.boolean(),
        endsAskingPermission: z.boolean(),
        fillerEnding: z.boolean(),
        falseCompletedList: z.boolean().nullable(),
        claimSources: z.array(z.string()),
      })
      .optional(),
  }),
  files: z.looseObject({ record: z.string(), patch: z.string() }),
});

/** `field a.b: expected …` for the first issue, or null when the value fits the shape. */
function firstProblem(shape: z.ZodType, value: unknown): string | null {
  const parsed = shape.safeParse(value);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  if (issue === undefined) return null;
  return `${issue.path.length === 0 ? "top level" : `field ${issue.path.map(String).join(".")}`}: ${issue.message}`;
}

export async function readStudyMeta(dir: string): Promise<StudyMeta> {
  const file = join(dir, STUDY_META_FILE);
  if (!existsSync(file)) throw new ResultsError(`${dir} is not a study results folder: ${STUDY_META_FILE} is missing. Pass a folder that \`armstudy study\` wrote (reports/<study>/<stamp>).`);
  let meta: unknown;
  try {
    meta = JSON.parse(await readFile(file, "utf8"));
    if ((meta as { schema?: unknown } | null)?.schema !== "armstudy.study/1") throw new Error(`unknown schema ${String((meta as { schema?: unknown } | null)?.schema)}`);
  } catch (error) {
    throw new ResultsError(`${file}: cannot be read (${(error as Error).message}). armstudy study writes this file; restore it from the study's folder, or run the study again.`);
  }
  const problem = firstProblem(STUDY_META_SHAPE, meta);
  if (problem !== null) throw new ResultsError(`${file}: ${problem}. armstudy study writes this file; restore it from the study's folder, or run the study again.`);
  return meta as StudyMeta;
}

export async function readRunResult(dir: string, arm: string, runIndex: number, task?: string): Promise<RunResult | null> {
  const file = join(dir, runFolder(arm, runIndex, task), RESULT_FILE);
  if (!existsSync(file)) return null;
  let result: unknown;
  try {
    result = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new ResultsError(`${file}: cannot be read (${(error as Error).message}). Delete the run folder and rerun with --resume.`);
  }
  const problem = firstProblem(RUN_RESULT_SHAPE, result);
  if (problem !== null) throw new ResultsError(`${file}: ${problem}. Delete the run folder and rerun with --resume.`);
  return result as RunResult;
}

/** A folder's sub-folders (stray files are ignored); a file where the folder belongs is a ResultsError. */
async function readFolder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new ResultsError(`${dir}: cannot be listed (${code}); a results folder keeps each run in runs/<arm>/run-<i>/. Move the stray file away.`);
  }
}

/** Every run folder present on disk, whether planned or not: runs/<arm>/run-<i> and runs/<task>/<arm>/run-<i>. */
export async function listRunFolders(dir: string): Promise<RunKey[]> {
  const runsDir = join(dir, "runs");
  if (!existsSync(runsDir)) return [];
  const out: RunKey[] = [];
  const runsIn = async (folder: string, key: { task?: string; arm: string }): Promise<boolean> => {
    let found = false;
    for (const name of (await readFolder(folder)).sort()) {
      const match = /^run-(\d+)$/.exec(name);
      if (match) {
        out.push({ ...key, runIndex: Number(match[1]) });
        found = true;
      }
    }
    return found;
  };
  for (const first of (await readFolder(runsDir)).sort()) {
    if (await runsIn(join(runsDir, first), { arm: first })) continue;
    // No run-<i> inside: a task's folder, holding one folder per arm.
    for (const arm of (await readFolder(join(runsDir, first))).sort()) await runsIn(join(runsDir, first, arm), { task: first, arm });
  }
  const order = (key: RunKey): string => `${key.task ?? ""}\u0000${key.arm}`;
  return out.sort((a, b) => (order(a) === order(b) ? a.runIndex - b.runIndex : order(a) < order(b) ? -1 : 1));
}

export async function loadResults(dir: string): Promise<LoadedResults> {
  const meta = await readStudyMeta(dir);
  const results: RunResult[] = [];
  const missing: RunKey[] = [];
  const seen = new Set<string>();
  for (const pair of meta.planned) {
    seen.add(runKeyOf(pair));
    const result = await readRunResult(dir, pair.arm, pair.runIndex, pair.task);
    if (result) results.push(result);
    else missing.push(pair);
  }
  for (const pair of await listRunFolders(dir)) {
    if (seen.has(runKeyOf(pair))) continue;
    const result = await readRunResult(dir, pair.arm, pair.runIndex, pair.task);
    if (result) results.push(result);
  }
  return { dir, meta, results, missing };
}
