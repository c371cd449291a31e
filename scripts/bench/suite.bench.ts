/**
 * Suite throughput: `npm run bench -- suite` runs the bundled suite (arms/suite.study.yaml: every
 * task in fixtures/tasks/ × old-build, ordinary, goal × 3 runs) through the real runner at -j 2 —
 * real worktrees, each task's persona, the grading step (tamper detection, the task's check files
 * put in place) and its hidden or visible checks — and prints runs per minute and, per task, the
 * median time of each phase; then the grading step alone (tamper detection + the check files put
 * back) on stockbook's seven check files, after an edit. `npx tsx scripts/bench/suite.bench.ts --quick`
 * runs one run per arm per task.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { loadResults } from "../../src/render/results.ts";
import { detectTampering, placeCheckFiles } from "../../src/study/grading.ts";
import { defaultStudyDeps } from "../../src/study/deps.ts";
import { runStudy } from "../../src/study/runner.ts";
import { loadStudyFile } from "../../src/study/study-file.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const quick = process.argv.includes("--quick");
const work = mkdtempSync(join(tmpdir(), "armstudy-bench-suite-"));

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

try {
  const spec = await loadStudyFile(join(ROOT, "arms/suite.study.yaml"));
  const runs = quick ? 1 : spec.runs;
  const load = loadavg()[0] ?? 0;
  const started = performance.now();
  const outcome = await runStudy({
    spec,
    deps: defaultStudyDeps({ env: { PATH: process.env.PATH } }),
    outDir: join(work, "out"),
    cacheRoot: join(ROOT, ".armstudy"),
    worktreeRoot: join(work, "wt"),
    cwd: ROOT,
    runs,
    concurrency: 2,
  });
  const seconds = (performance.now() - started) / 1000;
  const expected = spec.tasks.length * spec.arms.length * runs;
  if (outcome.ran !== expected || outcome.errors !== 0) throw new Error(`ran ${outcome.ran} of ${expected} runs, ${outcome.errors} errors`);
  const { results } = await loadResults(join(work, "out"));
  const rows = spec.tasks.map((task) => {
    const mine = results.filter((r) => r.task === task.name);
    return {
      task: task.name,
      runs: mine.length,
      "agent ms (p50)": Math.round(median(mine.map((r) => r.timing.agentMs))),
      "grading + checks ms (p50)": Math.round(median(mine.map((r) => r.timing.checksMs))),
      "worktree+diff+cleanup ms (p50)": Math.round(median(mine.map((r) => r.timing.worktreeMs + r.timing.diffMs + r.timing.cleanupMs))),
    };
  });
  console.table(rows);
  console.log(
    `suite: ${spec.tasks.length} tasks × ${spec.arms.length} arms × ${runs} runs = ${outcome.ran} runs in ${seconds.toFixed(1)} s at -j 2 = ${((outcome.ran / seconds) * 60).toFixed(1)} runs/min (cores: ${availableParallelism()}, load average at start ${load.toFixed(1)})`,
  );
  // The grading step alone: what it adds to every run of a task with check files.
  const files = { from: join(ROOT, "fixtures/tasks/stockbook/checks"), to: "checks", visible: true };
  const worktree = join(work, "grading");
  mkdirSync(worktree, { recursive: true });
  cpSync(files.from, join(worktree, "checks"), { recursive: true });
  const times: number[] = [];
  for (let i = 0; i < (quick ? 20 : 100); i += 1) {
    writeFileSync(join(worktree, "checks", "b6.check.js"), "");
    const t = performance.now();
    const tampered = await detectTampering(worktree, files);
    await placeCheckFiles(worktree, files);
    times.push(performance.now() - t);
    if (tampered.length !== 1) throw new Error(`expected one tampered file, got ${JSON.stringify(tampered)}`);
  }
  console.log(`grading step (detect tampering + put the task's 7 check files back), stockbook: p50 ${median(times).toFixed(2)} ms over ${times.length} runs`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
