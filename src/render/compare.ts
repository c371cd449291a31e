/**
 * Two studies side by side (`armstudy compare A B`): for each pair of arms — the same name in both,
 * or named pairs across them — every metric both have, with the difference B − A and its 95%
 * interval (Newcombe's score interval for rates, a seeded bootstrap for counts), and whether the
 * change lies beyond its interval in the worse direction. A pure function of the two results.
 */
import { bootstrapMeanDifference, deriveSeed, mean, seededRng } from "../measure/stats.ts";
import { newcombeInterval } from "../measure/verdict.ts";
import { type Better, betterDirection } from "./metric-directions.ts";
import type { LoadedResults, RunResult } from "./results.ts";
import { COUNT_METRICS, type CountMetric, RATE_METRICS, type RateMetric, scoredRuns } from "./summary.ts";

export interface MetricChange {
  metric: string;
  kind: "rate" | "count";
  better: Better;
  a: { n: number; value: number | null };
  b: { n: number; value: number | null };
  /** b − a. */
  difference: number | null;
  ci95: [number, number] | null;
  /** The interval excludes 0: `better` or `worse` by the metric's direction, `changed` when it has none. */
  change: "better" | "worse" | "changed" | "none";
}

export interface ArmPairComparison {
  a: { study: string; arm: string };
  b: { study: string; arm: string };
  metrics: MetricChange[];
}

export interface StudyComparison {
  a: { dir: string; study: string; testDouble: boolean };
  b: { dir: string; study: string; testDouble: boolean };
  pairs: ArmPairComparison[];
}


function changeOf(better: Better, ci: [number, number] | null): MetricChange["change"] {
  if (ci === null) return "none";
  const direction = ci[0] > 0 ? 1 : ci[1] < 0 ? -1 : 0;
  if (direction === 0) return "none";
  if (better === null) return "changed";
  return (direction > 0) === (better === "higher") ? "better" : "worse";
}

export function compareArms(a: LoadedResults, armA: string, b: LoadedResults, armB: string, seed: number): ArmPairComparison {
  const runsA = scoredRuns(a.results, armA);
  const runsB = scoredRuns(b.results, armB);
  const metrics: MetricChange[] = [];
  for (const [metric, read] of Object.entries(RATE_METRICS) as Array<[RateMetric, (r: RunResult) => boolean]>) {
    const yesA = runsA.filter(read).length;
    const yesB = runsB.filter(read).length;
    const ci = newcombeInterval(yesA, runsA.length, yesB, runsB.length);
    const better = betterDirection(metric);
    const valueA = runsA.length === 0 ? null : yesA / runsA.length;
    const valueB = runsB.length === 0 ? null : yesB / runsB.length;
    metrics.push({
      metric,
      kind: "rate",
      better,
      a: { n: runsA.length, value: valueA },
      b: { n: runsB.length, value: valueB },
      difference: valueA === null || valueB === null ? null : valueB - valueA,
      ci95: ci,
      change: changeOf(better, ci),
    });
  }
  for (const [metric, read] of Object.entries(COUNT_METRICS) as Array<[CountMetric, (r: RunResult) => number | null]>) {
    const valuesA = runsA.map(read).filter((v): v is number => v !== null && Number.isFinite(v));
    const valuesB = runsB.map(read).filter((v): v is number => v !== null && Number.isFinite(v));
    // A metric neither study measured (cost without prices) is left out rather than shown as "–".
    if (valuesA.length === 0 && valuesB.length === 0) continue;
    const difference = bootstrapMeanDifference(valuesA, valuesB, seededRng(deriveSeed(seed, `compare/${armA}/${armB}/${metric}`)));
    const better = betterDirection(metric);
    metrics.push({
      metric,
      kind: "count",
      better,
      a: { n: valuesA.length, value: mean(valuesA) },
      b: { n: valuesB.length, value: mean(valuesB) },
      difference: difference.diff,
      ci95: difference.ci95,
      change: changeOf(better, difference.ci95),
    });
  }
  return { a: { study: a.meta.study, arm: armA }, b: { study: b.meta.study, arm: armB }, metrics };
}

/**
 * Compares two results folders. Without `pairs`, every arm the two share by name; with them, the
 * named arm of A against the named arm of B.
 */
export function compareStudies(a: LoadedResults, b: LoadedResults, pairs?: ReadonlyArray<[string, string]>): StudyComparison {
  const namesA = a.meta.arms.map((arm) => arm.name);
  const namesB = new Set(b.meta.arms.map((arm) => arm.name));
  const chosen = pairs ?? namesA.filter((name) => namesB.has(name)).map((name): [string, string] => [name, name]);
  const testDouble = (results: LoadedResults): boolean => results.meta.arms.some((arm) => arm.testDouble);
  return {
    a: { dir: a.dir, study: a.meta.study, testDouble: testDouble(a) },
    b: { dir: b.dir, study: b.meta.study, testDouble: testDouble(b) },
    pairs: chosen.map(([armA, armB]) => compareArms(a, armA, b, armB, b.meta.seed)),
  };
}

function shown(change: MetricChange, value: number | null): string {
  if (value === null) return "–";
  if (change.kind === "rate") return `${Math.round(value * 100)}%`;
  return Math.abs(value) >= 100 ? Math.round(value).toLocaleString("en-US") : String(Number(value.toFixed(2)));
}

function shownDifference(change: MetricChange, value: number): string {
  const sign = value > 0 ? "+" : "";
  return change.kind === "rate" ? `${sign}${Math.round(value * 100)} pts` : `${sign}${Math.abs(value) >= 100 ? Math.round(value).toLocaleString("en-US") : Number(value.toFixed(2))}`;
}

const MARK: Record<MetricChange["change"], string> = { better: "better", worse: "**worse**", changed: "changed", none: "" };

/** A markdown summary fit for a pull-request comment. */
export function renderComparisonMarkdown(comparison: StudyComparison, names: { a: string; b: string }): string {
  const lines = [`## armstudy compare: ${names.b} vs ${names.a}`, ""];
  if (comparison.a.testDouble || comparison.b.testDouble) {
    lines.push("> The scripted test double ran at least one side: differences show the harness's mechanics, not a model's behaviour.", "");
  }
  for (const pair of comparison.pairs) {
    const title = pair.a.arm === pair.b.arm ? `arm \`${pair.a.arm}\`` : `\`${pair.b.arm}\` (B) vs \`${pair.a.arm}\` (A)`;
    const worse = pair.metrics.filter((m) => m.change === "worse").map((m) => m.metric);
    const better = pair.metrics.filter((m) => m.change === "better").map((m) => m.metric);
    lines.push(`### ${title}`, "", worse.length === 0 && better.length === 0 ? "No metric moved beyond its interval." : `${better.length > 0 ? `Better: ${better.join(", ")}. ` : ""}${worse.length > 0 ? `Worse: ${worse.join(", ")}.` : ""}`.trim(), "");
    lines.push("| metric | A | B | B − A [95% interval] | |", "|---|---|---|---|---|");
    for (const m of pair.metrics) {
      const diff = m.difference === null ? "–" : `${shownDifference(m, m.difference)}${m.ci95 ? ` [${shownDifference(m, m.ci95[0])}, ${shownDifference(m, m.ci95[1])}]` : ""}`;
      lines.push(`| ${m.metric} | ${shown(m, m.a.value)} (n=${m.a.n}) | ${shown(m, m.b.value)} (n=${m.b.n}) | ${diff} | ${MARK[m.change]} |`);
    }
    lines.push("");
  }
  lines.push("Rates: Newcombe's score interval of the difference; counts: percentile bootstrap. An interval that spans 0 is no evidence of a change.", "");
  return lines.join("\n");
}
