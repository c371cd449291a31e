/**
 * Study throughput with a run's acceptance checks run concurrently (the default) against the same
 * checks run back to back (a copy of the checks file that says `sequential: true`), both in the
 * same run: the default study (three arms, scripted model, real worktrees, the sandbox on when the
 * machine has it) at `-j 2`. Goal: ≥ 20 runs a minute at -j 2. `npm run bench -- checks`
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse, stringify } from "yaml";
import { defaultRunSandbox } from "../../src/run/sandbox/index.ts";
import { defaultStudyDeps } from "../../src/study/deps.ts";
import { runStudy } from "../../src/study/runner.ts";
import { loadStudyFile } from "../../src/study/study-file.ts";
import { machineLine, table, type Row } from "./lib/report.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "armstudy-bench-checks-"));
const RUNS_PER_ARM = 3;
const JOBS = 2;

try {
  const spec = await loadStudyFile(join(ROOT, "arms/default.study.yaml"));
  // The same checks, marked sequential (their commands run in the grading copy, so the file can live anywhere).
  const sequentialFile = join(work, "sequential.checks.yaml");
  const task = spec.tasks[0];
  if (task === undefined) throw new Error("the default study has no task");
  const original = parse(readFileSync(task.checksPath, "utf8")) as Record<string, unknown>;
  writeFileSync(sequentialFile, stringify({ ...original, sequential: true }));
  const sandbox = defaultRunSandbox(process.env);

  const throughput = async (label: string, checksPath: string): Promise<{ perMinute: number; seconds: number; runs: number }> => {
    const started = performance.now();
    const outcome = await runStudy({
      spec: { ...spec, tasks: [{ ...task, checksPath }] },
      deps: defaultStudyDeps({ env: { PATH: process.env.PATH } }),
      outDir: join(work, `out-${label}`),
      cacheRoot: join(work, "cache"),
      worktreeRoot: join(work, `wt-${label}`),
      cwd: ROOT,
      runs: RUNS_PER_ARM,
      concurrency: JOBS,
    });
    const seconds = (performance.now() - started) / 1000;
    if (outcome.ran !== RUNS_PER_ARM * spec.arms.length) throw new Error(`${label}: ran ${outcome.ran} runs`);
    return { perMinute: (outcome.ran / seconds) * 60, seconds, runs: outcome.ran };
  };

  await throughput("warm-up", task.checksPath);
  // Interleaved twice, so a change in the machine's load falls on both.
  const concurrent = [await throughput("concurrent-1", task.checksPath)];
  const sequential = [await throughput("sequential-1", sequentialFile)];
  sequential.push(await throughput("sequential-2", sequentialFile));
  concurrent.push(await throughput("concurrent-2", task.checksPath));
  const mean = (list: { perMinute: number }[]): number => list.reduce((sum, r) => sum + r.perMinute, 0) / list.length;
  const rows: Row[] = [
    {
      figure: `default study, ${concurrent[0]?.runs} runs at -j ${JOBS}, checks concurrent (sandbox: ${sandbox.sandbox.kind === "bwrap" ? `bwrap ${sandbox.sandbox.version}` : `none, ${sandbox.sandbox.reason}`})`,
      value: `${mean(concurrent).toFixed(1)} runs/min (${concurrent.map((r) => r.seconds.toFixed(1)).join(" s, ")} s)`,
      goal: "≥ 20 runs/min",
      met: mean(concurrent) >= 20,
      peer: `checks back to back: ${mean(sequential).toFixed(1)} runs/min (${sequential.map((r) => r.seconds.toFixed(1)).join(" s, ")} s)`,
    },
  ];
  console.log(machineLine());
  console.log("");
  console.log(table(rows));
  console.log("");
  console.log(`Wall time of whole studies (worktrees, the agent loop with the persona, every acceptance check), after one warm-up study; the two modes interleaved (concurrent, sequential, sequential, concurrent).`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
