/**
 * Token accounting's share of long scripted runs' CPU (ADRs 0117, 0131): runs of a persona that
 * sends each read 20 times before it writes (the looper's trait at its maximum), on the stockbook
 * repository with the task's check files at checks/ (as a study gives them, so its check commands
 * run the real checks), until 450 requests were made: each run makes ~140 model requests and its
 * history grows to ~300 messages. Goal: < 2 % of the run's CPU.
 *
 * Every figure is CPU, never wall time, so a neighbour's load or a preempted call does not count,
 * and each is a median over sets with a distribution-free interval (lib/interval.ts): "established"
 * only if the interval's upper end is below the goal. Sets are interleaved in rounds, in rotating
 * order. The figures:
 *  - over the runs' whole CPU: this process's, and their sandboxes' processes' (shell commands and
 *    checks) read from each run's cgroup, which the bench makes as runAgent would so it can read it
 *    before the run removes it (those processes are killed with it, so they never show as this
 *    process's children); the accounting is the timed figure below;
 *  - over this process's CPU alone, by V8 profile samples whose stack is in the accounting's code
 *    (lib/profile-share.ts: samples follow CPU time; nothing is added to any call);
 *  - the same, timed: getrusage before and after every outer call into the request counter, less
 *    an empty bracket read in place, over the set's CPU less what the readings cost: an upper bound
 *    (the system calls leave the call's caches colder; other threads' CPU counts);
 *  - the difference against sets with a counter that counts nothing (every count 0; the default
 *    arm has no token cap or context management, so the runs take the same steps): everything,
 *    collections included (the pair's order alternates, as a set pays for some of the garbage of
 *    the set before it), but whole sets vary by tens of ms, so it gets no verdict;
 *  - the first timed set's calls made again in order on a fresh counter (a floor: caches stay
 *    warm with nothing between calls).
 * Peer in the same run: the test double keeping a counter of its own (what it did before ADR 0086).
 * `npm run bench -- accounting`
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message, ModelReply, ModelRequest, ToolSpec } from "../../src/core/model.ts";
import { TokenCounter } from "../../src/core/tokens.ts";
import { runAgent } from "../../src/run/agent.ts";
import { RequestTokenCounter, type HistoryMark } from "../../src/run/agent-tokens.ts";
import { ScriptedClient, loadPersona } from "../../src/run/models/scripted.ts";
import { withRunGroup } from "../../src/run/sandbox/cgroup.ts";
import { defaultRunSandbox } from "../../src/run/sandbox/default.ts";
import { medianInterval, type Interval } from "./lib/interval.ts";
import { profileShare } from "./lib/profile-share.ts";
import { cpuNow, machineLine, median, table, type Row } from "./lib/report.ts";

const ROOT = join(import.meta.dirname, "../..");
const TASK = join(ROOT, "fixtures/tasks/stockbook");
const REQUESTS = 450;
/** Timed sets, one a round; the plain and counting-nothing pair in the first PAIRS rounds; the own-counter peer in OWN of them. */
const ROUNDS = 7;
const PAIRS = 3;
const OWN = 2;
/** µs between profile samples. */
const SAMPLING = 100;
/** The accounting's source: the request counter (and its JSON comparison) and everything of src/core/tokens. */
const ACCOUNTING = /\/src\/(run\/agent-tokens\.ts|run\/same-json\.ts|core\/tokens\.ts|core\/tokens\/)/;

type Call = { kind: "message"; arg: Message } | { kind: "tools"; arg: readonly ToolSpec[] } | { kind: "request"; arg: ModelRequest; mark: HistoryMark | undefined } | { kind: "reply"; arg: Pick<ModelReply, "text" | "toolCalls"> };

/** Process CPU in µs (all threads): getrusage, ~1 µs a reading, µs resolution. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * A request counter that adds the CPU of every outer call to `spent` (µs). Right before the call
 * an empty bracket is read too, and subtracted: what is left is the call, not the readings. The
 * first reading after other code is slower (its path is cold), so one reading comes before both.
 * `overhead` is what the readings themselves cost the set, taken out of its CPU for the share.
 */
class CpuTimedCounter extends RequestTokenCounter {
  spent = 0;
  overhead = 0;
  calls = 0;
  /** The outer calls in order, when recording (the same objects, for a replay). */
  recorded: Call[] | null = null;
  private depth = 0;
  private timed<T>(f: () => T, call: Call): T {
    if (this.depth > 0) return f();
    this.recorded?.push(call);
    this.depth += 1;
    const start = cpuMicros();
    const a = cpuMicros();
    const b = cpuMicros();
    try {
      return f();
    } finally {
      const c = cpuMicros();
      const call = c - b - (b - a);
      this.spent += call;
      // From the first reading to the last, less the call, plus the part of a reading outside that span.
      this.overhead += c - start - call + (b - a);
      this.calls += 1;
      this.depth -= 1;
    }
  }
  override message(message: Message): number {
    return this.timed(() => super.message(message), { kind: "message", arg: message });
  }
  override tools(tools: readonly ToolSpec[]): number {
    return this.timed(() => super.tools(tools), { kind: "tools", arg: tools });
  }
  // The loop's mark passed on, as the plain counter gets it (ADR 0169).
  override request(request: ModelRequest, mark?: HistoryMark): number {
    return this.timed(() => super.request(request, mark), { kind: "request", arg: request, mark });
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

const looper = await loadPersona(join(TASK, "personas/looper.yaml"));
const persona = { ...looper, traits: { ...looper.traits, repeatsCalls: 20 } };
const prompt = "You are a careful coding agent.";

/**
 * Scripted runs until REQUESTS requests, the loop counting with `loop` and the double with
 * `double`; CPU ms of the runs alone (not the folders' copying), and of the processes of the
 * runs' sandboxes (shell commands, checks) by each run's cgroup (NaN where there is none): they
 * are killed with the run, so the kernel never adds them to this process's children.
 */
async function runs(loop: RequestTokenCounter, double: RequestTokenCounter): Promise<{ requests: number; runs: number; cpu: number; sandboxCpu: number }> {
  let requests = 0;
  let count = 0;
  let cpu = 0;
  let sandboxCpu = 0;
  while (requests < REQUESTS) {
    const dir = await mkdtemp(join(tmpdir(), "bench-accounting-"));
    await cp(join(TASK, "repo"), dir, { recursive: true });
    await cp(join(TASK, "checks"), join(dir, "checks"), { recursive: true });
    const model = new ScriptedClient(persona, { seed: 1, runIndex: count, counter: double });
    // The group runAgent would make, made here so its CPU can be read before it goes.
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

/** A timed set: CPU ms inside the counter calls (both counters when the double has its own), and its share of the set's CPU without the readings. */
async function timedRuns(ownCounter: boolean, record?: Call[]): Promise<{ requests: number; runs: number; cpu: number; sandboxCpu: number; accounting: number; calls: number; share: number; wholeShare: number }> {
  const loop = new CpuTimedCounter(new TokenCounter());
  if (record !== undefined) loop.recorded = record;
  const double = ownCounter ? new CpuTimedCounter(new TokenCounter()) : loop;
  const result = await runs(loop, double);
  const counters = double === loop ? [loop] : [loop, double];
  const accounting = counters.reduce((sum, counter) => sum + counter.spent, 0) / 1000;
  const overhead = counters.reduce((sum, counter) => sum + counter.overhead, 0) / 1000;
  const cpu = result.cpu - overhead;
  return { ...result, cpu, accounting, calls: counters.reduce((sum, counter) => sum + counter.calls, 0), share: (100 * accounting) / cpu, wholeShare: (100 * accounting) / (cpu + result.sandboxCpu) };
}

const plainRuns = () => {
  const counter = new RequestTokenCounter(new TokenCounter());
  return runs(counter, counter);
};
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: SAMPLING });
/** A plain set under the sampling profiler: the share of its busy samples in the accounting's code. */
async function profiledRuns(): Promise<{ share: number; samples: number }> {
  await session.post("Profiler.start");
  await plainRuns();
  const { profile } = await session.post("Profiler.stop");
  const { inFiles, busy } = profileShare(profile, ACCOUNTING);
  return { share: (100 * inFiles) / busy, samples: inFiles };
}

const uncountedRuns = () => {
  const none = new NoCounter(new TokenCounter());
  return runs(none, none);
};

/** CPU ms of the recorded calls made again, in order, on a fresh counter: the counting work with nothing between calls. */
function replay(calls: readonly Call[]): number {
  const counter = new RequestTokenCounter(new TokenCounter());
  const start = cpuNow();
  for (const call of calls) {
    if (call.kind === "message") counter.message(call.arg);
    else if (call.kind === "tools") counter.tools(call.arg);
    else if (call.kind === "request") counter.request(call.arg, call.mark);
    else counter.reply(call.arg);
  }
  return cpuNow() - start;
}

// Warm-up: module loading, the rank table, V8's first compiles (counting nothing needs none).
await timedRuns(false);
await plainRuns();
const timed: Awaited<ReturnType<typeof timedRuns>>[] = [];
const own: Awaited<ReturnType<typeof timedRuns>>[] = [];
const plain: Awaited<ReturnType<typeof runs>>[] = [];
const uncounted: Awaited<ReturnType<typeof runs>>[] = [];
const profiled: Awaited<ReturnType<typeof profiledRuns>>[] = [];
const recorded: Call[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const steps = [async () => timed.push(await timedRuns(false, round === 0 ? recorded : undefined)), async () => profiled.push(await profiledRuns())];
  // The pair's two sets in alternating order, so neither always follows the other (a set pays
  // for some of the garbage the set before it left: a counting set leaves megabytes of kept
  // text). A full collection ending every set was tried: it made the sets after it slower,
  // the accounting twice as slow.
  const pair = [async () => plain.push(await plainRuns()), async () => uncounted.push(await uncountedRuns())];
  if (round < PAIRS) steps.push(...(round % 2 === 0 ? pair : pair.reverse()));
  if (round < OWN) steps.push(async () => own.push(await timedRuns(true)));
  // A rotating order, so no kind of set always follows the same other kind.
  for (let i = 0; i < steps.length; i += 1) await (steps[(i + round) % steps.length] as () => Promise<number>)();
}

const pct = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(2)} %`;
const plainCpu = medianInterval(plain.map((r) => r.cpu));
// Each set's accounting over its own CPU: load that slows the whole set slows both alike.
const share = medianInterval(timed.map((r) => r.share));
const spent = median(timed.map((r) => r.accounting));
const ownShare = median(own.map((r) => r.share));
const differences: Interval = medianInterval(plain.map((r, i) => r.cpu - (uncounted[i] as { cpu: number }).cpu));
const replayed = median(Array.from({ length: 11 }, () => replay(recorded)));
const first = timed[0] as Awaited<ReturnType<typeof timedRuns>>;
const sampled = medianInterval(profiled.map((r) => r.share));
const established = sampled.high < 2;
const grouped = timed.every((r) => Number.isFinite(r.sandboxCpu));
const whole = grouped ? medianInterval(timed.map((r) => r.wholeShare)) : null;
const wholeEstablished = whole !== null && whole.high < 2;

const coverage = (interval: Interval): string => `${Math.round(100 * interval.coverage)} %`;
const rows: Row[] = [
  {
    figure: `token accounting, ${first.requests} requests in ${first.runs} scripted runs, over the runs' whole CPU: this process's and their sandboxes' processes' (shell commands and checks, read from each run's cgroup); CPU inside every call into the counter (the timed figure below, an upper bound); median of ${ROUNDS} sets${whole === null ? "" : `, ${coverage(whole)} interval`}`,
    value:
      whole === null
        ? "no cgroup per run on this machine: not measured"
        : `${whole.median.toFixed(2)} % (${spent.toFixed(1)} of ${(median(timed.map((r) => r.cpu)) + median(timed.map((r) => r.sandboxCpu))).toFixed(0)} ms, of which ${median(timed.map((r) => r.sandboxCpu)).toFixed(0)} ms the sandboxes'); interval ${whole.low.toFixed(2)}–${whole.high.toFixed(2)} %: ${wholeEstablished ? "established" : "not established"}`,
    goal: "< 2 %",
    met: wholeEstablished,
    peer: `double with its own counter: ${median(own.map((r) => r.wholeShare)).toFixed(2)} % (median of ${own.length} sets)`,
  },
  {
    figure: `the same over this process's CPU alone (the double using the loop's counter): the share of its busy CPU profile samples (one per ${SAMPLING} µs of CPU) whose stack is in the accounting's code (src/run/agent-tokens.ts and same-json.ts, src/core/tokens*); median of ${ROUNDS} sets, ${coverage(sampled)} interval`,
    value: `${sampled.median.toFixed(2)} % (${median(profiled.map((r) => r.samples)).toFixed(0)} samples a set); interval ${sampled.low.toFixed(2)}–${sampled.high.toFixed(2)} %: ${established ? "established" : "not established"}`,
    goal: "< 2 %",
    met: established,
  },
  {
    figure: `the same timed: CPU inside every call into the counter (${first.calls.toLocaleString("en")} calls a set; getrusage before and after each, less an empty bracket) over the set's CPU without the readings; an upper bound (four system calls per call leave its caches colder, and other threads' CPU counts); median of ${ROUNDS} sets, ${coverage(share)} interval`,
    value: `${share.median.toFixed(2)} % (${spent.toFixed(1)} of ${median(timed.map((r) => r.cpu)).toFixed(0)} ms); interval ${share.low.toFixed(2)}–${share.high.toFixed(2)} %`,
    goal: "< 2 %",
    met: share.high < 2,
    peer: `double with its own counter: ${ownShare.toFixed(2)} % (median of ${own.length} sets)`,
  },
  {
    figure: `the same by difference, collections and caches included, this process's CPU: a plain set's minus a set's that counts nothing, median of ${PAIRS} pairs (one per round), ${coverage(differences)} interval; no verdict: whole sets differ by tens of ms from one to the next, far more than the accounting`,
    value: `${pct(differences.median, plainCpu.median)} (${differences.median.toFixed(1)} ms); interval ${pct(differences.low, plainCpu.median)} to ${pct(differences.high, plainCpu.median)}`,
  },
  {
    figure: `the first timed set's ${recorded.length.toLocaleString("en")} counter calls made again on a fresh counter, CPU (nothing between calls, so caches stay warm: a floor; median of 11)`,
    value: `${pct(replayed, plainCpu.median)} (${replayed.toFixed(1)} ms)`,
    goal: "< 2 %",
    met: replayed < 0.02 * plainCpu.median,
  },
];
console.log(machineLine());
console.log("");
console.log(table(rows));
console.log("");
console.log(
  `CPU of this process during the runs (the sandboxes' processes only where the figure says so), after one warm-up set of each kind; profiled sets ${profiled.map((r) => r.share.toFixed(2)).join(", ")} %; timed sets ${timed.map((r) => r.share.toFixed(2)).join(", ")} %; plain sets ${plainCpu.low.toFixed(0)}–${plainCpu.high.toFixed(0)} ms, sets counting nothing median ${median(uncounted.map((r) => r.cpu)).toFixed(0)} ms. An interval is the k-th smallest to the k-th largest of n samples (distribution-free, coverage as given); "established" only if its upper end is below the goal. CPU in a bracket is every thread's, so a concurrent compile or marker reads as accounting: the figure errs high.`,
);
