/**
 * Tasks (`fixtures/tasks/<name>/task.yaml`): one handoff with everything it needs — the repository
 * the runs start from, the handoff prompt, its acceptance checks and the check files they read
 * (kept in the task folder, outside the repository the agent works in), an optional setup command,
 * per-task limits and the personas written for it. Format in docs/tasks.md. Validated once, here;
 * every message names the file and the field.
 */
import { existsSync } from "node:fs";
import { readFile, readdir, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { StudyInputError, describeZodIssues } from "./errors.ts";
import { type LineOf, lazyYamlLines, linePrefix } from "../core/yaml-lines.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../run/fs/utf8.ts";

export const TASK_FILE = "task.yaml";
/** Another task on the same folder's repository (a plan handoff beside the main one): `<variant>.task.yaml`. */
export const TASK_FILE_SUFFIX = ".task.yaml";

const isTaskFile = (name: string): boolean => name === TASK_FILE || (name.endsWith(TASK_FILE_SUFFIX) && name.length > TASK_FILE_SUFFIX.length);

const nonEmpty = z.string().trim().min(1, "must be a non-empty string");
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A path inside the worktree: relative, no `..`, no `.git`. */
const WorktreePath = nonEmpty.refine((value) => {
  const parts = normalize(value).split(/[\\/]/);
  return !isAbsolute(value) && !parts.includes("..") && !parts.includes(".git") && parts[0] !== "";
}, "must be a relative path inside the repository (no '..', not .git)");

const TaskFileSchema = z
  .object({
    name: z.string().regex(NAME, "must be letters, digits, '.', '_' or '-' (it names a folder under runs/)"),
    description: z.string().default(""),
    tags: z.array(nonEmpty).default([]),
    /** The work the handoff asks for is already in the repository (ADR 0125): a plan for it plans work that exists. */
    workExists: z.boolean().default(false),
    repo: z.union([
      z.object({ fixture: nonEmpty }).strict(),
      z.object({ git: nonEmpty, commit: nonEmpty.default("HEAD") }).strict(),
    ]),
    handoff: nonEmpty.default("handoff.md"),
    checks: nonEmpty.default("checks.yaml"),
    /** The files the checks need: a folder of the task, put at `to` in the grading copy after the agent stops. */
    checkFiles: z
      .object({
        from: nonEmpty,
        to: WorktreePath.optional(),
        /** The agent also gets a copy before it starts (its handoff names them); grading still uses the task's own. */
        visible: z.boolean().default(false),
      })
      .strict()
      .optional(),
    /** Runs in the worktree before the agent starts (a build, a generated file); a failure is a harness error. */
    setup: nonEmpty.optional(),
    limits: z
      .object({ maxRounds: z.number().int().positive().optional(), maxWallMs: z.number().int().positive().max(86_400_000).optional() })
      .strict()
      .optional(),
    checkTimeoutMs: z.number().int().positive().max(86_400_000).optional(),
    /** The persona `scripted:@task` plays on this task (personas/<name>.yaml). */
    persona: z.string().regex(/^[a-z][a-z0-9-]*$/, "a persona name such as diligent").optional(),
  })
  .strict();

export interface TaskSpec {
  name: string;
  description: string;
  tags: string[];
  /** The work the handoff asks for is already in the repository (task.yaml `workExists`, ADR 0125). */
  workExists: boolean;
  /** The task folder (absolute); null for a study file's own repo/handoff/checks. */
  dir: string | null;
  /** task.yaml, or the study file for a one-handoff study. */
  file: string;
  repo: { kind: "fixture"; dir: string } | { kind: "git"; path: string; ref: string };
  handoffPath: string;
  checksPath: string;
  checkFiles: { from: string; to: string; visible: boolean } | null;
  setup: string | null;
  limits: { maxRounds?: number; maxWallMs?: number } | null;
  checkTimeoutMs: number | null;
  /** Default persona name, and the folder personas are looked up in (null: none). */
  persona: string | null;
  personasDir: string | null;
  /**
   * A study file's own repo/handoff/checks: runs keep the one-task layout `runs/<arm>/run-<i>`
   * and plan entries carry no task name (results written before suites read the same way).
   */
  flat: boolean;
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return decodeUtf8Strict(await readFile(file));
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new StudyInputError("STUDY_TASK", `${file}: ${error.message}; save it as UTF-8.`, file);
    throw new StudyInputError("STUDY_TASK", `cannot read ${what} ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, file);
  }
}

/** Validates parsed task.yaml and resolves its paths against the task folder. `lineOf` places a field. */
export function parseTaskFile(value: unknown, file: string, lineOf?: LineOf): TaskSpec {
  const at = (path: readonly string[]): string => lineAt(lineOf, path);
  // An unquoted hash of digits (or digits around one e) reads as a YAML number; the union's own
  // error would only say "Invalid input".
  const commit = (value as { repo?: { commit?: unknown } } | null)?.repo?.commit;
  if (typeof commit === "number") {
    throw new StudyInputError("STUDY_TASK", `${file}: ${at(["repo", "commit"])}field repo.commit: reads as a number: YAML takes a commit hash of digits (or digits and an e) as one; quote it, e.g. commit: "0123e45"`, file);
  }
  const parsed = TaskFileSchema.safeParse(value);
  if (!parsed.success) throw new StudyInputError("STUDY_TASK", `${describeZodIssues(file, parsed.error.issues, lineOf, TaskFileSchema)}\nSee docs/tasks.md for the fields.`, file);
  const data = parsed.data;
  const dir = dirname(resolve(file));
  const inside = (relative: string, field: string): string => {
    const path = resolve(dir, relative);
    if (path !== dir && !path.startsWith(dir + sep)) throw new StudyInputError("STUDY_TASK", `${file}: ${at(field.split("."))}field ${field}: "${relative}" is outside the task folder; keep a task's files in its folder.`, file);
    return path;
  };
  return {
    name: data.name,
    description: data.description,
    tags: data.tags,
    workExists: data.workExists,
    dir,
    file: resolve(file),
    repo: "fixture" in data.repo ? { kind: "fixture", dir: inside(data.repo.fixture, "repo.fixture") } : { kind: "git", path: resolve(dir, data.repo.git), ref: data.repo.commit },
    handoffPath: inside(data.handoff, "handoff"),
    checksPath: inside(data.checks, "checks"),
    checkFiles: data.checkFiles
      ? { from: inside(data.checkFiles.from, "checkFiles.from"), to: normalize(data.checkFiles.to ?? data.checkFiles.from).split(sep).join("/"), visible: data.checkFiles.visible }
      : null,
    setup: data.setup ?? null,
    limits: data.limits ?? null,
    checkTimeoutMs: data.checkTimeoutMs ?? null,
    persona: data.persona ?? null,
    personasDir: join(dir, "personas"),
    flat: false,
  };
}

/** Loads a task from its folder (or its task.yaml), checking that what it names is there. */
export async function loadTask(path: string): Promise<TaskSpec> {
  const file = isTaskFile(basename(path)) ? resolve(path) : join(resolve(path), TASK_FILE);
  if (!existsSync(file)) throw new StudyInputError("STUDY_TASK", `${path} is not a task: it holds no ${TASK_FILE}. A task is a folder with task.yaml, handoff.md and checks.yaml (docs/tasks.md).`, file);
  let value: unknown;
  let text: string;
  try {
    text = await readText(file, "task file");
    value = parseYaml(text);
  } catch (error) {
    if (error instanceof StudyInputError) throw error;
    throw new StudyInputError("STUDY_TASK", `${file}: not valid YAML: ${(error as Error).message}`, file);
  }
  const lineOf = lazyYamlLines(text);
  const task = parseTaskFile(value, file, lineOf);
  if (task.checkFiles !== null) {
    const info = await stat(task.checkFiles.from).catch(() => undefined);
    if (info === undefined || !info.isDirectory()) throw new StudyInputError("STUDY_TASK", `${file}: ${lineAt(lineOf, ["checkFiles", "from"])}field checkFiles.from: ${task.checkFiles.from} is not a folder; put the files the checks need there.`, file);
  }
  if (task.repo.kind === "fixture" && task.checkFiles !== null && existsSync(join(task.repo.dir, task.checkFiles.to))) {
    throw new StudyInputError(
      "STUDY_TASK",
      `${file}: ${lineAt(lineOf, ["checkFiles", "to"]) || lineAt(lineOf, ["checkFiles"])}field checkFiles.to: the repository already has ${task.checkFiles.to}; check files live in the task folder only (move them out of the repo).`,
      file,
    );
  }
  return task;
}

/** `line N: ` for a message about the field at `path`, or nothing when it cannot be placed. */
function lineAt(lineOf: LineOf | undefined, path: readonly string[]): string {
  return linePrefix(lineOf?.(path));
}

/** `*` and `?` inside one path segment, as a regular expression. */
function segmentPattern(segment: string): RegExp {
  return new RegExp(`^${segment.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]")}$`);
}

/** Expands a path whose segments may hold `*` or `?` into the existing paths it matches, sorted. */
export async function expandGlob(pattern: string, base: string): Promise<string[]> {
  const absolute = resolve(base, pattern);
  const parts = absolute.split(sep);
  let current = [parts[0] === "" ? sep : (parts[0] as string)];
  for (const part of parts.slice(1)) {
    if (part === "") continue;
    if (!/[*?]/.test(part)) {
      current = current.map((dir) => join(dir, part)).filter((path) => existsSync(path));
      continue;
    }
    const regex = segmentPattern(part);
    const next: string[] = [];
    for (const dir of current) {
      const entries = await readdir(dir).catch(() => [] as string[]);
      for (const name of entries.sort()) if (regex.test(name) && !name.startsWith(".")) next.push(join(dir, name));
    }
    current = next;
  }
  return current.sort();
}

/** The tasks a study file's `tasks:` list names (paths or globs), each loaded once, in the order given. */
export async function loadTasks(entries: readonly string[], base: string, studyFile: string): Promise<TaskSpec[]> {
  const tasks: TaskSpec[] = [];
  const names = new Map<string, string>();
  for (const [index, entry] of entries.entries()) {
    const isGlob = /[*?]/.test(entry);
    const paths = isGlob ? (await expandGlob(entry, base)).filter((path) => existsSync(join(path, TASK_FILE)) || isTaskFile(basename(path))) : [resolve(base, entry)];
    if (paths.length === 0) throw new StudyInputError("STUDY_FILE", `${studyFile}: field tasks.${index}: "${entry}" matches no task folder (one holding ${TASK_FILE}).`, studyFile);
    for (const path of paths) {
      const task = await loadTask(path);
      const earlier = names.get(task.name);
      if (earlier === task.file) continue;
      if (earlier !== undefined) throw new StudyInputError("STUDY_FILE", `${studyFile}: field tasks.${index}: two tasks are named "${task.name}" (${earlier} and ${task.file}); task names must be unique.`, studyFile);
      names.set(task.name, task.file);
      tasks.push(task);
    }
  }
  return tasks;
}
