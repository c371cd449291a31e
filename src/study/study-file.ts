/**
 * Study files (`arms/<name>.study.yaml`): the tasks the runs do — a suite (`tasks:`, task folders
 * or globs, docs/tasks.md) or one handoff given inline (repository, handoff prompt, acceptance
 * checks), which is a suite of one task —, the arms, runs per arm per task, the model and the seed. Validated once, here; every
 * message names the file and the field. Paths inside a study file are relative to the file's own
 * folder; model specs are passed to the model factory unchanged (relative `scripted:` paths resolve
 * against the directory the command runs in, like `--model`).
 */
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { StudyInputError, describeZodIssues } from "./errors.ts";
import { type LineOf, lazyYamlLines, lineOfField, linePrefix } from "../core/yaml-lines.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../run/fs/utf8.ts";
import { TASK_FILE, type TaskSpec, loadTask, loadTasks } from "./task.ts";
import { existsSync } from "node:fs";
import { checkPolicySpecs, type PolicySpec } from "../core/policies/index.ts";
import type { StudyLimits } from "./limits.ts";
import { DecisionSchema, PrimarySchema, SecondarySchema, type StudyQuestion, buildQuestion } from "./question.ts";
import { MAX_TIME_LIMIT_HOURS, MAX_TIME_LIMIT_MS } from "../core/limits.ts";
import { DEFAULT_REQUEST_TIMEOUTS, DEFAULT_RETRY } from "../run/models/openai-compatible.ts";

/** Runs per arm, at most: the study file's `runs` and `--runs` alike. */
export const MAX_RUNS_PER_ARM = 1000;

const nonEmpty = z.string().trim().min(1, "must be a non-empty string");

/** A time limit in milliseconds: a positive whole number, at most 24 h (ADR 0084). */
const timeMs = z
  .number()
  .int("must be a whole number of milliseconds")
  .positive("must be a positive number of milliseconds")
  .max(MAX_TIME_LIMIT_MS, `must be at most 24 hours (${MAX_TIME_LIMIT_MS} ms)`);

/** How model requests are timed and retried (ADR 0082); defaults in DEFAULT_REQUESTS. */
const RequestsSchema = z
  .object({
    connectTimeoutMs: timeMs.optional(),
    idleTimeoutMs: timeMs.optional(),
    maxRetries: z.number().int().min(0).max(10).optional(),
    retryDelayMs: timeMs.optional(),
  })
  .strict();

export type RequestSettings = { connectTimeoutMs: number; idleTimeoutMs: number; maxRetries: number; retryDelayMs: number };

export const DEFAULT_REQUESTS: RequestSettings = {
  connectTimeoutMs: DEFAULT_REQUEST_TIMEOUTS.connectTimeoutMs,
  idleTimeoutMs: DEFAULT_REQUEST_TIMEOUTS.idleTimeoutMs,
  maxRetries: DEFAULT_RETRY.maxRetries,
  retryDelayMs: DEFAULT_RETRY.baseDelayMs,
};

const PolicySpecSchema = z
  .object({
    name: z.enum(["none", "todoGate", "everyReplyCheck", "goal", "workSlice", "loopGuard", "measureLoop", "goalQueue"]),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const GoalLimitsSchema = z
  .object({
    rounds: z.number().int().positive().optional(),
    hours: z.number().positive().max(MAX_TIME_LIMIT_HOURS, "must be at most 24 hours").optional(),
  })
  .strict();

const ArmEntrySchema = z.union([
  nonEmpty.transform((name) => ({ name })),
  z
    .object({
      name: nonEmpty,
      /** A model spec for this arm only (for example a persona that shows what this arm controls). */
      model: nonEmpty.optional(),
      /** Replaces the arm's own policies for this study. */
      policies: z.array(PolicySpecSchema).optional(),
      /** Replaces the arm's own goal limits for this study. */
      goal: GoalLimitsSchema.optional(),
    })
    .strict(),
]);

const RepoSchema = z.union([
  z.object({ fixture: nonEmpty }).strict(),
  z.object({ path: nonEmpty, ref: nonEmpty.default("HEAD") }).strict(),
]);

export const StudyFileSchema = z
  .object({
    /** Defaults to the file name without `.study.yaml`. */
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be letters, digits, '.', '_' or '-' (it names a folder under reports/)")
      .optional(),
    description: z.string().optional(),
    /** The question the study answers, stated before any run (src/study/question.ts). */
    decision: DecisionSchema.optional(),
    hypothesis: z.string().optional(),
    primary: PrimarySchema.optional(),
    secondary: z.array(SecondarySchema).optional(),
    /** A suite: task folders (or globs of them), in order. Or give repo, handoff and checks for one task. */
    tasks: z.array(nonEmpty).min(1, "list at least one task folder").optional(),
    repo: RepoSchema.optional(),
    handoff: nonEmpty.optional(),
    checks: nonEmpty.optional(),
    arms: z.array(ArmEntrySchema).min(1, "list at least one arm"),
    runs: z.number().int().positive().max(MAX_RUNS_PER_ARM).default(3),
    model: nonEmpty,
    seed: z.number().int().default(1),
    /** Folder holding the arms (`<armsDir>/<arm>/arm.yaml`); defaults to the study file's folder. */
    armsDir: nonEmpty.optional(),
    limits: z
      .object({
        maxRounds: z.number().int().positive().optional(),
        maxWallMs: timeMs.optional(),
        /** Tokens over all of a run's requests (the provider's figures when reported, else ours). */
        maxTokens: z.number().int().positive().optional(),
        /** USD per run, from the dated price table (src/measure/prices.ts). */
        maxCostUsd: z.number().positive().optional(),
        /** Goal arms get request and wall caps above the goal's own rounds and hours. */
        goalCapsFirst: z.boolean().optional(),
      })
      .strict()
      .default({ maxRounds: 80, maxWallMs: 300_000 }),
    /** Context windows by model id, in tokens, over the built-in table (ADR 0103); a test double needs one to compact. */
    contextWindows: z.record(z.string().min(1), z.number().int().positive()).optional(),
    /** Default timeout for one acceptance check, when the checks file gives none. */
    checkTimeoutMs: timeMs.default(120_000),
    /** Model request timeouts and retries. */
    requests: RequestsSchema.optional(),
  })
  .strict()
  .superRefine((data, context) => {
    const inline = (["repo", "handoff", "checks"] as const).filter((key) => data[key] !== undefined);
    if (data.tasks !== undefined && inline.length > 0) {
      context.addIssue({ code: "custom", path: [inline[0] as string], message: "give either tasks (a suite) or repo, handoff and checks (one task), not both" });
    } else if (data.tasks === undefined) {
      for (const key of ["repo", "handoff", "checks"] as const) {
        if (data[key] === undefined) context.addIssue({ code: "custom", path: [key], message: "required (or list task folders under tasks)" });
      }
    }
  });

export type StudyFile = z.infer<typeof StudyFileSchema>;

export interface StudyArmEntry {
  name: string;
  model?: string;
  policies?: Array<{ name: string; options?: Record<string, unknown> }>;
  goal?: { rounds?: number; hours?: number };
}

/** A study file with its paths resolved to absolute paths. */
export interface StudySpec {
  name: string;
  description: string;
  /** The pre-stated question, or null when the study file states none. */
  question: StudyQuestion | null;
  /** The study file itself (absolute). */
  file: string;
  /** The tasks, in order; one for a study file that gives repo, handoff and checks itself. */
  tasks: TaskSpec[];
  /** The `tasks:` entries as written (null for the one-task form); loadStudyFile expands them into `tasks`. */
  taskEntries: string[] | null;
  armsDir: string;
  arms: StudyArmEntry[];
  runs: number;
  model: string;
  seed: number;
  limits: StudyLimits;
  contextWindows?: Record<string, number>;
  checkTimeoutMs: number;
  /** Model request timeouts and retries, defaults filled in. */
  requests: RequestSettings;
}

export const STUDY_FILE_SUFFIX = ".study.yaml";

/** Validates parsed YAML as a study file and resolves its paths against the file's folder. */
export function parseStudyFile(value: unknown, file: string, lineOf?: LineOf): StudySpec {
  const parsed = StudyFileSchema.safeParse(value);
  if (!parsed.success) {
    throw new StudyInputError("STUDY_FILE", `${describeZodIssues(file, parsed.error.issues, lineOf, StudyFileSchema)}\nSee docs/study-files.md for the fields.`, file);
  }
  const data = parsed.data;
  const dir = dirname(resolve(file));
  const seen = new Set<string>();
  for (const [index, arm] of data.arms.entries()) {
    if (seen.has(arm.name)) {
      throw new StudyInputError("STUDY_FILE", `${file}: field arms.${index}: arm "${arm.name}" is listed twice; list each arm once.`, file);
    }
    seen.add(arm.name);
    // Policies that replace an arm's own are checked here, as the arm loader checks arm.yaml.
    if ("policies" in arm && arm.policies !== undefined) {
      const problem = checkPolicySpecs(arm.policies as PolicySpec[]);
      if (problem !== null) {
        const options = `arms.${index}.policies.${problem.index}.options`;
        const field = problem.index === null ? `arms.${index}.policies` : problem.option === undefined ? options : `${options}.${problem.option}`;
        const line = lineOf === undefined ? undefined : lineOfField(lineOf, field);
        throw new StudyInputError("STUDY_FILE", `${file}: ${linePrefix(line)}field ${field}: ${problem.message}. Fix the option name or value.`, file);
      }
    }
  }
  const fallbackName = basename(file).endsWith(STUDY_FILE_SUFFIX) ? basename(file).slice(0, -STUDY_FILE_SUFFIX.length) : basename(file).replace(/\.ya?ml$/, "");
  return {
    name: data.name ?? fallbackName,
    description: data.description ?? "",
    question: buildQuestion(data, data.arms.map((arm) => arm.name), file),
    file: resolve(file),
    tasks: data.tasks === undefined ? [inlineTask(data, file, dir)] : [],
    taskEntries: data.tasks ?? null,
    armsDir: resolve(dir, data.armsDir ?? "."),
    arms: data.arms,
    runs: data.runs,
    model: data.model,
    seed: data.seed,
    limits: data.limits,
    ...(data.contextWindows === undefined ? {} : { contextWindows: data.contextWindows }),
    checkTimeoutMs: data.checkTimeoutMs,
    requests: { ...DEFAULT_REQUESTS, ...data.requests },
  };
}

/** The one task a study file gives inline: named after its handoff file, laid out flat (runs/<arm>/run-<i>). */
function inlineTask(data: StudyFile, file: string, dir: string): TaskSpec {
  const repo = data.repo as NonNullable<StudyFile["repo"]>;
  const handoffPath = resolve(dir, data.handoff as string);
  return {
    name: basename(handoffPath).replace(/\.md$/, ""),
    description: "",
    tags: [],
    workExists: false,
    dir: null,
    file: resolve(file),
    repo: "fixture" in repo ? { kind: "fixture", dir: resolve(dir, repo.fixture) } : { kind: "git", path: resolve(dir, repo.path), ref: repo.ref },
    handoffPath,
    checksPath: resolve(dir, data.checks as string),
    checkFiles: null,
    setup: null,
    limits: null,
    checkTimeoutMs: null,
    persona: null,
    personasDir: null,
    flat: true,
  };
}

/**
 * An inline handoff kept in a task's folder (its handoff.md, or another handoff beside it, such as
 * the plan study's plan.md) belongs to that task: it takes the task's name and personas (so the
 * task's own personas play it), but keeps the study file's repo and checks — and the task's check
 * files only when the checks are the task's own.
 */
async function ownerTask(inline: TaskSpec): Promise<TaskSpec> {
  const folder = dirname(inline.handoffPath);
  if (!existsSync(join(folder, TASK_FILE))) return inline;
  const owner = await loadTask(folder);
  return { ...inline, name: owner.name, personasDir: owner.personasDir, persona: owner.persona, checkFiles: inline.checksPath === owner.checksPath ? owner.checkFiles : null };
}

export async function loadStudyFile(file: string): Promise<StudySpec> {
  let text: string;
  try {
    text = decodeUtf8Strict(await readFile(file));
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new StudyInputError("STUDY_FILE", `${file}: ${error.message}; save it as UTF-8.`, file);
    throw new StudyInputError("STUDY_FILE", `cannot read study file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Pass an existing arms/*.study.yaml.`, file);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new StudyInputError("STUDY_FILE", `${file}: not valid YAML: ${(error as Error).message}`, file);
  }
  const spec = parseStudyFile(value, file, lazyYamlLines(text));
  if (spec.taskEntries !== null) {
    spec.tasks = await loadTasks(spec.taskEntries, dirname(spec.file), file);
    // One task keeps the one-task folder layout (runs/<arm>/run-<i>), whichever form named it.
    if (spec.tasks.length === 1) spec.tasks = [{ ...(spec.tasks[0] as TaskSpec), flat: true }];
  } else {
    spec.tasks = [await ownerTask(spec.tasks[0] as TaskSpec)];
  }
  return spec;
}

/** Keeps the study's arms that were asked for (`--arm`), in the study's order; names unknown arms. */
export function selectArms(spec: StudySpec, wanted: readonly string[]): StudyArmEntry[] {
  if (wanted.length === 0) return spec.arms;
  const known = new Map(spec.arms.map((arm) => [arm.name, arm]));
  const unknown = wanted.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    // An arm that is not in the study file may still exist on disk: run it with the study's defaults.
    return [...spec.arms.filter((arm) => wanted.includes(arm.name)), ...unknown.map((name) => ({ name }))];
  }
  return spec.arms.filter((arm) => wanted.includes(arm.name));
}
