/**
 * Acceptance checks: commands run in the worktree after the agent stops. The exit code is the
 * truth — 0 means the step is met — that "false completion" is measured against. Each check runs
 * inside the run's sandbox (it executes the agent's code), in its own process group with a timeout
 * that kills the whole group. A run's checks run concurrently, as many at a time as the machine
 * has cores, unless the checks file says `sequential: true` (checks that share build output or a
 * port); results keep the file's order either way.
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { AcceptanceResult, CheckOutcome, CheckSpec } from "../render/results.ts";
import { killGroup } from "../run/process-group.ts";
import { StudyInputError, describeZodIssues } from "./errors.ts";
import { type LineOf, lazyYamlLines, linePrefix } from "../core/yaml-lines.ts";
import { capNotice, withRunGroup } from "../run/sandbox/cgroup.ts";
import { DEFAULT_SANDBOX_LIMITS, defaultRunSandbox, type RunSandbox, sandboxCommand } from "../run/sandbox/index.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../run/fs/utf8.ts";
import { MAX_TIME_LIMIT_MS } from "../core/limits.ts";

/** The check types are defined beside the study.json and result.json they are stored in. */
export type { AcceptanceResult, CheckSpec };

const CheckSchema = z
  .object({
    id: z.string().trim().min(1),
    command: z.string().trim().min(1).optional(),
    run: z.string().trim().min(1).optional(),
    description: z.string().optional(),
    title: z.string().optional(),
    timeoutMs: z.number().int().positive().max(MAX_TIME_LIMIT_MS, `must be at most 24 hours (${MAX_TIME_LIMIT_MS} ms)`).optional(),
    timeout: z.number().positive().max(MAX_TIME_LIMIT_MS / 1000, "must be at most 24 hours (86400 s)").optional(),
  })
  .strict()
  .refine((check) => check.command !== undefined || check.run !== undefined, { message: "give the check a `command` to run" });

const CheckListSchema = z.array(CheckSchema).min(1);
// `handoff` names, for the reader, the handoff the checks grade; the task file is what links them.
const WrappedChecksSchema = z.object({ checks: CheckListSchema, sequential: z.boolean().optional(), handoff: z.string().optional() }).strict();

/** Validates a parsed checks file: a list of checks, or `{ checks: [...] }`. `lineOf` places a field. */
export function parseChecks(value: unknown, file: string, lineOf?: LineOf): CheckSpec[] {
  if (value === null || value === undefined) {
    throw new StudyInputError("STUDY_CHECKS", `${file}: is empty\nA checks file lists checks as { id, command, timeoutMs? }.`, file);
  }
  // One shape or the other, chosen by the value, so an issue names its field (a union reports only "Invalid input").
  const parsed = (Array.isArray(value) ? CheckListSchema : WrappedChecksSchema).safeParse(value);
  if (!parsed.success) {
    throw new StudyInputError(
      "STUDY_CHECKS",
      `${describeZodIssues(file, parsed.error.issues, lineOf, Array.isArray(value) ? CheckListSchema : WrappedChecksSchema)}\nA checks file lists checks as { id, command, timeoutMs? }.`,
      file,
    );
  }
  const list = Array.isArray(parsed.data) ? parsed.data : parsed.data.checks;
  const sequential = !Array.isArray(parsed.data) && parsed.data.sequential === true;
  const seen = new Set<string>();
  return list.map((check, index) => {
    if (seen.has(check.id)) {
      const line = lineOf?.(Array.isArray(parsed.data) ? [index, "id"] : ["checks", index, "id"]);
      throw new StudyInputError("STUDY_CHECKS", `${file}: ${linePrefix(line)}field checks.${index}.id: "${check.id}" is used twice; ids must be unique.`, file);
    }
    seen.add(check.id);
    const timeoutMs = check.timeoutMs ?? (check.timeout !== undefined ? Math.round(check.timeout * 1000) : undefined);
    const description = check.description ?? check.title;
    return {
      id: check.id,
      command: (check.command ?? check.run) as string,
      ...(description !== undefined ? { description } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(sequential ? { sequential: true as const } : {}),
    };
  });
}

export async function loadChecks(file: string): Promise<CheckSpec[]> {
  let text: string;
  try {
    text = decodeUtf8Strict(await readFile(file));
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new StudyInputError("STUDY_CHECKS", `${file}: ${error.message}; save it as UTF-8.`, file);
    throw new StudyInputError("STUDY_CHECKS", `cannot read acceptance checks ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Fix the study file's \`checks\` path.`, file);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new StudyInputError("STUDY_CHECKS", `${file}: not valid YAML: ${(error as Error).message}`, file);
  }
  return parseChecks(value, file, lazyYamlLines(text));
}

const OUTPUT_CAP = 4000;
/** Keeps the last `cap` characters, marking the cut. */
function tail(text: string, cap: number): string {
  return text.length <= cap ? text : `[… ${text.length - cap} characters cut …]\n${text.slice(-cap)}`;
}

export interface RunCheckOptions {
  cwd: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  now?: () => number;
  /** Where the check runs; default the machine's sandbox with no network. */
  sandbox?: RunSandbox;
  /** How many of a run's checks may run at once; default the machine's cores. */
  concurrency?: number;
  /** Variables the check gets on top of the sandbox's allow-list (such as ARMSTUDY_FINAL_REPLY). */
  extraEnv?: Record<string, string>;
}

/** Runs one check. Never throws for a failing command: the failure is the result. */
export function runCheck(check: CheckSpec, options: RunCheckOptions): Promise<CheckOutcome> {
  // Grading has a cgroup of its own (ADR 0114): the grader never shares the agent's caps. A check
  // run on its own (the task's setup) makes one; runAcceptance passes the run's checks one group.
  const grouped = withRunGroup(options.sandbox ?? defaultRunSandbox(options.env ?? process.env));
  const prepared = prepareCheck(check, { ...options, sandbox: grouped.run });
  return prepared.run().finally(() => grouped.close());
}

interface PreparedCheck {
  /** Starts the check (its timeout runs from here) and settles with its outcome. */
  run(): Promise<CheckOutcome>;
  /** For a check that will not be run (an abort): its waiting process is killed. */
  drop(): void;
}

/**
 * A check made ready to start. In a cgroup its process is spawned at once and joins the group, then
 * waits for its go: joining waits for the kernel (an RCU grace period, ~7 ms), and checks made
 * ready together wait for it together instead of one wave after another. Without a group the
 * process is spawned when the check starts.
 */
function prepareCheck(check: CheckSpec, options: RunCheckOptions): PreparedCheck {
  const now = options.now ?? (() => performance.now());
  const timeoutMs = check.timeoutMs ?? options.timeoutMs;
  const run = options.sandbox ?? defaultRunSandbox(options.env ?? process.env);
  const gated = run.group !== undefined;
  let output = "";
  let timedOut = false;
  let early: { exitCode: number | null; signal: string | null; extra: string } | null = null;
  let onEnd: ((exitCode: number | null, signal: string | null, extra?: string) => void) | null = null;
  const spawnChild = () => {
    const wrapped = sandboxCommand(
      run.sandbox,
      { argv: ["sh", "-c", check.command], dir: options.cwd, network: run.network, readable: run.readable, ...(options.extraEnv ? { env: options.extraEnv } : {}), ...(run.group === undefined ? {} : { group: run.group, gated }) },
      options.env ?? process.env,
    );
    const child = spawn(wrapped.file, wrapped.args, { cwd: options.cwd, env: wrapped.env, detached: true, stdio: [gated ? "pipe" : "ignore", "pipe", "pipe"] });
    const collect = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      if (output.length > OUTPUT_CAP * 4) output = output.slice(-OUTPUT_CAP * 2);
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.stdin?.on("error", () => undefined);
    // An end before the go (the join failed) is kept until the check is run.
    const ended = (exitCode: number | null, signal: string | null, extra = ""): void => {
      if (onEnd !== null) onEnd(exitCode, signal, extra);
      else early ??= { exitCode, signal, extra };
    };
    child.on("error", (error) => ended(null, null, `\n[armstudy: could not start the check: ${error.message}]`));
    child.on("close", (code, signal) => ended(code, signal));
    return child;
  };
  let child = gated ? spawnChild() : null;
  return {
    drop: () => {
      if (child !== null) killGroup(child.pid);
    },
    run: () =>
      new Promise((resolvePromise) => {
        const started = now();
        const before = run.group?.counters();
        let settled = false;
        let timer: NodeJS.Timeout | undefined;
        const onAbort = (): void => killGroup(child?.pid);
        const finish = (exitCode: number | null, signal: string | null, extra = ""): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          // A check that left children behind (a server, a watcher) must not outlive it.
          killGroup(child?.pid);
          const caps = run.group !== undefined && before !== undefined ? run.group.capsHitSince(before).map((cap) => `\n[${capNotice(cap, run.group?.limits ?? DEFAULT_SANDBOX_LIMITS, "check's")}]`) : [];
          const note = (timedOut ? `\n[armstudy: check timed out after ${timeoutMs} ms; its process group was killed]` : "") + caps.join("");
          resolvePromise({
            id: check.id,
            command: check.command,
            passed: exitCode === 0 && !timedOut,
            exitCode,
            signal,
            timedOut,
            durationMs: Math.round(now() - started),
            output: tail(output + extra + note, OUTPUT_CAP),
          });
        };
        onEnd = finish;
        if (early !== null) {
          finish(early.exitCode, early.signal, early.extra);
          return;
        }
        child ??= spawnChild();
        const running = child;
        timer = setTimeout(() => {
          timedOut = true;
          killGroup(running.pid);
        }, timeoutMs);
        options.signal?.addEventListener("abort", onAbort, { once: true });
        // The go: the waiting process starts the check now.
        if (gated) running.stdin?.end("go\n");
      }),
  };
}

/**
 * Runs every check, up to `concurrency` at a time (one at a time, in order, when the checks are
 * marked sequential), each in its own process: its exit code stays the truth. Results are in the
 * checks' order; after an abort no further check starts, and the ones not started are left out.
 */
export async function runAcceptance(checks: readonly CheckSpec[], given: RunCheckOptions): Promise<AcceptanceResult> {
  // One group for the whole grading: its caps bound all the checks together, made and removed once.
  const grading = withRunGroup(given.sandbox ?? defaultRunSandbox(given.env ?? process.env));
  try {
    return await runEach(checks, { ...given, sandbox: grading.run });
  } finally {
    grading.close();
  }
}

async function runEach(checks: readonly CheckSpec[], options: RunCheckOptions): Promise<AcceptanceResult> {
  const sequential = checks.some((check) => check.sequential === true);
  const width = sequential ? 1 : Math.max(1, Math.min(checks.length, options.concurrency ?? availableParallelism()));
  const outcomes: (CheckOutcome | undefined)[] = new Array(checks.length);
  // Every check is made ready first (in a group, they join it together), then started up to width at a time.
  const prepared = checks.map((check) => prepareCheck(check, options));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < checks.length && options.signal?.aborted !== true) {
      const index = next;
      next += 1;
      outcomes[index] = await (prepared[index] as PreparedCheck).run();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  for (let index = next; index < prepared.length; index += 1) prepared[index]?.drop();
  // With one worker an abort leaves a prefix; with several, the checks that finished, in order.
  const results = outcomes.filter((outcome): outcome is CheckOutcome => outcome !== undefined);
  const passed = results.filter((result) => result.passed).length;
  return { passed, failed: results.length - passed, checks: results };
}
