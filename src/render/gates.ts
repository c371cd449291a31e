/**
 * CI gates on study metrics: thresholds (`--fail-if "ordinary.falseCompletion.rate > 0.2"`) and a
 * baseline (`--fail-if-worse-than DIR`: a change beyond its interval in the worse direction). Each
 * gate is a pure function of loaded results; the CLI turns failures into exit 1 and, under
 * `--github`, `::error` annotations.
 */
import { mean, median } from "../measure/stats.ts";
import { type StudyComparison, compareStudies } from "./compare.ts";
import { metricKind, METRIC_NAMES } from "./metric-directions.ts";
import { planRateMetrics } from "./plan-summary.ts";
import { type LoadedResults, type RunResult, type StudyMeta, workExistsOf } from "./results.ts";
import { COUNT_METRICS, type CountMetric, RATE_METRICS, type RateMetric, REPORT_RATE_METRICS, scoredRuns } from "./summary.ts";

export class GateError extends Error {
  readonly code = "GATE";
  // A gate that cannot be read or applied is bad input (exit 2); a gate that fires is exit 1.
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "GateError";
  }
}

const OPERATORS = [">=", "<=", "==", "!=", ">", "<"] as const;
type Operator = (typeof OPERATORS)[number];
const RATE_STATS = ["rate", "count", "n"] as const;
const COUNT_STATS = ["mean", "median", "min", "max", "n"] as const;

export interface Threshold {
  text: string;
  arm: string;
  metric: string;
  stat: string;
  operator: Operator;
  value: number;
}

/**
 * Rates measured on some runs only (the final report's ADR-0072 rates, plans for existing work): a
 * gate can read them like any rate, over the runs that measure them. Not compared between arms.
 */
const MEASURED_RATE_NAMES: readonly string[] = [...Object.keys(REPORT_RATE_METRICS), ...Object.keys(planRateMetrics(() => false))];
const GATE_METRIC_NAMES: readonly string[] = [...METRIC_NAMES, ...MEASURED_RATE_NAMES];

function gateMetricKind(metric: string): "rate" | "count" | null {
  return MEASURED_RATE_NAMES.includes(metric) ? "rate" : metricKind(metric);
}

/** The measured rates of one study: the plan rates need to know which tasks' work exists. */
function measuredRates(meta: StudyMeta): Readonly<Record<string, (run: RunResult) => boolean | null>> {
  return { ...REPORT_RATE_METRICS, ...planRateMetrics(workExistsOf(meta)) };
}

const FORM = 'ARM.METRIC.STAT OP NUMBER, e.g. "ordinary.falseCompletion.rate > 0.2"';

/** Parses one `--fail-if` expression; errors name the part that is wrong and the allowed ones. */
export function parseThreshold(text: string): Threshold {
  const match = /^\s*([^\s.][^\s]*?)\.([A-Za-z]+)\.([A-Za-z]+)\s*(>=|<=|==|!=|>|<)\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*$/.exec(text);
  if (match === null) throw new GateError(`--fail-if "${text}": not of the form ${FORM}.`);
  const [, arm, metric, stat, operator, value] = match as unknown as [string, string, string, string, Operator, string];
  const kind = gateMetricKind(metric);
  if (kind === null) throw new GateError(`--fail-if "${text}": "${metric}" is not a study metric; use one of ${GATE_METRIC_NAMES.join(", ")}.`);
  const stats: readonly string[] = kind === "rate" ? RATE_STATS : COUNT_STATS;
  if (!stats.includes(stat)) throw new GateError(`--fail-if "${text}": "${stat}" is not a statistic of ${metric} (a ${kind}); use one of ${stats.join(", ")}.`);
  return { text: text.trim(), arm, metric, stat, operator, value: Number(value) };
}

export interface GateFailure {
  gate: string;
  message: string;
}

function statOf(threshold: Threshold, runs: readonly RunResult[], measured: Readonly<Record<string, (run: RunResult) => boolean | null>>): number | null {
  if (Object.hasOwn(measured, threshold.metric)) {
    const flags = runs.map(measured[threshold.metric] as (run: RunResult) => boolean | null).filter((flag): flag is boolean => flag !== null);
    const yes = flags.filter(Boolean).length;
    if (threshold.stat === "n") return flags.length;
    if (threshold.stat === "count") return yes;
    return flags.length === 0 ? null : yes / flags.length;
  }
  if (threshold.stat === "n") return runs.length;
  if (Object.hasOwn(RATE_METRICS, threshold.metric)) {
    const yes = runs.filter(RATE_METRICS[threshold.metric as RateMetric]).length;
    if (threshold.stat === "count") return yes;
    return runs.length === 0 ? null : yes / runs.length;
  }
  const values = runs.map(COUNT_METRICS[threshold.metric as CountMetric]).filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length === 0) return null;
  if (threshold.stat === "mean") return mean(values);
  if (threshold.stat === "median") return median(values);
  return threshold.stat === "min" ? Math.min(...values) : Math.max(...values);
}

function holds(actual: number, operator: Operator, value: number): boolean {
  switch (operator) {
    case ">":
      return actual > value;
    case ">=":
      return actual >= value;
    case "<":
      return actual < value;
    case "<=":
      return actual <= value;
    case "==":
      return actual === value;
    case "!=":
      return actual !== value;
    default: {
      const unknown: never = operator;
      throw new GateError(`unknown operator ${String(unknown)}`);
    }
  }
}

/** The thresholds that fire on these results; an arm the study did not run is an error, not a pass. */
export function checkThresholds(results: LoadedResults, thresholds: readonly Threshold[]): GateFailure[] {
  const arms = results.meta.arms.map((arm) => arm.name);
  const failures: GateFailure[] = [];
  const measured = measuredRates(results.meta);
  for (const threshold of thresholds) {
    if (!arms.includes(threshold.arm)) throw new GateError(`--fail-if "${threshold.text}": the study has no arm "${threshold.arm}" (arms: ${arms.join(", ")}).`);
    const runs = scoredRuns(results.results, threshold.arm);
    const actual = statOf(threshold, runs, measured);
    if (actual === null) {
      failures.push({ gate: threshold.text, message: `${threshold.text}: no value (the arm has no finished runs that measure ${threshold.metric}), so the gate cannot pass.` });
    } else if (holds(actual, threshold.operator, threshold.value)) {
      failures.push({ gate: threshold.text, message: `${threshold.text}: is ${Number(actual.toPrecision(6))}.` });
    }
  }
  return failures;
}

/** Every metric of an arm both studies ran that changed beyond its interval in the worse direction. */
export function checkAgainstBaseline(baseline: LoadedResults, current: LoadedResults): { comparison: StudyComparison; failures: GateFailure[] } {
  const comparison = compareStudies(baseline, current);
  const failures: GateFailure[] = [];
  for (const pair of comparison.pairs) {
    for (const metric of pair.metrics) {
      if (metric.change !== "worse" || metric.difference === null || metric.ci95 === null) continue;
      const scale = metric.kind === "rate" ? 100 : 1;
      const unit = metric.kind === "rate" ? " points" : "";
      const round = (x: number): number => Number((x * scale).toPrecision(4));
      failures.push({
        gate: `worse than baseline: ${pair.b.arm}.${metric.metric}`,
        message: `${pair.b.arm}.${metric.metric} got worse than the baseline ${baseline.dir}: ${round(metric.difference)}${unit} [${round(metric.ci95[0])}, ${round(metric.ci95[1])}] (${metric.better} is better).`,
      });
    }
  }
  if (comparison.pairs.length === 0) throw new GateError(`--fail-if-worse-than ${baseline.dir}: the two studies share no arm, so nothing can be compared.`);
  return { comparison, failures };
}

/** GitHub Actions annotations for the failures (one `::error` line each). */
export function githubAnnotations(failures: readonly GateFailure[]): string {
  const escape = (text: string): string => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  return failures.map((failure) => `::error title=armstudy gate::${escape(failure.message)}\n`).join("");
}
