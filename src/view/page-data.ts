/**
 * A study's viewer data, read from its results folder through the results reader and the record
 * reader (never written): the page index (arms, the at-a-glance rows, one entry per run with its
 * filter flags) and each run's payload (record events, acceptance checks, patch). Fields other
 * engineers add to result.json (`tampered`, caps, `task`) are read when present and are false or
 * null when absent.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type LoadedResults, type RunResult, loadResults, runFolder, tasksOf } from "../render/results.ts";
import { type ArmSummary, type StudySummary, summarize } from "../render/summary.ts";
import { readRecord } from "../run/record-reader.ts";
import type { RunEvent } from "../run/record.ts";
import { type ArmEntry, type GlanceRow, type PageIndex, type RunEntry, type RunFlags, type RunPayload, runKey } from "./page/data.ts";

/** Statuses and reasons that mean a limit stopped the run rather than the model or a control. */
const CAP_STATUS = /budget_limited|usage_limited|max_rounds|rounds_exhausted|time_limit|token_cap|cost_cap|wall/i;
const CAP_REASON = /\b(cap|limit|max(imum)? rounds|budget)\b/i;

function loose(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** The filter flags of one result, tolerating fields that older results do not carry. */
export function runFlags(result: RunResult): RunFlags {
  const raw = loose(result);
  const metrics = loose(raw.metrics);
  const acceptance = loose(raw.acceptance);
  const tampered = raw.tampered ?? acceptance.tampered ?? metrics.tampered;
  // What the agent did to the .git armstudy made (src/study/git.ts checkRunGit): null when untouched.
  const gitTampered = typeof raw.gitTampered === "string" && raw.gitTampered.length > 0;
  const cap = raw.cap ?? raw.hitCap ?? metrics.hitCap ?? metrics.cap;
  return {
    falseCompletion: result.metrics.falseCompletion === true,
    permissionStop: result.metrics.permissionStop === true,
    error: result.error !== null && result.error !== undefined ? true : result.status === "error",
    tampered: gitTampered || (Array.isArray(tampered) ? tampered.length > 0 : tampered === true || (typeof tampered === "object" && tampered !== null && Object.keys(tampered).length > 0)),
    hitCap: cap === true || (typeof cap === "string" && cap.length > 0) || CAP_STATUS.test(result.status) || (result.reason !== null && CAP_REASON.test(result.reason ?? "")),
  };
}

export function controlOf(arm: Pick<ArmSummary, "policies" | "goal">): string {
  const policies = arm.policies.map((p) => p.name).join(", ") || "none";
  const caps = arm.goal ? [arm.goal.rounds !== undefined ? `${arm.goal.rounds} rounds` : null, arm.goal.hours !== undefined ? `${arm.goal.hours} h` : null].filter(Boolean) : [];
  return caps.length > 0 ? `${policies} (at most ${caps.join(" or ")})` : policies;
}

/**
 * The task level of a run: its task in a suite of several tasks, null otherwise (a study of one
 * task keeps its runs at runs/<arm>/run-<i>, as summary.ts reads them).
 */
function taskOf(result: RunResult, suite: boolean): string | null {
  if (!suite) return null;
  const task = loose(result).task;
  return typeof task === "string" ? task : typeof loose(task).id === "string" ? (loose(task).id as string) : null;
}

function runEntry(result: RunResult, suite: boolean): RunEntry {
  const task = taskOf(result, suite);
  return {
    key: runKey({ ...result, task }),
    arm: result.arm,
    runIndex: result.runIndex,
    task,
    status: result.status,
    reason: typeof result.cause === "string" && result.cause.length > 0 ? `${result.cause}: ${result.reason ?? result.error ?? ""}` : (result.reason ?? null),
    flags: runFlags(result),
    checks: { passed: result.acceptance.passed, failed: result.acceptance.failed },
    toolCalls: result.metrics.toolCalls,
    tokens: result.metrics.tokens.total,
    wallMs: result.metrics.wallMs,
    firstReportLine: result.metrics.firstReportLine ?? null,
  };
}

function glanceRows(summary: StudySummary): GlanceRow[] {
  return summary.arms.map((arm) => ({
    arm: arm.name,
    control: arm.agent === "armstudy" ? controlOf(arm) : `${controlOf(arm)} (${arm.agent}'s own loop)`,
    n: arm.n,
    allChecksPassed: arm.rates.allChecksPassed.count,
    falseCompletion: arm.rates.falseCompletion.count,
    permissionStop: arm.rates.permissionStop.count,
    checksPassedMean: arm.counts.checksPassed.mean,
    toolCallsMean: arm.counts.toolCalls.mean,
    tokensMean: arm.counts.tokensTotal.mean,
  }));
}

/** Reads a record through the record reader; bad lines become warnings, never a failure. */
export async function readEvents(path: string): Promise<{ events: RunEvent[]; warnings: string[] }> {
  const events: RunEvent[] = [];
  const warnings: string[] = [];
  try {
    for await (const event of readRecord(path, { onWarning: (warning) => warnings.push(warning.message) })) events.push(event);
  } catch (error) {
    warnings.push(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the timeline shows what was read`);
  }
  return { events, warnings };
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

export async function runPayload(dir: string, result: RunResult, suite = false): Promise<RunPayload> {
  const folder = join(dir, runFolder(result.arm, result.runIndex, taskOf(result, suite) ?? undefined));
  const { events, warnings } = await readEvents(join(folder, result.files.record));
  return {
    events,
    warnings,
    acceptance: result.acceptance.checks.map((check) => ({
      id: check.id,
      command: check.command,
      passed: check.passed,
      exitCode: check.exitCode ?? null,
      timedOut: check.timedOut === true,
      durationMs: check.durationMs ?? 0,
      output: check.output ?? "",
    })),
    patch: await readOptional(join(folder, result.files.patch)),
    subagents: [],
  };
}

export interface StudyPage {
  index: PageIndex;
  /** Each run's payload, produced one at a time so a large study is never held whole. */
  payloads: () => AsyncGenerator<{ key: string; payload: RunPayload }>;
}

/** The viewer data of a results folder. */
export async function studyPage(dir: string): Promise<StudyPage> {
  const loaded: LoadedResults = await loadResults(dir);
  const summary = summarize(loaded);
  const arms: ArmEntry[] = loaded.meta.arms.map((arm) => ({
    name: arm.name,
    description: arm.description ?? "",
    agent: arm.agent,
    model: arm.model,
    testDouble: arm.testDouble,
    control: controlOf(arm),
    prefix: arm.prefix ?? null,
  }));
  const suite = tasksOf(loaded.meta).length > 1;
  const runs: RunEntry[] = loaded.results.map((result) => runEntry(result, suite));
  const sandbox = loaded.meta.sandbox;
  const index: PageIndex = {
    schema: "armstudy.view/1",
    kind: "study",
    sandbox: sandbox === undefined ? null : sandbox.kind === "none" ? `none${sandbox.disabled ? " (--no-sandbox)" : ""}${sandbox.reason ? `: ${sandbox.reason}` : ""}` : `${sandbox.kind}${sandbox.version ? ` ${sandbox.version}` : ""}`,
    title: `Study ${summary.study}`,
    description: summary.description,
    testDouble: summary.testDouble || summary.testDoubleArms.length > 0,
    checks: summary.checks,
    arms,
    glance: glanceRows(summary),
    runs,
    warnings: summary.warnings,
  };
  return {
    index,
    payloads: async function* () {
      for (const result of loaded.results) yield { key: runKey({ ...result, task: taskOf(result, suite) }), payload: await runPayload(dir, result, suite) };
    },
  };
}
