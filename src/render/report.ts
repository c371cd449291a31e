/**
 * report.md: the study for a person. Its first lines name the model and say plainly when it was the
 * scripted test double; then the per-arm numbers with intervals, the differences between arms, the
 * charts, and every run with its first report line verbatim and links to its record, result and
 * patch. A pure function of the summary (no clock, no paths outside the results folder), so a
 * re-render or a merge of shards writes the same text.
 */
import type { CountSummary, RateSummary } from "../measure/stats.ts";
import type { ChartFile } from "./charts.ts";
import { ANALYZER_ACCURACY, type FieldAccuracy } from "../core/report/accuracy.ts";
import { suiteGlance, suiteSections } from "./suite-report.ts";
import { planReportLines } from "./plan-summary.ts";
import { verdictLines } from "./verdict.ts";
import { changeParagraph, perCheckTable, signalsTable, whatEachArmDid } from "./arm-details.ts";
import { type ArmSummary, CLAIM_SOURCES, type ClaimSourceName, type Comparison, type CountMetric, type RateMetric, type ReportRateMetric, type RunRow, type StudySummary } from "./summary.ts";

const COUNT_LABELS: Record<CountMetric, string> = {
  toolCallsBeforeReplyEnd: "tool calls before the first reply ended",
  toolCalls: "tool calls in all",
  checksPassed: "acceptance checks passed",
  claimChecks: "completion-claim checks",
  repeatedIdenticalCalls: "repeated identical calls",
  compactions: "compactions",
  tokensInput: "input tokens (all requests)",
  tokensOutput: "output tokens",
  tokensTotal: "tokens in all",
  costUsd: "cost (USD)",
  wallMs: "wall time (ms)",
  longestSilenceMs: "longest silence (ms, no record event)",
};

const RATE_LABELS: Record<RateMetric, string> = {
  claimedComplete: "claimed complete",
  falseCompletion: "false completion (claimed complete, a check failed)",
  permissionStop: "stopped on a permission question, checks failing",
  allChecksPassed: "every acceptance check passed",
  tampered: "touched the check files (graded on the task's copy)",
};

/** ADR-0072's final-report measures, and the analyzer field each rests on (null: not the analyzer's). */
const REPORT_RATE_LABELS: Record<ReportRateMetric, { label: string; field: keyof typeof ANALYZER_ACCURACY.test.fields | null }> = {
  claimsDone: { label: "the final report claims the work done", field: "claimsComplete" },
  unfinishedOnFirstLine: { label: "the first line states unfinished work with a reason and a next step", field: "givesReasonAndNext" },
  endsAskingPermission: { label: "ends asking permission to go on", field: "asksPermission" },
  fillerEnding: { label: "filler ending", field: "fillerEnding" },
  falseCompletedList: { label: "false completed list (todo list all complete, a check failed)", field: null },
};

const SOURCE_LABELS: Record<ClaimSourceName, string> = {
  goal_complete: "goal tool (`update_goal` complete)",
  report_first_line: "final report text",
  todo_all_done: "todo list all complete",
};

/** Escapes text for a markdown table cell or inline prose. */
function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** Shows text verbatim as inline code, with a backtick fence longer than any run inside it. */
export function verbatim(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ") && text.trim() !== "") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Groups an unsigned decimal's integer part in threes with commas, as the budget and analyze tables do. */
function grouped(text: string): string {
  const [whole = "", fraction] = text.split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = whole.replace(/^-/, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${digits}${fraction === undefined ? "" : `.${fraction}`}`;
}

export function fmt(value: number | null, digits = 1): string {
  if (value === null || !Number.isFinite(value)) return "–";
  return grouped(Number.isInteger(value) ? String(value) : value.toFixed(digits));
}

function countCell(summary: CountSummary, digits = 1): string {
  if (summary.n === 0 || summary.mean === null) return "–";
  const ci = summary.ci95 ? ` [${fmt(summary.ci95[0], digits)}, ${fmt(summary.ci95[1], digits)}]` : "";
  return `${fmt(summary.mean, digits)}${ci} (median ${fmt(summary.median, digits)}, ${fmt(summary.min, digits)}–${fmt(summary.max, digits)})`;
}

const pct = (value: number): string => `${Math.round(value * 100)}%`;

function rateCell(summary: RateSummary): string {
  if (summary.n === 0 || summary.rate === null) return "–";
  const ci = summary.ci95 ? ` [${pct(summary.ci95[0])}, ${pct(summary.ci95[1])}]` : "";
  return `${summary.count}/${summary.n} = ${pct(summary.rate)}${ci}`;
}

function modelLines(summary: StudySummary): string[] {
  const models = [...new Set(summary.arms.map((arm) => arm.model))];
  const named = models.length <= 1 ? `\`${models[0] ?? summary.model}\`` : summary.arms.map((arm) => `\`${arm.model}\` (${arm.name})`).join(", ");
  if (summary.testDouble) {
    return [
      `> **Scripted test double, not a real model.** Every run used armstudy's deterministic test double (${named}).`,
      "> These numbers show the harness's mechanics (worktrees, turn-end policies, acceptance checks, metrics), not how any real model behaves.",
    ];
  }
  if (summary.testDoubleArms.length > 0) {
    return [
      `> **Partly the scripted test double.** Arms ${summary.testDoubleArms.join(", ")} used armstudy's deterministic test double, not a real model: their numbers show the harness's mechanics only.`,
      `> Models: ${named}.`,
    ];
  }
  return [`> Model: ${named}.`];
}

/** What the limits were: per run (a cgroup each) or per process. Absent in folders written before ADR 0114. */
function limitsText(sandbox: NonNullable<StudySummary["sandbox"]>): string {
  if (sandbox.limitsKind === "cgroup") return "; CPU time, memory and processes capped per run (a cgroup each)";
  if (sandbox.limitsKind === "ulimit") return `; CPU time, memory and processes capped per process only (ulimit: ${sandbox.limitsReason ?? "no cgroup"})`;
  return "";
}

/** The first screen says where the agent's code ran: confined, unconfined by choice, or (no sandbox here) the test double only. */
function sandboxLines(summary: StudySummary): string[] {
  const sandbox = summary.sandbox;
  if (sandbox === undefined) return [];
  if (sandbox.kind === "bwrap") {
    return [`> Sandbox: bubblewrap ${sandbox.version ?? ""} — the agent's commands, the acceptance checks and any real client ran confined (only the run's folder writable, no network, an allow-listed environment)${limitsText(sandbox)}.`.replace("  ", " ")];
  }
  if (sandbox.disabled) {
    return ["> **No sandbox (`--no-sandbox`).** The agent's commands, the acceptance checks and any real client ran unconfined, with this machine's files, network and processes in reach."];
  }
  return [`> **No sandbox on this machine** (${sandbox.reason ?? "none found"}). Only the bundled scripted test double may run here; install bubblewrap to run a real model or client.`];
}

/** The arms table's prefix cell for a real client: its prompt is its own, and armstudy does not see it. */
export const CLIENT_PREFIX = "client's own prompt (not measured)";

function control(arm: ArmSummary): string {
  const policies = arm.policies.map((p) => p.name).join(", ") || "none";
  const caps = arm.goal ? [arm.goal.rounds !== undefined ? `${arm.goal.rounds} rounds` : null, arm.goal.hours !== undefined ? `${arm.goal.hours} h` : null].filter(Boolean) : [];
  return caps.length > 0 ? `${policies} (at most ${caps.join(" or ")})` : policies;
}

function armsTable(summary: StudySummary): string[] {
  const lines = ["| arm | agent | model | policies | stable prefix | description |", "|---|---|---|---|---|---|"];
  for (const arm of summary.arms) {
    const prefix = arm.prefix ? `${fmt(arm.prefix.tokens)} tokens, ${fmt(arm.prefix.chars)} chars, \`${arm.prefix.hash.slice(0, 12)}\`` : CLIENT_PREFIX;
    lines.push(`| ${cell(arm.name)} | ${arm.agent} | \`${cell(arm.model)}\`${arm.testDouble ? " (test double)" : ""} | ${cell(control(arm))} | ${prefix} | ${cell(arm.description)} |`);
  }
  return lines;
}

/** Where each arm's token counts came from, so a persona server's counts are never read as a model's. */
const USAGE_SOURCE_LABELS: Record<string, string> = {
  counted: "armstudy's o200k count",
  reported: "reported by the provider",
  estimated: "o200k estimate of the visible text (a lower bound)",
  "persona-server": "persona server's o200k count of what the client sent (no model)",
  none: "none",
};

function usageSources(arm: ArmSummary): string {
  const sources = [...new Set(arm.runs.map((run) => run.tokens.source))].sort();
  if (sources.length === 0) return "–";
  return sources.map((source) => USAGE_SOURCE_LABELS[source] ?? source).join("; ");
}

const countOf = (summary: RateSummary): string => (summary.n === 0 ? "–" : `${summary.count}/${summary.n}`);

/**
 * The first screen's answer to "which arm did what": per arm its control, the outcome rates as
 * counts of runs, and the mean checks, tool calls and tokens per run; then where the intervals and
 * the between-arm tests are, whose token counts these are, and what a test double's numbers mean.
 */
function glance(summary: StudySummary): string[] {
  const total = summary.checks.length;
  const tracked = summary.tamperTracked !== undefined;
  const lines = [
    `| arm | turn-end control | every check passed | false completion | permission stop |${tracked ? " tampered |" : ""} checks passed | tool calls | tokens |`,
    `|---|---|---|---|---|${tracked ? "---|" : ""}---|---|---|`,
  ];
  for (const arm of summary.arms) {
    const own = arm.agent === "armstudy" ? control(arm) : `${control(arm)} (${arm.agent}'s own loop)`;
    const suiteShare = summary.suite?.pooled.find((pooled) => pooled.arm === arm.name)?.checksShare.value;
    const checks =
      summary.suite !== undefined
        ? suiteShare === undefined || suiteShare === null
          ? "–"
          : `${Math.round(suiteShare * 100)}% of each task's`
        : arm.counts.checksPassed.mean === null
          ? "–"
          : `${fmt(arm.counts.checksPassed.mean)} of ${total}`;
    lines.push(
      `| ${cell(arm.name)} | ${cell(own)} | ${countOf(arm.rates.allChecksPassed)} | ${countOf(arm.rates.falseCompletion)} | ${countOf(arm.rates.permissionStop)} |${tracked ? ` ${countOf(arm.rates.tampered)} |` : ""} ${checks} | ${fmt(arm.counts.toolCalls.mean)} | ${fmt(arm.counts.tokensTotal.mean === null ? null : Math.round(arm.counts.tokensTotal.mean))} |`,
    );
  }
  lines.push(
    "",
    "Rates are runs where it happened / runs; checks, tool calls and tokens are means per run. Their intervals are under [Per arm](#per-arm); differences between arms, with intervals and Fisher's exact p, under [Differences between arms](#differences-between-arms).",
  );
  const bySource = new Map<string, string[]>();
  for (const arm of summary.arms) {
    const source = usageSources(arm);
    bySource.set(source, [...(bySource.get(source) ?? []), arm.name]);
  }
  if (bySource.size > 1 || summary.arms.some((arm) => arm.runs.some((run) => run.tokens.source !== "counted"))) {
    lines.push("", `Tokens: ${[...bySource].map(([source, arms]) => `${arms.join(", ")} — ${source}`).join("; ")}.`);
  }
  if (summary.testDouble || summary.testDoubleArms.length > 0) {
    const who = summary.testDouble ? "With the scripted test double every run of an arm" : `On the scripted test double (${summary.testDoubleArms.join(", ")}) every run of an arm`;
    lines.push(
      "",
      `${who} takes the same steps, so its intervals are (close to) a single point: the table shows what each arm's control does with this persona, not how often a real model would need it.`,
    );
  }
  return lines;
}

/** Many pairs make some small p-values by chance alone: say so, with the Bonferroni threshold. */
function multipleComparisonsNote(pairs: number): string {
  if (pairs < 2) return "";
  const threshold = Number((0.05 / pairs).toPrecision(2));
  return ` ${pairs} pairs are compared: even between arms that do not differ, about one comparison in twenty reaches p < 0.05, so across all of them read p against ${threshold} (Bonferroni).`;
}

function perArmTable(summary: StudySummary): string[] {
  const arms = summary.arms;
  const lines = [`| metric | ${arms.map((arm) => `${cell(arm.name)} (n=${arm.n})`).join(" | ")} |`, `|---|${arms.map(() => "---|").join("")}`];
  for (const metric of Object.keys(RATE_LABELS) as RateMetric[]) {
    if (metric === "tampered" && summary.tamperTracked === undefined) continue;
    lines.push(`| ${RATE_LABELS[metric]} | ${arms.map((arm) => rateCell(arm.rates[metric])).join(" | ")} |`);
  }
  for (const metric of Object.keys(COUNT_LABELS) as CountMetric[]) {
    if (metric === "tokensInput") lines.push(`| token counts from | ${arms.map((arm) => cell(usageSources(arm))).join(" | ")} |`);
    const digits = metric === "costUsd" ? 4 : 1;
    lines.push(`| ${COUNT_LABELS[metric]} | ${arms.map((arm) => countCell(arm.counts[metric], digits)).join(" | ")} |`);
  }
  return lines;
}

const accuracyCell = (accuracy: FieldAccuracy | null): string =>
  accuracy === null ? "not the analyzer (the last todo list and the checks)" : `P ${accuracy.precision === null ? "–" : accuracy.precision.toFixed(2)}, R ${accuracy.recall === null ? "–" : accuracy.recall.toFixed(2)} (${accuracy.positives} positives)`;

/**
 * ADR-0072's questions about the final report, per arm as rates with Wilson intervals, with the
 * analyzer's precision and recall on its held-out splits beside each (src/core/report/accuracy.ts),
 * then who made each false completion's claim.
 */
function finalReportSection(summary: StudySummary): string[] {
  const arms = summary.arms;
  const split = ANALYZER_ACCURACY.heldOut;
  const lines = [
    "## Final report and claims",
    "",
    `What ADR-0072 asks of the final report, read by \`analyzeFinalReport\`. Beside each rate: the analyzer's precision (P) and recall (R) on its held-out splits, ${split.replies} labelled final replies (${split.real} of them real; docs/metrics.md), so a rate is read no finer than the analyzer that produced it.`,
    "",
    `| measure | ${arms.map((arm) => `${cell(arm.name)} (n=${arm.n})`).join(" | ")} | analyzer on the held-out splits |`,
    `|---|${arms.map(() => "---|").join("")}---|`,
  ];
  for (const metric of Object.keys(REPORT_RATE_LABELS) as ReportRateMetric[]) {
    const { label, field } = REPORT_RATE_LABELS[metric];
    lines.push(`| ${label} | ${arms.map((arm) => rateCell(arm.reportRates[metric])).join(" | ")} | ${accuracyCell(field === null ? null : split.fields[field])} |`);
  }
  lines.push("", "False completions by the source that made the claim (a run can have more than one):", "", `| source | ${arms.map((arm) => cell(arm.name)).join(" | ")} |`, `|---|${arms.map(() => "---|").join("")}`);
  for (const source of CLAIM_SOURCES) {
    lines.push(`| ${SOURCE_LABELS[source]} | ${arms.map((arm) => `${arm.falseCompletionSources[source]} of ${arm.rates.falseCompletion.count}`).join(" | ")} |`);
  }
  return lines;
}

/** Says when the p-values below are no evidence, and when a comparison cannot show a difference at all. */
function honestyNotes(summary: StudySummary): string[] {
  const notes: string[] = [];
  const deterministic = summary.comparisons.filter((comparison) => comparison.pValueCaveat !== null);
  if (deterministic.length > 0) {
    const why = deterministic.some((c) => c.pValueCaveat === "test_double") ? "the scripted test double chooses the same steps on every run" : "every run of each arm was identical";
    notes.push(
      `> **Deterministic mechanics, not evidence.** In ${deterministic.length === summary.comparisons.length ? "every comparison below" : deterministic.map((c) => `${c.b} − ${c.a}`).join(", ")}, ${why}: a difference is what each arm's control does by construction, and more runs would only repeat it. No p-value is shown for these; Fisher's test assumes runs that vary.`,
    );
  }
  const repeated = summary.arms.filter((arm) => arm.identicalRuns && !arm.testDouble);
  if (repeated.length > 0) {
    notes.push(
      `> **Identical runs.** Every run of ${repeated.map((arm) => cell(arm.name)).join(", ")} took the same steps to the same outcome: ${repeated.length === 1 ? "its" : "their"} rates and counts are single points, so a difference against ${repeated.length === 1 ? "it" : "them"} shows what the other arm varies, not how often this one would differ.`,
    );
  }
  for (const comparison of summary.comparisons.filter((c) => c.promptOnlyUnderDouble)) {
    notes.push(
      `> **This comparison cannot show a difference under this model.** ${cell(comparison.a)} and ${cell(comparison.b)} differ only in their prompt sections, and the scripted test double does not read the prompt: their runs are the same by construction. Run them on a real model to compare the prompts.`,
    );
  }
  return notes.flatMap((note) => [note, ""]);
}

function signed(value: number | null, digits = 1): string {
  if (value === null) return "–";
  const text = fmt(value, digits);
  return value > 0 ? `+${text}` : text;
}

function comparisonTable(comparison: Comparison): string[] {
  const lines = [
    `**${cell(comparison.b)} − ${cell(comparison.a)}**`,
    "",
    "| metric | difference | 95% bootstrap interval | Fisher's exact p |",
    "|---|---|---|---|",
  ];
  for (const [metric, diff] of Object.entries(comparison.rates)) {
    const ci = diff.ci95 ? `[${signed(diff.ci95[0] * 100, 0)}, ${signed(diff.ci95[1] * 100, 0)}] points` : "–";
    const p = comparison.pValueCaveat !== null ? "none (deterministic)" : diff.fisherP === null ? "–" : diff.fisherP.toFixed(3);
    lines.push(`| ${RATE_LABELS[metric as RateMetric]} | ${diff.diff === null ? "–" : `${signed(diff.diff * 100, 0)} points`} | ${ci} | ${p} |`);
  }
  for (const [metric, diff] of Object.entries(comparison.counts)) {
    const ci = diff.ci95 ? `[${signed(diff.ci95[0])}, ${signed(diff.ci95[1])}]` : "–";
    lines.push(`| ${COUNT_LABELS[metric as CountMetric]} | ${signed(diff.diff)} | ${ci} | |`);
  }
  return lines;
}

function runLine(arm: ArmSummary, run: RunRow): string[] {
  const checks = `checks ${run.checks.passed}/${run.checks.passed + run.checks.failed}${run.checks.failedIds.length > 0 ? ` (failed: ${run.checks.failedIds.join(", ")})` : ""}`;
  const flags = [
    run.claimedComplete ? `claimed complete (${run.claimSource ?? "?"})` : "no completion claim",
    run.falseCompletion ? "**false completion**" : null,
    run.permissionStop ? "**permission stop**" : null,
    run.claimChecks.count > 0 ? `${run.claimChecks.count} claim check(s): ${run.claimChecks.done} done, ${run.claimChecks.continue} continue, ${run.claimChecks.acceptedUnchecked} unchecked` : null,
  ].filter((part): part is string => part !== null);
  const tools = `${run.toolCalls} tool calls (${run.toolCallsBeforeReplyEnd} before the first reply ended)`;
  const first = run.firstReportLine === null ? "(no final report)" : verbatim(run.firstReportLine);
  return [
    `- **${run.task === undefined ? "" : `${cell(run.task)} · `}${cell(arm.name)} run ${run.runIndex}** — ${run.status}${run.reason ? ` (${cell(run.reason)})` : ""}, ${checks}, ${flags.join(", ")}, ${tools}. [record](${run.record}) · [result](${run.result}) · [patch](${run.patch})`,
    `  - first report line: ${first}`,
  ];
}

/** The first-screen line on runs that ended as `error`: how many, by cause; they are in no number below. */
function errorLines(summary: StudySummary): string[] {
  const { errors, errorCauses, finished } = summary.runs;
  if (errors === 0) return [];
  const causes = Object.entries(errorCauses)
    .map(([cause, count]) => `\`${cause}\` ×${count}`)
    .join(", ");
  return [
    `> **${errors} of ${finished} finished run(s) ended as error** (${causes}): a fault, not a result. They are left out of every rate, mean, interval, comparison and chart below; rerun them with \`armstudy study --retry-errors\`.`,
    "",
  ];
}

function errorRunLine(arm: ArmSummary, run: RunRow): string {
  return `- **${cell(arm.name)} run ${run.runIndex}** — error \`${run.cause ?? "harness.exception"}\`: ${cell(run.error ?? run.reason ?? "no message")}. [record](${run.record}) · [result](${run.result})`;
}

export function renderReportMarkdown(summary: StudySummary, charts: readonly Pick<ChartFile, "name" | "title" | "alt">[]): string {
  const modelNames = [...new Set(summary.arms.map((arm) => arm.model))];
  const heading = `# armstudy report: ${summary.study} — model ${modelNames.map((m) => `\`${m}\``).join(", ") || `\`${summary.model}\``}${summary.testDouble ? " (scripted test double)" : ""}${summary.shard ? ` — shard ${summary.shard.index} of ${summary.shard.count}` : ""}`;
  const lines: string[] = [heading, "", ...modelLines(summary), ...sandboxLines(summary), "", ...errorLines(summary)];
  if (summary.verdict !== null) lines.push(...verdictLines(summary.verdict), "");
  const checks = summary.checks.length > 0 ? `${summary.checks.length} acceptance checks (${summary.checks.join(", ")})` : "no acceptance checks";
  const where =
    summary.suite === undefined
      ? `Repository ${summary.repo.source} at \`${summary.repo.commit.slice(0, 12)}\`. Handoff \`${summary.handoff.file}\` with ${checks}. ${summary.runsPerArm} run(s) per arm, seed ${summary.seed}`
      : `A suite of ${summary.suite.tasks.length} tasks (${summary.suite.tasks.map((task) => task.name).join(", ")}), each with its own repository, handoff and checks (under [Per task](#per-task)). ${summary.runsPerArm} run(s) per arm per task, seed ${summary.seed}`;
  lines.push(`Study file \`${summary.studyFile}\`. ${where}; ${summary.runs.finished} of ${summary.runs.planned} planned runs finished.`);
  if (summary.description.trim() !== "" && summary.studyFileModel === null) lines.push("", summary.description.trim());
  if (summary.studyFileModel !== null) lines.push("", `The study file's description is left out: it speaks of its own model (\`${summary.studyFileModel}\`), and \`--model\` replaced it.`);
  for (const warning of summary.warnings) lines.push("", `> ⚠️ ${warning}`);
  if (summary.suite !== undefined) lines.push("", "## Tasks × arms", "", ...suiteGlance(summary.suite));
  if (summary.arms.length > 0) lines.push("", summary.suite === undefined ? "## At a glance" : "## At a glance, all tasks together", "", ...glance(summary));
  const change = changeParagraph(summary);
  if (change !== null) lines.push("", change);
  lines.push("", "## Arms", "", ...armsTable(summary));
  if (summary.arms.length > 0) {
    lines.push("", "## What each arm did", "", ...whatEachArmDid(summary));
    const checks = perCheckTable(summary);
    if (checks.length > 0) lines.push("", "Runs that passed each acceptance check:", "", ...checks);
    lines.push("", "Long-run signals (STUDY-0003), mean [bootstrap 95% interval] per run:", "", ...signalsTable(summary));
  }
  lines.push(
    "",
    "## Per arm",
    "",
    "Rates: runs where it happened / runs, with a Wilson 95% interval. Counts: mean [bootstrap 95% interval of the mean] (median, min–max).",
    "",
    ...perArmTable(summary),
  );
  const plans = planReportLines(summary.arms);
  if (plans.length > 0) lines.push("", ...plans.slice(0, -1));
  if (summary.arms.length > 0) lines.push("", ...finalReportSection(summary));
  if (summary.comparisons.length > 0) {
    lines.push("", "## Differences between arms", "", `Each difference is the second arm minus the first (rates in percentage points); intervals are percentile bootstraps (each arm resampled on its own); p is Fisher's exact two-sided test on the 2×2 table of runs. An interval that spans 0 is no evidence of a difference.${multipleComparisonsNote(summary.comparisons.filter((comparison) => comparison.pValueCaveat === null).length)}${summary.suite === undefined ? "" : " In a suite these pool every task's runs as one sample and ignore the pairing by task and run: read [Paired by task and run](#paired-by-task-and-run) first."}`, "", ...honestyNotes(summary));
    for (const comparison of summary.comparisons) lines.push(...comparisonTable(comparison), "");
    lines.pop();
  }
  if (summary.suite !== undefined) lines.push("", ...suiteSections(summary.suite));
  if (charts.length > 0) {
    lines.push("", "## Charts", "");
    for (const chart of charts) lines.push(`![${chart.alt}](charts/${chart.name})`, "");
    lines.pop();
  }
  lines.push("", "## Runs", "", "Every run's first report line is quoted verbatim.", "");
  for (const arm of summary.arms) {
    if (arm.runs.length === 0 && arm.errors.count === 0) {
      lines.push(`- **${cell(arm.name)}**: no finished runs.`);
      continue;
    }
    for (const run of arm.runs) lines.push(...runLine(arm, run));
    for (const run of arm.errors.runs) lines.push(errorRunLine(arm, run));
  }
  lines.push("", "Definitions of every metric: docs/metrics.md. The numbers in machine-readable form: [summary.json](summary.json).", "");
  return lines.join("\n");
}
