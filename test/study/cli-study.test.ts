import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { stampOf } from "../../src/cli/commands/study.ts";
import { describeResult, formatElapsed, progressPrinter } from "../../src/study/progress.ts";
import { result } from "../render/support.ts";

const ROOT = resolve(import.meta.dirname, "../..");

async function run(args: string[]) {
  const io = memoryIO({ cwd: ROOT });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("armstudy study / merge: bad input exits 2 with a clear message", () => {
  it.each([
    [["study", "--runs", "0"], 'armstudy study: --runs must be a whole number of at least 1, got "0"'],
    [["study", "--runs", "999999999999"], 'armstudy study: --runs must be at most 1000, got "999999999999"'],
    [["study", "-j", "two"], 'armstudy study: -j must be a whole number of at least 1, got "two"'],
    [["study", "--shard", "3/2"], 'armstudy study: --shard "3/2" is not i/n with 1 <= i <= n (for example --shard 1/3).'],
    [["study", "--frobnicate"], "armstudy study: Unknown option '--frobnicate'"],
    [["study", "a.yaml", "b.yaml"], "armstudy study: one study file at most, got 2: a.yaml b.yaml"],
    [["study", "arms/none.study.yaml"], `armstudy study: cannot read study file ${join(ROOT, "arms/none.study.yaml")}: ENOENT. Pass an existing arms/*.study.yaml.`],
    [["study", "--arm", "no-such-arm", "--runs", "1", "--out", join(tmpdir(), "armstudy-never")], 'armstudy study: arms/no-such-arm/arm.yaml: no arm "no-such-arm" here'],
    [["merge"], "armstudy merge: name the results folders to merge"],
    [["merge", "fixtures"], "armstudy merge: fixtures is not a study results folder"],
    [["report", "fixtures"], "armstudy report: fixtures is not a study results folder: study.json is missing. Pass a folder that `armstudy study` wrote (reports/<study>/<stamp>)."],
  ])("%j", async (args, message) => {
    const { code, out, err } = await run(args as string[]);
    expect(code).toEqual(2);
    expect(err.split("\n")[0]?.slice(0, message.length)).toEqual(message);
    expect(out).toEqual("");
    // Nothing half-written.
    expect(existsSync(join(tmpdir(), "armstudy-never"))).toEqual(false);
  });

  it("stamps result folders in UTC", () => {
    expect(stampOf(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toEqual("20260102-030405");
  });
});

describe("progress", () => {
  const finished = result("goal", 2, 3, { claimSource: "goal_complete", toolCalls: 39 });

  it("prints one plain line per finished run when not on a terminal", () => {
    const lines: string[] = [];
    let now = 0;
    const printer = progressPrinter({ write: (text) => lines.push(text), isTTY: false, now: () => now });
    printer.onProgress({ kind: "planned", total: 9, skipped: 0, toRun: 9, outDir: "reports/default/x" });
    printer.onProgress({ kind: "start", arm: "goal", runIndex: 2, position: 6, total: 9 });
    now = 65_000;
    printer.onProgress({ kind: "finish", arm: "goal", runIndex: 2, position: 6, total: 9, done: 4, result: finished });
    printer.onProgress({ kind: "interrupted", arm: "ordinary", runIndex: 3 });
    printer.onProgress({ kind: "retry", arm: "goal", runIndex: 4, retry: { attempt: 1, cause: "model.http_5xx", message: "HTTP 503: busy", atMs: 9, waitMs: 1500 } });
    printer.close();
    expect(lines).toEqual([
      "9 runs → reports/default/x\n",
      "[4/9] goal run 2: completed · checks 3/3 · claimed complete (goal_complete) · 39 tool calls (01:05 elapsed)\n",
      "ordinary run 3: interrupted; its worktree was removed and --resume will redo it\n",
      "goal run 4: attempt 1 failed (model.http_5xx: HTTP 503: busy); retrying in 1.5 s\n",
    ]);
  });

  it("redraws one line in place on a terminal: run i of n, the arm, elapsed", () => {
    const lines: string[] = [];
    let now = 0;
    const printer = progressPrinter({ write: (text) => lines.push(text), isTTY: true, now: () => now });
    printer.onProgress({ kind: "planned", total: 9, skipped: 3, toRun: 6, outDir: "out" });
    now = 2_000;
    printer.onProgress({ kind: "start", arm: "goal", runIndex: 2, position: 6, total: 9 });
    printer.onProgress({ kind: "start", arm: "old-build", runIndex: 3, position: 7, total: 9 });
    now = 4_000;
    printer.onProgress({ kind: "finish", arm: "goal", runIndex: 2, position: 6, total: 9, done: 4, result: finished });
    printer.close();
    expect(lines).toEqual([
      "resuming: 3 of 9 runs already finished, 6 to run → out\n",
      "\r\x1b[2K3 of 9 runs done · 00:00 elapsed",
      "\r\x1b[2Krun 4 of 9 · goal #2 · 00:02 elapsed",
      "\r\x1b[2Krun 4 of 9 · goal #2 (+1 running) · 00:02 elapsed",
      "\r\x1b[2Krun 5 of 9 · old-build #3 · 00:04 elapsed",
      "\r\x1b[2K",
    ]);
  });

  it("formats elapsed time and a result", () => {
    expect([formatElapsed(0), formatElapsed(59_999), formatElapsed(3_600_000 + 61_000)]).toEqual(["00:00", "00:59", "1:01:01"]);
    expect(describeResult(result("ordinary", 1, 1, { falseCompletion: true, toolCalls: 9 }))).toEqual(
      "completed · checks 1/3 · claimed complete (report_first_line) · false completion · 9 tool calls",
    );
  });
});
