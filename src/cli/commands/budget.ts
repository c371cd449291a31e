/**
 * `armstudy budget` (`npm run budget`): the prompt-prefix gate. Compiles each arm's pack, prints
 * per-section sizes against their budgets, the stable-prefix totals and hash, and the sections
 * changed since the baseline. Exit 0: within budget. Exit 1: a violation or prefix growth over the
 * allowed percentage. Exit 2: bad input (nothing written).
 */
import { join, resolve } from "node:path";
import {
  type ArmBudgetReport,
  baselineEntry,
  budgetJson,
  budgetReport,
  formatBudgetText,
  githubAnnotations,
  mergeBaseline,
} from "../../core/prompt/budget-report.ts";
import { PackError } from "../../core/prompt/errors.ts";
import { readBaseline, writeBaseline } from "../../run/arms/baseline.ts";
import { growthPercent } from "../../run/arms/budgets.ts";
import { loadArmSet } from "../../run/arms/load.ts";
import { displayPath } from "../../run/arms/source.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError } from "../errors.ts";
import type { CliIO } from "../io.ts";

const USAGE = [
  "armstudy budget [--arm NAME]... [--arms DIR] [--budgets FILE] [--baseline FILE] [--update-baseline] [--json] [--github]",
  "",
  "  --arm NAME         check this arm (repeatable; default: every arm in the arms folder)",
  "  --arms DIR         the arms folder (default: arms)",
  "  --budgets FILE     the budgets file (default: DIR/budgets.yaml)",
  "  --baseline FILE    the baseline to compare with (default: DIR/budget-baseline.json)",
  "  --update-baseline  write the current figures of the checked arms into the baseline",
  "  --json             print one JSON object: { arms: [{ arm, prefixHash, prefix, sections, violations }] }",
  "  --github           add GitHub Actions ::error / ::notice annotations (to stderr with --json)",
  "",
  "Exit codes: 0 within budget, 1 a violation or prefix growth over the allowed percentage, 2 bad input.",
].join("\n");

const OPTIONS = {
  arm: { type: "string", multiple: true },
  arms: { type: "string" },
  budgets: { type: "string" },
  baseline: { type: "string" },
  "update-baseline": { type: "boolean" },
  json: { type: "boolean" },
  github: { type: "boolean" },
} as const;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs({ args, options: OPTIONS, allowPositionals: false, strict: true }, USAGE);

  const armsDir = resolve(io.cwd, values.arms ?? "arms");
  const baselinePath = values.baseline === undefined ? join(armsDir, "budget-baseline.json") : resolve(io.cwd, values.baseline);
  const update = values["update-baseline"] === true;
  try {
    const { arms, budgets } = await loadArmSet(armsDir, values.arm, { cwd: io.cwd, ...(values.budgets === undefined ? {} : { budgetsFile: values.budgets }) });
    // An explicit --baseline must exist unless it is about to be written.
    const baseline = await readBaseline(baselinePath, io.cwd, values.baseline !== undefined && !update);
    const maxGrowth = growthPercent(budgets);
    const withPrompt = arms.flatMap((arm) => (arm.prompt === null ? [] : [{ arm, prompt: arm.prompt }]));
    const skipped = arms.filter((arm) => arm.prompt === null).map((arm) => `${arm.name} (${arm.agent}: the client's own prompt)`);

    // Changes are shown against the baseline as it was; --update-baseline accepts the growth.
    const reports: ArmBudgetReport[] = withPrompt.map(({ arm, prompt }) => {
      const report = budgetReport(arm.name, arm.file, prompt, baseline?.arms[arm.name], maxGrowth);
      return update ? { ...report, violations: report.violations.filter((v) => v.kind !== "growth") } : report;
    });
    if (update) await writeBaseline(baselinePath, mergeBaseline(baseline, Object.fromEntries(withPrompt.map(({ arm, prompt }) => [arm.name, baselineEntry(prompt)]))), io.cwd);

    const baselineFile = displayPath(baselinePath, io.cwd);
    const annotations = values.github === true ? githubAnnotations(reports, { budgets: budgets?.file ?? null }) : "";
    if (values.json === true) {
      io.stdout(`${JSON.stringify(budgetJson(reports), null, 2)}\n`);
      if (annotations !== "") io.stderr(annotations);
    } else {
      io.stdout(formatBudgetText(reports, { baselineFile: baseline === null ? null : baselineFile, maxGrowthPercent: maxGrowth }));
      if (skipped.length > 0) io.stdout(`not checked: ${skipped.join(", ")}\n`);
      if (update) io.stdout(`baseline written: ${baselineFile} (${withPrompt.map(({ arm }) => arm.name).join(", ")})\n`);
      io.stdout(annotations);
    }
    return reports.some((r) => r.violations.length > 0) ? 1 : 0;
  } catch (error) {
    if (error instanceof PackError) throw new InputError(error.message, error.file);
    throw error;
  }
}

const command: Command = {
  name: "budget",
  summary: "Check each arm's prompt sections and stable prefix against arms/budgets.yaml and the baseline.",
  usage: USAGE,
  run,
};

export default command;
