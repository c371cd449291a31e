/**
 * `armstudy power`: runs per arm for a study's primary metric.
 *
 *   armstudy power DIR [--power P]        from a pilot results folder whose study states a question
 *   armstudy power --baseline-rate R --difference D [--alpha A] [--power P] [--discordance Q]
 *   armstudy power --sd S --difference D [--alpha A] [--power P]     (a count metric)
 */
import { resolve } from "node:path";
import { runsForMeans, runsForPairedRates, runsForTwoRates } from "../../measure/power.ts";
import { type RunPlan, pilotGaps, planRunsFromPilot } from "../../render/plan-runs.ts";
import { loadResults } from "../../render/results.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";

const USAGE_LINE = "armstudy power DIR | --baseline-rate R --difference D | --sd S --difference D  [--alpha A] [--power P] [--discordance Q] [--json]";
const USAGE = [
  USAGE_LINE,
  "",
  "DIR              a pilot study's results folder; its study file's primary metric and difference are used",
  "--baseline-rate  the baseline arm's rate (0..1), for a rate metric",
  "--sd             the metric's standard deviation per run, for a count metric",
  "--difference     the smallest difference that matters (a rate difference as a fraction)",
  "--discordance    for paired arms (same tasks and seeds): the share of pairs whose outcomes differ",
  "--alpha          two-sided significance level (default 0.05)",
  "--power          chance to detect the difference (default 0.8)",
].join("\n");

function numberFlag(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max) throw new UsageError(`--${name} ${text}: give a number ${range(min, max)}\nusage: ${USAGE_LINE}`);
  return value;
}

/** A flag's range in words: no 5e-324 or 1.8e308 in a message. */
function range(min: number, max: number): string {
  if (max === Number.MAX_VALUE) return min === Number.MIN_VALUE ? "above 0" : `of at least ${min}`;
  return `from ${min} to ${max}`;
}

export function describePlan(plan: RunPlan): string {
  const lines = [`primary metric: ${plan.metric} (alpha ${plan.alpha}, power ${plan.power})`];
  if (plan.baselineRate !== null) lines.push(`baseline rate: ${Math.round(plan.baselineRate * 100)}% (${plan.pilotRuns.baseline === 0 ? "stated" : `pilot, ${plan.pilotRuns.baseline} runs`})`);
  lines.push(`runs per arm, independent arms: ${plan.unpaired ?? "no number of runs detects a zero difference"}`);
  if (plan.paired !== null) lines.push(`runs per arm, paired by run index (pilot discordance ${Math.round((plan.discordance ?? 0) * 100)}%): ${plan.paired}`);
  if (plan.pilotTestDouble) lines.push("note: the pilot ran the scripted test double, whose rates are the harness's mechanics, not a model's: plan from a real pilot or from --baseline-rate guesses.");
  return `${lines.join("\n")}\n`;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    {
      args,
      options: {
        "baseline-rate": { type: "string" },
        sd: { type: "string" },
        difference: { type: "string" },
        discordance: { type: "string" },
        alpha: { type: "string" },
        power: { type: "string" },
        json: { type: "boolean" },
      },
      allowPositionals: true,
      strict: true,
    },
    USAGE_LINE,
  );
  const power = numberFlag("power", values.power, 0.5, 0.999) ?? 0.8;
  const alpha = numberFlag("alpha", values.alpha, 0.0001, 0.5) ?? 0.05;
  let plan: RunPlan;
  if (positionals.length === 1) {
    const results = await loadResults(resolve(io.cwd, positionals[0] as string));
    const question = results.meta.question ?? null;
    if (question === null) throw new InputError(`${positionals[0]}: its study states no primary metric; add decision/hypothesis/primary to the study file (docs/study-files.md), or give --baseline-rate and --difference.`);
    const { baseline, treatment, metric } = question.primary;
    const gaps = pilotGaps(results, question.primary);
    if (gaps.length > 0) {
      throw new InputError(
        `${positionals[0]}: no finished runs of ${gaps.join(" or ")}, so it cannot be the pilot for ${metric} (${treatment} vs ${baseline}); run both arms (armstudy study --arm ${baseline} --arm ${treatment}), or give --baseline-rate and --difference.`,
      );
    }
    plan = planRunsFromPilot(results, question.primary, power);
  } else if (positionals.length === 0) {
    const difference = numberFlag("difference", values.difference, Number.MIN_VALUE, Number.MAX_VALUE);
    if (difference === undefined) throw new UsageError(`give --difference (the smallest difference that matters)\nusage: ${USAGE_LINE}`);
    const rate = numberFlag("baseline-rate", values["baseline-rate"], 0, 1);
    const sd = numberFlag("sd", values.sd, 0, Number.MAX_VALUE);
    if ((rate === undefined) === (sd === undefined)) throw new UsageError(`give either --baseline-rate (a rate metric) or --sd (a count metric)\nusage: ${USAGE_LINE}`);
    const target = { alpha, power };
    if (rate !== undefined) {
      if (difference >= 1) throw new UsageError(`--difference ${difference}: a rate difference is a fraction below 1\nusage: ${USAGE_LINE}`);
      const other = rate - difference >= 0 ? rate - difference : rate + difference;
      const discordance = numberFlag("discordance", values.discordance, 0, 1);
      const psi = discordance === undefined ? null : Math.max(discordance, difference);
      plan = {
        metric: "rate",
        baselineRate: rate,
        unpaired: runsForTwoRates(rate, Math.min(1, other), target),
        paired: psi === null ? null : runsForPairedRates((psi + difference) / 2, (psi - difference) / 2, target),
        discordance: discordance ?? null,
        pilotRuns: { baseline: 0, treatment: 0 },
        power,
        alpha,
        pilotTestDouble: false,
      };
    } else {
      plan = { metric: "count", baselineRate: null, unpaired: runsForMeans(difference, sd as number, target), paired: null, discordance: null, pilotRuns: { baseline: 0, treatment: 0 }, power, alpha, pilotTestDouble: false };
    }
  } else {
    throw new UsageError(`name at most one pilot results folder\nusage: ${USAGE_LINE}`);
  }
  io.stdout(values.json === true ? `${JSON.stringify(plan)}\n` : describePlan(plan));
  return 0;
}

const command: Command = { name: "power", summary: "Runs per arm to detect a study's stated difference (from a pilot or from guesses)", usage: USAGE, run };
export default command;
