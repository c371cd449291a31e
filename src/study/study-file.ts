/**
 * Study files (`arms/<name>.study.yaml`): which repository the runs start from, the handoff prompt,
 * the acceptance checks, the arms, runs per arm, the model and the seed. Validated once, here; every
 * message names the file and the field. Paths inside a study file are relative to the file's own
 * folder; model specs are passed to the model factory unchanged (relative `scripted:` paths resolve
 * against the directory the command runs in, like `--model`).
 */
import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { StudyInputError, describeZodIssues } from "./errors.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../run/fs/utf8.ts";
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
    repo: RepoSchema,
    handoff: nonEmpty,
    checks: nonEmpty,
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
      })
      .strict()
      .default({ maxRounds: 80, maxWallMs: 300_000 }),
    /** Default timeout for one acceptance check, when the checks file gives none. */
    checkTimeoutMs: timeMs.default(120_000),
    /** Model request timeouts and retries. */
    requests: RequestsSchema.optional(),
  })
  .strict();

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
  repo: { kind: "fixture"; dir: string } | { kind: "git"; path: string; ref: string };
  handoffPath: string;
  checksPath: string;
  armsDir: string;
  arms: StudyArmEntry[];
  runs: number;
  model: string;
  seed: number;
  limits: { maxRounds?: number; maxWallMs?: number };
  checkTimeoutMs: number;
  /** Model request timeouts and retries, defaults filled in. */
  requests: RequestSettings;
}

export const STUDY_FILE_SUFFIX = ".study.yaml";

/** Validates parsed YAML as a study file and resolves its paths against the file's folder. */
export function parseStudyFile(value: unknown, file: string): StudySpec {
  const parsed = StudyFileSchema.safeParse(value);
  if (!parsed.success) {
    throw new StudyInputError("STUDY_FILE", `${describeZodIssues(file, parsed.error.issues)}\nSee docs/study-files.md for the fields.`, file);
  }
  const data = parsed.data;
  const dir = dirname(resolve(file));
  const seen = new Set<string>();
  for (const [index, arm] of data.arms.entries()) {
    if (seen.has(arm.name)) {
      throw new StudyInputError("STUDY_FILE", `${file}: field arms.${index}: arm "${arm.name}" is listed twice; list each arm once.`, file);
    }
    seen.add(arm.name);
  }
  const fallbackName = basename(file).endsWith(STUDY_FILE_SUFFIX) ? basename(file).slice(0, -STUDY_FILE_SUFFIX.length) : basename(file).replace(/\.ya?ml$/, "");
  return {
    name: data.name ?? fallbackName,
    description: data.description ?? "",
    question: buildQuestion(data, data.arms.map((arm) => arm.name), file),
    file: resolve(file),
    repo: "fixture" in data.repo ? { kind: "fixture", dir: resolve(dir, data.repo.fixture) } : { kind: "git", path: resolve(dir, data.repo.path), ref: data.repo.ref },
    handoffPath: resolve(dir, data.handoff),
    checksPath: resolve(dir, data.checks),
    armsDir: resolve(dir, data.armsDir ?? "."),
    arms: data.arms,
    runs: data.runs,
    model: data.model,
    seed: data.seed,
    limits: data.limits,
    checkTimeoutMs: data.checkTimeoutMs,
    requests: { ...DEFAULT_REQUESTS, ...data.requests },
  };
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
  return parseStudyFile(value, file);
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
