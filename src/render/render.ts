/**
 * Renders a results folder: summary.json, report.md and charts/*.png, each written atomically
 * (temp + rename). `armstudy study` calls it after the runs; `armstudy report DIR` calls it again
 * on saved results; `armstudy merge` calls it on the merged folder.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderCharts } from "./charts.ts";
import { renderReportMarkdown } from "./report.ts";
import { loadResults } from "./results.ts";
import { type StudySummary, summarize } from "./summary.ts";

export const REPORT_FILE = "report.md";
export const SUMMARY_FILE = "summary.json";
export const CHARTS_DIR = "charts";

async function writeAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, content);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export interface RenderedReport {
  reportPath: string;
  summaryPath: string;
  chartPaths: string[];
  summary: StudySummary;
}

export async function renderStudyReport(dir: string, options: { charts?: boolean } = {}): Promise<RenderedReport> {
  const summary = summarize(await loadResults(dir));
  const charts = options.charts === false ? [] : renderCharts(summary);
  const chartPaths: string[] = [];
  if (charts.length > 0) {
    await mkdir(join(dir, CHARTS_DIR), { recursive: true });
    for (const chart of charts) {
      const path = join(dir, CHARTS_DIR, chart.name);
      await writeAtomic(path, chart.png);
      chartPaths.push(path);
    }
  }
  const summaryPath = join(dir, SUMMARY_FILE);
  await writeAtomic(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);
  const reportPath = join(dir, REPORT_FILE);
  await writeAtomic(reportPath, renderReportMarkdown(summary, charts));
  return { reportPath, summaryPath, chartPaths, summary };
}
