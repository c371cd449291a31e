/**
 * Plan runs in the summary and the report (ADR 0104, ADR 0125): per arm, how the first reply ended
 * and how the run ended (ADR-0077's four outcomes), the repair rate, requests per plan run, and how
 * often a "nothing to plan" conclusion ended as a plan anyway (the fabricated plan of ADR-0077);
 * the same per task type — tasks whose work already exists (task.yaml `workExists`) and tasks that
 * need it — and, over the work-exists tasks, the rate of plans for work that exists. Present only
 * for arms whose runs were plan runs.
 */
import { type CountSummary, type RateSummary, deriveSeed, seededRng, summarizeCounts, summarizeRate } from "../measure/stats.ts";
import type { RunResult } from "./results.ts";

export const PLAN_OUTCOMES = ["plan_ready", "blocked", "no_plan", "invalid"] as const;

/** The two task types a plan suite separates: the requested work is in the repository, or it is not. */
export const PLAN_TASK_TYPES = ["workExists", "workNeeded"] as const;
export type PlanTaskType = (typeof PLAN_TASK_TYPES)[number];

export interface PlanFigures {
  runs: number;
  firstOutcomes: Record<(typeof PLAN_OUTCOMES)[number], RateSummary>;
  outcomes: Record<(typeof PLAN_OUTCOMES)[number], RateSummary>;
  repaired: RateSummary;
  /** Runs whose first reply said there was nothing to plan but which ended with a plan. */
  noPlanTurnedIntoPlan: RateSummary;
  requestsPerRun: CountSummary;
}

export interface ArmPlanSummary extends PlanFigures {
  /** The same figures over the runs on each task type; null for a type the study has no plan run on. */
  byTaskType: Record<PlanTaskType, PlanFigures | null>;
  /** Of the runs on tasks whose work exists, those that ended with a plan (n = 0 when there are none). */
  plansForExistingWork: RateSummary;
}

/**
 * Per-run plan rates a gate can read, given which runs' tasks have their work already: null leaves a
 * run out of the rate's n, so plansForExistingWork is read over the work-exists plan runs alone (the
 * rate the report prints).
 */
export function planRateMetrics(workExists: (run: RunResult) => boolean): Record<"plansForExistingWork", (run: RunResult) => boolean | null> {
  return { plansForExistingWork: (run) => (run.metrics.plan && workExists(run) ? run.metrics.plan.outcome === "plan_ready" : null) };
}

type PlanRun = { plan: NonNullable<RunResult["metrics"]["plan"]>; requests: number; workExists: boolean };

function figures(plans: readonly PlanRun[], seed: number, salt: string): PlanFigures {
  const rates = (read: (p: PlanRun["plan"]) => string) =>
    Object.fromEntries(PLAN_OUTCOMES.map((outcome) => [outcome, summarizeRate(plans.map((p) => read(p.plan) === outcome))])) as PlanFigures["outcomes"];
  return {
    runs: plans.length,
    firstOutcomes: rates((p) => p.firstOutcome),
    outcomes: rates((p) => p.outcome),
    repaired: summarizeRate(plans.map((p) => p.plan.repaired)),
    noPlanTurnedIntoPlan: summarizeRate(plans.map((p) => p.plan.firstOutcome === "no_plan" && p.plan.outcome === "plan_ready")),
    requestsPerRun: summarizeCounts(plans.map((p) => p.requests), seededRng(deriveSeed(seed, salt))),
  };
}

/** `workExists` says whether a run's task asks for work the repository already has. */
export function planSummary(runs: readonly RunResult[], seed: number, arm: string, workExists: (run: RunResult) => boolean = () => false): ArmPlanSummary | undefined {
  const plans: PlanRun[] = runs.flatMap((run) => (run.metrics.plan ? [{ plan: run.metrics.plan, requests: run.metrics.modelRequests ?? 0, workExists: workExists(run) }] : []));
  if (plans.length === 0) return undefined;
  const ofType = (type: PlanTaskType): PlanFigures | null => {
    const some = plans.filter((p) => p.workExists === (type === "workExists"));
    return some.length === 0 ? null : figures(some, seed, `${arm}/planRequests/${type}`);
  };
  return {
    ...figures(plans, seed, `${arm}/planRequests`),
    byTaskType: { workExists: ofType("workExists"), workNeeded: ofType("workNeeded") },
    plansForExistingWork: summarizeRate(plans.filter((p) => p.workExists).map((p) => p.plan.outcome === "plan_ready")),
  };
}

const count = (rate: RateSummary): string => (rate.rate === null ? "—" : `${rate.count}/${rate.n}`);
const pct = (value: number): string => `${Math.round(value * 100)}%`;
const TYPE_LABELS: Record<PlanTaskType, string> = { workExists: "work exists", workNeeded: "work needed" };

/** The report's "Plan runs" section, or no lines when no arm ran plan runs. */
export function planReportLines(arms: ReadonlyArray<{ name: string; plan?: ArmPlanSummary }>): string[] {
  const planned = arms.filter((arm): arm is { name: string; plan: ArmPlanSummary } => arm.plan !== undefined);
  if (planned.length === 0) return [];
  const lines = [
    "## Plan runs",
    "",
    "How each plan run's first reply ended and how the run ended (ADR-0077's outcomes), how many runs used the one repair turn, and model requests per plan run, per arm and per task type: tasks whose requested work already exists (task.yaml `workExists`) and tasks that need it. \"no_plan → plan\" counts runs whose first reply concluded there was nothing to plan and that ended with a plan anyway.",
    "",
    "| arm | tasks | runs | first: plan_ready / blocked / no_plan / invalid | final: plan_ready / blocked / no_plan / invalid | repaired | no_plan → plan | requests per run (mean) |",
    "|---|---|---|---|---|---|---|---|",
  ];
  const row = (name: string, tasks: string, p: PlanFigures): string => {
    const outcomes = (r: PlanFigures["outcomes"]) => PLAN_OUTCOMES.map((o) => count(r[o])).join(" / ");
    const mean = p.requestsPerRun.mean === null ? "—" : p.requestsPerRun.mean.toFixed(1);
    return `| ${name} | ${tasks} | ${p.runs} | ${outcomes(p.firstOutcomes)} | ${outcomes(p.outcomes)} | ${count(p.repaired)} | ${count(p.noPlanTurnedIntoPlan)} | ${mean} |`;
  };
  for (const arm of planned) {
    const types = PLAN_TASK_TYPES.filter((type) => arm.plan.byTaskType[type] !== null);
    for (const type of types) lines.push(row(arm.name, TYPE_LABELS[type], arm.plan.byTaskType[type] as PlanFigures));
    if (types.length !== 1) lines.push(row(arm.name, "all", arm.plan));
  }
  const exists = planned.filter((arm) => arm.plan.plansForExistingWork.n > 0);
  if (exists.length > 0) {
    lines.push(
      "",
      "Plans for work that exists: runs on tasks whose requested work is already in the repository that ended with a plan (Wilson 95% interval).",
      "",
      "| arm | plans for work that exists | 95% interval |",
      "|---|---|---|",
    );
    for (const arm of exists) {
      const rate = arm.plan.plansForExistingWork;
      const interval = rate.ci95 === null ? "—" : `${pct(rate.ci95[0])}–${pct(rate.ci95[1])}`;
      lines.push(`| ${arm.name} | ${rate.count}/${rate.n} = ${pct(rate.rate as number)} | ${interval} |`);
    }
  }
  lines.push("");
  return lines;
}
