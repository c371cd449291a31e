/**
 * The study's answer to its own question: the verdict on the primary metric (src/measure/verdict.ts)
 * and the secondary metrics with their intervals, for summary.json; and the report's first lines.
 * Under the scripted test double the verdict is "mechanics only", never a finding.
 */
import { type Verdict, decideVerdict } from "../measure/verdict.ts";
import { deriveSeed, seededRng } from "../measure/stats.ts";
import type { RunResult, StudyMeta, StudyQuestion } from "./results.ts";
import { COUNT_METRICS, type CountMetric, RATE_METRICS, type RateMetric, scoredRuns } from "./summary.ts";

export interface SecondaryOutcome {
  metric: string;
  direction: "lower" | "higher" | null;
  difference: number | null;
  interval: [number, number] | null;
  /** The interval's level after the multiplicity correction (Bonferroni over the secondary metrics). */
  level: number;
}

export interface StudyVerdict {
  question: StudyQuestion;
  primary: Verdict;
  secondary: SecondaryOutcome[];
}

function values(metric: string, runs: readonly RunResult[]): number[] {
  if (Object.hasOwn(RATE_METRICS, metric)) return runs.map((run) => (RATE_METRICS[metric as RateMetric](run) ? 1 : 0));
  const read = COUNT_METRICS[metric as CountMetric];
  return runs.map(read).filter((value): value is number => value !== null && Number.isFinite(value));
}

/** Null when the study states no question. Runs that ended in error are never part of it. */
export function studyVerdict(meta: StudyMeta, byArm: ReadonlyMap<string, readonly RunResult[]>): StudyVerdict | null {
  const question = meta.question ?? null;
  if (question === null) return null;
  const { primary } = question;
  const scored = (arm: string): RunResult[] => scoredRuns(byArm.get(arm) ?? [], arm);
  const baseline = scored(primary.baseline);
  const treatment = scored(primary.treatment);
  const testDouble = meta.arms.some((arm) => (arm.name === primary.baseline || arm.name === primary.treatment) && arm.testDouble);
  const verdict = decideVerdict({
    question: primary,
    baseline: values(primary.metric, baseline),
    treatment: values(primary.metric, treatment),
    testDouble,
    rng: seededRng(deriveSeed(meta.seed, `verdict/${primary.metric}`)),
  });
  const alpha = question.secondary.length > 0 ? primary.alpha / question.secondary.length : primary.alpha;
  const secondary = question.secondary.map((entry): SecondaryOutcome => {
    const outcome = decideVerdict({
      question: { ...primary, metric: entry.metric, kind: entry.kind, direction: entry.direction ?? primary.direction, alpha, minDifference: Number.MIN_VALUE },
      baseline: values(entry.metric, baseline),
      treatment: values(entry.metric, treatment),
      testDouble,
      rng: seededRng(deriveSeed(meta.seed, `verdict/${entry.metric}`)),
    });
    return { metric: entry.metric, direction: entry.direction, difference: outcome.difference, interval: outcome.interval, level: 1 - alpha };
  });
  return { question, primary: verdict, secondary };
}

const VERDICT_WORDS: Record<Verdict["kind"], string> = {
  supported: "supported",
  contradicted: "contradicted",
  inconclusive: "inconclusive",
  "mechanics-only": "mechanics only",
  "no-data": "no data",
};

function amount(kind: "rate" | "count", value: number, signed = false): string {
  const sign = signed && value > 0 ? "+" : "";
  if (kind === "rate") return `${sign}${Math.round(value * 100)}${signed ? " points" : "%"}`;
  const rounded = Math.abs(value) >= 100 ? Math.round(value) : Number(value.toFixed(1));
  return `${sign}${rounded.toLocaleString("en-US")}`;
}

/** The report's first lines: the question, then the verdict with its interval and what it means. */
export function verdictLines(verdict: StudyVerdict): string[] {
  const { question, primary } = verdict;
  const q = question.primary;
  const decision = question.decision ? `${question.decision.adr}${question.decision.link ? ` ([${question.decision.title}](${question.decision.link}))` : ` (${question.decision.title})`}` : "the study's question";
  const lines = [`**Verdict on ${decision}: ${VERDICT_WORDS[primary.kind]}.**`, "", `Hypothesis, stated before the runs: ${question.hypothesis}`];
  const stated = `Primary metric: ${q.metric}, ${q.treatment} vs ${q.baseline}, expected ${q.direction} by at least ${q.kind === "rate" ? `${Math.round(q.minDifference * 100)} percentage points` : amount(q.kind, q.minDifference)} (alpha ${q.alpha}).`;
  lines.push("", stated);
  if (primary.kind === "no-data") {
    lines.push("", `No finished runs of ${primary.baseline.n === 0 ? q.baseline : q.treatment}: nothing to decide on.`);
    return lines;
  }
  const diff = primary.difference as number;
  const [lo, hi] = primary.interval as [number, number];
  const observed = `Observed: ${q.baseline} ${amount(q.kind, primary.baseline.value as number)} (n=${primary.baseline.n}), ${q.treatment} ${amount(q.kind, primary.treatment.value as number)} (n=${primary.treatment.n}); difference ${amount(q.kind, diff, true)}, ${Math.round(primary.level * 100)}% interval [${amount(q.kind, lo, true)}, ${amount(q.kind, hi, true)}].`;
  lines.push(observed);
  const meaning: Record<Verdict["kind"], string> = {
    supported: "The interval lies wholly on the stated side and the difference reaches the one that matters.",
    contradicted: "The interval rules out a difference as large as the one that matters in the stated direction.",
    inconclusive: `The interval does not settle it.${primary.runsNeeded === null ? "" : ` About ${primary.runsNeeded} runs per arm would detect the stated difference at 80% power from the observed ${q.baseline} rate.`}`,
    "mechanics-only": "These runs came from the scripted test double, which plays the same steps every time and does not read the prompt: the difference shows what the arms' controls do, not how a model behaves, and is not a finding. Run the study with a real model to answer the question.",
    "no-data": "",
  };
  lines.push("", meaning[primary.kind]);
  if (verdict.secondary.length > 0) {
    const level = Math.round((verdict.secondary[0]?.level ?? 0.95) * 1000) / 10;
    lines.push("", `Secondary metrics (${level}% intervals: alpha split over ${verdict.secondary.length}, Bonferroni; read them as context, not as further verdicts):`);
    for (const entry of verdict.secondary) {
      const kind = Object.hasOwn(RATE_METRICS, entry.metric) ? "rate" : "count";
      const text = entry.difference === null || entry.interval === null ? "no data" : `${amount(kind, entry.difference, true)} [${amount(kind, entry.interval[0], true)}, ${amount(kind, entry.interval[1], true)}]`;
      lines.push(`- ${entry.metric}${entry.direction ? ` (${entry.direction} is better)` : ""}: ${text}`);
    }
  }
  return lines;
}
