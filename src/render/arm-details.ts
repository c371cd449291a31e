/**
 * The report's "what each arm did": per arm the status breakdown and the caps runs hit, the turns
 * that drove runs on (replies, continuations, nudges), the claim checks and their verdicts, the
 * per-check pass table, STUDY-0003's long-run signals, and one generated paragraph that says in
 * plain words what changed between arms. Pure functions of the summary (and, for the signals, of
 * the run results when the summary is built).
 */
import { type CountSummary, type Rng, summarizeCounts } from "../measure/stats.ts";
import type { RunResult } from "./results.ts";
import type { ArmSummary, RunRow, StudySummary } from "./summary.ts";

/** STUDY-0003's long-run signals, per run, where the run record carries them. */
export const SIGNALS = {
  longestReplyMs: (r: RunResult) => r.metrics.longestReply?.ms ?? null,
  timeToFirstTextMs: (r: RunResult) => r.metrics.timeToFirstTextMs,
  toolCallsPerVisibleText: (r: RunResult) => r.metrics.toolCallsPerVisibleText,
  readsPerDistinctFile: (r: RunResult) => r.metrics.readsPerDistinctFile,
  compactionsPerReply: (r: RunResult) => {
    const per = r.metrics.compactionsPerReply;
    return per === undefined || per.length === 0 ? null : per.reduce((a, b) => a + b, 0) / per.length;
  },
  modelMs: (r: RunResult) => r.metrics.modelMs,
  toolMs: (r: RunResult) => r.metrics.toolMs,
} as const satisfies Record<string, (r: RunResult) => number | null | undefined>;

export type SignalName = keyof typeof SIGNALS;

const SIGNAL_LABELS: Record<SignalName, string> = {
  longestReplyMs: "longest reply (ms)",
  timeToFirstTextMs: "time to first visible text (ms)",
  toolCallsPerVisibleText: "tool calls per visible text",
  readsPerDistinctFile: "reads per distinct file",
  compactionsPerReply: "compactions per reply",
  modelMs: "model time (ms)",
  toolMs: "tool time (ms)",
};

export function armSignals(runs: readonly RunResult[], rngFor: (signal: string) => Rng): Record<SignalName, CountSummary> {
  return Object.fromEntries(
    (Object.entries(SIGNALS) as Array<[SignalName, (r: RunResult) => number | null | undefined]>).map(([name, read]) => [
      name,
      summarizeCounts(runs.map(read).filter((v): v is number => typeof v === "number" && Number.isFinite(v)), rngFor(name)),
    ]),
  ) as Record<SignalName, CountSummary>;
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
const one = (value: number): string => (Number.isInteger(value) ? String(value) : value.toFixed(1));
const meanOf = (values: ReadonlyArray<number | null>): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
};
const tally = (items: readonly string[]): string => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, n]) => `${item} ×${n}`).join(", ");
};

/** A run that stopped on a cap (the study's hard caps, a goal's round or time cap, a budget). */
export function capOf(run: Pick<RunRow, "status" | "reason">): string | null {
  if (run.status === "budget_limited" || run.status === "usage_limited") return run.reason ?? run.status;
  if (run.reason !== null && /\bcap\b/i.test(run.reason)) return run.reason;
  return null;
}

function turnsCell(arm: ArmSummary, read: (run: RunRow) => number | null): string {
  const mean = meanOf(arm.runs.map(read));
  return mean === null ? "–" : one(mean);
}

/** Status breakdown, caps hit, turns and claim checks per arm. */
export function whatEachArmDid(summary: StudySummary): string[] {
  const lines = [
    "| arm | runs by status | runs that hit a cap | replies | continuations | nudges | claim checks: done / continue / unchecked |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const arm of summary.arms) {
    const statuses = tally(arm.runs.map((run) => run.status)) || "–";
    const caps = arm.runs.map(capOf).filter((cap): cap is string => cap !== null);
    const checks = arm.runs.reduce((sum, run) => ({ done: sum.done + run.claimChecks.done, cont: sum.cont + run.claimChecks.continue, unchecked: sum.unchecked + run.claimChecks.acceptedUnchecked }), { done: 0, cont: 0, unchecked: 0 });
    const checkCount = checks.done + checks.cont + checks.unchecked;
    lines.push(
      `| ${cell(arm.name)} | ${cell(statuses)} | ${caps.length === 0 ? "none" : cell(`${caps.length} of ${arm.runs.length}: ${tally(caps)}`)} | ${turnsCell(arm, (run) => run.turns.replies)} | ${turnsCell(arm, (run) => run.turns.continuations)} | ${turnsCell(arm, (run) => run.turns.nudges)} | ${checkCount === 0 ? "none" : `${checks.done} / ${checks.cont} / ${checks.unchecked}`} |`,
    );
  }
  lines.push("", "Replies, continuations and nudges are means per run; claim checks are totals over the arm's runs.");
  return lines;
}

/** Each acceptance check's pass count per arm. */
export function perCheckTable(summary: StudySummary): string[] {
  if (summary.checks.length === 0) return [];
  const lines = [`| check | ${summary.arms.map((arm) => cell(arm.name)).join(" | ")} |`, `|---|${summary.arms.map(() => "---|").join("")}`];
  for (const id of summary.checks) {
    const cells = summary.arms.map((arm) => (arm.runs.length === 0 ? "–" : `${arm.runs.filter((run) => !run.checks.failedIds.includes(id)).length}/${arm.runs.length}`));
    lines.push(`| ${cell(id)} | ${cells.join(" | ")} |`);
  }
  return lines;
}

export function signalsTable(summary: StudySummary): string[] {
  const lines = [`| signal | ${summary.arms.map((arm) => cell(arm.name)).join(" | ")} |`, `|---|${summary.arms.map(() => "---|").join("")}`];
  for (const name of Object.keys(SIGNAL_LABELS) as SignalName[]) {
    const cells = summary.arms.map((arm) => {
      const s = arm.signals[name];
      if (s.mean === null) return "–";
      return `${one(s.mean)}${s.ci95 ? ` [${one(s.ci95[0])}, ${one(s.ci95[1])}]` : ""}`;
    });
    lines.push(`| ${SIGNAL_LABELS[name]} | ${cells.join(" | ")} |`);
  }
  return lines;
}

function delta(value: number, unit: string): string | null {
  if (Math.abs(value) < 0.05) return null;
  const rounded = Math.abs(value) >= 100 ? Math.round(Math.abs(value)).toLocaleString("en-US") : one(Math.abs(value));
  return `${rounded} ${value > 0 ? "more" : "fewer"} ${unit}`;
}

/**
 * One plain paragraph: for each arm against the first (or the question's treatment against its
 * baseline), what its runs did differently.
 */
export function changeParagraph(summary: StudySummary): string | null {
  const arms = summary.arms.filter((arm) => arm.n > 0);
  if (arms.length < 2) return null;
  const question = summary.verdict?.question.primary;
  const base = (question && arms.find((arm) => arm.name === question.baseline)) ?? (arms[0] as ArmSummary);
  const others = question ? arms.filter((arm) => arm.name === question.treatment) : arms.filter((arm) => arm !== base);
  const sentences = others.map((arm) => {
    const parts: string[] = [];
    const rate = (key: "allChecksPassed" | "falseCompletion" | "permissionStop", words: string) => {
      const a = arm.rates[key];
      const b = base.rates[key];
      if (a.count * b.n !== b.count * a.n) parts.push(`${words} in ${a.count}/${a.n} runs against ${b.count}/${b.n}`);
    };
    rate("allChecksPassed", "every check passed");
    rate("falseCompletion", "a false completion claim");
    rate("permissionStop", "a stop on a permission question");
    const mean = (a: ArmSummary, read: (run: RunRow) => number | null) => meanOf(a.runs.map(read)) ?? 0;
    const turns = [
      delta(mean(arm, (r) => r.turns.continuations) - mean(base, (r) => r.turns.continuations), "continuations"),
      delta(mean(arm, (r) => r.turns.nudges) - mean(base, (r) => r.turns.nudges), "nudges"),
      delta(mean(arm, (r) => r.claimChecks.count) - mean(base, (r) => r.claimChecks.count), "claim checks"),
      delta((arm.counts.toolCalls.mean ?? 0) - (base.counts.toolCalls.mean ?? 0), "tool calls"),
      delta((arm.counts.tokensTotal.mean ?? 0) - (base.counts.tokensTotal.mean ?? 0), "tokens"),
    ].filter((part): part is string => part !== null);
    if (turns.length > 0) parts.push(`${turns.join(", ")} per run`);
    return parts.length === 0 ? `${arm.name} and ${base.name} did the same.` : `${arm.name} against ${base.name}: ${parts.join("; ")}.`;
  });
  const lead = summary.testDouble ? "Under the scripted test double (mechanics, not a model's behaviour): " : "";
  return `${lead}${sentences.join(" ")}`;
}
