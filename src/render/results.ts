/**
 * The saved results of a study, as the runner writes them and the report reads them back:
 *
 *   <out>/study.json                      what was run (StudyMeta)
 *   <out>/runs/<arm>/run-<i>/record.jsonl the run record
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

export const STUDY_META_FILE = "study.json";
export const RESULT_FILE = "result.json";
export const RECORD_FILE = "record.jsonl";
export const PATCH_FILE = "diff.patch";

/** The run folder of one (arm, run index), relative to the results folder (always `/`). */
export function runFolder(arm: string, runIndex: number): string {
  return `runs/${arm}/run-${runIndex}`;
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
  limits: { maxRounds?: number; maxWallMs?: number };
  /** Model request timeouts and retries (ADR 0082). Absent in folders written before it. */
  requests?: { connectTimeoutMs: number; idleTimeoutMs: number; maxRetries: number; retryDelayMs: number };
  /** Null for an unsharded study (or a merge of shards). */
  shard: { index: number; count: number } | null;
  /** The (arm, run) pairs this folder is meant to hold. */
  planned: Array<{ arm: string; runIndex: number }>;
  /** The sandbox the study's runs had (src/run/sandbox/); absent in folders written before it existed. */
  sandbox?: StudySandbox;
}

/** What study.json says about the sandbox: the report's first screen shows it. */
export interface StudySandbox {
  kind: "bwrap" | "none";
  version?: string;
  /** For `none`: why (bubblewrap missing or failing its self-test, or `--no-sandbox`). */
  reason?: string;
  /** True when `--no-sandbox` was given. */
  disabled: boolean;
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
  /** Continuations, nudges and person messages after the handoff; absent in results written before it. */
  turnMessages?: { continuation: number; nudge: number; person: number };
  /** Replies (the model ending its turn), and the longest one; written by runMetrics, absent in hand-built results. */
  replies?: number;
  modelRequests?: number;
  longestReply?: { ms: number; toolCalls: number };
  compactionsPerReply?: number[];
}

export interface RunResult {
  schema: "armstudy.result/1";
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
  missing: Array<{ arm: string; runIndex: number }>;
}

export class ResultsError extends Error {
  readonly code = "STUDY_RESULTS";
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
  planned: z.array(z.looseObject({ arm: z.string(), runIndex: z.number() })),
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

export async function readRunResult(dir: string, arm: string, runIndex: number): Promise<RunResult | null> {
  const file = join(dir, runFolder(arm, runIndex), RESULT_FILE);
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

/** Every run folder present on disk, whether planned or not. */
export async function listRunFolders(dir: string): Promise<Array<{ arm: string; runIndex: number }>> {
  const runsDir = join(dir, "runs");
  if (!existsSync(runsDir)) return [];
  const out: Array<{ arm: string; runIndex: number }> = [];
  for (const arm of (await readFolder(runsDir)).sort()) {
    for (const name of (await readFolder(join(runsDir, arm))).sort()) {
      const match = /^run-(\d+)$/.exec(name);
      if (match) out.push({ arm, runIndex: Number(match[1]) });
    }
  }
  return out.sort((a, b) => (a.arm === b.arm ? a.runIndex - b.runIndex : a.arm < b.arm ? -1 : 1));
}

export async function loadResults(dir: string): Promise<LoadedResults> {
  const meta = await readStudyMeta(dir);
  const results: RunResult[] = [];
  const missing: Array<{ arm: string; runIndex: number }> = [];
  const seen = new Set<string>();
  for (const pair of meta.planned) {
    seen.add(`${pair.arm}#${pair.runIndex}`);
    const result = await readRunResult(dir, pair.arm, pair.runIndex);
    if (result) results.push(result);
    else missing.push(pair);
  }
  for (const pair of await listRunFolders(dir)) {
    if (seen.has(`${pair.arm}#${pair.runIndex}`)) continue;
    const result = await readRunResult(dir, pair.arm, pair.runIndex);
    if (result) results.push(result);
  }
  return { dir, meta, results, missing };
}
