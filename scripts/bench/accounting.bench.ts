/**
 * Token accounting's share of long scripted runs' CPU: runs of a persona that sends each read 20
 * times before it writes (the looper's trait at its maximum), so each run makes ~150 model
 * requests and its history grows to ~300 messages, until 450 requests were made; every call into
 * the request counter is timed. Goal: < 2 % of
 * the process's CPU. Peer in the same run: the same runs with the test double keeping a counter of
 * its own (what it did before ADR 0086), which counts and hashes every request a second time.
 * `npm run bench -- accounting`
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message, ModelReply, ModelRequest, ToolSpec } from "../../src/core/model.ts";
import { TokenCounter } from "../../src/core/tokens.ts";
import { runAgent } from "../../src/run/agent.ts";
import { RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { ScriptedClient, loadPersona } from "../../src/run/models/scripted.ts";
import { cpuNow, machineLine, table, type Row } from "./lib/report.ts";

const ROOT = join(import.meta.dirname, "../..");
const REQUESTS = 450;

/**
 * A request counter that adds the time of every outer call to `spent`. The calls are short and
 * never wait, so wall time (performance.now, ~50 ns a read) stands in for CPU time
 * (process.cpuUsage is a system call of about 2 µs, which would be most of what it measures); a
 * preempted call only makes the share look larger.
 */
class TimedCounter extends RequestTokenCounter {
  spent = 0;
  private depth = 0;
  private timed<T>(f: () => T): T {
    if (this.depth > 0) return f();
    this.depth += 1;
    const start = performance.now();
    try {
      return f();
    } finally {
      this.spent += performance.now() - start;
      this.depth -= 1;
    }
  }
  override message(message: Message): number {
    return this.timed(() => super.message(message));
  }
  override tools(tools: readonly ToolSpec[]): number {
    return this.timed(() => super.tools(tools));
  }
  override request(request: ModelRequest): number {
    return this.timed(() => super.request(request));
  }
  override reply(reply: Pick<ModelReply, "text" | "toolCalls">): number {
    return this.timed(() => super.reply(reply));
  }
}

const looper = await loadPersona(join(ROOT, "fixtures/tasks/stockbook/personas/looper.yaml"));
const persona = { ...looper, traits: { ...looper.traits, repeatsCalls: 20 } };
const prompt = "You are a careful coding agent.";

/** Runs until REQUESTS requests ; `ownCounter` gives the double a counter of its own. */
async function study(ownCounter: boolean): Promise<{ requests: number; runs: number; cpu: number; accounting: number }> {
  const loop = new TimedCounter(new TokenCounter());
  const double = ownCounter ? new TimedCounter(new TokenCounter()) : loop;
  let requests = 0;
  let runs = 0;
  const start = cpuNow();
  while (requests < REQUESTS) {
    const dir = await mkdtemp(join(tmpdir(), "bench-accounting-"));
    await cp(join(ROOT, "fixtures/tasks/stockbook/repo"), dir, { recursive: true });
    const model = new ScriptedClient(persona, { seed: 1, runIndex: runs, counter: double });
    await runAgent({
      arm: { name: "bench", dir: ROOT, description: "", agent: "armstudy", prompt: { text: prompt, stablePrefix: prompt, prefixHash: "0", prefixTokens: 7 }, policies: [{ name: "none" }] },
      model,
      dir,
      handoff: "Do the handoff.",
      runIndex: runs,
      seed: 1,
      counter: loop,
      limits: { maxRounds: 1000, maxWallMs: 30 * 60_000 },
      onEvent: (event) => {
        if (event.type === "model.request") requests += 1;
      },
    });
    await rm(dir, { recursive: true, force: true });
    runs += 1;
  }
  const cpu = cpuNow() - start;
  return { requests, runs, cpu, accounting: loop.spent + (double === loop ? 0 : double.spent) };
}

await study(false); // warm-up: module loading, the rank table, V8's first compiles
const shared = await study(false);
const own = await study(true);
const share = (r: { cpu: number; accounting: number }): number => (100 * r.accounting) / r.cpu;
const rows: Row[] = [
  {
    figure: `token accounting, ${shared.requests} requests in ${shared.runs} scripted run${shared.runs === 1 ? "" : "s"} (the double uses the loop's counter)`,
    value: `${share(shared).toFixed(2)} % of CPU (${shared.accounting.toFixed(0)} of ${shared.cpu.toFixed(0)} ms)`,
    goal: "< 2 %",
    met: share(shared) < 2,
    peer: `double with its own counter: ${share(own).toFixed(2)} % (${own.accounting.toFixed(0)} of ${own.cpu.toFixed(0)} ms)`,
  },
];
console.log(machineLine());
console.log("");
console.log(table(rows));
console.log("");
console.log("Process CPU time of this process (child processes the tools and checks start are not in it), one run after a warm-up.");
