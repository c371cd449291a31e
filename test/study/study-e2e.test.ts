/**
 * The study end to end with the real pieces: the bundled arms, the stockbook fixture materialised
 * as a git repo, the scripted test double, the agent loop, real acceptance checks, the metrics and
 * the renderer. Slow-ish (each run executes real node checks), so the run counts are small.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { renderStudyReport } from "../../src/render/render.ts";
import { loadResults } from "../../src/render/results.ts";
import { defaultStudyDeps } from "../../src/study/deps.ts";
import { mergeStudies } from "../../src/study/merge.ts";
import { runStudy } from "../../src/study/runner.ts";
import { loadStudyFile } from "../../src/study/study-file.ts";
import { tickingClock } from "./support/fakes.ts";
import { adoptRuns, runSteps } from "./support/shards.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "armstudy-e2e-"));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("armstudy study (real arms, fixture and scripted model)", () => {
  it("runs the arms, writes the report with charts, and shows the arms differ the way their policies predict", async () => {
    const out = join(temp(), "results");
    const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
    const code = await main(["study", "--arm", "ordinary", "--arm", "goal", "--runs", "1", "-j", "2", "--out", out], io);
    expect({ code, err: io.err.join("") }).toEqual({ code: 0, err: "" });
    const stdout = io.out.join("").split("\n");
    expect(stdout.slice(-7)).toEqual([
      "model: the scripted test double — the numbers show the harness's mechanics, not a real model's behaviour",
      "warning: Fewer than 5 runs per arm for ordinary (n=1), goal (n=1): intervals are wide and only large differences can be told from chance; treat the comparisons as indicative.",
      "2 run(s) finished, 0 already done",
      "verdict (falseCompletion, goal vs ordinary): mechanics only — the scripted test double gives no finding",
      `report: ${join(out, "report.md")}`,
      `view: ${join(out, "report.html")}`,
      "",
    ]);
    const report = readFileSync(join(out, "report.md"), "utf8").split("\n");
    expect(report[0]).toEqual("# armstudy report: default — model `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml` (scripted test double)");
    expect(report[2]?.startsWith("> **Scripted test double, not a real model.**")).toEqual(true);
    expect(readdirSync(join(out, "charts")).sort()).toEqual(["checks.png", "prefix-sections.png", "rates.png", "tokens.png", "tool-calls-before-reply-end.png", "turns.png"]);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    const byArm = Object.fromEntries(summary.arms.map((arm: { name: string; runs: unknown[] }) => [arm.name, arm.runs[0]]));
    // ordinary: nothing keeps the early stopper going, so it settles after two steps claiming done.
    expect({ checks: byArm.ordinary.checks.passed, falseCompletion: byArm.ordinary.falseCompletion, claim: byArm.ordinary.claimSource }).toEqual({
      checks: 2,
      falseCompletion: true,
      claim: "report_first_line",
    });
    // goal: the claim is checked against the transcript and the loop goes on until the checks pass.
    expect({ checks: byArm.goal.checks.passed, falseCompletion: byArm.goal.falseCompletion }).toEqual({ checks: 6, falseCompletion: false });
    expect(byArm.goal.claimChecks.count).toBeGreaterThan(0);
    expect(byArm.goal.toolCalls).toBeGreaterThan(byArm.ordinary.toolCalls);
    // What drove each run on, read from the record: the goal's rounds are continuations, ordinary's one reply ends it.
    expect({ ordinary: byArm.ordinary.turns, goal: byArm.goal.turns }).toEqual({
      ordinary: { replies: 1, continuations: 0, nudges: 0 },
      goal: { replies: 3, continuations: 3, nudges: 0 },
    });
    // Re-rendering from the saved results writes the same report.
    const before = readFileSync(join(out, "report.md"), "utf8");
    const again = memoryIO({ cwd: ROOT });
    const { rerenderStudyReport } = await import("../../src/cli/commands/study.ts");
    expect(await rerenderStudyReport([out], again)).toEqual(0);
    expect(readFileSync(join(out, "report.md"), "utf8")).toEqual(before);
  });

  it("with one of the question's two arms, the verdict line says which arm has no runs and what to do", async () => {
    const out = join(temp(), "results");
    const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
    const code = await main(["study", "--arm", "goal", "--runs", "1", "--out", out], io);
    expect({ code, verdict: io.out.join("").split("\n").filter((line) => line.startsWith("verdict")) }).toEqual({
      code: 0,
      verdict: ["verdict (falseCompletion, goal vs ordinary): no data — no finished runs of ordinary (run both arms to answer the question)"],
    });
  });

  it("two shards take the same steps as the unsharded study, and their merge gives the same files", async () => {
    const spec = await loadStudyFile(join(ROOT, "arms/default.study.yaml"));
    const base = {
      spec,
      deps: defaultStudyDeps({ env: { PATH: process.env.PATH } }),
      cacheRoot: join(ROOT, ".armstudy"),
      cwd: ROOT,
      arms: ["ordinary", "old-build"],
      runs: 1,
      concurrency: 2,
      clockFactory: tickingClock(),
      heartbeatMs: 86_400_000,
    };
    const dir = temp();
    await runStudy({ ...base, outDir: join(dir, "whole") });
    await runStudy({ ...base, outDir: join(dir, "s1"), shard: { index: 1, count: 2 } });
    await runStudy({ ...base, outDir: join(dir, "s2"), shard: { index: 2, count: 2 } });
    expect((await loadResults(join(dir, "s1"))).results.map((r) => `${r.arm}#${r.runIndex}`)).toEqual(["old-build#1"]);
    const shards = [join(dir, "s1"), join(dir, "s2")];
    const sharded = Object.assign({}, ...(await Promise.all(shards.map(runSteps))));
    expect(sharded).toEqual(await runSteps(join(dir, "whole")));
    adoptRuns(join(dir, "whole"), shards);
    await mergeStudies(shards, join(dir, "merged"), ROOT);
    await renderStudyReport(join(dir, "whole"));
    await renderStudyReport(join(dir, "merged"));
    for (const file of ["report.md", "summary.json", "study.json", "charts/rates.png", "charts/tool-calls-before-reply-end.png", "charts/tokens.png", "charts/prefix-sections.png"]) {
      expect({ file, same: readFileSync(join(dir, "merged", file)).equals(readFileSync(join(dir, "whole", file))) }).toEqual({ file, same: true });
    }
    await expect(mergeStudies([join(dir, "s1"), join(dir, "whole")], join(dir, "doubled"), ROOT)).rejects.toThrow(
      /old-build run 1 is in both .*s1 and .*whole; a run must come from one folder/,
    );
  });
});
