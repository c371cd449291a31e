/**
 * What the sandbox costs. `npm run bench -- sandbox`
 *
 * 1. Per shell call: a ~10 ms command (`sleep 0.01`) through the shell tool's `runCommand`: in the
 *    run's one sandbox (RunShell, what a run's calls use, ADR 0113), in a sandbox of its own (what a
 *    caller with no run gets), and with none; interleaved call by call, medians. Target: the run's
 *    sandbox <= 1.3x.
 * 2. Per run: the default study (three arms, scripted model, real clones, the agent loop, all six
 *    acceptance checks), sandboxed and with `--no-sandbox`, alternating, wall time per run.
 *    Nine rounds (a run under load varies by 2x between rounds; the median needs them). Target: sandboxed <= 1.1x.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readFileSync } from "node:fs";
import { probeSandbox } from "../../src/run/sandbox/probe.ts";
import { withRunGroup } from "../../src/run/sandbox/cgroup.ts";
import { RunShell } from "../../src/run/sandbox/run-shell.ts";
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

const load = (): string => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function perCall(iterations: number): Promise<Array<Record<string, string>>> {
  const dir = mkdtempSync(join(work, "call-"));
  const env = { ...process.env };
  const boxed: RunSandbox = { sandbox, network: "none", readable: [] };
  const bare: RunSandbox = { sandbox: none, network: "none", readable: [] };
  // The same sandboxes in a run's cgroup (ADR 0114), as runAgent gives them where it can.
  const grouped = withRunGroup(boxed);
  const runShell = RunShell.open(boxed, dir, env);
  const groupShell = RunShell.open(grouped.run, dir, env);
  if (runShell === null || groupShell === null) throw new Error("a run's sandbox needs bubblewrap and root");
  const inGroup = grouped.run.group === undefined ? "" : ", in the run's cgroup";
  const variants: Array<{ name: string; options: { sandbox: RunSandbox; runShell?: RunShell } }> = [
    { name: `bubblewrap ${sandbox.kind === "bwrap" ? sandbox.version : ""}, the run's one sandbox`, options: { sandbox: boxed, runShell } },
    ...(inGroup === "" ? [] : [{ name: `the run's one sandbox${inGroup}`, options: { sandbox: grouped.run, runShell: groupShell } }]),
    { name: "bubblewrap, a sandbox per call", options: { sandbox: boxed } },
    ...(inGroup === "" ? [] : [{ name: `a sandbox per call${inGroup}`, options: { sandbox: grouped.run } }]),
    { name: "no sandbox", options: { sandbox: bare } },
  ];
  const times: number[][] = variants.map(() => []);
  try {
    // Call by call in turn, so a change in the machine's load falls on every variant alike.
    for (let round = 0; round < iterations + 3; round += 1) {
      for (const [index, variant] of variants.entries()) {
        const started = performance.now();
        const result = await runCommand("sleep 0.01", { cwd: dir, env, timeoutMs: 30_000, outputLimit: 1000, ...variant.options });
        if (result.exitCode !== 0) throw new Error(`exit ${result.exitCode}: ${result.output}`);
        if (round >= 3) times[index]?.push(performance.now() - started);
      }
    }
  } finally {
    runShell.close();
    groupShell.close();
    grouped.close();
  }
  const base = median(times[variants.length - 1] ?? []);
  return variants.map((variant, index) => ({
    "shell call, sleep 0.01": variant.name,
    "p50 ms": median(times[index] ?? []).toFixed(1),
    "x unsandboxed": (median(times[index] ?? []) / base).toFixed(2),
  }));
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
  console.log(`load average before: ${load()}`);
  console.table(await perCall(quick ? 10 : 60));
  console.log(`load average after the calls: ${load()}`);
  const runs = quick ? 1 : 2;
  const rounds = quick ? 1 : 9;
  const sandboxed: number[] = [];
  const perProcess: number[] = [];
  const bare: number[] = [];
  const grouping = sandbox.kind === "bwrap" && sandbox.groups?.kind === "cgroup";
  const ulimitOnly: Sandbox = sandbox.kind === "bwrap" ? { ...sandbox, groups: { kind: "ulimit", reason: "bench: per-process limits" } } : sandbox;
  // Alternate, so a change in the machine's load falls on every side.
  for (let round = 0; round < rounds; round += 1) {
    sandboxed.push(await study(sandbox, `bwrap-${round}`, runs));
    if (grouping) perProcess.push(await study(ulimitOnly, `ulimit-${round}`, runs));
    bare.push(await study(none, `none-${round}`, runs));
  }
  const row = (label: string, values: number[]) => ({ "default study, per run": label, "median ms": median(values).toFixed(0), "all ms": values.map((v) => v.toFixed(0)).join(", "), "x unsandboxed": (median(values) / median(bare)).toFixed(2) });
  console.table([
    row(grouping ? "bubblewrap, a cgroup for the run, one for its checks" : "bubblewrap", sandboxed),
    ...(grouping ? [row("bubblewrap, per-process limits", perProcess)] : []),
    { "default study, per run": "no sandbox", "median ms": median(bare).toFixed(0), "all ms": bare.map((v) => v.toFixed(0)).join(", "), "x unsandboxed": "1.00" },
  ]);
  console.log(`load average after the runs: ${load()}`);
  console.log("targets: shell call (the run's sandbox, what runs use) <= 1.30x; study run <= 1.10x");
} finally {
  rmSync(work, { recursive: true, force: true });
}
