/**
 * The study runner's costs. `npm run bench -- study`
 *
 * 1. Per-run overhead of a fresh checkout (acceptance checks excluded): the runner's run folder (a
 *    `--shared` clone, a detached checkout and armstudy's own index, ADR 0078) made and removed,
 *    against a plain `git clone --shared` + rm and `cp -r` + rm of the same content, in the same run —
 *    on the stockbook fixture and on a generated 50 MB repository.
 * 2. Whole-study throughput with the scripted model: the default study's three arms, real worktrees,
 *    real agent loop, real acceptance checks, at -j 1 and -j 4. Target: >= 20 runs a minute on 2 cores.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Bench } from "tinybench";
import { seededRng } from "../../src/measure/stats.ts";
import { defaultStudyDeps } from "../../src/study/deps.ts";
import { FIXTURE_IDENTITY, addWorktree, materialiseFixture, removeWorktree } from "../../src/study/git.ts";
import { runStudy } from "../../src/study/runner.ts";
import { loadStudyFile } from "../../src/study/study-file.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "armstudy-bench-study-"));
const cacheRoot = join(work, "cache");
const quick = process.argv.includes("--quick");

/** A repository of about `megabytes` MB of incompressible-ish text in 500 files, one commit. */
function generatedRepo(megabytes: number): { repoPath: string; commit: string } {
  const repoPath = join(work, `generated-${megabytes}mb`);
  const rng = seededRng(50);
  const files = 500;
  const perFile = Math.round((megabytes * 1024 * 1024) / files);
  for (let i = 0; i < files; i += 1) {
    const dir = join(repoPath, `pkg${i % 20}`);
    mkdirSync(dir, { recursive: true });
    const chars: string[] = [];
    for (let c = 0; c < perFile; c += 8) chars.push(Math.floor(rng() * 0xffffffff).toString(16).padStart(8, "0"));
    writeFileSync(join(dir, `file${i}.txt`), chars.join("").slice(0, perFile));
  }
  const env = { ...process.env, ...FIXTURE_IDENTITY };
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repoPath, env });
  execFileSync("git", ["add", "-A"], { cwd: repoPath, env });
  execFileSync("git", ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "generated"], { cwd: repoPath, env });
  return { repoPath, commit: execFileSync("git", ["rev-parse", "HEAD"], { cwd: repoPath, encoding: "utf8" }).trim() };
}

async function overhead(label: string, repo: { repoPath: string; commit: string }, iterations: number): Promise<Array<Record<string, string>>> {
  const wtRoot = join(work, `wt-${label}`);
  const copies = join(work, `copies-${label}`);
  mkdirSync(copies, { recursive: true });
  let n = 0;
  const bench = new Bench({ iterations, warmupIterations: 1, time: 0 });
  bench
    .add("run folder: addWorktree + removeWorktree (the runner's)", async () => {
      const path = await addWorktree(repo.repoPath, repo.commit, wtRoot, "bench");
      await removeWorktree(repo.repoPath, path);
    })
    .add("peer: git clone --shared + rm -rf", () => {
      const dest = join(copies, `clone-${n++}`);
      execFileSync("git", ["clone", "-q", "--shared", repo.repoPath, dest]);
      rmSync(dest, { recursive: true, force: true });
    })
    .add("peer: cp -r + rm -rf", () => {
      const dest = join(copies, `cp-${n++}`);
      execFileSync("cp", ["-r", repo.repoPath, dest]);
      rmSync(dest, { recursive: true, force: true });
    });
  await bench.run();
  const p50 = (name: string): number => (bench.tasks.find((t) => t.name === name)?.result as { latency?: { p50?: number } } | undefined)?.latency?.p50 ?? Number.NaN;
  const clone = p50("peer: git clone --shared + rm -rf");
  return bench.tasks.map((task) => ({
    repo: label,
    task: task.name,
    "p50 ms": p50(task.name).toFixed(1),
    "x clone --shared": (p50(task.name) / clone).toFixed(2),
  }));
}

async function throughput(concurrency: number, runs: number): Promise<{ j: number; runs: number; seconds: number; perMinute: number }> {
  const spec = await loadStudyFile(join(ROOT, "arms/default.study.yaml"));
  const started = performance.now();
  const outcome = await runStudy({
    spec,
    deps: defaultStudyDeps({ env: { PATH: process.env.PATH } }),
    outDir: join(work, `study-j${concurrency}`),
    cacheRoot,
    worktreeRoot: join(work, `wt-study-j${concurrency}`),
    cwd: ROOT,
    runs,
    concurrency,
  });
  const seconds = (performance.now() - started) / 1000;
  if (outcome.ran !== runs * spec.arms.length) throw new Error(`ran ${outcome.ran} runs`);
  return { j: concurrency, runs: outcome.ran, seconds: Number(seconds.toFixed(1)), perMinute: Number(((outcome.ran / seconds) * 60).toFixed(1)) };
}

try {
  const fixture = await materialiseFixture(join(ROOT, "fixtures/tasks/stockbook/repo"), cacheRoot);
  const rows = await overhead("fixture", fixture, quick ? 5 : 20);
  const big = generatedRepo(50);
  rows.push(...(await overhead("generated 50 MB", big, quick ? 3 : 8)));
  console.table(rows);
  const runsPerArm = quick ? 1 : 2;
  const results = [await throughput(1, runsPerArm), await throughput(4, runsPerArm)];
  console.table(results);
  console.log(`cores: ${availableParallelism()}; -j 4 / -j 1 throughput = ${((results[1]?.perMinute ?? 0) / (results[0]?.perMinute ?? 1)).toFixed(2)}x`);
  console.log("targets: >= 20 scripted runs a minute");
} finally {
  rmSync(work, { recursive: true, force: true });
}
