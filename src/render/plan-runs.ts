/**
 * Planning runs for a study's primary metric: runs per arm to detect the stated difference at a
 * given power, from a pilot's observed rates (or spread, for counts) or from stated guesses.
 * Paired when the two arms share run indices (the same seed and task): then McNemar's sample size
 * from the pilot's discordant pairs, which needs fewer runs when paired runs mostly agree.
 */
import { standardDeviation } from "../measure/stats.ts";
import { runsForMeans, runsForPairedRates, runsForTwoRates } from "../measure/power.ts";
import type { LoadedResults, RunResult, StudyQuestion } from "./results.ts";
import { COUNT_METRICS, type CountMetric, RATE_METRICS, type RateMetric, scoredRuns } from "./summary.ts";

export interface RunPlan {
  metric: string;
  baselineRate: number | null;
  /** Runs per arm for independent arms. */
  unpaired: number | null;
  /** Pairs (runs per arm) for McNemar's test, when the pilot has paired runs. */
  paired: number | null;
  /** Share of pilot pairs whose outcomes differ; null without pairs. */
  discordance: number | null;
  pilotRuns: { baseline: number; treatment: number };
  power: number;
  alpha: number;
  /** The pilot ran the scripted test double: its rates are mechanics, not a model's. */
  pilotTestDouble: boolean;
}


/** Runs per arm for `question` from the pilot `results` (a study of the same question). */
export function planRunsFromPilot(results: LoadedResults, question: StudyQuestion["primary"], power = 0.8): RunPlan {
  const base = scoredRuns(results.results, question.baseline);
  const treat = scoredRuns(results.results, question.treatment);
  const target = { alpha: question.alpha, power };
  const sign = question.direction === "lower" ? -1 : 1;
  const pilotRuns = { baseline: base.length, treatment: treat.length };
  const pilotTestDouble = results.meta.arms.some((arm) => (arm.name === question.baseline || arm.name === question.treatment) && arm.testDouble);
  if (question.kind === "count") {
    const read = COUNT_METRICS[question.metric as CountMetric];
    const values = (runs: RunResult[]): number[] => runs.map(read).filter((v): v is number => v !== null && Number.isFinite(v));
    const spread = Math.max(standardDeviation(values(base)), standardDeviation(values(treat)));
    return { metric: question.metric, baselineRate: null, unpaired: runsForMeans(question.minDifference, spread, target), paired: null, discordance: null, pilotRuns, power, alpha: question.alpha, pilotTestDouble };
  }
  const read = RATE_METRICS[question.metric as RateMetric];
  const baselineRate = base.length === 0 ? null : base.filter(read).length / base.length;
  const goal = baselineRate === null ? null : Math.min(1, Math.max(0, baselineRate + sign * question.minDifference));
  const unpaired = baselineRate === null || goal === null ? null : runsForTwoRates(baselineRate, goal, target);
  // Pairs: the same run index in both arms.
  const byIndex = new Map(treat.map((run) => [run.runIndex, run]));
  const pairs = base.flatMap((run) => {
    const other = byIndex.get(run.runIndex);
    return other === undefined ? [] : [[read(run), read(other)] as const];
  });
  let paired: number | null = null;
  let discordance: number | null = null;
  if (pairs.length > 0) {
    discordance = pairs.filter(([x, y]) => x !== y).length / pairs.length;
    // Under the stated difference δ the discordant shares are (ψ ± δ)/2; ψ can be no smaller than δ.
    const psi = Math.min(1, Math.max(discordance, question.minDifference));
    paired = runsForPairedRates((psi + question.minDifference) / 2, (psi - question.minDifference) / 2, target);
  }
  return { metric: question.metric, baselineRate, unpaired, paired, discordance, pilotRuns, power, alpha: question.alpha, pilotTestDouble };
}

/**
 * The primary arms `results` has no finished runs of. Empty means it can be the pilot; otherwise
 * a plan from it would read a missing arm as a zero difference.
 */
export function pilotGaps(results: LoadedResults, question: StudyQuestion["primary"]): string[] {
  return [question.baseline, question.treatment].filter((arm) => scoredRuns(results.results, arm).length === 0);
}
