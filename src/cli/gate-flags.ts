/**
 * The CI-gate flags `study`, `report DIR` and `gate` share: `--fail-if EXPR` (repeatable),
 * `--fail-if-worse-than BASELINE_DIR` and `--github`. Exit 1 when a gate fires, with one line per
 * failure (and `::error` annotations under --github); the logic is in src/render/gates.ts.
 */
import { resolve } from "node:path";
import { type GateFailure, checkAgainstBaseline, checkThresholds, githubAnnotations, parseThreshold } from "../render/gates.ts";
import { loadResults } from "../render/results.ts";
import type { CliIO } from "./io.ts";

export const GATE_OPTIONS = {
  "fail-if": { type: "string", multiple: true },
  "fail-if-worse-than": { type: "string" },
  github: { type: "boolean" },
} as const;

export const GATE_USAGE = [
  '--fail-if EXPR           exit 1 when EXPR holds, e.g. "ordinary.falseCompletion.rate > 0.2" (ARM.METRIC.STAT OP NUMBER; repeatable)',
  "--fail-if-worse-than DIR exit 1 when a metric of an arm both studies ran got worse beyond its 95% interval",
  "--github                 also print ::error annotations for GitHub Actions",
].join("\n");

export interface GateValues {
  "fail-if"?: string[];
  "fail-if-worse-than"?: string;
  github?: boolean;
}

export const hasGates = (values: GateValues): boolean => (values["fail-if"]?.length ?? 0) > 0 || values["fail-if-worse-than"] !== undefined;

/** Parses every expression before any work, so a typo fails fast (exit 2) rather than after a study. */
export function validateGates(values: GateValues): void {
  for (const text of values["fail-if"] ?? []) parseThreshold(text);
}

/** Applies the gates to a results folder: 0 when none fires, 1 otherwise. */
export async function applyGates(dir: string, values: GateValues, io: CliIO): Promise<number> {
  if (!hasGates(values)) return 0;
  const current = await loadResults(dir);
  const failures: GateFailure[] = checkThresholds(current, (values["fail-if"] ?? []).map(parseThreshold));
  if (values["fail-if-worse-than"] !== undefined) {
    const baseline = await loadResults(resolve(io.cwd, values["fail-if-worse-than"]));
    failures.push(...checkAgainstBaseline(baseline, current).failures);
  }
  if (failures.length === 0) {
    io.stdout("gates: all passed\n");
    return 0;
  }
  for (const failure of failures) io.stdout(`gate failed: ${failure.message}\n`);
  if (values.github === true) io.stdout(githubAnnotations(failures));
  return 1;
}
