/**
 * Renders a results folder: summary.json, report.md and charts/*.png, each written atomically
 * (temp + rename). `armstudy study` calls it after the runs; `armstudy report DIR` calls it again
 * on saved results; `armstudy merge` calls it on the merged folder.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic, writeJsonAtomic } from "../run/fs/atomic-write.ts";
import { renderCharts } from "./charts.ts";
import { renderReportMarkdown } from "./report.ts";
import { loadResults } from "./results.ts";
import { type StudySummary, summarize } from "./summary.ts";

export const REPORT_FILE = "report.md";
export const SUMMARY_FILE = "summary.json";
export const CHARTS_DIR = "charts";

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
      await writeFileAtomic(path, chart.png);
      chartPaths.push(path);
    }
  }
  const summaryPath = join(dir, SUMMARY_FILE);
  await writeJsonAtomic(summaryPath, summary);
  const reportPath = join(dir, REPORT_FILE);
  await writeFileAtomic(reportPath, renderReportMarkdown(summary, charts));
  return { reportPath, summaryPath, chartPaths, summary };
}
