/**
 * report.md's sections for a study of more than one task: the task × arm table for the first
 * screen, the figures pooled over tasks, the paired comparisons with the tasks each arm wins and
 * loses on, and one section per task. Pure functions of the suite summary; every figure is shown
 * with its interval.
 */
import type { Interval, RateSummary } from "../measure/stats.ts";
import type { Estimate } from "../measure/suite-stats.ts";
import type { KEstimate, SuiteSummary, TaskArmCell } from "./suite-summary.ts";

function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

const pct = (value: number): string => `${Math.round(value * 100)}%`;
const interval = (ci: Interval | null, show: (v: number) => string): string => (ci === null ? "" : ` [${show(ci[0])}, ${show(ci[1])}]`);

function rate(summary: RateSummary): string {
  if (summary.n === 0 || summary.rate === null) return "–";
  return `${summary.count}/${summary.n} = ${pct(summary.rate)}${interval(summary.ci95, pct)}`;
}

function share(estimate: Estimate): string {
  return estimate.value === null ? "–" : `${pct(estimate.value)}${interval(estimate.ci95, pct)}`;
}

function number(estimate: Estimate, signed = false): string {
  const show = (v: number): string => `${signed && v > 0 ? "+" : ""}${Number.isInteger(v) ? v : v.toFixed(1)}`;
  return estimate.value === null ? "–" : `${show(estimate.value)}${interval(estimate.ci95, show)}`;
}

function points(estimate: Estimate): string {
  const show = (v: number): string => `${v > 0 ? "+" : ""}${Math.round(v * 100)}`;
  return estimate.value === null ? "–" : `${show(estimate.value)}${interval(estimate.ci95, show)} points`;
}

const kList = (estimates: readonly KEstimate[]): string => estimates.map((e) => `k=${e.k}: ${share(e)}`).join("; ");
const pValue = (p: number | null): string => (p === null ? "–" : p < 0.001 ? "< 0.001" : p.toFixed(3));

function glanceCell(c: TaskArmCell): string {
  if (c.n === 0) return "no runs";
  return `${c.allChecksPassed.count}/${c.n} passed · ${c.falseCompletion.count} false · ${c.permissionStop.count} asked · ${c.tampered.count} tampered`;
}

/** The first screen's task × arm table. */
export function suiteGlance(suite: SuiteSummary): string[] {
  const arms = suite.pooled.map((arm) => arm.arm);
  const lines = [
    `| task | ${arms.map(cell).join(" | ")} |`,
    `|---|${arms.map(() => "---|").join("")}`,
  ];
  for (const task of suite.tasks) lines.push(`| ${cell(task.name)} | ${task.arms.map(glanceCell).join(" | ")} |`);
  lines.push(
    `| **all tasks** | ${suite.pooled.map((arm) => `${arm.allChecksPassed.count}/${arm.n} passed · ${arm.falseCompletion.count} false · ${arm.permissionStop.count} asked · ${arm.tampered.count} tampered`).join(" | ")} |`,
    "",
    "Each cell counts runs: every acceptance check passed / runs · false completions (claimed complete, a check failed) · permission stops (ended on a question, checks failing) · tampered (changed the check files; graded on the task's own copy). Runs that hit a harness error are left out. Intervals, pass@k and the paired tests are under [Pooled over tasks](#pooled-over-tasks) and [Paired by task and run](#paired-by-task-and-run).",
  );
  return lines;
}

function pooledTable(suite: SuiteSummary): string[] {
  const arms = suite.pooled;
  const lines = [`| | ${arms.map((arm) => `${cell(arm.arm)} (${arm.n} runs, ${arm.tasks} tasks)`).join(" | ")} |`, `|---|${arms.map(() => "---|").join("")}`];
  lines.push(`| every check passed, over runs (Wilson) | ${arms.map((arm) => rate(arm.allChecksPassed)).join(" | ")} |`);
  lines.push(`| every check passed, mean over tasks | ${arms.map((arm) => share(arm.allChecksPassed.overTasks)).join(" | ")} |`);
  lines.push(`| share of checks passed | ${arms.map((arm) => share(arm.checksShare)).join(" | ")} |`);
  for (const [index, k] of suite.k.entries()) {
    lines.push(`| pass@${k} | ${arms.map((arm) => share(arm.passAtK[index] as KEstimate)).join(" | ")} |`);
  }
  for (const [index, k] of suite.k.entries()) {
    lines.push(`| pass^${k} (all ${k} pass) | ${arms.map((arm) => share(arm.passHatK[index] as KEstimate)).join(" | ")} |`);
  }
  lines.push(`| false completion | ${arms.map((arm) => rate(arm.falseCompletion)).join(" | ")} |`);
  lines.push(`| permission stop | ${arms.map((arm) => rate(arm.permissionStop)).join(" | ")} |`);
  lines.push(`| tampered | ${arms.map((arm) => rate(arm.tampered)).join(" | ")} |`);
  lines.push(`| tool calls per run | ${arms.map((arm) => number(arm.toolCalls)).join(" | ")} |`);
  return lines;
}

function pairsSection(suite: SuiteSummary): string[] {
  const lines: string[] = [];
  for (const pair of suite.pairs) {
    const b = pair.allChecksPassed;
    const f = pair.falseCompletion;
    lines.push(
      `**${cell(pair.b)} vs ${cell(pair.a)}** — ${b.pairs} pairs`,
      "",
      "| | |",
      "|---|---|",
      `| every check passed | both ${b.both}, only ${cell(pair.a)} ${b.aOnly}, only ${cell(pair.b)} ${b.bOnly}, neither ${b.neither}; exact McNemar p = ${pValue(b.p)} |`,
      `| false completion | only ${cell(pair.a)} ${f.aOnly}, only ${cell(pair.b)} ${f.bOnly}; exact McNemar p = ${pValue(f.p)} |`,
      `| share of checks passed, ${cell(pair.b)} − ${cell(pair.a)} | ${points(pair.checksShare)} |`,
      `| tool calls per run, ${cell(pair.b)} − ${cell(pair.a)} | ${number(pair.toolCalls, true)} |`,
      `| tasks ${cell(pair.b)} wins | ${pair.wins.length === 0 ? "none" : pair.wins.join(", ")} |`,
      `| tasks ${cell(pair.b)} loses | ${pair.losses.length === 0 ? "none" : pair.losses.join(", ")} |`,
      `| ties | ${pair.ties.length === 0 ? "none" : pair.ties.join(", ")} |`,
      "",
    );
  }
  lines.pop();
  return lines;
}

function taskSection(suite: SuiteSummary, index: number): string[] {
  const task = suite.tasks[index] as SuiteSummary["tasks"][number];
  const lines = [`### ${cell(task.name)}`, ""];
  if (task.description.trim() !== "") lines.push(task.description.trim(), "");
  lines.push(
    `Repository ${task.repo.source} at \`${task.repo.commit.slice(0, 12)}\`; handoff \`${task.handoff}\`; checks ${task.checks.join(", ")}${task.tags.length > 0 ? `; tags ${task.tags.join(", ")}` : ""}.`,
    "",
  );
  if (task.warning !== null) lines.push(`> ⚠️ ${task.warning}`, "");
  lines.push("| arm | every check passed | share of checks passed | pass@k | pass^k | false completion | permission stop | tampered |", "|---|---|---|---|---|---|---|---|");
  for (const c of task.arms) {
    lines.push(`| ${cell(c.arm)} | ${rate(c.allChecksPassed)} | ${share(c.checksShare)} | ${kList(c.passAtK)} | ${kList(c.passHatK)} | ${rate(c.falseCompletion)} | ${rate(c.permissionStop)} | ${rate(c.tampered)} |`);
  }
  const paired = task.pairs.map((p) => `${cell(p.b)} vs ${cell(p.a)}: only ${cell(p.a)} ${p.allChecksPassed.aOnly}, only ${cell(p.b)} ${p.allChecksPassed.bOnly}, p = ${pValue(p.allChecksPassed.p)}`);
  if (paired.length > 0) lines.push("", `Paired by run index, every check passed (exact McNemar): ${paired.join("; ")}.`);
  return lines;
}

/** Pooled figures, paired comparisons and per-task sections (after the first screen). */
export function suiteSections(suite: SuiteSummary): string[] {
  const lines = [
    "## Pooled over tasks",
    "",
    "Every task weighs the same. Intervals are 95% percentile bootstraps that resample tasks, then runs within each task; over-runs rates also show a Wilson interval. pass@k is the chance that at least one of k runs passes every check, pass^k that all k do, each from the unbiased estimator over a task's runs, then averaged over tasks.",
    "",
    ...pooledTable(suite),
    "",
    "## Paired by task and run",
    "",
    "Runs are paired across arms by (task, run index): the same task, seed and persona randomness. Binary outcomes use the exact McNemar test on the discordant pairs (stratified by task: every discordant pair is a fair coin when the arms do not differ). Differences are the second arm minus the first, with a paired bootstrap over tasks, then runs. A task is won or lost on its every-check-passed rate, ties broken by the share of checks passed.",
    "",
    ...pairsSection(suite),
    "",
    "## Per task",
    "",
  ];
  for (let i = 0; i < suite.tasks.length; i += 1) lines.push(...taskSection(suite, i), "");
  lines.pop();
  return lines;
}
