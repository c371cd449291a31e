/**
 * The arm runner. For each planned (task, arm, run): a detached worktree of the task's pinned commit
 * (its setup command run, its check files placed when the agent may see them), the agent run (our
 * loop or an external driver) with its record written as it goes, the diff, the grading (what the
 * agent did to the check files, then the task's own copy put in place and the checks run), the
 * per-run metrics, the result written atomically, the worktree removed.
 *
 * Runs go through a p-limit pool (`concurrency`). An abort (SIGINT/SIGTERM in the CLI) stops new
 * runs, aborts the ones in flight and removes their worktrees; their folders hold no result.json,
 * so `resume` redoes them and skips every finished run.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import pLimit from "p-limit";
import type { ModelClient, RetriedAttempt } from "../core/model.ts";
import { contentHash } from "../core/tokens.ts";
import {
  type ArmMeta,
  type MetricsView,
  PATCH_FILE,
  RECORD_FILE,
  RESULT_FILE,
  type RunResult,
  STUDY_META_FILE,
  type StudyMeta,
  type TamperedPath,
  type TaskMeta,
  readRunResult,
  readStudyMeta,
  runFolder,
  runKeyOf,
} from "../render/results.ts";
import type { AgentRunner, AgentRunOutcome } from "../run/agent-contract.ts";
import type { LoadedArm, PolicySpec } from "../run/arms/types.ts";
import type { RunEvent } from "../run/record.ts";
import { RecordWriter } from "../run/record-writer.ts";
import { type AcceptanceResult, type CheckSpec, loadChecks, runAcceptance, runCheck } from "./checks.ts";
import { FINAL_REPLY_PATH, detectTampering, folderHash, placeCheckFiles, placeFinalReply } from "./grading.ts";
import { type PersonaTask, modelSpecForTask } from "./personas.ts";
import type { TaskSpec } from "./task.ts";
import { StudyInputError } from "./errors.ts";
import { ENVELOPE_FILE, writeRunEnvelope } from "./envelope/run.ts";
import { addWorktree, checkRunGit, collectDiff, defaultWorktreeRoot, materialiseFixture, objectStore, pruneStaleWorktrees, removeWorktree, resolveCommit } from "./git.ts";
import { type PlannedRun, type Shard, planSuite, shardOf } from "./plan.ts";
import { writeFileAtomic, writeJsonAtomic } from "../run/fs/atomic-write.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../run/fs/utf8.ts";
import { type StudyArmEntry, type StudySpec, selectArms } from "./study-file.ts";
import { HarnessFaultError } from "../run/models/fault.ts";
import { policiesOf } from "../run/agent.ts";
import type { RunLimits } from "../run/agent-contract.ts";
import { priceRequest, runLimitsFor } from "./limits.ts";
import { unsandboxedRefusal } from "../run/sandbox/policy.ts";
import { probeSandbox } from "../run/sandbox/probe.ts";
import type { RunSandbox, Sandbox } from "../run/sandbox/types.ts";
import { NO_REDACTION, type Redactor } from "../run/secrets/redact.ts";
import type { SpecOrigin } from "../run/secrets/key-host.ts";
import { lockResultsFolder } from "./lock.ts";
import type { RequestSettings } from "./study-file.ts";

/** The arm as the runner uses it: a loaded arm, perhaps with section sizes from the compiler. */
export type StudyArm = LoadedArm & {
  prompt: (LoadedArm["prompt"] & { sections?: Array<{ id: string; chars: number; tokens: number; stable?: boolean }>; prefixChars?: number }) | null;
};

/** The pieces the runner composes; the CLI passes the real ones (deps.ts), tests may pass fakes at the same boundary. */
export interface StudyDeps {
  loadArms(armsDir: string, names: readonly string[], cwd: string): Promise<StudyArm[]>;
  /** One client per run, so no state leaks between runs; `seed` and `runIndex` make a scripted run repeatable. */
  createModel(
    spec: string,
    context: {
      cwd: string;
      seed: number;
      runIndex: number;
      agent?: StudyArm["agent"];
      task?: PersonaTask;
      origin?: SpecOrigin;
      requests?: RequestSettings;
      /** Called as each model request is retried (the progress line says so at once). */
      onRetry?: (retry: RetriedAttempt) => void;
    },
  ): Promise<ModelClient> | ModelClient;
  /** Our agent loop, or the driver of a real client, for this arm. */
  agentFor(arm: StudyArm): AgentRunner;
  /** Per-run metrics from the run record and the acceptance result. */
  measure(events: readonly RunEvent[], acceptance: AcceptanceResult, context: { arm: StudyArm; model: ModelClient }): MetricsView;
}

export type ProgressEvent =
  | { kind: "planned"; total: number; skipped: number; toRun: number; outDir: string }
  | { kind: "start"; task?: string; arm: string; runIndex: number; position: number; total: number }
  | { kind: "finish"; task?: string; arm: string; runIndex: number; position: number; total: number; done: number; result: RunResult }
  | { kind: "interrupted"; task?: string; arm: string; runIndex: number }
  | { kind: "retry"; task?: string; arm: string; runIndex: number; retry: RetriedAttempt }
  | { kind: "pruned"; paths: string[] };

export interface StudyRunOptions {
  spec: StudySpec;
  deps: StudyDeps;
  /** Where results go (reports/<study>/<stamp>, or --out). */
  outDir: string;
  /**
   * With `resume`: folders to look in instead of `outDir`, newest first; the first that holds this
   * same study (same identity and shard) is resumed. Used for `--resume` without `--out`.
   */
  resumeCandidates?: readonly string[];
  /** The git-ignored cache (materialised fixtures): `<project>/.armstudy`. */
  cacheRoot: string;
  /** Where worktrees are made; default: a folder under the system temp dir. */
  worktreeRoot?: string;
  /** Paths in study.json and messages are shown relative to this folder. */
  cwd: string;
  arms?: readonly string[];
  runs?: number;
  /** Overrides every arm's model. */
  model?: string;
  concurrency?: number;
  resume?: boolean;
  shard?: Shard | null;
  /** Also write an implementer envelope (`envelope.yaml`) per run, for build-loop style orchestrators. */
  envelope?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** A fresh clock per run, in milliseconds from its start. Default: performance.now(). */
  clockFactory?: () => () => number;
  /**
   * A heartbeat every this many ms of real time while a tool runs (ADR 0101; default 10 s). Tests
   * with a fake clock set it past their length: a beat reads the clock, so a slow machine would
   * otherwise shift every later timestamp of the run.
   */
  heartbeatMs?: number;
  /** The sandbox every run gets (the CLI probes it, `--no-sandbox` turns it off); default probed here. */
  sandbox?: Sandbox;
  /** Rerun only the runs of the folder that ended as `error` (implies resume). */
  retryErrors?: boolean;
  /** Stop the study after this many runs in a row end with the same fault (default 2; ADR 0081). */
  failFastAfter?: number;
  /** Applied to every record event and result before it is written (ADR 0083). */
  redact?: Redactor;
}

/** Why a study stopped before its plan was done: the same fault ended runs in a row. */
export interface FailFast {
  cause: string;
  /** The runs that ended with it, in the order they finished. */
  runs: Array<{ task?: string; arm: string; runIndex: number }>;
  message: string;
}

export interface StudyRunOutcome {
  outDir: string;
  meta: StudyMeta;
  /** Runs finished in this invocation. */
  ran: number;
  /** Runs found finished (resume) and skipped. */
  skipped: number;
  /** Runs that ended as `error` (a fault, not a result); they still have a result. */
  errors: number;
  /** Error runs by cause, in this invocation. */
  errorCauses: Record<string, number>;
  interrupted: boolean;
  /** Set when the study stopped early because the same fault ended runs in a row. */
  failFast: FailFast | null;
  pruned: string[];
}

const realClock = (): (() => number) => {
  const start = performance.now();
  return () => performance.now() - start;
};

function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

function armEntryFor(entries: readonly StudyArmEntry[], name: string): StudyArmEntry {
  return entries.find((entry) => entry.name === name) ?? { name };
}

/** The fields that must agree for a folder to be resumed or merged: everything but the shard. */
export function studyIdentity(meta: StudyMeta): Omit<StudyMeta, "shard" | "planned"> {
  const { shard: _shard, planned: _planned, ...identity } = meta;
  return identity;
}

/**
 * Names the top-level fields in which two studies differ (empty when they agree). With `grow`, more
 * runs per arm in `b` than in `a` is no difference: the folder grows (seeds depend on the run
 * index only, so the runs already done keep their place in the plan).
 */
export function identityDifferences(a: StudyMeta, b: StudyMeta, grow = false): string[] {
  const left = studyIdentity(a) as Record<string, unknown>;
  const right = studyIdentity(b) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  return keys.filter((key) => JSON.stringify(left[key]) !== JSON.stringify(right[key]) && !(grow && key === "runsPerArm" && b.runsPerArm > a.runsPerArm));
}

/** The prepared study with another number of runs per arm (resuming a folder that holds more, or growing one). */
function withRunsPerArm(prepared: PreparedStudy, runsPerArm: number, shard: Shard | null): PreparedStudy {
  const taskMetas = [...prepared.tasks.values()].map((task) => task.meta);
  const plan = shardOf(planSuite(taskMetas, prepared.meta.arms.map((arm) => arm.name), runsPerArm, prepared.meta.seed), shard);
  const planned = plan.map(({ task, arm, runIndex }) => (task === undefined ? { arm, runIndex } : { task, arm, runIndex }));
  return { ...prepared, plan, meta: { ...prepared.meta, runsPerArm, planned } };
}

/** One task ready to run: its pinned commit, handoff and checks (each with its timeout). */
interface PreparedTask {
  spec: TaskSpec;
  meta: TaskMeta;
  repoPath: string;
  commit: string;
  handoff: string;
  checks: CheckSpec[];
  /** Per arm: the model spec runs on this task use (a task persona resolved to its file). */
  models: Map<string, string>;
  /** The sandbox of this task's runs: no network, the source's objects readable (the clone borrows them). */
  sandbox: RunSandbox;
}

interface PreparedStudy {
  meta: StudyMeta;
  arms: Map<string, { arm: StudyArm; model: string; origin: SpecOrigin; limits: RunLimits }>;
  tasks: Map<string, PreparedTask>;
  plan: PlannedRun[];
}

function personaTask(task: TaskSpec): PersonaTask {
  return { name: task.name, personasDir: task.personasDir, persona: task.persona };
}

/** The task's repository, handoff, checks and check files, read and pinned once per study. */
async function prepareTask(task: TaskSpec, spec: StudySpec, options: StudyRunOptions, sandbox: Sandbox): Promise<Omit<PreparedTask, "models">> {
  const { cwd } = options;
  const { repoPath, commit } = task.repo.kind === "fixture" ? await materialiseFixture(task.repo.dir, options.cacheRoot) : await resolveCommit(task.repo.path, task.repo.ref);
  let handoff: string;
  const handoffField = `${displayPath(task.file, cwd)}: field handoff: ${displayPath(task.handoffPath, cwd)}`;
  try {
    handoff = decodeUtf8Strict(await readFile(task.handoffPath));
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new StudyInputError("STUDY_FILE", `${handoffField}: ${error.message}; save it as UTF-8.`, task.file);
    throw new StudyInputError("STUDY_FILE", `${displayPath(task.file, cwd)}: field handoff: cannot read ${displayPath(task.handoffPath, cwd)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, task.file);
  }
  if (handoff.trim() === "") throw new StudyInputError("STUDY_FILE", `${handoffField}: is empty; the handoff is every run's first message.`, task.file);
  const checks = (await loadChecks(task.checksPath)).map((check) => ({ ...check, timeoutMs: check.timeoutMs ?? task.checkTimeoutMs ?? spec.checkTimeoutMs }));
  const meta: TaskMeta = {
    name: task.name,
    description: task.description,
    tags: task.tags,
    ...(task.workExists ? { workExists: true } : {}),
    file: displayPath(task.file, cwd),
    repo: {
      source: task.repo.kind === "fixture" ? `fixture:${displayPath(task.repo.dir, cwd)}` : `git:${displayPath(task.repo.path, cwd)}@${task.repo.ref}`,
      commit,
    },
    handoff: { file: displayPath(task.handoffPath, cwd), sha256: contentHash(handoff) },
    checks,
    checkFiles: task.checkFiles === null ? null : { to: task.checkFiles.to, visible: task.checkFiles.visible, sha256: await folderHash(task.checkFiles.from) },
    setup: task.setup,
    limits: { ...spec.limits, ...(task.limits ?? {}) },
    flat: task.flat,
  };
  const runSandbox: RunSandbox = { sandbox, network: "none", readable: [await objectStore(repoPath)] };
  return { spec: task, meta, repoPath, commit, handoff, checks, sandbox: runSandbox };
}

async function prepare(options: StudyRunOptions): Promise<PreparedStudy> {
  const { spec, deps, cwd } = options;
  const entries = selectArms(spec, options.arms ?? []);
  const loaded = await deps.loadArms(spec.armsDir, entries.map((entry) => entry.name), cwd);
  const runsPerArm = options.runs ?? spec.runs;
  const sandbox = options.sandbox ?? probeSandbox({ env: process.env });
  // Tasks first: a missing repository or an empty handoff is named before any model is made.
  const preparedTasks: Array<Omit<PreparedTask, "models">> = [];
  for (const task of spec.tasks) preparedTasks.push(await prepareTask(task, spec, options, sandbox));
  const arms = new Map<string, { arm: StudyArm; model: string; origin: SpecOrigin; limits: RunLimits }>();
  const armMetas: ArmMeta[] = [];
  for (const base of loaded) {
    const entry = armEntryFor(entries, base.name);
    const arm: StudyArm = {
      ...base,
      policies: (entry.policies as PolicySpec[] | undefined) ?? base.policies,
      ...(entry.goal ? { goal: entry.goal } : {}),
    };
    const model = options.model ?? entry.model ?? spec.model;
    // Only a spec typed on the command line may send a key to a host other than its provider's.
    const origin: SpecOrigin = options.model !== undefined ? "command-line" : "study-file";
    // Creating a client validates the spec before any run starts (on every task: each needs its persona), and tells whether it is the test double.
    let probe: ModelClient | null = null;
    for (const task of spec.tasks) {
      const resolved = await modelSpecForTask(model, personaTask(task), cwd);
      probe = await deps.createModel(resolved, { cwd, seed: spec.seed, runIndex: 0, agent: arm.agent, task: personaTask(task), origin, requests: spec.requests });
    }
    if (probe === null) throw new StudyInputError("STUDY_FILE", `${displayPath(spec.file, cwd)}: the study has no tasks.`, spec.file);
    const refusal = unsandboxedRefusal(sandbox, { arm: arm.name, agent: arm.agent, modelSpec: model, testDouble: probe.isTestDouble });
    if (refusal !== null) throw new StudyInputError("STUDY_SANDBOX", refusal);
    const limits = runLimitsFor(spec.limits, policiesOf(arm));
    arms.set(arm.name, { arm, model, origin, limits });
    const sections = arm.prompt?.sections?.filter((section) => section.stable !== false).map(({ id, chars, tokens }) => ({ id, chars, tokens })) ?? null;
    armMetas.push({
      name: arm.name,
      description: arm.description,
      agent: arm.agent,
      model,
      testDouble: probe.isTestDouble,
      policies: arm.policies,
      goal: arm.goal ?? null,
      ...(limits.maxRounds === spec.limits.maxRounds && limits.maxWallMs === spec.limits.maxWallMs ? {} : { limits }),
      prefix: arm.prompt
        ? { hash: arm.prompt.prefixHash, tokens: arm.prompt.prefixTokens, chars: arm.prompt.prefixChars ?? arm.prompt.stablePrefix.length, sections }
        : null,
    });
  }
  const tasks = new Map<string, PreparedTask>();
  for (const prepared of preparedTasks) {
    const task = prepared.spec;
    const models = new Map<string, string>();
    for (const [name, { model }] of arms) models.set(name, await modelSpecForTask(model, personaTask(task), cwd));
    tasks.set(task.name, { ...prepared, models });
  }
  const taskMetas = [...tasks.values()].map((task) => task.meta);
  const fullPlan = planSuite(taskMetas, armMetas.map((arm) => arm.name), runsPerArm, spec.seed);
  const plan = shardOf(fullPlan, options.shard ?? null);
  // A study of one task keeps the top-level repo, handoff and checks readers of one-task folders know.
  const only = taskMetas.length === 1 ? (taskMetas[0] as TaskMeta) : null;
  const meta: StudyMeta = {
    schema: "armstudy.study/1",
    study: spec.name,
    description: spec.description,
    question: spec.question,
    studyFile: displayPath(spec.file, cwd),
    repo: only?.repo ?? { source: `suite of ${taskMetas.length} tasks`, commit: "" },
    handoff: only?.handoff ?? { file: "", sha256: contentHash(taskMetas.map((task) => task.handoff.sha256).join("\n")) },
    checks: only?.checks ?? [],
    seed: spec.seed,
    runsPerArm,
    model: options.model ?? spec.model,
    ...(options.model !== undefined && options.model !== spec.model ? { studyFileModel: spec.model } : {}),
    arms: armMetas,
    limits: spec.limits,
    ...(spec.contextWindows === undefined ? {} : { contextWindows: spec.contextWindows }),
    requests: spec.requests,
    shard: options.shard ?? null,
    planned: plan.map(({ task, arm, runIndex }) => (task === undefined ? { arm, runIndex } : { task, arm, runIndex })),
    tasks: taskMetas,
    sandbox:
      sandbox.kind === "bwrap"
        ? { kind: "bwrap", version: sandbox.version, disabled: false, ...studyLimitsKind(sandbox) }
        : { kind: "none", reason: sandbox.reason, disabled: sandbox.chosen },
  };
  return { meta, arms, tasks, plan };
}

/** Which limits the study's runs get: a cgroup each where this machine can make one (ADR 0114). */
function studyLimitsKind(sandbox: Extract<Sandbox, { kind: "bwrap" }>): { limitsKind: "cgroup" | "ulimit"; limitsReason?: string } {
  if (sandbox.groups?.kind === "cgroup") return { limitsKind: "cgroup" };
  return { limitsKind: "ulimit", limitsReason: sandbox.groups?.reason ?? "no cgroup probe" };
}

/** Runs (or resumes) a study and writes its results folder. Does not render the report. */
export async function runStudy(options: StudyRunOptions): Promise<StudyRunOutcome> {
  let prepared = await prepare(options);
  const grow = options.runs !== undefined;
  const resume = options.resume === true || options.retryErrors === true;
  const outDir = resume && options.resumeCandidates ? await pickResumable(options.resumeCandidates, prepared.meta, options.cwd, grow) : options.outDir;
  options = { ...options, outDir, resume };
  const metaFile = join(outDir, STUDY_META_FILE);
  const outInfo = await stat(outDir).catch(() => undefined);
  if (outInfo !== undefined && !outInfo.isDirectory()) {
    throw new StudyInputError("STUDY_OUT", `--out ${displayPath(outDir, options.cwd)} is a file, not a folder; choose a new folder for the results.`);
  }
  // A study.json that is there but unreadable is an error, never a fresh start over the runs beside it.
  const existing: StudyMeta | null = existsSync(metaFile) ? await readStudyMeta(outDir) : null;
  // Resuming without --runs finishes the folder as it was planned, however many runs per arm it holds.
  if (options.resume && existing !== null && !grow && existing.runsPerArm !== prepared.meta.runsPerArm) {
    prepared = withRunsPerArm(prepared, existing.runsPerArm, options.shard ?? null);
  }
  if (options.resume && existing !== null && grow && prepared.meta.runsPerArm < existing.runsPerArm) {
    throw new StudyInputError("STUDY_RESUME", `${displayPath(outDir, options.cwd)} holds ${existing.runsPerArm} runs per arm; --runs ${prepared.meta.runsPerArm} cannot shrink it. Give --runs ${existing.runsPerArm} or more, or drop --runs to finish it.`);
  }
  const { meta } = prepared;
  if (options.resume) {
    if (existing === null) {
      throw new StudyInputError("STUDY_RESUME", `nothing to resume in ${displayPath(outDir, options.cwd)}: it holds no ${STUDY_META_FILE}. Drop --resume to start a new study.`);
    }
    const differences = identityDifferences(existing, meta, grow);
    if (differences.length > 0 || JSON.stringify(existing.shard) !== JSON.stringify(meta.shard)) {
      const fields = [...differences, ...(JSON.stringify(existing.shard) !== JSON.stringify(meta.shard) ? ["shard"] : [])];
      throw new StudyInputError(
        "STUDY_RESUME",
        `${displayPath(outDir, options.cwd)} holds a different study (${fields.join(", ")} differ). Resume with the same study file, arms, --runs, --model and --shard, or choose another --out.`,
      );
    }
  } else if (existing !== null) {
    throw new StudyInputError("STUDY_RESUME", `${displayPath(outDir, options.cwd)} already holds a study. Pass --resume to finish it, or choose another --out.`);
  }
  await mkdir(outDir, { recursive: true });
  // One study writes a folder at a time; the lock is released however this ends.
  const lock = await lockResultsFolder(outDir, displayPath(outDir, options.cwd));
  try {
    return await runLocked(prepared, options, outDir, metaFile);
  } finally {
    await lock.release();
  }
}

async function runLocked(prepared: PreparedStudy, options: StudyRunOptions, outDir: string, metaFile: string): Promise<StudyRunOutcome> {
  const { meta, plan } = prepared;
  // Checked again under the lock: another study may have started here since the check above.
  if (options.resume !== true && existsSync(metaFile)) {
    throw new StudyInputError("STUDY_RESUME", `${displayPath(outDir, options.cwd)} already holds a study. Pass --resume to finish it, or choose another --out.`);
  }
  await writeJsonAtomic(metaFile, meta);

  const worktreeRoot = options.worktreeRoot ?? defaultWorktreeRoot();
  const pruned: string[] = [];
  for (const task of prepared.tasks.values()) pruned.push(...(await pruneStaleWorktrees(task.repoPath, worktreeRoot)));
  if (pruned.length > 0) options.onProgress?.({ kind: "pruned", paths: pruned });

  const todo: PlannedRun[] = [];
  let skipped = 0;
  for (const planned of plan) {
    const finished = await readRunResult(outDir, planned.arm, planned.runIndex, planned.task);
    // --retry-errors: a run that ended as a fault is redone; every other finished run is kept.
    if (finished !== null && !(options.retryErrors === true && finished.status === "error")) skipped += 1;
    else todo.push(planned);
  }
  options.onProgress?.({ kind: "planned", total: plan.length, skipped, toRun: todo.length, outDir });

  const limit = pLimit(Math.max(1, options.concurrency ?? 1));
  let done = skipped;
  let ran = 0;
  let errors = 0;
  const errorCauses: Record<string, number> = {};
  let interrupted = false;
  // Fail fast: the same fault ending runs in a row stops the study (ADR 0081).
  const failFastAfter = Math.max(1, options.failFastAfter ?? 2);
  let streak: FailFast | null = null;
  let failFast: FailFast | null = null;
  const positions = new Map(plan.map((planned, index) => [runKeyOf(planned), index + 1]));
  // A harness fault in one run (a cassette miss) stops the others too, then is thrown to the caller.
  let fault: HarnessFaultError | null = null;
  const stop = new AbortController();
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([options.signal, stop.signal]);
  const runOptions: StudyRunOptions = { ...options, signal };
  await Promise.all(
    todo.map((planned) =>
      limit(async () => {
        if (signal.aborted) {
          if (failFast === null) interrupted = true;
          return;
        }
        const position = positions.get(runKeyOf(planned)) ?? 0;
        const which = { ...(planned.task !== undefined ? { task: planned.task } : {}), arm: planned.arm, runIndex: planned.runIndex };
        options.onProgress?.({ kind: "start", ...which, position, total: plan.length });
        let result: RunResult | null;
        try {
          result = await runOne(prepared, planned, runOptions, worktreeRoot);
        } catch (error) {
          if (!(error instanceof HarnessFaultError)) throw error;
          fault ??= error;
          stop.abort(error);
          return;
        }
        if (result === null) {
          // A run cut short by fail-fast is not an interruption by the person: it just has no result.
          if (failFast !== null) return;
          interrupted = true;
          options.onProgress?.({ kind: "interrupted", ...which });
          return;
        }
        done += 1;
        ran += 1;
        if (result.status === "error") {
          errors += 1;
          const cause = result.cause ?? "harness.exception";
          errorCauses[cause] = (errorCauses[cause] ?? 0) + 1;
          streak = streak !== null && streak.cause === cause ? { ...streak, runs: [...streak.runs, which] } : { cause, runs: [which], message: result.error ?? cause };
          if (streak.runs.length >= failFastAfter && failFast === null) {
            failFast = { ...streak };
            stop.abort(new Error(`fail fast: ${cause}`));
          }
        } else {
          streak = null;
        }
        options.onProgress?.({ kind: "finish", ...which, position, total: plan.length, done, result });
      }),
    ),
  );
  if (fault !== null) throw fault;
  return {
    outDir,
    meta,
    ran,
    skipped,
    errors,
    errorCauses,
    interrupted: interrupted || Boolean(options.signal?.aborted && ran + skipped < plan.length),
    failFast,
    pruned,
  };
}

async function pickResumable(candidates: readonly string[], meta: StudyMeta, cwd: string, grow: boolean): Promise<string> {
  let newest: { dir: string; fields: string[] } | null = null;
  for (const dir of candidates) {
    let existing: StudyMeta;
    try {
      existing = await readStudyMeta(dir);
    } catch {
      continue;
    }
    const fields = [...identityDifferences(existing, meta, grow).filter((field) => grow || field !== "runsPerArm"), ...(JSON.stringify(existing.shard) !== JSON.stringify(meta.shard) ? ["shard"] : [])];
    if (fields.length === 0) return dir;
    newest ??= { dir, fields };
  }
  throw new StudyInputError(
    "STUDY_RESUME",
    newest === null
      ? "nothing to resume: no earlier results of this study were found. Run it without --resume first, or pass --out DIR."
      : `nothing to resume: no earlier results match these options (the newest, ${displayPath(newest.dir, cwd)}, differs in ${newest.fields.join(", ")}). Use the same --arm, --runs, --model and --shard, or pass --out DIR.`,
  );
}

/** One run from worktree to result. Returns null when it was interrupted (nothing written but the partial record). */
async function runOne(prepared: PreparedStudy, planned: PlannedRun, options: StudyRunOptions, worktreeRoot: string): Promise<RunResult | null> {
  const { arm, model: modelSpec, origin, limits } = prepared.arms.get(planned.arm) as { arm: StudyArm; model: string; origin: SpecOrigin; limits: RunLimits };
  const redact = options.redact ?? NO_REDACTION;
  const task = (planned.task === undefined ? [...prepared.tasks.values()][0] : prepared.tasks.get(planned.task)) as PreparedTask;
  const folder = join(options.outDir, runFolder(planned.arm, planned.runIndex, planned.task));
  // An unfinished folder from an earlier, interrupted attempt is redone from scratch.
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  const clock = (options.clockFactory ?? realClock)();
  const signal = options.signal;
  const timing = { worktreeMs: 0, agentMs: 0, checksMs: 0, diffMs: 0, cleanupMs: 0 };

  let t = clock();
  let worktree: string;
  try {
    worktree = await addWorktree(task.repoPath, task.commit, worktreeRoot, `${planned.task === undefined ? "" : `${planned.task}-`}${planned.arm}-${planned.runIndex}`);
  } catch (error) {
    if (signal?.aborted) return null;
    throw error;
  }
  timing.worktreeMs = Math.round(clock() - t);
  const events: RunEvent[] = [];
  let writer: RecordWriter | null = null;
  let removed = false;
  try {
    writer = await RecordWriter.open(join(folder, RECORD_FILE));
    const model = await options.deps.createModel(task.models.get(planned.arm) ?? modelSpec, {
      cwd: options.cwd,
      seed: planned.seed,
      runIndex: planned.runIndex,
      agent: arm.agent,
      task: personaTask(task.spec),
      origin,
      ...(prepared.meta.requests ? { requests: prepared.meta.requests } : {}),
      onRetry: (retry) =>
        options.onProgress?.({ kind: "retry", ...(planned.task !== undefined ? { task: planned.task } : {}), arm: planned.arm, runIndex: planned.runIndex, retry: redact.value(retry) }),
    });
    let outcome: AgentRunOutcome | null = null;
    let harnessError: string | null = null;
    t = clock();
    const recordWriter = writer;
    const checkFiles = task.spec.checkFiles;
    try {
      // Before the agent: the task's setup, and its check files when the handoff lets the agent see them.
      if (checkFiles?.visible === true) await placeCheckFiles(worktree, checkFiles);
      harnessError = await runSetup(task, worktree, clock, signal);
      if (harnessError === null) outcome = await options.deps.agentFor(arm)({
        arm,
        model,
        dir: worktree,
        handoff: task.handoff,
        runIndex: planned.runIndex,
        seed: planned.seed,
        onEvent: async (raw) => {
          // Nothing a server sent back reaches the record with a secret in it.
          const event = redact.value(raw);
          events.push(event);
          await recordWriter.write(event);
        },
        clock,
        // The task's caps (its own, or the study's) as this arm's hard caps (ADR 0101).
        limits: runLimitsFor(task.meta.limits, policiesOf(arm)),
        pricer: priceRequest,
        ...(prepared.meta.contextWindows === undefined ? {} : { contextWindows: prepared.meta.contextWindows }),
        artifactsDir: folder,
        sandbox: task.sandbox,
        ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) return null;
      // A harness fault stops the whole study (runStudy); the worktree is still removed below.
      if (error instanceof HarnessFaultError) throw error;
      harnessError = redact.text(`${(error as Error).name}: ${(error as Error).message}`);
    }
    timing.agentMs = Math.round(clock() - t);
    await writer.close();
    if (signal?.aborted) return null;

    // The diff is the agent's work, taken before grading puts anything in place (a visible copy of the checks is not the agent's).
    t = clock();
    const gitTampered = await checkRunGit(worktree);
    const diff = await collectDiff(worktree, task.commit, task.repoPath, checkFiles?.visible === true ? [checkFiles.to] : []);
    await writeFileAtomic(join(folder, PATCH_FILE), diff.patch);
    timing.diffMs = Math.round(clock() - t);

    // Grading: what the agent did to the check files is recorded, then the task's own copy is put over it.
    // A faulted run is not graded: its checks would describe the fault, and no number reads them (ADR 0081).
    t = clock();
    const tampered: TamperedPath[] | undefined = checkFiles === null ? undefined : await detectTampering(worktree, checkFiles);
    const faulted = harnessError !== null || outcome?.status === "error";
    let acceptance: AcceptanceResult = { passed: 0, failed: 0, checks: [] };
    if (!faulted) {
      if (checkFiles !== null) await placeCheckFiles(worktree, checkFiles);
      await placeFinalReply(worktree, finalReplyOf(events));
      acceptance = await runAcceptance(task.checks, {
        cwd: worktree,
        timeoutMs: 120_000,
        now: clock,
        sandbox: task.sandbox,
        extraEnv: { ARMSTUDY_FINAL_REPLY: FINAL_REPLY_PATH },
        ...(signal ? { signal } : {}),
      });
    }
    timing.checksMs = Math.round(clock() - t);
    if (signal?.aborted) return null;
    if (options.envelope === true) {
      await writeRunEnvelope({
        folder,
        branch: `armstudy/${planned.task === undefined ? "" : `${planned.task}-`}${planned.arm}-${planned.runIndex}`,
        acceptance,
        diffNumstat: diff.numstat,
        events,
        wallClockSeconds: timing.agentMs / 1000,
        ...(harnessError !== null ? { status: "failed" as const } : {}),
      });
    }

    const metrics = options.deps.measure(events, acceptance, { arm, model });
    // A fault (the model could not be used, the harness failed) is an `error` run with a named cause.
    const status = harnessError !== null ? "error" : (outcome?.status ?? "error");
    const cause = status !== "error" ? null : harnessError !== null ? "harness.exception" : (outcome?.cause ?? (arm.agent === "armstudy" ? "harness.policy" : "harness.client"));
    const errorText = status !== "error" ? null : (harnessError ?? outcome?.reason ?? cause);
    const result: RunResult = {
      schema: "armstudy.result/1",
      task: task.meta.name,
      arm: planned.arm,
      runIndex: planned.runIndex,
      seed: planned.seed,
      model: modelSpec,
      testDouble: model.isTestDouble,
      agent: arm.agent,
      status,
      reason: harnessError !== null ? "harness_error" : (outcome?.reason ?? null),
      error: errorText,
      cause,
      acceptance,
      ...(tampered !== undefined ? { tampered } : {}),
      diff: { stat: diff.stat, files: diff.files, insertions: diff.insertions, deletions: diff.deletions },
      metrics,
      files: { record: RECORD_FILE, patch: PATCH_FILE, ...(options.envelope === true ? { envelope: ENVELOPE_FILE } : {}) },
      timing,
      sandbox: sandboxOfResult(task.sandbox),
      gitTampered,
    };
    t = clock();
    await removeWorktree(task.repoPath, worktree);
    removed = true;
    result.timing.cleanupMs = Math.round(clock() - t);
    // Written last: its presence is what marks the run finished.
    const clean = redact.value(result);
    await writeJsonAtomic(join(folder, RESULT_FILE), clean);
    return clean;
  } finally {
    await writer?.close().catch(() => undefined);
    if (!removed) await removeWorktree(task.repoPath, worktree);
  }
}

/** The task's setup command in the fresh worktree; a failure is the run's harness error (never the arm's result). */
async function runSetup(task: PreparedTask, worktree: string, clock: () => number, signal: AbortSignal | undefined): Promise<string | null> {
  if (task.spec.setup === null) return null;
  // The setup runs the repository's own scripts: in the sandbox, like the agent's commands.
  const setup = await runCheck({ id: "setup", command: task.spec.setup }, { cwd: worktree, timeoutMs: task.spec.checkTimeoutMs ?? 120_000, now: clock, sandbox: task.sandbox, ...(signal ? { signal } : {}) });
  if (setup.passed) return null;
  return `SetupError: task ${task.meta.name}'s setup \`${task.spec.setup}\` ${setup.timedOut ? "timed out" : `exited ${setup.exitCode ?? setup.signal}`}: ${setup.output.trim().split("\n").slice(-3).join(" / ")}`;
}

/** The text that ended the run's last reply (what the person reads), or "" when there was none. */
function finalReplyOf(events: readonly RunEvent[]): string {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i];
    if (event?.type === "assistant.text" && event.final === true) return event.text;
  }
  return "";
}

function sandboxOfResult(run: RunSandbox): NonNullable<RunResult["sandbox"]> {
  return run.sandbox.kind === "bwrap"
    ? { kind: "bwrap", version: run.sandbox.version, network: run.network, disabled: false }
    : { kind: "none", network: "unconfined", reason: run.sandbox.reason, disabled: run.sandbox.chosen };
}
