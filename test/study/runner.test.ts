import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { loadResults } from "../../src/render/results.ts";
import { listWorktrees, materialiseFixture } from "../../src/study/git.ts";
import { parseShard, planRuns, shardOf } from "../../src/study/plan.ts";
import { runStudy, type StudyRunOptions } from "../../src/study/runner.ts";
import { fakeDeps, makeStudyWorld, tickingClock } from "./support/fakes.ts";

const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "armstudy-runner-"));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(extra: Partial<StudyRunOptions> = {}): StudyRunOptions {
  const root = temp();
  const spec = makeStudyWorld(root);
  return {
    spec,
    deps: fakeDeps(),
    outDir: join(root, "out"),
    cacheRoot: join(root, ".armstudy"),
    worktreeRoot: join(root, "worktrees"),
    cwd: root,
    clockFactory: tickingClock(),
    ...extra,
  };
}

const summary = (results: Awaited<ReturnType<typeof loadResults>>["results"]) =>
  results.map((r) => `${r.arm}#${r.runIndex} ${r.acceptance.passed}/${r.acceptance.passed + r.acceptance.failed} ${r.metrics.firstReportLine}`);

describe("runStudy", () => {
  it("runs every (arm, run) on its own worktree, checks it, keeps the diff, and leaves no worktree behind", async () => {
    const options = setup({ concurrency: 2 });
    const outcome = await runStudy(options);
    expect({ ran: outcome.ran, skipped: outcome.skipped, errors: outcome.errors, interrupted: outcome.interrupted }).toEqual({ ran: 6, skipped: 0, errors: 0, interrupted: false });
    const loaded = await loadResults(options.outDir);
    expect(loaded.missing).toEqual([]);
    expect(summary(loaded.results)).toEqual([
      "diligent#1 2/2 Done: every step is complete.",
      "lazy#1 1/2 Done: every step is complete.",
      "asker#1 1/2 Made one.txt. Should I go on with two.txt?",
      "diligent#2 2/2 Done: every step is complete.",
      "lazy#2 1/2 Done: every step is complete.",
      "asker#2 1/2 Made one.txt. Should I go on with two.txt?",
    ]);
    const lazy = loaded.results[1]!;
    expect(lazy.diff).toEqual({ stat: " one.txt | 1 +\n 1 file changed, 1 insertion(+)\n", files: 1, insertions: 1, deletions: 0 });
    expect(readFileSync(join(options.outDir, "runs/lazy/run-1/diff.patch"), "utf8").split("\n").filter((line) => line.startsWith("+"))).toEqual(["+++ b/one.txt", "+one of run 1"]);
    expect(lazy.acceptance.checks.map((c) => [c.id, c.passed, c.exitCode])).toEqual([
      ["B1", true, 0],
      ["B2", false, 1],
    ]);
    expect(readFileSync(join(options.outDir, "runs/lazy/run-1/record.jsonl"), "utf8").split("\n").filter(Boolean).length).toEqual(6);
    // Run k of every arm shares a seed (a paired design); runs of one arm differ.
    expect(loaded.results.map((r) => r.seed)).toEqual([...Array(3).fill(loaded.results[0]!.seed), ...Array(3).fill(loaded.results[3]!.seed)]);
    expect(loaded.results[0]!.seed).not.toEqual(loaded.results[3]!.seed);
    const { repoPath } = await materialiseFixture(join(options.cwd, "fixture"), options.cacheRoot);
    expect(await listWorktrees(repoPath)).toEqual([]);
    expect(readdirSync(options.worktreeRoot!)).toEqual([]);
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: repoPath, encoding: "utf8" })).toEqual("");
    expect(execFileSync("git", ["branch", "--list"], { cwd: repoPath, encoding: "utf8" })).toEqual("* main\n");
    expect(outcome.meta.arms.map((a) => [a.name, a.testDouble, a.prefix?.sections?.map((s) => s.id)])).toEqual([
      ["diligent", true, ["identity", "reporting"]],
      ["lazy", true, ["identity", "reporting"]],
      ["asker", true, ["identity", "reporting"]],
    ]);
  });

  it("resumes: skips finished runs, redoes an unfinished one, and refuses another study's folder", async () => {
    const options = setup({ arms: ["lazy", "asker"] });
    await runStudy(options);
    // Make one run look unfinished: a partial record and no result.
    rmSync(join(options.outDir, "runs/asker/run-2/result.json"));
    writeFileSync(join(options.outDir, "runs/asker/run-2/record.jsonl"), '{"t":0,"type":"run.start"');
    const before = readFileSync(join(options.outDir, "runs/lazy/run-1/result.json"), "utf8");
    const resumed = await runStudy({ ...options, resume: true });
    expect({ ran: resumed.ran, skipped: resumed.skipped }).toEqual({ ran: 1, skipped: 3 });
    expect(readFileSync(join(options.outDir, "runs/lazy/run-1/result.json"), "utf8")).toEqual(before);
    expect(readFileSync(join(options.outDir, "runs/asker/run-2/record.jsonl"), "utf8").split("\n").filter(Boolean).length).toEqual(6);
    await expect(runStudy(options)).rejects.toThrow("out already holds a study. Pass --resume to finish it, or choose another --out.");
    // More runs per arm grow the folder: runs 3 to 5 of each arm, nothing redone.
    const grown = await runStudy({ ...options, resume: true, runs: 5 });
    expect({ ran: grown.ran, skipped: grown.skipped, planned: grown.meta.planned.length }).toEqual({ ran: 6, skipped: 4, planned: 10 });
    expect(readFileSync(join(options.outDir, "runs/lazy/run-1/result.json"), "utf8")).toEqual(before);
    await expect(runStudy({ ...options, resume: true, runs: 2 })).rejects.toThrow("out holds 5 runs per arm; --runs 2 cannot shrink it. Give --runs 5 or more, or drop --runs to finish it.");
    // Without --runs, --resume finishes the folder as it is planned now (5 per arm).
    expect((await runStudy({ ...options, resume: true })).skipped).toEqual(10);
    await expect(runStudy({ ...options, outDir: join(options.cwd, "empty"), resume: true })).rejects.toThrow(
      "nothing to resume in empty: it holds no study.json. Drop --resume to start a new study.",
    );
  });

  it("resumes the newest candidate folder that holds the same study, and names the newest when none does", async () => {
    const options = setup({ arms: ["lazy"], runs: 1 });
    const older = join(options.cwd, "r", "20260101-000000");
    const newer = join(options.cwd, "r", "20260102-000000");
    await runStudy({ ...options, outDir: older });
    await runStudy({ ...options, outDir: newer, runs: 2 });
    const resumed = await runStudy({ ...options, outDir: "unused", resume: true, resumeCandidates: [newer, older] });
    expect({ outDir: resumed.outDir, ran: resumed.ran, skipped: resumed.skipped }).toEqual({ outDir: older, ran: 0, skipped: 1 });
    // --runs beyond the newest folder's grows it.
    const grown = await runStudy({ ...options, outDir: "unused", resume: true, runs: 3, resumeCandidates: [newer, older] });
    expect({ outDir: grown.outDir, ran: grown.ran, skipped: grown.skipped }).toEqual({ outDir: newer, ran: 1, skipped: 2 });
    await expect(runStudy({ ...options, outDir: "unused", resume: true, arms: ["asker"], resumeCandidates: [newer, older] })).rejects.toThrow(
      "nothing to resume: no earlier results match these options (the newest, r/20260102-000000, differs in arms, runsPerArm). Use the same --arm, --runs, --model and --shard, or pass --out DIR.",
    );
    await expect(runStudy({ ...options, outDir: "unused", resume: true, resumeCandidates: [] })).rejects.toThrow(
      "nothing to resume: no earlier results of this study were found. Run it without --resume first, or pass --out DIR.",
    );
  });

  it("stops on abort: no new runs, in-flight worktrees removed, and --resume finishes with no run lost or doubled", async () => {
    const controller = new AbortController();
    const options = setup({ deps: fakeDeps({ delayMs: 150 }), signal: controller.signal, concurrency: 2 });
    let finished = 0;
    const first = await runStudy({
      ...options,
      onProgress: (event) => {
        if (event.kind === "finish" && ++finished === 2) controller.abort();
      },
    });
    expect(first.interrupted).toEqual(true);
    expect(first.ran).toBeGreaterThanOrEqual(2);
    expect(first.ran).toBeLessThan(6);
    const { repoPath } = await materialiseFixture(join(options.cwd, "fixture"), options.cacheRoot);
    expect(await listWorktrees(repoPath)).toEqual([]);
    const second = await runStudy({ ...options, signal: new AbortController().signal, resume: true, onProgress: undefined });
    expect(second.interrupted).toEqual(false);
    expect(second.ran + second.skipped).toEqual(6);
    expect(second.skipped).toEqual(first.ran);
    const loaded = await loadResults(options.outDir);
    expect(loaded.missing).toEqual([]);
    expect(loaded.results.map((r) => `${r.arm}#${r.runIndex}`).sort()).toEqual(
      ["asker#1", "asker#2", "diligent#1", "diligent#2", "lazy#1", "lazy#2"],
    );
    expect(await listWorktrees(repoPath)).toEqual([]);
  });

  it("runs a deterministic shard, and the shards together cover the study exactly once", async () => {
    const base = setup();
    const one = await runStudy({ ...base, shard: parseShard("1/2"), outDir: join(base.cwd, "s1") });
    const two = await runStudy({ ...base, shard: parseShard("2/2"), outDir: join(base.cwd, "s2") });
    expect(one.meta.planned).toEqual([
      { arm: "diligent", runIndex: 1 },
      { arm: "asker", runIndex: 1 },
      { arm: "lazy", runIndex: 2 },
    ]);
    expect(two.meta.planned).toEqual([
      { arm: "lazy", runIndex: 1 },
      { arm: "diligent", runIndex: 2 },
      { arm: "asker", runIndex: 2 },
    ]);
    expect(existsSync(join(base.cwd, "s1/runs/lazy/run-1"))).toEqual(false);
  });

  it("records a harness failure as an error result and keeps going", async () => {
    const deps = fakeDeps();
    const options = setup({
      arms: ["lazy"],
      runs: 1,
      deps: { ...deps, agentFor: () => async () => Promise.reject(new TypeError("the loop broke")) },
    });
    const outcome = await runStudy(options);
    expect(outcome.errors).toEqual(1);
    const [result] = (await loadResults(options.outDir)).results;
    expect({ status: result!.status, reason: result!.reason, error: result!.error, passed: result!.acceptance.passed }).toEqual({
      status: "error",
      reason: "harness_error",
      error: "TypeError: the loop broke",
      passed: 0,
    });
  });
});

describe("plan and shards", () => {
  it("orders run-major and partitions any plan exactly", () => {
    expect(planRuns(["a", "b"], 2, 1).map((p) => `${p.arm}${p.runIndex}`)).toEqual(["a1", "b1", "a2", "b2"]);
    const plan = planRuns(["a", "b", "c"], 5, 3);
    for (const count of [1, 2, 3, 4, 7, 20]) {
      const parts = Array.from({ length: count }, (_, i) => shardOf(plan, { index: i + 1, count }));
      expect(parts.flat().sort((x, y) => plan.indexOf(x) - plan.indexOf(y))).toEqual(plan);
    }
  });

  it.each(["0/2", "3/2", "1/0", "a/b", "1-2", ""])("rejects --shard %j", (text) => {
    expect(() => parseShard(text)).toThrow(`--shard "${text}" is not i/n with 1 <= i <= n (for example --shard 1/3).`);
  });
});
