/**
 * The report's charts, drawn with chart.js on @napi-rs/canvas (ADR-0061): the Skia binary ships
 * inside an npm package, so `npm ci` is enough on a bare machine. Each chart is a pure function of
 * the summary: the same summary draws the same PNG.
 *
 *   tool-calls-before-reply-end.png  each run a point per arm, the arm's mean as a bar
 *   rates.png                        every check passed, false completion and permission stops per arm,
 *                                    Wilson 95% intervals, each bar labelled with its runs (3/3)
 *   tokens.png                       mean prefix / input / output tokens per arm, each bar labelled
 *   prefix-sections.png              the stable prompt prefix per section, per arm (o200k tokens)
 */
import { createCanvas } from "@napi-rs/canvas";
import { Chart, type ChartConfiguration, type Plugin, registerables } from "chart.js";
import type { StudySummary } from "./summary.ts";

Chart.register(...registerables);
Chart.defaults.font.family = "DejaVu Sans, Arial, sans-serif";
Chart.defaults.font.size = 13;
Chart.defaults.color = "#222";

export const CHART_WIDTH = 900;
export const CHART_HEIGHT = 480;

/** Colour-blind-safe palette (Okabe–Ito), then greys. */
const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000", "#999999", "#666666", "#BBBBBB", "#444444"];
export const colour = (index: number): string => PALETTE[index % PALETTE.length] as string;

export interface ChartFile {
  /** File name under charts/. */
  name: string;
  title: string;
  /** What the chart shows, for the report's alt text. */
  alt: string;
  png: Buffer;
}

/** Paints the background white (a transparent PNG reads badly in dark viewers). */
const whiteBackground: Plugin = {
  id: "armstudyWhiteBackground",
  beforeDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.globalCompositeOperation = "destination-over";
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** Draws [lo, hi] whiskers on bar datasets that carry `intervals` (one pair or null per bar). */
const errorBars: Plugin = {
  id: "armstudyErrorBars",
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      const intervals = (dataset as { intervals?: Array<[number, number] | null> }).intervals;
      if (!intervals) return;
      const meta = chart.getDatasetMeta(datasetIndex);
      const scale = chart.scales[meta.yAxisID ?? "y"];
      if (!scale || meta.hidden) return;
      meta.data.forEach((element, index) => {
        const interval = intervals[index];
        if (!interval) return;
        const x = element.x;
        const top = scale.getPixelForValue(interval[1]);
        const bottom = scale.getPixelForValue(interval[0]);
        ctx.save();
        ctx.strokeStyle = "#222";
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.moveTo(x - 6, top);
        ctx.lineTo(x + 6, top);
        ctx.moveTo(x - 6, bottom);
        ctx.lineTo(x + 6, bottom);
        ctx.stroke();
        ctx.restore();
      });
    });
  },
};

/**
 * Writes `valueLabels` (one string or null per bar) above each bar of the datasets that carry them,
 * on a white box so a whisker behind the text does not cross it; inside the bar when it reaches the
 * top of the plot (in white, bold). A bar of height 0 still gets its label, so "0/3" is read, not guessed.
 */
const valueLabels: Plugin = {
  id: "armstudyValueLabels",
  afterDatasetsDraw(chart) {
    const { ctx, chartArea } = chart;
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      const labels = (dataset as { valueLabels?: Array<string | null> }).valueLabels;
      const meta = chart.getDatasetMeta(datasetIndex);
      if (!labels || meta.hidden) return;
      meta.data.forEach((element, index) => {
        const text = labels[index];
        if (!text) return;
        ctx.save();
        ctx.font = "12px DejaVu Sans, Arial, sans-serif";
        ctx.textAlign = "center";
        ctx.textBaseline = "bottom";
        const inside = element.y - 18 < chartArea.top;
        if (inside) {
          ctx.font = "bold 12px DejaVu Sans, Arial, sans-serif";
          ctx.fillStyle = "#ffffff";
          ctx.fillText(text, element.x, element.y + 17);
        } else {
          const width = ctx.measureText(text).width + 6;
          ctx.fillStyle = "#ffffff";
          ctx.fillRect(element.x - width / 2, element.y - 18, width, 15);
          ctx.fillStyle = "#222";
          ctx.fillText(text, element.x, element.y - 3);
        }
        ctx.restore();
      });
    });
  },
};

/** Draws one chart config to a PNG with the shared plugins (white background, whiskers, value labels). */
export function render(config: ChartConfiguration): Buffer {
  const canvas = createCanvas(CHART_WIDTH, CHART_HEIGHT);
  const chart = new Chart(canvas.getContext("2d") as unknown as ConstructorParameters<typeof Chart>[0], {
    ...config,
    options: { ...config.options, responsive: false, animation: false, devicePixelRatio: 1 },
    plugins: [...(config.plugins ?? []), whiteBackground, errorBars, valueLabels],
  });
  const png = canvas.toBuffer("image/png");
  chart.destroy();
  return png;
}

const title = (text: string, subtitle?: string[]) => ({
  title: { display: true, text, font: { size: 16, weight: "bold" as const } },
  ...(subtitle ? { subtitle: { display: true, text: subtitle, padding: { bottom: 10 } } } : {}),
});

/**
 * The study and its runs per arm on one line (one number when every arm has the same), and the
 * test-double note on a line of its own, so neither runs off the image with many arms.
 */
export function subtitleFor(summary: StudySummary): string[] {
  const ns = [...new Set(summary.arms.map((arm) => arm.n))];
  const runs = ns.length === 1 ? `${ns[0]} run(s) per arm` : `runs per arm: ${summary.arms.map((arm) => `${arm.name} ${arm.n}`).join(", ")}`;
  const lines = [`study ${summary.study} · ${runs}`];
  if (summary.testDouble) lines.push("scripted test double: harness mechanics, not a model's behaviour");
  else if (summary.testDoubleArms.length > 0) lines.push(`scripted test double (mechanics, not a model's behaviour): ${summary.testDoubleArms.join(", ")}`);
  return lines;
}

type Arm = StudySummary["arms"][number];

/** An arm's axis label; a real client's says its prompt is its own (no prefix is measured for it). */
const armLabel = (arm: Arm): string | string[] => (arm.prefix ? arm.name : [arm.name, "(its own prompt)"]);

/** Tokens in a bar label: 1,333 / 45.4k / 1.2M. */
export function compactTokens(value: number): string {
  if (value < 10_000) return Math.round(value).toLocaleString("en-US");
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 100_000 ? 1 : 0)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** The 1-2-5 steps of a log axis: the nice bounds around the data and whether a tick is labelled. */
const STEPS = [1, 2, 5];
export function logBounds(values: readonly number[]): { min: number; max: number } {
  const positive = values.filter((value) => value > 0 && Number.isFinite(value));
  if (positive.length === 0) return { min: 1, max: 10 };
  // The power of ten at or below a value (log10 can land a hair off near exact powers).
  const powerBelow = (value: number): number => {
    let power = 10 ** Math.floor(Math.log10(value));
    if (power > value) power /= 10;
    if (power * 10 <= value) power *= 10;
    return power;
  };
  const floor = (value: number): number => {
    const power = powerBelow(value);
    return power * (STEPS.filter((step) => step * power <= value).pop() ?? 1);
  };
  const ceil = (value: number): number => {
    const power = powerBelow(value);
    const step = STEPS.find((s) => s * power >= value);
    return step === undefined ? power * 10 : power * step;
  };
  // Headroom above the tallest bar for its label: the next step up.
  const top = ceil(Math.max(...positive) * 1.15);
  return { min: floor(Math.min(...positive)), max: top };
}
const logTick = (value: number): string | null => {
  const mantissa = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
  return STEPS.some((step) => Math.abs(mantissa - step) < 1e-6) ? value.toLocaleString("en-US") : null;
};

/** A deterministic horizontal offset for run i of n, so equal values do not hide each other. */
const jitter = (i: number, n: number): number => (n <= 1 ? 0 : -0.18 + (0.36 * i) / (n - 1));

function toolCallsChart(summary: StudySummary): ChartFile {
  const labels = summary.arms.map((arm) => armLabel(arm));
  const points = summary.arms.flatMap((arm, armIndex) =>
    arm.runs.map((run, i) => ({ x: armIndex + jitter(i, arm.runs.length), y: run.toolCallsBeforeReplyEnd })),
  );
  const means = summary.arms.map((arm, armIndex) => ({ x: armIndex, y: arm.counts.toolCallsBeforeReplyEnd.mean ?? Number.NaN }));
  const config: ChartConfiguration<"scatter"> = {
    type: "scatter",
    data: {
      datasets: [
        { label: "one run", data: points, backgroundColor: "rgba(0,114,178,0.75)", borderColor: "#0072B2", pointRadius: 6 },
        { label: "arm mean", data: means, pointStyle: "line", pointRadius: 28, borderWidth: 3, borderColor: "#D55E00", backgroundColor: "#D55E00" },
      ],
    },
    options: {
      plugins: { ...title("Tool calls before the first reply ended", subtitleFor(summary)), legend: { position: "bottom" } },
      scales: {
        x: {
          type: "linear",
          min: -0.6,
          max: labels.length - 0.4,
          ticks: { stepSize: 1, autoSkip: false, includeBounds: false, callback: (value) => labels[Number(value)] ?? "" },
          grid: { display: false },
          title: { display: true, text: "arm" },
        },
        y: { beginAtZero: true, grace: "8%", title: { display: true, text: "tool calls" }, ticks: { precision: 0 } },
      },
    },
  };
  return {
    name: "tool-calls-before-reply-end.png",
    title: "Tool calls before the reply ends",
    alt: "Tool calls before the first reply ended, one point per run, with each arm's mean",
    png: render(config as ChartConfiguration),
  };
}

function ratesChart(summary: StudySummary): ChartFile {
  const series = [
    { key: "allChecksPassed", label: "every acceptance check passed", colour: colour(2) },
    { key: "falseCompletion", label: "false completion", colour: colour(5) },
    { key: "permissionStop", label: "permission-question stop", colour: colour(1) },
  ] as const;
  const config: ChartConfiguration<"bar"> = {
    type: "bar",
    data: {
      labels: summary.arms.map((arm) => armLabel(arm)),
      datasets: series.map((s) => ({
        label: s.label,
        data: summary.arms.map((arm) => (arm.rates[s.key].rate ?? 0) * 100),
        valueLabels: summary.arms.map((arm) => (arm.rates[s.key].n === 0 ? null : `${arm.rates[s.key].count}/${arm.rates[s.key].n}`)),
        intervals: summary.arms.map((arm) => {
          const ci = arm.rates[s.key].ci95;
          return ci ? ([ci[0] * 100, ci[1] * 100] as [number, number]) : null;
        }),
        backgroundColor: s.colour,
      })),
    },
    options: {
      plugins: { ...title("Outcomes per arm (share of runs, Wilson 95% interval; label: runs)", subtitleFor(summary)), legend: { position: "bottom" } },
      scales: { x: { ticks: { autoSkip: false } }, y: { min: 0, max: 100, title: { display: true, text: "% of runs" } } },
    },
  };
  return {
    name: "rates.png",
    title: "Outcome rates",
    alt: "Every-check-passed, false-completion and permission-stop rates per arm with Wilson 95% intervals",
    png: render(config as ChartConfiguration),
  };
}

function tokensChart(summary: StudySummary): ChartFile {
  const meanOf = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
  // Per-run totals only: the per-request prefix has its own chart (prefix-sections.png).
  const series = [
    { label: "input (all requests)", read: (arm: Arm) => arm.counts.tokensInput.mean ?? 0 },
    { label: "output", read: (arm: Arm) => arm.counts.tokensOutput.mean ?? 0 },
  ];
  const values = series.map((s) => summary.arms.map(s.read));
  const bounds = logBounds(values.flat());
  const config: ChartConfiguration<"bar"> = {
    type: "bar",
    data: {
      labels: summary.arms.map((arm) => armLabel(arm)),
      datasets: series.map((s, i) => ({
        label: s.label,
        data: values[i] as number[],
        valueLabels: (values[i] as number[]).map((value) => (value > 0 ? compactTokens(value) : null)),
        backgroundColor: colour(i),
      })),
    },
    options: {
      plugins: { ...title("Tokens per run (mean, o200k)", subtitleFor(summary)), legend: { position: "bottom" } },
      scales: {
        x: { ticks: { autoSkip: false } },
        y: { type: "logarithmic", min: bounds.min, max: bounds.max, title: { display: true, text: "tokens (log scale)" }, ticks: { callback: (value) => logTick(Number(value)) } },
      },
    },
  };
  return { name: "tokens.png", title: "Tokens per run", alt: "Mean input and output tokens per run (all requests added up), per arm", png: render(config as ChartConfiguration) };
}

/** What drove each arm's runs on: replies, continuations, nudges and claim checks per run (means). */
function turnsChart(summary: StudySummary): ChartFile {
  const meanOf = (values: ReadonlyArray<number | null>): number => {
    const known = values.filter((v): v is number => v !== null);
    return known.length === 0 ? 0 : known.reduce((a, b) => a + b, 0) / known.length;
  };
  const series = [
    { label: "replies", read: (arm: Arm) => meanOf(arm.runs.map((run) => run.turns.replies)) },
    { label: "continuations", read: (arm: Arm) => meanOf(arm.runs.map((run) => run.turns.continuations)) },
    { label: "nudges", read: (arm: Arm) => meanOf(arm.runs.map((run) => run.turns.nudges)) },
    { label: "claim checks", read: (arm: Arm) => meanOf(arm.runs.map((run) => run.claimChecks.count)) },
  ];
  const config: ChartConfiguration<"bar"> = {
    type: "bar",
    data: {
      labels: summary.arms.map((arm) => armLabel(arm)),
      datasets: series.map((s, i) => {
        const data = summary.arms.map(s.read);
        return { label: s.label, data, valueLabels: data.map((v) => (Number.isInteger(v) ? String(v) : v.toFixed(1))), backgroundColor: colour(i) };
      }),
    },
    options: {
      plugins: { ...title("Turns per run (mean): what kept each arm's runs going", subtitleFor(summary)), legend: { position: "bottom" } },
      scales: { x: { ticks: { autoSkip: false } }, y: { beginAtZero: true, grace: "10%", title: { display: true, text: "per run" }, ticks: { precision: 0 } } },
    },
  };
  return { name: "turns.png", title: "Turns per run", alt: "Mean replies, continuations, nudges and claim checks per run, per arm", png: render(config as ChartConfiguration) };
}

/** Share of runs that passed each acceptance check, per arm. */
function checksChart(summary: StudySummary): ChartFile {
  const config: ChartConfiguration<"bar"> = {
    type: "bar",
    data: {
      labels: summary.checks,
      datasets: summary.arms.map((arm, i) => {
        const passed = summary.checks.map((id) => arm.runs.filter((run) => !run.checks.failedIds.includes(id)).length);
        return {
          label: arm.name,
          data: passed.map((count) => (arm.runs.length === 0 ? 0 : (100 * count) / arm.runs.length)),
          valueLabels: passed.map((count) => (arm.runs.length === 0 ? null : `${count}/${arm.runs.length}`)),
          backgroundColor: colour(i),
        };
      }),
    },
    options: {
      plugins: { ...title("Runs that passed each acceptance check (label: runs)", subtitleFor(summary)), legend: { position: "bottom" } },
      scales: { x: { ticks: { autoSkip: false } }, y: { min: 0, max: 100, title: { display: true, text: "% of runs" } } },
    },
  };
  return { name: "checks.png", title: "Acceptance checks per arm", alt: "The share of runs that passed each acceptance check, per arm", png: render(config as ChartConfiguration) };
}

/**
 * One stacking order for every arm's sections that keeps each arm's own prompt order: a section
 * first seen in a later arm goes right after the section that precedes it in that arm (so an arm's
 * reporting section, always last in its prefix, is drawn last in its bar).
 */
export function mergedSectionOrder(arms: ReadonlyArray<{ sections: readonly string[] }>): string[] {
  const ids: string[] = [];
  for (const arm of arms) {
    let after = -1;
    for (const id of arm.sections) {
      const at = ids.indexOf(id);
      if (at >= 0) {
        after = Math.max(after, at);
        continue;
      }
      ids.splice(after + 1, 0, id);
      after += 1;
    }
  }
  return ids;
}

function prefixChart(summary: StudySummary): ChartFile {
  const arms = summary.arms;
  const ids = mergedSectionOrder(arms.map((arm) => ({ sections: (arm.prefix?.sections ?? []).map((section) => section.id) })));
  const datasets =
    ids.length > 0
      ? ids.map((id, i) => ({
          label: id,
          data: arms.map((arm) => arm.prefix?.sections?.find((section) => section.id === id)?.tokens ?? 0),
          backgroundColor: colour(i),
        }))
      : [{ label: "stable prefix", data: arms.map((arm) => arm.prefix?.tokens ?? 0), backgroundColor: colour(0) }];
  const config: ChartConfiguration<"bar"> = {
    type: "bar",
    data: { labels: arms.map((arm) => armLabel(arm)), datasets },
    options: {
      indexAxis: "y",
      plugins: { ...title("Stable prompt prefix per section (o200k tokens)", subtitleFor(summary)), legend: { position: "right" } },
      scales: { x: { stacked: true, beginAtZero: true, title: { display: true, text: "tokens" } }, y: { stacked: true } },
    },
  };
  return {
    name: "prefix-sections.png",
    title: "Prompt prefix per section",
    alt: "The stable prompt prefix of each arm, split by section, in o200k tokens",
    png: render(config as ChartConfiguration),
  };
}

export function renderCharts(summary: StudySummary): ChartFile[] {
  const charts = [ratesChart(summary), turnsChart(summary)];
  if (summary.checks.length > 0) charts.push(checksChart(summary));
  return [...charts, tokensChart(summary), toolCallsChart(summary), prefixChart(summary)];
}
