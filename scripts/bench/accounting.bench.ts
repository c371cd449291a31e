/**
 * Token accounting's share of long scripted runs' CPU: runs of a persona that sends each read 20
 * times before it writes (the looper's trait at its maximum), on the stockbook repository with the
 * task's check files at checks/ (as a study gives them, so its check commands run the real
 * checks), until 450 requests were made: each run makes ~140 model requests and its history grows
 * to ~300 messages. Goal: < 2 % of the process's CPU.
 *
 * Every outer call into the request counter is timed with performance.now and summed, over the
 * process's CPU time; shared-counter and own-counter sets are interleaved and the medians of
 * REPETITIONS sets reported. Wall time inside a call includes any time the process was preempted
 * or a collection ran, so under load the share reads high and swings from set to set (ADR 0117).
 * Beside it, the first set's calls made again in order on a fresh counter, timed as CPU: the
 * counting work alone, load-proof but a floor (caches stay warm with nothing between calls).
 * And the difference itself, load-proof in CPU time: the same runs with a counter that counts
 * nothing (every count 0; the default arm has no token cap or context management, so the runs
 * take the same steps), interleaved, medians; over this process's CPU and over the run's whole
 * CPU, the tool and check processes it started included.
 * Peer in the same run: the test double keeping a counter of its own (what it did before ADR 0086).
 * `npm run bench -- accounting`
 */
import { readFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message, ModelReply, ModelRequest, ToolSpec } from "../../src/core/model.ts";
import { TokenCounter } from "../../src/core/tokens.ts";
import { runAgent } from "../../src/run/agent.ts";
import { RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { ScriptedClient, loadPersona } from "../../src/run/models/scripted.ts";
import { cpuNow, machineLine, median, table, type Row } from "./lib/report.ts";

const ROOT = join(import.meta.dirname, "../..");
const TASK = join(ROOT, "fixtures/tasks/stockbook");
const REQUESTS = 450;
const REPETITIONS = 5;
const DIFFERENCE_REPETITIONS = 11;

/**
 * A request counter that adds the time of every outer call to `spent`. The calls are short and
 * never wait, so wall time (performance.now, ~50 ns a read) stands in for CPU time
 * (process.cpuUsage is a system call of about 2 µs, which would be most of what it measures); a
 * preempted call only makes the share look larger.
 */
type Call = { kind: "message"; arg: Message } | { kind: "tools"; arg: readonly ToolSpec[] } | { kind: "request"; arg: ModelRequest } | { kind: "reply"; arg: Pick<ModelReply, "text" | "toolCalls"> };

class TimedCounter extends RequestTokenCounter {
  spent = 0;
  /** The outer calls in order, when recording (the same objects, for a replay). */
  calls: Call[] | null = null;
  private depth = 0;
  private timed<T>(f: () => T, call: Call): T {
    if (this.depth > 0) return f();
    this.calls?.push(call);
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
    return this.timed(() => super.message(message), { kind: "message", arg: message });
  }
  override tools(tools: readonly ToolSpec[]): number {
    return this.timed(() => super.tools(tools), { kind: "tools", arg: tools });
  }
  override request(request: ModelRequest): number {
    return this.timed(() => super.request(request), { kind: "request", arg: request });
  }
  override reply(reply: Pick<ModelReply, "text" | "toolCalls">): number {
    return this.timed(() => super.reply(reply), { kind: "reply", arg: reply });
  }
}

/** Counts nothing: the runs without token accounting, for the difference in CPU. */
class NoCounter extends RequestTokenCounter {
  override message(): number {
    return 0;
  }
  override tools(): number {
    return 0;
  }
  override request(): number {
    return 0;
  }
  override reply(): number {
    return 0;
  }
}

/** CPU ms of the processes this one started and has waited for (tools, checks), so far: /proc cutime + cstime, in 10 ms ticks. */
function childCpuNow(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

const looper = await loadPersona(join(TASK, "personas/looper.yaml"));
const persona = { ...looper, traits: { ...looper.traits, repeatsCalls: 20 } };
const prompt = "You are a careful coding agent.";

/** Scripted runs until REQUESTS requests, the loop counting with `loop` and the double with `double`. */
async function runs(loop: RequestTokenCounter, double: RequestTokenCounter): Promise<{ requests: number; runs: number; cpu: number; childCpu: number }> {
  let requests = 0;
  let count = 0;
  const start = cpuNow();
  const childStart = childCpuNow();
  while (requests < REQUESTS) {
    const dir = await mkdtemp(join(tmpdir(), "bench-accounting-"));
    await cp(join(TASK, "repo"), dir, { recursive: true });
    await cp(join(TASK, "checks"), join(dir, "checks"), { recursive: true });
    const model = new ScriptedClient(persona, { seed: 1, runIndex: count, counter: double });
    await runAgent({
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
    await rm(dir, { recursive: true, force: true });
    count += 1;
  }
  return { requests, runs: count, cpu: cpuNow() - start, childCpu: childCpuNow() - childStart };
}

/** The same runs counting nothing. */
async function uncountedRuns(): Promise<{ cpu: number; childCpu: number }> {
  const none = new NoCounter(new TokenCounter());
  return runs(none, none);
}

/** Timed runs; `ownCounter` gives the double a counter of its own; `record` keeps the calls. */
async function timedRuns(ownCounter: boolean, record?: Call[]): Promise<{ requests: number; runs: number; cpu: number; childCpu: number; accounting: number }> {
  const loop = new TimedCounter(new TokenCounter());
  if (record !== undefined) loop.calls = record;
  const double = ownCounter ? new TimedCounter(new TokenCounter()) : loop;
  const result = await runs(loop, double);
  return { ...result, accounting: loop.spent + (double === loop ? 0 : double.spent) };
}

/** CPU ms of the recorded calls made again, in order, on a fresh counter: the counting work with nothing between calls. */
function replay(calls: readonly Call[]): number {
  const counter = new RequestTokenCounter(new TokenCounter());
  const start = cpuNow();
  for (const call of calls) {
    if (call.kind === "message") counter.message(call.arg);
    else if (call.kind === "tools") counter.tools(call.arg);
    else if (call.kind === "request") counter.request(call.arg);
    else counter.reply(call.arg);
  }
  return cpuNow() - start;
}

await timedRuns(false); // warm-up: module loading, the rank table, V8's first compiles
const shared: Awaited<ReturnType<typeof timedRuns>>[] = [];
const own: Awaited<ReturnType<typeof timedRuns>>[] = [];
const recorded: Call[] = [];
const counted: { cpu: number; childCpu: number }[] = [];
const uncounted: { cpu: number; childCpu: number }[] = [];
for (let i = 0; i < REPETITIONS; i += 1) {
  shared.push(await timedRuns(false, i === 0 ? recorded : undefined));
  own.push(await timedRuns(true));
}
// The difference: plain counting runs (no timing wrapper) against runs that count nothing, interleaved.
for (let i = 0; i < DIFFERENCE_REPETITIONS; i += 1) {
  const loop = new RequestTokenCounter(new TokenCounter());
  counted.push(await runs(loop, loop));
  uncounted.push(await uncountedRuns());
}
const withCounting = median(counted.map((r) => r.cpu));
const withoutCounting = median(uncounted.map((r) => r.cpu));
const children = median([...counted, ...uncounted].map((r) => r.childCpu));
// Each counting set against the uncounted set right after it: the median of the paired differences.
const differences = counted.map((r, i) => r.cpu - (uncounted[i] as { cpu: number }).cpu);
const difference = median(differences);
const differenceShare = (100 * difference) / withCounting;
const wholeShare = (100 * difference) / (withCounting + children);
const replayed = median(Array.from({ length: 11 }, () => replay(recorded)));

const share = (r: { cpu: number; accounting: number }): number => (100 * r.accounting) / r.cpu;
const medianOf = (list: { cpu: number; accounting: number }[]) => ({ share: median(list.map(share)), accounting: median(list.map((r) => r.accounting)), cpu: median(list.map((r) => r.cpu)) });
const s = medianOf(shared);
const o = medianOf(own);
const first = shared[0] as Awaited<ReturnType<typeof timedRuns>>;
const replayShare = (100 * replayed) / (shared[0] as { cpu: number }).cpu;
const rows: Row[] = [
  {
    figure: `token accounting, ${first.requests} requests in ${first.runs} scripted runs: wall time of every call into the counter over the process's CPU (the double uses the loop's counter; median of ${REPETITIONS} sets)`,
    value: `${s.share.toFixed(2)} % of CPU (${s.accounting.toFixed(1)} of ${s.cpu.toFixed(0)} ms)`,
    goal: "< 2 %",
    met: s.share < 2,
    peer: `double with its own counter: ${o.share.toFixed(2)} % (${o.accounting.toFixed(1)} of ${o.cpu.toFixed(0)} ms)`,
  },
  {
    figure: `the same, all of it (garbage collection and caches included): this process's CPU with counting minus without (a counter that counts nothing), median of ${DIFFERENCE_REPETITIONS} interleaved pairs, over its CPU with counting`,
    value: `${differenceShare.toFixed(2)} % (median difference ${difference.toFixed(1)} ms of ${withCounting.toFixed(0)} ms; pairs from ${Math.min(...differences).toFixed(0)} to ${Math.max(...differences).toFixed(0)} ms; without counting ${withoutCounting.toFixed(0)} ms)`,
    goal: "< 2 %",
    met: differenceShare < 2,
  },
  {
    figure: "the same difference over the run's whole CPU: this process and the tool and check processes it started (median child CPU of all sets)",
    value: `${wholeShare.toFixed(2)} % (${difference.toFixed(1)} of ${(withCounting + children).toFixed(0)} ms)`,
    goal: "< 2 %",
    met: wholeShare < 2,
  },
  {
    figure: `the first set's ${recorded.length.toLocaleString("en")} counter calls made again on a fresh counter, CPU (no work between calls, so caches stay warm: a floor; median of 11)`,
    value: `${replayShare.toFixed(2)} % of that set's CPU (${replayed.toFixed(1)} of ${(shared[0] as { cpu: number }).cpu.toFixed(0)} ms)`,
    goal: "< 2 %",
    met: replayShare < 2,
  },
];
console.log(machineLine());
console.log("");
console.log(table(rows));
console.log("");
console.log(
  "Process CPU time of this process (child processes the tools and checks start are not in it), after one warm-up set of runs; shared and own-counter sets interleaved. Wall time inside a call includes any time the process waited for a core or a collection ran, so the sum swings with load; the median call (in the ADR) does not.",
);
