/**
 * What the sandbox costs. `npm run bench -- sandbox`
 *
 * 1. Per shell call: a ~10 ms command (`sleep 0.01`) through the shell tool's `runCommand`, in the
 *    bubblewrap sandbox and with none, interleaved in one run. Target: sandboxed <= 1.3x.
 * 2. Per run: the default study (three arms, scripted model, real clones, the agent loop, all six
 *    acceptance checks), sandboxed and with `--no-sandbox`, alternating, wall time per run.
 *    Target: sandboxed <= 1.1x.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Bench } from "tinybench";
import { probeSandbox } from "../../src/run/sandbox/probe.ts";
import type { RunSandbox, Sandbox } from "../../src/run/sandbox/types.ts";
import { runCommand } from "../../src/run/tools/shell.ts";
import { defaultStudyDeps } from "../../src/study/deps.ts";
import { runStudy } from "../../src/study/runner.ts";
import { loadStudyFile } from "../../src/study/study-file.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "armstudy-bench-sandbox-"));
const quick = process.argv.includes("--quick");
const sandbox = probeSandbox({ env: process.env });
if (sandbox.kind !== "bwrap") {
  console.error(`no sandbox to measure: ${sandbox.reason}`);
  process.exit(1);
}
const none: Sandbox = { kind: "none", reason: "--no-sandbox was given", chosen: true };

async function perCall(iterations: number): Promise<Array<Record<string, string>>> {
  const dir = mkdtempSync(join(work, "call-"));
  const call = (box: Sandbox) => async () => {
    const run: RunSandbox = { sandbox: box, network: "none", readable: [] };
    const result = await runCommand("sleep 0.01", { cwd: dir, env: process.env, timeoutMs: 30_000, outputLimit: 1000, sandbox: run });
    if (result.exitCode !== 0) throw new Error(`exit ${result.exitCode}: ${result.output}`);
  };
  const bench = new Bench({ iterations, warmupIterations: 3, time: 0 });
  bench.add(`bubblewrap ${sandbox.kind === "bwrap" ? sandbox.version : ""}`, call(sandbox)).add("no sandbox", call(none));
  await bench.run();
  const p50 = (index: number): number => (bench.tasks[index]?.result as { latency?: { p50?: number } } | undefined)?.latency?.p50 ?? Number.NaN;
  const base = p50(1);
  return bench.tasks.map((task, index) => ({ "shell call, sleep 0.01": task.name, "p50 ms": p50(index).toFixed(1), "x unsandboxed": (p50(index) / base).toFixed(2) }));
}

async function study(box: Sandbox, label: string, runs: number): Promise<number> {
  const spec = await loadStudyFile(join(ROOT, "arms/default.study.yaml"));
  const started = performance.now();
  const outcome = await runStudy({
    spec,
    deps: defaultStudyDeps({ env: { PATH: process.env.PATH } }),
    outDir: join(work, `study-${label}`),
    cacheRoot: join(work, "cache"),
    worktreeRoot: join(work, `wt-${label}`),
    cwd: ROOT,
    runs,
    concurrency: 1,
    sandbox: box,
  });
  if (outcome.ran !== runs * spec.arms.length || outcome.errors > 0) throw new Error(`ran ${outcome.ran} runs, ${outcome.errors} errors`);
  return (performance.now() - started) / outcome.ran;
}

try {
  console.table(await perCall(quick ? 10 : 40));
  const runs = quick ? 1 : 2;
  const rounds = quick ? 1 : 3;
  const sandboxed: number[] = [];
  const bare: number[] = [];
  // Alternate, so a change in the machine's load falls on both sides.
  for (let round = 0; round < rounds; round += 1) {
    sandboxed.push(await study(sandbox, `bwrap-${round}`, runs));
    bare.push(await study(none, `none-${round}`, runs));
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  console.table([
    { "default study, per run": "bubblewrap", "median ms": median(sandboxed).toFixed(0), "all ms": sandboxed.map((v) => v.toFixed(0)).join(", "), "x unsandboxed": (median(sandboxed) / median(bare)).toFixed(2) },
    { "default study, per run": "no sandbox", "median ms": median(bare).toFixed(0), "all ms": bare.map((v) => v.toFixed(0)).join(", "), "x unsandboxed": "1.00" },
  ]);
  console.log("targets: shell call <= 1.30x; study run <= 1.10x");
} finally {
  rmSync(work, { recursive: true, force: true });
}
