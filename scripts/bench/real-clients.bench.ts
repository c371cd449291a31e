/**
 * Wall time of one agent run on the same persona: our own loop against each real client (Codex,
 * Claude Code, pi, as `npm run agents:install` installed them) driven through the persona server,
 * and each client on the host network against the same client in a loopback-only network
 * namespace (the bridge's overhead). `npm run bench -- real-clients [--quick]`
 *
 * Every run plays the default study's persona (early-stopper: B1 and B2, then a claim) on a fresh
 * copy of the fixture repository (reset before each iteration, outside the timing); acceptance
 * checks are not run. Clients not installed are skipped and named.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Bench } from "tinybench";
import { runAgent } from "../../src/run/agent.ts";
import { loadArm } from "../../src/run/arms/load.ts";
import { type ClientName, clientBinary } from "../../src/run/drivers/clients.ts";
import { createDriver } from "../../src/run/drivers/driver.ts";
import { driverEndpoint } from "../../src/run/drivers/endpoints.ts";
import { type NetworkMode, probeNetwork } from "../../src/run/drivers/netns.ts";
import { createModelClient } from "../../src/run/models/spec.ts";
import { createToolbox } from "../../src/run/tools/index.ts";
import { importSessionFile, isSessionFormat } from "../../src/sessions/import.ts";
import { liveMapper } from "../../src/sessions/live.ts";
import { readFileSync } from "node:fs";

const ROOT = resolve(import.meta.dirname, "../..");
const quick = process.argv.includes("--quick");
const iterations = quick ? 2 : 4;
const work = mkdtempSync(join(tmpdir(), "armstudy-bench-real-"));
const repo = join(work, "repo");
cpSync(join(ROOT, "fixtures/tasks/stockbook/repo"), repo, { recursive: true });
cpSync(join(ROOT, "fixtures/tasks/stockbook/checks"), join(repo, "checks"), { recursive: true });
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore", env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b.invalid" } });
git("init", "-q", "-b", "main");
git("add", "-A");
git("commit", "-q", "-m", "fixture");
const reset = () => {
  git("reset", "-q", "--hard");
  git("clean", "-qfdx");
};

const handoff = readFileSync(join(ROOT, "fixtures/tasks/stockbook/handoff.md"), "utf8");
const personaSpec = "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml";
const ordinary = await loadArm(join(ROOT, "arms"), "ordinary", { cwd: ROOT });
const namespace = probeNetwork({ env: process.env });
const host: NetworkMode = { kind: "host", reason: "benchmark peer" };

let runIndex = 0;
const model = () => createModelClient(personaSpec, { env: {}, cwd: ROOT, seed: 1, runIndex: (runIndex += 1) });
const importSession = async (path: string, format: string) => {
  if (!isSessionFormat(format)) throw new Error(format);
  return (await importSessionFile(path, { format })).events;
};

function driven(client: ClientName, bin: string, network: NetworkMode) {
  const driver = createDriver(client, { bin, mapper: liveMapper, endpoint: driverEndpoint(client, { env: {}, tools: createToolbox().specs(), network }), importSession, timeoutMs: 120_000 });
  return async () => {
    const outcome = await driver({ arm: { ...ordinary, name: client, agent: client, prompt: null, pack: null }, model: await model(), dir: repo, handoff, runIndex, seed: 1, onEvent: () => undefined });
    if (outcome.status !== "completed") throw new Error(`${client}: ${outcome.status} ${outcome.reason ?? ""}`);
  };
}

const bench = new Bench({ iterations, warmupIterations: 1, time: 0 });
const ours = "armstudy loop (ordinary arm)";
bench.add(
  ours,
  async () => {
    const outcome = await runAgent({ arm: ordinary, model: await model(), dir: repo, handoff, runIndex, seed: 1, onEvent: () => undefined, env: { PATH: process.env.PATH } });
    if (outcome.status !== "completed") throw new Error(`ours: ${outcome.status}`);
  },
  { beforeEach: reset },
);
const skipped: string[] = [];
for (const client of ["codex", "claude", "pi"] as const) {
  const bin = clientBinary(client, process.env, ROOT);
  if (bin === null) {
    skipped.push(`${client} (not installed)`);
    continue;
  }
  bench.add(`${client}, host network`, driven(client, bin, host), { beforeEach: reset });
  if (namespace.kind === "namespace") bench.add(`${client}, loopback-only namespace`, driven(client, bin, namespace), { beforeEach: reset });
  else skipped.push(`${client} in a namespace (${namespace.reason})`);
}

try {
  await bench.run();
  const mean = (name: string): number => (bench.tasks.find((t) => t.name === name)?.result as { latency?: { mean?: number } } | undefined)?.latency?.mean ?? Number.NaN;
  const base = mean(ours);
  console.table(
    bench.tasks.map((task) => {
      const ms = mean(task.name);
      const hostPeer = task.name.endsWith("namespace") ? mean(task.name.replace("loopback-only namespace", "host network")) : Number.NaN;
      return {
        run: task.name,
        "mean ms": Math.round(ms),
        "x our loop": (ms / base).toFixed(1),
        "namespace overhead ms": Number.isNaN(hostPeer) ? "" : Math.round(ms - hostPeer),
      };
    }),
  );
  console.log(`iterations: ${iterations} per row (after 1 warm-up); skipped: ${skipped.join(", ") || "none"}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
