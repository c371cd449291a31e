/**
 * The markdown report of a session history (`armstudy analyze … --report DIR`): what was read,
 * the cohorts compared with their 95% intervals, and charts drawn the way the study report draws
 * its own (src/render/charts.ts: white background, Wilson / bootstrap whiskers, labels with n):
 *
 *   cohort-rates.png       claimed complete, interrupted and compacted per cohort (Wilson 95%)
 *   cohort-tool-calls.png  mean tool calls per session per cohort (bootstrap 95%)
 *   cohort-tokens.png      mean tokens per session per cohort (bootstrap 95%)
 *
 * It says plainly that cohorts are observational.
 */
import type { ChartConfiguration } from "chart.js";
import { COHORT_COUNTS, COHORT_RATES, type CohortComparison, type CohortCount, type CohortRate } from "../measure/cohorts.ts";
import type { SessionRow } from "../measure/session-rows.ts";
import { type ChartFile, colour, render } from "./charts.ts";

export interface SessionReportInput {
  rows: readonly SessionRow[];
  comparison: CohortComparison;
  /** What was read: the folders or roots, and how many files were left out and why. */
  sources: readonly string[];
  skipped: Readonly<Record<string, number>>;
  /** The command line that produced the report. */
  command: string;
  /** Viewer pages written beside the report (`--pages`): session file → page path relative to the report. */
  pages?: ReadonlyMap<string, string>;
}

const title = (text: string, subtitle: string) => ({
  title: { display: true, text, font: { size: 16, weight: "bold" as const } },
  subtitle: { display: true, text: subtitle, padding: { bottom: 10 } },
});

function ratesChart(c: CohortComparison): ChartFile {
  const series: Array<{ key: CohortRate; c: string }> = [
    { key: "claimedComplete", c: colour(2) },
    { key: "interrupted", c: colour(5) },
    { key: "compacted", c: colour(1) },
  ];
  const config: ChartConfiguration<"bar"> = {
    type: "bar",
    data: {
      labels: c.cohorts.map((g) => g.key),
      datasets: series.map((s) => ({
        label: COHORT_RATES[s.key].title,
        data: c.cohorts.map((g) => (g.rates[s.key].rate ?? 0) * 100),
        valueLabels: c.cohorts.map((g) => (g.rates[s.key].n === 0 ? null : `${g.rates[s.key].count}/${g.rates[s.key].n}`)),
        intervals: c.cohorts.map((g) => {
          const ci = g.rates[s.key].ci95;
          return ci ? ([ci[0] * 100, ci[1] * 100] as [number, number]) : null;
        }),
        backgroundColor: s.c,
      })),
    },
    options: {
      plugins: { ...title(`Sessions per ${c.by}: share where each holds (Wilson 95%; label: sessions)`, "observational cohorts, not randomised"), legend: { position: "bottom" } },
      scales: { x: { ticks: { autoSkip: false } }, y: { min: 0, max: 100, title: { display: true, text: "% of sessions" } } },
    },
  };
  return { name: "cohort-rates.png", title: "Rates per cohort", alt: `Claimed complete, interrupted and compacted, share of sessions per ${c.by} with Wilson 95% intervals`, png: render(config as ChartConfiguration) };
}

function meanChart(c: CohortComparison, count: CohortCount, name: string): ChartFile {
  const dataset = {
    label: `mean ${COHORT_COUNTS[count].title} per session`,
    data: c.cohorts.map((g) => g.counts[count].mean ?? 0),
    valueLabels: c.cohorts.map((g) => (g.counts[count].n === 0 ? null : `n=${g.counts[count].n}`)),
    intervals: c.cohorts.map((g) => g.counts[count].ci95),
    backgroundColor: colour(0),
  };
  const config: ChartConfiguration<"bar"> = {
    type: "bar",
    data: { labels: c.cohorts.map((g) => g.key), datasets: [dataset] },
    options: {
      plugins: { ...title(`Mean ${COHORT_COUNTS[count].title} per session, per ${c.by} (bootstrap 95%)`, "observational cohorts, not randomised"), legend: { position: "bottom" } },
      scales: { x: { ticks: { autoSkip: false } }, y: { beginAtZero: true, grace: "8%", title: { display: true, text: COHORT_COUNTS[count].title } } },
    },
  };
  return { name, title: `${COHORT_COUNTS[count].title} per cohort`, alt: `Mean ${COHORT_COUNTS[count].title} per session for each ${c.by}, with bootstrap 95% intervals`, png: render(config as ChartConfiguration) };
}

export function renderSessionCharts(c: CohortComparison): ChartFile[] {
  return [ratesChart(c), meanChart(c, "toolCalls", "cohort-tool-calls.png"), meanChart(c, "totalTokens", "cohort-tokens.png")];
}

const fmt = (v: number | null): string => (v === null ? "–" : Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
const pct = (v: number | null): string => (v === null ? "–" : `${(v * 100).toFixed(0)}%`);
const ci = (i: readonly [number, number] | null, f: (v: number) => string): string => (i === null ? "–" : `${f(i[0])} – ${f(i[1])}`);
const p = (v: number | null): string => (v === null ? "–" : v < 0.001 ? "< 0.001" : v.toFixed(3));
const cell = (text: string): string => text.replace(/\|/g, "\\|");

export function renderSessionReport(input: SessionReportInput, charts: readonly ChartFile[]): string {
  const { rows, comparison: c } = input;
  const out: string[] = [];
  out.push(`# Recorded sessions by ${c.by}`, "");
  out.push(`${rows.length} sessions from ${input.sources.map((s) => `\`${s}\``).join(", ")}. Produced by \`${input.command}\`.`, "");
  const skipped = Object.entries(input.skipped).filter(([, n]) => n > 0);
  if (skipped.length > 0) out.push(`Left out: ${skipped.map(([why, n]) => `${n} ${why}`).join("; ")}.`, "");
  out.push(`> **Observational, not randomised.** ${c.note}`, "");
  if (c.smallSample !== null) out.push(`> **Small samples.** ${c.smallSample}`, "");
  out.push(`Reference group: **${cell(c.reference)}** (the largest).`, "");

  out.push("## Rates (share of sessions, Wilson 95% interval)", "");
  const rateKeys = Object.keys(COHORT_RATES) as CohortRate[];
  out.push(`| ${c.by} | sessions | ${rateKeys.map((k) => `${COHORT_RATES[k].title} | p vs ref`).join(" | ")} |`);
  out.push(`|---|---:|${rateKeys.map(() => "---|---:").join("|")}|`);
  for (const g of c.cohorts) {
    const cells = rateKeys.map((k) => `${g.rates[k].count}/${g.rates[k].n} (${pct(g.rates[k].rate)}, ${ci(g.rates[k].ci95, pct)}) | ${g.versusReference === null ? "ref" : p(g.versusReference.rates[k].fisherP)}`);
    out.push(`| ${cell(g.key)} | ${g.sessions} | ${cells.join(" | ")} |`);
  }
  out.push("");

  out.push("## Per-session counts (mean, bootstrap 95% interval; difference from the reference)", "");
  const countKeys = Object.keys(COHORT_COUNTS) as CohortCount[];
  out.push(`| ${c.by} | ${countKeys.map((k) => COHORT_COUNTS[k].title).join(" | ")} |`);
  out.push(`|---|${countKeys.map(() => "---:").join("|")}|`);
  for (const g of c.cohorts) {
    const cells = countKeys.map((k) => {
      const s = g.counts[k];
      if (s.n === 0) return "–";
      const d = g.versusReference?.counts[k];
      const diff = d === undefined || d.diff === null ? "" : `; Δ ${d.diff >= 0 ? "+" : ""}${fmt(d.diff)} (${ci(d.ci95, fmt)})`;
      return `${fmt(s.mean)} (${ci(s.ci95, fmt)}, n=${s.n})${diff}`;
    });
    out.push(`| ${cell(g.key)} | ${cells.join(" | ")} |`);
  }
  out.push("");

  out.push("## Charts", "");
  for (const chart of charts) out.push(`![${chart.alt}](charts/${chart.name})`, "");

  out.push("## Sessions", "");
  out.push("| started (UTC) | client | version | model | project | replies | tool calls | tokens in | tokens out | cost $ | file |");
  out.push("|---|---|---|---|---|---:|---:|---:|---:|---:|---|");
  const shown = rows.slice(0, 500);
  for (const r of shown) {
    out.push(`| ${r.startedAt ?? "–"} | ${cell(r.client)} | ${cell(r.clientVersion ?? "–")} | ${cell(r.model)} | ${cell(r.project ?? "–")} | ${r.replies} | ${r.toolCalls} | ${r.inputTokens} | ${r.outputTokens} | ${r.costUsd === null ? "–" : r.costUsd.toFixed(4)} | ${input.pages?.has(r.file) ? `[${cell(r.file)}](${input.pages.get(r.file)})` : cell(r.file)} |`);
  }
  if (rows.length > shown.length) out.push("", `… and ${rows.length - shown.length} more sessions (all of them in \`--json\` / \`--csv\`).`);
  out.push("");
  return out.join("\n");
}
