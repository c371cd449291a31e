/**
 * `armstudy study [FILE] [--arm NAME]... [--runs N] [--model SPEC] [-j N] [--resume] [--shard i/n]
 * [--out DIR] [--json]`: runs a study (default `arms/default.study.yaml`), renders its report and
 * prints the report's path. Thin: the runner (src/study) and the renderer (src/render) do the work.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { PackError } from "../../core/prompt/errors.ts";
import { renderStudyReport } from "../../render/render.ts";
import { ResultsError, STUDY_META_FILE } from "../../render/results.ts";
import { PersonaError } from "../../run/models/scripted-persona.ts";
import { ModelSpecError } from "../../run/models/spec.ts";
import { defaultStudyDeps } from "../../study/deps.ts";
import { StudyInputError } from "../../study/errors.ts";
import { parseShard } from "../../study/plan.ts";
import { progressPrinter } from "../../study/progress.ts";
import { runStudy } from "../../study/runner.ts";
import { onInterrupt } from "../../study/signals.ts";
import { loadStudyFile } from "../../study/study-file.ts";
import { writeStudyView } from "../../view/write.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";
import { GATE_OPTIONS, GATE_USAGE, applyGates, validateGates } from "../gate-flags.ts";
import type { CliIO } from "../io.ts";
import { describePlan } from "./power.ts";
import { pilotGaps, planRunsFromPilot } from "../../render/plan-runs.ts";
import { type StudyQuestion, loadResults } from "../../render/results.ts";
import type { StudyVerdict } from "../../render/verdict.ts";
import { probeSandbox } from "../../run/sandbox/probe.ts";
import { EXIT_FAULT, EXIT_INTERRUPTED } from "../exit-codes.ts";
import { createRedactor, secretsFromEnv } from "../../run/secrets/redact.ts";
import { MAX_RUNS_PER_ARM } from "../../study/study-file.ts";

export const DEFAULT_STUDY_FILE = "arms/default.study.yaml";

const USAGE_LINE = "armstudy study [FILE] [--arm NAME]... [--runs N] [--model SPEC] [-j N] [--resume | --retry-errors] [--shard i/n] [--out DIR] [--envelope] [--no-sandbox] [--plan-runs] [--fail-if EXPR]... [--fail-if-worse-than DIR] [--github] [--json]";
const USAGE = [
  USAGE_LINE,
  "",
  `FILE       a study file (default ${DEFAULT_STUDY_FILE})`,
  "--arm      run only this arm (repeatable); an arm not in the file runs with the study's defaults",
  "--runs     runs per arm per task (default: the study file's, 3)",
  "--model    model spec for every arm, such as scripted:@task (each task's own persona), scripted:FILE or openai:MODEL",
  "-j         runs at the same time (default 1)",
  "--resume   finish an interrupted study: skip finished runs, redo unfinished ones",
  "           (the folder is --out, or the latest reports/<study>/<stamp>)",
  "--retry-errors  like --resume, and also redo the runs that ended as error (a fault)",
  "--shard    run slice i of n of the (task, arm, run) triples; combine folders with `armstudy merge`",
  "--out      results folder (default reports/<study>/<UTC stamp>)",
  "--envelope also write each run as an implementer envelope (envelope.yaml beside result.json)",
  "--no-sandbox run the agent's commands, the checks and real clients unconfined (recorded in every",
  "           result and on the report's first screen); without it, a machine with no bubblewrap",
  "           runs only the bundled scripted test double",
  "--plan-runs print the runs per arm the study's primary metric needs (from its latest results that ran both of its arms, as a pilot) and run nothing",
  "--json     print one JSON object at the end instead of text",
  GATE_USAGE,
  "",
  "exit codes: 0 done; 1 a gate fired; 2 bad input; 3 one or more runs ended as error, or the study stopped",
  "after the same fault twice in a row (the report and --json say which); 130 interrupted (--resume finishes it)",
].join("\n");

const OPTIONS = {
  arm: { type: "string", multiple: true },
  runs: { type: "string" },
  model: { type: "string" },
  j: { type: "string", short: "j" },
  resume: { type: "boolean" },
  "retry-errors": { type: "boolean" },
  shard: { type: "string" },
  out: { type: "string" },
  envelope: { type: "boolean" },
  "no-sandbox": { type: "boolean" },
  json: { type: "boolean" },
  "plan-runs": { type: "boolean" },
  ...GATE_OPTIONS,
} as const;

function positiveInt(flag: string, text: string | undefined, max?: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got "${text}"\nusage: ${USAGE_LINE}`);
  if (max !== undefined && value > max) throw new UsageError(`${flag} must be at most ${max}, got "${text}"\nusage: ${USAGE_LINE}`);
  return value;
}

/** A UTC stamp for a results folder: 20260101-120000. */
export function stampOf(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}

/** Stamped results folders of a study, newest first (never shards or merges written with --out). */
function stampedResults(studyDir: string): string[] {
  if (!existsSync(studyDir)) return [];
  return readdirSync(studyDir)
    .filter((name) => /^\d{8}-\d{6}$/.test(name) && existsSync(join(studyDir, name, STUDY_META_FILE)))
    .sort()
    .reverse()
    .map((name) => join(studyDir, name));
}

/** Errors that mean "the input is wrong" (exit 2), whichever layer found them. */
export function asInputError(error: unknown): InputError | null {
  if (error instanceof StudyInputError || error instanceof PackError || error instanceof ModelSpecError || error instanceof ResultsError || error instanceof PersonaError) {
    return new InputError(error.message, error instanceof StudyInputError || error instanceof PackError || error instanceof PersonaError ? error.file : undefined);
  }
  return null;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args, options: OPTIONS, allowPositionals: true, strict: true }, USAGE_LINE);
  if (positionals.length > 1) throw new UsageError(`one study file at most, got ${positionals.length}: ${positionals.join(" ")}\nusage: ${USAGE_LINE}`);
  // The same caps as the study file's `runs` (ADR 0084): a huge count would exhaust memory planning it.
  const runs = positiveInt("--runs", values.runs, MAX_RUNS_PER_ARM);
  const concurrency = positiveInt("-j", values.j, 64) ?? 1;
  const retryErrors = values["retry-errors"] === true;
  const resume = values.resume === true || retryErrors;
  const json = values.json === true;
  validateGates(values);
  const shown = (path: string): string => {
    const rel = relative(io.cwd, path);
    return rel.startsWith("..") ? path : rel;
  };

  const interrupt = onInterrupt((signal) => io.stderr(`\n${signal}: stopping; in-flight runs are being cleaned up (send it again to quit at once)\n`));
  const printer = progressPrinter({ write: json ? () => undefined : io.stdout, isTTY: io.isTTY && !json, now: () => performance.now() });
  try {
    const shard = values.shard !== undefined ? parseShard(values.shard) : null;
    const spec = await loadStudyFile(resolve(io.cwd, positionals[0] ?? DEFAULT_STUDY_FILE));
    if (values["plan-runs"] === true) return await planRuns(spec.name, spec.question, io);
    const outDir = values.out !== undefined ? resolve(io.cwd, values.out) : resolve(io.cwd, "reports", spec.name, stampOf(new Date()));
    const resumeCandidates = resume && values.out === undefined ? stampedResults(resolve(io.cwd, "reports", spec.name)) : undefined;

    const outcome = await runStudy({
      spec,
      deps: defaultStudyDeps({ env: io.env, cwd: io.cwd }),
      outDir,
      cacheRoot: resolve(io.cwd, ".armstudy"),
      cwd: io.cwd,
      ...(values.arm ? { arms: values.arm } : {}),
      ...(runs !== undefined ? { runs } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      concurrency,
      resume,
      retryErrors,
      redact: createRedactor(secretsFromEnv(io.env)),
      envelope: values.envelope === true,
      ...(resumeCandidates ? { resumeCandidates } : {}),
      shard,
      signal: interrupt.signal,
      onProgress: (event) => printer.onProgress(event),
      sandbox: probeSandbox({ env: io.env as NodeJS.ProcessEnv, disabled: values["no-sandbox"] === true }),
    });
    printer.close();
    const rendered = await renderStudyReport(outcome.outDir);
    const view = await writeStudyView(outcome.outDir);
    // Errors count over the whole folder (a resume that adds no new error still leaves the old ones).
    const errors = rendered.summary.runs.errors;
    const errorCauses = rendered.summary.runs.errorCauses;
    const resumeHint = `armstudy study ${positionals[0] ?? ""}${values.arm?.map((arm) => ` --arm ${arm}`).join("") ?? ""} --resume --out ${shown(outcome.outDir)}`.replace(/ {2,}/g, " ");
    if (json) {
      io.stdout(
        `${JSON.stringify({
          outDir: outcome.outDir,
          report: rendered.reportPath,
          view,
          summary: rendered.summaryPath,
          charts: rendered.chartPaths,
          ran: outcome.ran,
          skipped: outcome.skipped,
          errors,
          errorCauses,
          failFast: outcome.failFast,
          interrupted: outcome.interrupted,
          testDouble: rendered.summary.testDouble,
        })}\n`,
      );
    } else {
      if (rendered.summary.testDouble) io.stdout("model: the scripted test double — the numbers show the harness's mechanics, not a real model's behaviour\n");
      for (const warning of rendered.summary.warnings) io.stdout(`warning: ${warning}\n`);
      const causes = Object.entries(errorCauses).map(([cause, count]) => `${cause} ×${count}`).join(", ");
      io.stdout(`${outcome.ran} run(s) finished, ${outcome.skipped} already done${errors > 0 ? `; ${errors} run(s) in the folder ended as error (${causes}), left out of every number` : ""}\n`);
      if (outcome.interrupted) io.stdout(`interrupted; finish with: ${resumeHint}\n`);
      if (rendered.summary.verdict !== null) io.stdout(verdictLine(rendered.summary.verdict));
      io.stdout(`report: ${shown(rendered.reportPath)}\n`);
      io.stdout(`view: ${shown(view)}\n`);
    }
    if (outcome.failFast !== null) {
      const runsText = outcome.failFast.runs.map((r) => `${r.arm} run ${r.runIndex}`).join(", ");
      io.stderr(
        `armstudy study: stopped: ${outcome.failFast.runs.length} runs in a row ended with the same fault, ${outcome.failFast.cause} (${runsText}): ${outcome.failFast.message}\n` +
          `Fix the cause, then finish the study with: ${resumeHint.replace(" --resume ", " --retry-errors ")}\n`,
      );
    } else if (errors > 0) {
      io.stderr(`armstudy study: ${errors} run(s) ended as error (${Object.keys(errorCauses).join(", ")}); rerun them with: ${resumeHint.replace(" --resume ", " --retry-errors ")}\n`);
    }
    if (outcome.interrupted) return EXIT_INTERRUPTED;
    // Gates print even when runs errored; a fault's exit code wins over a gate's.
    const gate = await applyGates(outcome.outDir, values, io);
    return errors > 0 || outcome.failFast !== null ? EXIT_FAULT : gate;
  } catch (error) {
    printer.close();
    const input = asInputError(error);
    if (input) throw input;
    throw error;
  } finally {
    interrupt.dispose();
  }
}

const REPORT_USAGE = "armstudy report DIR [--json] [--fail-if EXPR]... [--fail-if-worse-than DIR] [--github]   (re-render report.md, report.html, summary.json and charts/ from a study's saved results, then apply any gates)";

/** The verdict as one line of the CLI's output. */
function verdictLine(verdict: StudyVerdict): string {
  const { metric, treatment, baseline } = verdict.question.primary;
  const primary = verdict.primary;
  const word =
    primary.kind === "mechanics-only"
      ? "mechanics only — the scripted test double gives no finding"
      : primary.kind === "no-data"
        ? `no data — no finished runs of ${primary.baseline.n === 0 ? baseline : treatment} (run both arms to answer the question)`
        : primary.kind.replace("-", " ");
  return `verdict (${metric}, ${treatment} vs ${baseline}): ${word}\n`;
}

/** `study --plan-runs`: runs per arm for the study's primary metric, its latest results folder that ran both arms as the pilot. */
async function planRuns(study: string, question: StudyQuestion | null, io: CliIO): Promise<number> {
  if (question === null) throw new UsageError("--plan-runs needs a study file that states a primary metric (decision, hypothesis, primary: see docs/study-files.md)");
  const { baseline, treatment, minDifference } = question.primary;
  const folders = stampedResults(resolve(io.cwd, "reports", study));
  // The newest folder with finished runs of both arms: a newer one that ran one arm alone (a resume
  // of --arm old-build, say) would read as a zero difference.
  for (const folder of folders) {
    const results = await loadResults(folder);
    if (pilotGaps(results, question.primary).length > 0) continue;
    io.stdout(`pilot: ${relative(io.cwd, folder)}\n`);
    io.stdout(describePlan(planRunsFromPilot(results, question.primary)));
    return 0;
  }
  const what = folders.length === 0 ? "yet" : `with finished runs of both ${baseline} and ${treatment} yet`;
  const todo = folders.length === 0 ? "run a few runs first" : "run both arms first";
  io.stdout(`no results of study ${study} ${what} to use as a pilot: ${todo}, or use armstudy power --baseline-rate R --difference ${minDifference}\n`);
  return 0;
}

/** `armstudy report DIR`: re-renders a results folder (report.ts routes here for any form but `analyze`). */
export async function rerenderStudyReport(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args, options: { json: { type: "boolean" }, ...GATE_OPTIONS }, allowPositionals: true, strict: true }, REPORT_USAGE);
  validateGates(values);
  if (positionals.length !== 1) throw new UsageError(`name one results folder (reports/<study>/<stamp>)\nusage: ${REPORT_USAGE}`);
  const dir = resolve(io.cwd, positionals[0] as string);
  try {
    const rendered = await renderStudyReport(dir);
    const view = await writeStudyView(dir);
    if (values.json === true) {
      io.stdout(`${JSON.stringify({ report: rendered.reportPath, view, summary: rendered.summaryPath, charts: rendered.chartPaths, runs: rendered.summary.runs })}\n`);
    } else {
      for (const warning of rendered.summary.warnings) io.stdout(`warning: ${warning}\n`);
      const rel = relative(io.cwd, rendered.reportPath);
      io.stdout(`report: ${rel.startsWith("..") ? rendered.reportPath : rel}\n`);
      const viewRel = relative(io.cwd, view);
      io.stdout(`view: ${viewRel.startsWith("..") ? view : viewRel}\n`);
    }
    return await applyGates(dir, values, io);
  } catch (error) {
    const input = asInputError(error);
    // Name the folder as it was typed, not as it resolved.
    if (input) throw new InputError(input.message.split(dir).join(positionals[0] as string), positionals[0]);
    throw error;
  }
}

const command: Command = {
  name: "study",
  summary: "Run a study: the handoff on fresh worktrees, N runs per arm, checked and reported with charts.",
  usage: USAGE,
  run,
};

export default command;
