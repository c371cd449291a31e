/// <reference lib="dom" />
/**
 * The study page's interactive charts, drawn by the same chart.js the PNG charts use: outcomes
 * per arm, and one metric per run (chosen from a list) where clicking a bar opens that run.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";
import { type PageIndex, type RunEntry, runKey } from "./data.ts";
import { h } from "./dom.ts";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Okabe–Ito, as in the PNG charts. */
const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];
const colour = (i: number): string => PALETTE[i % PALETTE.length] as string;

const PER_RUN: Record<string, { title: string; value: (run: RunEntry) => number }> = {
  toolCalls: { title: "tool calls", value: (run) => run.toolCalls },
  tokens: { title: "tokens", value: (run) => run.tokens },
  wallMs: { title: "wall time (ms)", value: (run) => run.wallMs },
  checks: { title: "checks passed", value: (run) => run.checks.passed },
};

function outcomes(index: PageIndex, canvas: HTMLCanvasElement): Chart {
  const series = [
    { label: "every check passed", get: (row: PageIndex["glance"][number]) => row.allChecksPassed },
    { label: "false completion", get: (row: PageIndex["glance"][number]) => row.falseCompletion },
    { label: "permission stop", get: (row: PageIndex["glance"][number]) => row.permissionStop },
  ];
  return new Chart(canvas, {
    type: "bar",
    data: {
      labels: index.glance.map((row) => row.arm),
      datasets: series.map((s, i) => ({ label: s.label, data: index.glance.map((row) => (row.n === 0 ? 0 : s.get(row) / row.n)), backgroundColor: colour(i) })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: { y: { min: 0, max: 1, title: { display: true, text: "share of runs" } } },
      plugins: { tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${Math.round((item.raw as number) * 100)}% of runs` } } },
    },
  });
}

function perRun(index: PageIndex, canvas: HTMLCanvasElement, metric: string, open: (run: RunEntry) => void): Chart {
  const spec = PER_RUN[metric] ?? (PER_RUN.toolCalls as (typeof PER_RUN)[string]);
  // One bar group per (task, run index): the pairs the arms are compared on.
  const slots = [...new Map(index.runs.map((run) => [`${run.task ?? ""}\u0000${run.runIndex}`, { task: run.task, runIndex: run.runIndex }])).values()];
  const arms = index.arms.map((arm) => arm.name);
  const byKey = new Map(index.runs.map((run) => [run.key, run]));
  const runAt = (arm: string, slot: { task: string | null; runIndex: number }) => byKey.get(runKey({ arm, ...slot }));
  const chart = new Chart(canvas, {
    type: "bar",
    data: {
      labels: slots.map((slot) => `${slot.task !== null ? `${slot.task} ` : ""}run ${slot.runIndex}`),
      datasets: arms.map((arm, a) => ({ label: arm, data: slots.map((slot) => { const run = runAt(arm, slot); return run === undefined ? null : spec.value(run); }), backgroundColor: colour(a) })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: { y: { beginAtZero: true, title: { display: true, text: spec.title } } },
      onClick: (_event, elements) => {
        const hit = elements[0];
        if (hit === undefined) return;
        const slot = slots[hit.index];
        const arm = arms[hit.datasetIndex];
        const run = slot === undefined || arm === undefined ? undefined : runAt(arm, slot);
        if (run !== undefined) open(run);
      },
      plugins: { tooltip: { callbacks: { footer: () => "click to open the run" } } },
    },
  });
  return chart;
}

export function chartsSection(index: PageIndex, open: (run: RunEntry) => void): { element: HTMLElement; dispose: () => void } {
  const outcomeCanvas = h("canvas", { "aria-label": "outcomes per arm" });
  const runCanvas = h("canvas", { "aria-label": "a metric per run" });
  const select = h("select", { id: "metric", "aria-label": "metric per run" }, ...Object.entries(PER_RUN).map(([key, spec]) => h("option", { value: key }, spec.title)));
  const element = h(
    "section",
    { class: "charts" },
    h("div", { class: "chart" }, h("h3", null, "Outcomes per arm"), h("div", { class: "canvas" }, outcomeCanvas)),
    h("div", { class: "chart" }, h("h3", null, "Per run: ", select), h("div", { class: "canvas" }, runCanvas)),
  );
  const charts: Chart[] = [];
  // Drawn once the section is in the document, so chart.js can measure it.
  requestAnimationFrame(() => {
    charts.push(outcomes(index, outcomeCanvas));
    let runs = perRun(index, runCanvas, select.value, open);
    charts.push(runs);
    select.addEventListener("change", () => {
      runs.destroy();
      runs = perRun(index, runCanvas, select.value, open);
      charts[1] = runs;
    });
  });
  return { element, dispose: () => charts.forEach((chart) => chart.destroy()) };
}
