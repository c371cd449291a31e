/**
 * The accounting bench's workload (ADRs 0117, 0131): runs of a persona that sends each read 20
 * times before it writes (the looper's trait at its maximum), on the stockbook repository with
 * the task's check files at checks/ (as a study gives them, so its check commands run the real
 * checks), until REQUESTS requests were made: each run makes ~140 model requests and its history
 * grows to ~300 messages. One such batch of runs is a "set".
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent } from "../../../src/run/agent.ts";
import type { RequestTokenCounter } from "../../../src/run/agent-tokens.ts";
import { ScriptedClient, loadPersona } from "../../../src/run/models/scripted.ts";
import { withRunGroup } from "../../../src/run/sandbox/cgroup.ts";
import { defaultRunSandbox } from "../../../src/run/sandbox/default.ts";
import { cpuNow } from "./report.ts";

export const ROOT = join(import.meta.dirname, "../../..");
const TASK = join(ROOT, "fixtures/tasks/stockbook");
export const REQUESTS = 450;

const looper = await loadPersona(join(TASK, "personas/looper.yaml"));
const persona = { ...looper, traits: { ...looper.traits, repeatsCalls: 20 } };
const prompt = "You are a careful coding agent.";

export interface SetResult {
  requests: number;
  runs: number;
  /** CPU ms of this process during the runs (not the folders' copying). */
  cpu: number;
  /** CPU ms of the runs' sandboxes' processes, by each run's cgroup (NaN where there is none). */
  sandboxCpu: number;
}

/**
 * Scripted runs until REQUESTS requests, the loop counting with `loop` and the double with
 * `double`. The sandboxes' processes (shell commands, checks) are killed with the run, so the
 * kernel never adds them to this process's children: they are read from each run's cgroup, made
 * here as runAgent would so it can be read before it goes.
 */
export async function runs(loop: RequestTokenCounter, double: RequestTokenCounter): Promise<SetResult> {
  let requests = 0;
  let count = 0;
  let cpu = 0;
  let sandboxCpu = 0;
  while (requests < REQUESTS) {
    const dir = await mkdtemp(join(tmpdir(), "bench-accounting-"));
    await cp(join(TASK, "repo"), dir, { recursive: true });
    await cp(join(TASK, "checks"), join(dir, "checks"), { recursive: true });
    const model = new ScriptedClient(persona, { seed: 1, runIndex: count, counter: double });
    const sandbox = withRunGroup(defaultRunSandbox(process.env));
    const start = cpuNow();
    await runAgent({
      sandbox: sandbox.run,
      arm: { name: "bench", dir: ROOT, description: "", agent: "armstudy", prompt: { text: prompt, stablePrefix: prompt, prefixHash: "0", prefixTokens: 7 }, policies: [{ name: "none" }] },
      model,
      dir,
      handoff: "Do the handoff.",
      runIndex: count,
      seed: 1,
      counter: loop,
      limits: { maxRounds: 1000, maxWallMs: 30 * 60_000 },
      onEvent: (event) => {
        if (event.type === "model.request") requests += 1;
      },
    });
    cpu += cpuNow() - start;
    sandboxCpu += sandbox.run.group === undefined ? Number.NaN : sandbox.run.group.cpuNanos() / 1e6;
    sandbox.close();
    await rm(dir, { recursive: true, force: true });
    count += 1;
  }
  return { requests, runs: count, cpu, sandboxCpu };
}
