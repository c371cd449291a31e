/**
 * Plan runs in the summary and the report (ADR 0104): per arm, how the first reply ended and how
 * the run ended (ADR-0077's four outcomes), the repair rate, requests per plan run, and how often a
 * "nothing to plan" conclusion ended as a plan anyway (the fabricated plan of ADR-0077). Present
 * only for arms whose runs were plan runs.
 */
import { type CountSummary, type RateSummary, deriveSeed, seededRng, summarizeCounts, summarizeRate } from "../measure/stats.ts";
import type { RunResult } from "./results.ts";

export const PLAN_OUTCOMES = ["plan_ready", "blocked", "no_plan", "invalid"] as const;

export interface ArmPlanSummary {
  runs: number;
  firstOutcomes: Record<(typeof PLAN_OUTCOMES)[number], RateSummary>;
  outcomes: Record<(typeof PLAN_OUTCOMES)[number], RateSummary>;
  repaired: RateSummary;
  /** Runs whose first reply said there was nothing to plan but which ended with a plan. */
  noPlanTurnedIntoPlan: RateSummary;
  requestsPerRun: CountSummary;
}

export function planSummary(runs: readonly RunResult[], seed: number, arm: string): ArmPlanSummary | undefined {
  const plans = runs.flatMap((run) => (run.metrics.plan ? [{ plan: run.metrics.plan, requests: run.metrics.modelRequests ?? 0 }] : []));
  if (plans.length === 0) return undefined;
  const rates = (read: (p: (typeof plans)[number]["plan"]) => string) =>
    Object.fromEntries(PLAN_OUTCOMES.map((outcome) => [outcome, summarizeRate(plans.map((p) => read(p.plan) === outcome))])) as ArmPlanSummary["outcomes"];
  return {
    runs: plans.length,
    firstOutcomes: rates((p) => p.firstOutcome),
    outcomes: rates((p) => p.outcome),
    repaired: summarizeRate(plans.map((p) => p.plan.repaired)),
    noPlanTurnedIntoPlan: summarizeRate(plans.map((p) => p.plan.firstOutcome === "no_plan" && p.plan.outcome === "plan_ready")),
    requestsPerRun: summarizeCounts(plans.map((p) => p.requests), seededRng(deriveSeed(seed, `${arm}/planRequests`))),
  };
}

function pct(rate: RateSummary): string {
  return rate.rate === null ? "—" : `${rate.count}/${rate.n}`;
}

/** The report's "Plan runs" section, or no lines when no arm ran plan runs. */
export function planReportLines(arms: ReadonlyArray<{ name: string; plan?: ArmPlanSummary }>): string[] {
  const planned = arms.filter((arm): arm is { name: string; plan: ArmPlanSummary } => arm.plan !== undefined);
  if (planned.length === 0) return [];
  const lines = [
    "## Plan runs",
    "",
    "How each plan run's first reply ended and how the run ended (ADR-0077's outcomes), how many runs used the one repair turn, and model requests per plan run. \"no_plan → plan\" counts runs whose first reply concluded there was nothing to plan and that ended with a plan anyway.",
    "",
    "| arm | first: plan_ready / blocked / no_plan / invalid | final: plan_ready / blocked / no_plan / invalid | repaired | no_plan → plan | requests per run (mean) |",
    "|---|---|---|---|---|---|",
  ];
  for (const arm of planned) {
    const p = arm.plan;
    const row = (r: ArmPlanSummary["outcomes"]) => PLAN_OUTCOMES.map((o) => pct(r[o])).join(" / ");
    const mean = p.requestsPerRun.mean === null ? "—" : p.requestsPerRun.mean.toFixed(1);
    lines.push(`| ${arm.name} | ${row(p.firstOutcomes)} | ${row(p.outcomes)} | ${pct(p.repaired)} | ${pct(p.noPlanTurnedIntoPlan)} | ${mean} |`);
  }
  lines.push("");
  return lines;
}
