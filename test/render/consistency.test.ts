/**
 * One study folder, three views of it: each run's result.json (what the runner measured),
 * summary.json (what the renderer computed from them) and report.md (what a person reads). The
 * folder is a real study built here (the bundled arms, the stockbook fixture, the scripted test
 * double); report.md is read back with its own parser, not with the renderer's formatting code, so
 * a number that drifts between the three views fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import type { RunResult } from "../../src/render/results.ts";
import type { StudySummary } from "../../src/render/summary.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const ARMS = ["ordinary", "old-build"];
let out = "";
let summary: StudySummary;
let report: string[];
const results = new Map<string, RunResult[]>();

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), "armstudy-consistency-")), "results");
  const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
  const code = await main(["study", ...ARMS.flatMap((arm) => ["--arm", arm]), "--runs", "2", "-j", "2", "--out", out], io);
  expect({ code, err: io.err.join("") }).toEqual({ code: 0, err: "" });
  summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as StudySummary;
  report = readFileSync(join(out, "report.md"), "utf8").split("\n");
  for (const arm of ARMS) {
    const folders = readdirSync(join(out, "runs", arm)).sort();
    results.set(arm, folders.map((folder) => JSON.parse(readFileSync(join(out, "runs", arm, folder, "result.json"), "utf8")) as RunResult));
  }
}, 120_000);

afterAll(() => {
  if (out !== "") rmSync(resolve(out, ".."), { recursive: true, force: true });
});

/** "1,234.5" → 1234.5; "+100" → 100; "–" → null. */
const num = (text: string): number | null => (text.trim() === "–" ? null : Number(text.trim().replace(/,/g, "")));

/** The cells of the table row that starts with `| label |`, inside the section under `heading`. */
function row(heading: string, label: string, occurrence = 0): string[] {
  const start = report.indexOf(heading);
  const end = report.findIndex((line, i) => i > start && line.startsWith("## "));
  const rows = report.slice(start, end === -1 ? undefined : end).filter((line) => line.startsWith(`| ${label} |`));
  const line = rows[occurrence];
  if (line === undefined) throw new Error(`no row "${label}" (#${occurrence}) under ${heading}`);
  return line.slice(2, -2).split(" | ").slice(1);
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const round = (value: number, digits: number): number => Number(value.toFixed(digits));

describe("result.json, summary.json and report.md of one real study agree", () => {
  it("summary.json's runs are the result.json files, field by field", () => {
    // In the study file's order, not the order of --arm.
    expect(summary.arms.map((arm) => arm.name)).toEqual(["old-build", "ordinary"]);
    for (const arm of summary.arms) {
      const runs = results.get(arm.name) ?? [];
      expect(arm.n).toEqual(runs.length);
      expect(arm.runs.map((r) => ({ i: r.runIndex, status: r.status, passed: r.checks.passed, failed: r.checks.failed, claimed: r.claimedComplete, false: r.falseCompletion, tools: r.toolCalls, before: r.toolCallsBeforeReplyEnd, tokens: r.tokens.total, first: r.firstReportLine }))).toEqual(
        runs.map((r) => ({ i: r.runIndex, status: r.status, passed: r.acceptance.passed, failed: r.acceptance.failed, claimed: r.metrics.claimedComplete, false: r.metrics.falseCompletion, tools: r.metrics.toolCalls, before: r.metrics.toolCallsBeforeReplyEnd, tokens: r.metrics.tokens.total, first: r.metrics.firstReportLine })),
      );
    }
  });

  it("summary.json's per-arm numbers are computed from the result.json files", () => {
    for (const arm of summary.arms) {
      const runs = results.get(arm.name) ?? [];
      expect({
        arm: arm.name,
        falseCompletion: arm.rates.falseCompletion.count,
        allChecksPassed: arm.rates.allChecksPassed.count,
        toolCalls: arm.counts.toolCalls.mean,
        checksPassed: arm.counts.checksPassed.mean,
        tokensTotal: arm.counts.tokensTotal.mean,
      }).toEqual({
        arm: arm.name,
        falseCompletion: runs.filter((r) => r.metrics.falseCompletion).length,
        allChecksPassed: runs.filter((r) => r.acceptance.failed === 0).length,
        toolCalls: mean(runs.map((r) => r.metrics.toolCalls)),
        checksPassed: mean(runs.map((r) => r.acceptance.passed)),
        tokensTotal: mean(runs.map((r) => r.metrics.tokens.total)),
      });
    }
  });

  it("report.md's at-a-glance table shows the result.json counts", () => {
    for (const arm of summary.arms) {
      const runs = results.get(arm.name) ?? [];
      const cells = row("## At a glance", arm.name);
      // The stockbook task keeps its check files outside the repo, so the table counts tampered runs too.
      expect({ arm: arm.name, passed: cells[1], false: cells[2], tampered: cells[4], checks: cells[5], tools: num(cells[6] ?? ""), tokens: num(cells[7] ?? "") }).toEqual({
        arm: arm.name,
        passed: `${runs.filter((r) => r.acceptance.failed === 0).length}/${runs.length}`,
        false: `${runs.filter((r) => r.metrics.falseCompletion).length}/${runs.length}`,
        tampered: `${runs.filter((r) => (r.tampered?.length ?? 0) > 0).length}/${runs.length}`,
        checks: `${round(mean(runs.map((r) => r.acceptance.passed)), 1)} of ${summary.checks.length}`,
        tools: round(mean(runs.map((r) => r.metrics.toolCalls)), 1),
        tokens: Math.round(mean(runs.map((r) => r.metrics.tokens.total))),
      });
    }
  });

  it("report.md's per-arm table shows summary.json's rates and means", () => {
    const rates = row("## Per arm", "false completion (claimed complete, a check failed)");
    const tools = row("## Per arm", "tool calls in all");
    const tokens = row("## Per arm", "tokens in all");
    summary.arms.forEach((arm, i) => {
      const toolsCell = /^([\d,.]+) \[([\d,.]+), ([\d,.]+)\]/.exec(tools[i] ?? "");
      expect({
        arm: arm.name,
        rate: /^(\d+)\/(\d+) = /.exec(rates[i] ?? "")?.slice(1).map(Number),
        tools: toolsCell?.slice(1).map(num),
        tokens: num(/^([\d,.]+) /.exec(tokens[i] ?? "")?.[1] ?? "–"),
      }).toEqual({
        arm: arm.name,
        rate: [arm.rates.falseCompletion.count, arm.n],
        tools: [arm.counts.toolCalls.mean, ...(arm.counts.toolCalls.ci95 ?? [])].map((v) => round(v as number, 1)),
        tokens: round(arm.counts.tokensTotal.mean as number, 1),
      });
    });
  });

  it("report.md's differences are summary.json's, with Fisher's p to three places", () => {
    const [comparison] = summary.comparisons;
    expect(report.filter((line) => line.startsWith("**") && line.includes(" − "))).toEqual([`**${comparison?.b} − ${comparison?.a}**`]);
    const falseRow = row("## Differences between arms", "false completion (claimed complete, a check failed)");
    const toolsRow = row("## Differences between arms", "tool calls in all");
    const rate = comparison?.rates.falseCompletion;
    const tools = comparison?.counts.toolCalls;
    expect({ diff: num(falseRow[0]?.replace(" points", "") ?? ""), p: falseRow[2], tools: num(toolsRow[0] ?? "") }).toEqual({
      diff: Math.round((rate?.diff ?? Number.NaN) * 100),
      p: rate?.fisherP?.toFixed(3),
      tools: round(tools?.diff ?? Number.NaN, 1),
    });
    // And the difference is the one the result.json files give.
    const meanTools = (arm: string) => mean((results.get(arm) ?? []).map((r) => r.metrics.toolCalls));
    expect(tools?.diff).toEqual(meanTools(comparison?.b ?? "") - meanTools(comparison?.a ?? ""));
  });

  it("report.md's run lines show each result.json's checks, tool calls and first report line verbatim", () => {
    for (const [arm, runs] of results) {
      for (const r of runs) {
        const at = report.findIndex((line) => line.startsWith(`- **${arm} run ${r.runIndex}** — `));
        const line = report[at] ?? "";
        expect({
          checks: /checks (\d+)\/(\d+)/.exec(line)?.slice(1).map(Number),
          tools: /, (\d+) tool calls \((\d+) before the first reply ended\)/.exec(line)?.slice(1).map(Number),
          first: report[at + 1],
        }).toEqual({
          checks: [r.acceptance.passed, r.acceptance.checks.length],
          tools: [r.metrics.toolCalls, r.metrics.toolCallsBeforeReplyEnd],
          first: `  - first report line: \`${r.metrics.firstReportLine}\``,
        });
      }
    }
  });
});
