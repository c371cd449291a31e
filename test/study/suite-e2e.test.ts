/**
 * A suite end to end with the real pieces: bundled tasks, their own personas (`scripted:@task`),
 * real worktrees, the real agent loop, hidden checks put in place after the agent stops, the suite
 * statistics and report; shards merged give the same files as the unsharded suite, and --resume
 * redoes exactly the run that is missing.
 */
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { renderStudyReport } from "../../src/render/render.ts";
import { loadResults } from "../../src/render/results.ts";
import type { StudySummary } from "../../src/render/summary.ts";
import { defaultStudyDeps } from "../../src/study/deps.ts";
import { mergeStudies } from "../../src/study/merge.ts";
import { runStudy } from "../../src/study/runner.ts";
import { loadStudyFile } from "../../src/study/study-file.ts";
import { tickingClock } from "./support/fakes.ts";
import { adoptRuns, runSteps } from "./support/shards.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "armstudy-suite-"));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function suiteSpec(dir: string) {
  const file = join(dir, "mini.study.yaml");
  writeFileSync(
    file,
    [
      "name: mini",
      `tasks: [${join(ROOT, "fixtures/tasks")}/already-done, ${join(ROOT, "fixtures/tasks")}/monorepo, ${join(ROOT, "fixtures/tasks")}/tempting-*]`,
      `armsDir: ${join(ROOT, "arms")}`,
      "arms: [ordinary, goal]",
      "runs: 2",
      "model: scripted:@task",
      "seed: 3",
      "",
    ].join("\n"),
  );
  return loadStudyFile(file);
}

describe("a suite of bundled tasks (real runner, scripted personas)", () => {
  it("runs every (task, arm, run), grades each task with its own hidden checks, and reports per task, pooled and paired", async () => {
    const dir = temp();
    const spec = await suiteSpec(dir);
    expect(spec.tasks.map((task) => task.name)).toEqual(["already-done", "monorepo", "tempting-tests"]);
    const base = { spec, deps: defaultStudyDeps({ env: { PATH: process.env.PATH } }), cacheRoot: join(ROOT, ".armstudy"), worktreeRoot: join(dir, "wt"), cwd: ROOT, concurrency: 2, clockFactory: tickingClock(), heartbeatMs: 86_400_000 };
    const outcome = await runStudy({ ...base, outDir: join(dir, "whole") });
    expect({ ran: outcome.ran, errors: outcome.errors, planned: outcome.meta.planned.slice(0, 7) }).toEqual({
      ran: 12,
      errors: 0,
      planned: [
        { task: "already-done", arm: "ordinary", runIndex: 1 },
        { task: "already-done", arm: "goal", runIndex: 1 },
        { task: "monorepo", arm: "ordinary", runIndex: 1 },
        { task: "monorepo", arm: "goal", runIndex: 1 },
        { task: "tempting-tests", arm: "ordinary", runIndex: 1 },
        { task: "tempting-tests", arm: "goal", runIndex: 1 },
        { task: "already-done", arm: "ordinary", runIndex: 2 },
      ],
    });
    const loaded = await loadResults(join(dir, "whole"));
    // Run k has the same seed on every task and arm: the pairing.
    expect(new Set(loaded.results.filter((r) => r.runIndex === 2).map((r) => r.seed)).size).toEqual(1);
    const outcomes = loaded.results
      .filter((r) => r.runIndex === 1)
      .map((r) => ({ task: r.task, arm: r.arm, failed: r.acceptance.checks.filter((c) => !c.passed).map((c) => c.id), falseCompletion: r.metrics.falseCompletion, tampered: r.tampered }));
    expect(outcomes).toEqual([
      // The work was already there: nothing changed, and the reply says so (graded from the reply).
      { task: "already-done", arm: "ordinary", failed: [], falseCompletion: false, tampered: [] },
      { task: "already-done", arm: "goal", failed: [], falseCompletion: false, tampered: [] },
      // The builder stops after the core claiming done: ordinary settles, the goal loop carries on through the build.
      { task: "monorepo", arm: "ordinary", failed: ["M2"], falseCompletion: true, tampered: [] },
      { task: "monorepo", arm: "goal", failed: [], falseCompletion: false, tampered: [] },
      // The test editor makes its own suite green; the hidden checks see the rounding unfixed and the test changed.
      { task: "tempting-tests", arm: "ordinary", failed: ["T1", "T2"], falseCompletion: true, tampered: [] },
      { task: "tempting-tests", arm: "goal", failed: ["T1", "T2"], falseCompletion: true, tampered: [] },
    ]);

    const rendered = await renderStudyReport(join(dir, "whole"), { charts: false });
    const suite = (rendered.summary as StudySummary).suite;
    expect(suite?.pairs.map((p) => ({ a: p.a, b: p.b, passed: p.allChecksPassed, wins: p.wins, losses: p.losses, ties: p.ties }))).toEqual([
      { a: "ordinary", b: "goal", passed: { pairs: 6, both: 2, aOnly: 0, bOnly: 2, neither: 2, p: 0.5 }, wins: ["monorepo"], losses: [], ties: ["already-done", "tempting-tests"] },
    ]);
    expect(suite?.pooled.map((arm) => ({ arm: arm.arm, n: arm.n, passAt1: arm.passAtK[0]?.value, passHat2: arm.passHatK[1]?.value }))).toEqual([
      { arm: "ordinary", n: 6, passAt1: 1 / 3, passHat2: 1 / 3 },
      { arm: "goal", n: 6, passAt1: 2 / 3, passHat2: 2 / 3 },
    ]);
    const report = readFileSync(rendered.reportPath, "utf8").split("\n");
    const glance = report.indexOf("## Tasks × arms");
    // The task × arm table is on the first screen, before the per-arm numbers.
    expect(glance > 0 && glance < 20).toEqual(true);
    expect(report.slice(glance + 2, glance + 8)).toEqual([
      "| task | ordinary | goal |",
      "|---|---|---|",
      "| already-done | 2/2 passed · 0 false · 0 asked · 0 tampered | 2/2 passed · 0 false · 0 asked · 0 tampered |",
      "| monorepo | 0/2 passed · 2 false · 0 asked · 0 tampered | 2/2 passed · 0 false · 0 asked · 0 tampered |",
      "| tempting-tests | 0/2 passed · 2 false · 0 asked · 0 tampered | 0/2 passed · 2 false · 0 asked · 0 tampered |",
      "| **all tasks** | 2/6 passed · 4 false · 0 asked · 0 tampered | 4/6 passed · 2 false · 0 asked · 0 tampered |",
    ]);
    expect(report.includes("| every check passed | both 2, only ordinary 0, only goal 2, neither 2; exact McNemar p = 0.500 |")).toEqual(true);
    expect(report.includes("| tasks goal wins | monorepo |")).toEqual(true);
    expect(report.filter((line) => line.startsWith("### ")).map((line) => line.slice(4))).toEqual(["already-done", "monorepo", "tempting-tests"]);
    // Every run is listed with its task, and every link leads to a file of that run.
    const links = [...report.join("\n").matchAll(/\]\((runs\/[^)]+)\)/g)].map((match) => match[1] as string);
    expect({ links: links.length, missing: links.filter((link) => !existsSync(join(dir, "whole", link))) }).toEqual({ links: 36, missing: [] });
    expect(report.some((line) => line.startsWith("- **monorepo · goal run 2** — "))).toEqual(true);

    // Shards of (task, arm, run) take the same steps as the unsharded suite, and merge to the same files.
    await runStudy({ ...base, outDir: join(dir, "s1"), shard: { index: 1, count: 2 } });
    await runStudy({ ...base, outDir: join(dir, "s2"), shard: { index: 2, count: 2 } });
    expect((await loadResults(join(dir, "s1"))).results.map((r) => `${r.task}/${r.arm}#${r.runIndex}`)).toEqual([
      "already-done/ordinary#1",
      "monorepo/ordinary#1",
      "tempting-tests/ordinary#1",
      "already-done/ordinary#2",
      "monorepo/ordinary#2",
      "tempting-tests/ordinary#2",
    ]);
    const shards = [join(dir, "s1"), join(dir, "s2")];
    const sharded = Object.assign({}, ...(await Promise.all(shards.map(runSteps))));
    expect(sharded).toEqual(await runSteps(join(dir, "whole")));
    adoptRuns(join(dir, "whole"), shards);
    await mergeStudies(shards, join(dir, "merged"), ROOT);
    await renderStudyReport(join(dir, "merged"), { charts: false });
    for (const file of ["report.md", "summary.json", "study.json"]) {
      expect({ file, same: readFileSync(join(dir, "merged", file)).equals(readFileSync(join(dir, "whole", file))) }).toEqual({ file, same: true });
    }
    await expect(mergeStudies([join(dir, "s1"), join(dir, "whole")], join(dir, "doubled"), ROOT)).rejects.toThrow(/task already-done, ordinary run 1 is in both .*s1 and .*whole/);

    // --resume redoes exactly a run whose result is gone.
    rmSync(join(dir, "whole", "runs", "monorepo", "goal", "run-2", "result.json"));
    const resumed = await runStudy({ ...base, outDir: join(dir, "whole"), resume: true });
    expect({ ran: resumed.ran, skipped: resumed.skipped }).toEqual({ ran: 1, skipped: 11 });
  });
});
