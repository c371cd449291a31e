/**
 * Token accounting's share of long scripted runs' CPU (ADRs 0117, 0131, 0174): sets of runs of a
 * persona that sends each read 20 times before it writes, on the stockbook repository with its
 * real checks, until 450 requests were made (lib/accounting-workload.ts). Goal: < 2 % of the
 * run's CPU; the verdict is read over this process's own CPU.
 *
 * Every figure is CPU, never wall time, and each is a median over sets with a distribution-free
 * interval (lib/interval.ts): "established" only if the interval's upper end is below the goal.
 * Sets are interleaved in rounds, in rotating order. The figures:
 *  - over the runs' whole CPU: this process's, and their sandboxes' processes' (shell commands and
 *    checks) read from each run's cgroup; the accounting is the timed figure below;
 *  - the verdict, over this process's CPU alone: the share of V8 profile samples (one asked per
 *    100 µs, as before ADR 0174) whose stack is in the accounting (lib/accounting-code.ts): a frame
 *    of any method of the request counter or its text counter (lib/counter-functions.ts, located
 *    through the inspector: whatever they call, in any file), or of the accounting's modules
 *    (lib/accounting-modules.ts: the files ADR 0131 named and whatever they alone import, so a file
 *    the counter comes to use joins by itself). Samples follow CPU time and nothing is added to any
 *    call. ~30 accounting samples a set, so 24 sets (4 a round) for an interval with k = 7;
 *  - the same asked per 10 µs (a set a round): V8's sampler then takes ~2.5× the samples (it caps
 *    at one per 80–100 µs of wall time here), and the sets read higher by 0–0.8 points: sampling
 *    perturbs the accounting (its signals leave caches colder, and the accounting is cold-cache
 *    work, ADR 0156). The shift between the two (lib/shift-interval.ts) is printed, with the share
 *    extrapolated to no sampling along it; a finer figure reading lower withholds the verdict;
 *  - the verdict's sets over every thread of the process (the samples are the main thread's):
 *    each set's share times its main thread's part of the process's CPU (lib/thread-cpu.ts);
 *  - the same, timed: getrusage before and after every outer call into the request counter, less
 *    an empty bracket read in place, over the set's CPU less what the readings cost: an upper bound
 *    (the system calls leave the call's caches colder; other threads' CPU counts);
 *  - the difference against sets with a counter that counts nothing (no verdict: whole sets vary
 *    by tens of ms);
 *  - the first timed set's calls made again in order on a fresh counter (a floor: caches stay
 *    warm with nothing between calls).
 * Peer in the same run: the test double keeping a counter of its own (what it did before ADR 0086).
 * `npm run bench -- accounting`
 */
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import type { Message, ModelReply, ModelRequest, ToolSpec } from "../../src/core/model.ts";
import { TokenCounter } from "../../src/core/tokens.ts";
import { RequestTokenCounter, type HistoryMark } from "../../src/run/agent-tokens.ts";
import { either } from "./lib/accounting-code.ts";
import { accountingModules, inModules, readImports } from "./lib/accounting-modules.ts";
import { ROOT, runs } from "./lib/accounting-workload.ts";
import { functionKeys, isOneOf, methodsOf } from "./lib/counter-functions.ts";
import { medianInterval, type Interval } from "./lib/interval.ts";
import { profileShare } from "./lib/profile-share.ts";
import { cpuNow, machineLine, median, table, type Row } from "./lib/report.ts";
import { shiftInterval, toNoSampling } from "./lib/shift-interval.ts";
import { threadCpu, threadSpan } from "./lib/thread-cpu.ts";

/** Rounds; each has a timed set, VERDICT_PER_ROUND profiled sets at VERDICT µs and one at CHECK µs; the plain and counting-nothing pair in the first PAIRS rounds; the own-counter peer in OWN of them. */
const ROUNDS = 6;
const VERDICT_PER_ROUND = 4;
const PAIRS = 3;
const OWN = 2;
/** µs between profile samples asked of V8: the verdict's (as before ADR 0174), and the finer check's. */
const VERDICT = 100;
const CHECK = 10;

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
// The counter's call tree: a frame of any method of the request counter or its text counter.
const inCounter = isOneOf(await functionKeys(session, methodsOf([RequestTokenCounter, TokenCounter])));
// The accounting's modules: the seeds and what they alone import.
const modules = accountingModules(readImports(join(ROOT, "src")));
const inFiles = inModules(modules);
const inAccounting = either(inCounter, inFiles);

interface Profiled {
  /** Percent of busy samples in the accounting (the union). */
  share: number;
  samples: number;
  busy: number;
  /** Samples inside a counter call but in none of the accounting's files, and the reverse. */
  treeOnly: number;
  filesOnly: number;
  /** The main thread's part of the process's CPU in the set, the profiler's thread left out. */
  mainPart: number;
}
/** A plain set under the sampling profiler at `interval` µs. */
async function profiledRuns(interval: number): Promise<Profiled> {
  await session.post("Profiler.setSamplingInterval", { interval });
  await session.post("Profiler.start");
  const before = threadCpu();
  await plainRuns();
  // Read before the profiler stops, while its thread (left out: it exists only to sample) still runs.
  const threads = threadSpan(before, threadCpu(), process.pid, (comm) => comm.startsWith("v8:Prof"));
  const { profile } = await session.post("Profiler.stop");
  const union = profileShare(profile, inAccounting);
  const files = profileShare(profile, inFiles).inFiles;
  const tree = profileShare(profile, inCounter).inFiles;
  return { share: (100 * union.inFiles) / union.busy, samples: union.inFiles, busy: union.busy, treeOnly: union.inFiles - files, filesOnly: union.inFiles - tree, mainPart: threads.main / (threads.main + threads.others) };
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
await profiledRuns(VERDICT);
const timed: Awaited<ReturnType<typeof timedRuns>>[] = [];
const own: Awaited<ReturnType<typeof timedRuns>>[] = [];
const plain: Awaited<ReturnType<typeof runs>>[] = [];
const uncounted: Awaited<ReturnType<typeof runs>>[] = [];
const verdictSets: Profiled[] = [];
const checkSets: Profiled[] = [];
const recorded: Call[] = [];
const started = performance.now();
for (let round = 0; round < ROUNDS; round += 1) {
  const steps = [async () => timed.push(await timedRuns(false, round === 0 ? recorded : undefined)), async () => checkSets.push(await profiledRuns(CHECK))];
  for (let i = 0; i < VERDICT_PER_ROUND; i += 1) steps.push(async () => verdictSets.push(await profiledRuns(VERDICT)));
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
const minutes = (performance.now() - started) / 60_000;

const pct = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(2)} %`;
const plainCpu = medianInterval(plain.map((r) => r.cpu));
// Each set's accounting over its own CPU: load that slows the whole set slows both alike.
const share = medianInterval(timed.map((r) => r.share));
const spent = median(timed.map((r) => r.accounting));
const ownShare = median(own.map((r) => r.share));
const differences: Interval = medianInterval(plain.map((r, i) => r.cpu - (uncounted[i] as { cpu: number }).cpu));
const replayed = median(Array.from({ length: 11 }, () => replay(recorded)));
const first = timed[0] as Awaited<ReturnType<typeof timedRuns>>;
const sampled = medianInterval(verdictSets.map((r) => r.share));
const finer = medianInterval(checkSets.map((r) => r.share));
// Finer minus the verdict's, in points: reading lower beyond the shift's interval withholds the verdict.
const moved = shiftInterval(checkSets.map((r) => r.share), verdictSets.map((r) => r.share));
const biasedLow = moved.high < 0;
const established = sampled.high < 2 && !biasedLow;
const verdictRate = median(verdictSets.map((r) => r.busy));
const checkRate = median(checkSets.map((r) => r.busy));
const unsampled = toNoSampling(sampled.median, moved.shift, verdictRate, checkRate);
// The verdict's samples are the main thread's; over every thread of the process (no verdict).
const allThreads = medianInterval(verdictSets.map((r) => r.share * r.mainPart));
const pooled = (sets: readonly Profiled[]): string => `${((100 * sets.reduce((s, r) => s + r.samples, 0)) / sets.reduce((s, r) => s + r.busy, 0)).toFixed(2)} % pooled over ${sets.reduce((s, r) => s + r.samples, 0)} samples`;
const grouped = timed.every((r) => Number.isFinite(r.sandboxCpu));
const whole = grouped ? medianInterval(timed.map((r) => r.wholeShare)) : null;
const wholeEstablished = whole !== null && whole.high < 2;
const treeOnly = verdictSets.reduce((s, r) => s + r.treeOnly, 0);
const filesOnly = verdictSets.reduce((s, r) => s + r.filesOnly, 0);

const coverage = (interval: { coverage: number }): string => `${Math.round(100 * interval.coverage)} %`;
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
    figure: `**the verdict**: the same over this process's CPU alone (the double using the loop's counter): the share of its busy CPU profile samples (one per ${VERDICT} µs asked, ~${Math.round(verdictRate)} busy a set) whose stack is in a call into the counter (a frame of any method of RequestTokenCounter or TokenCounter, found through the inspector) or in the accounting's modules (src/run/agent-tokens.ts and same-json.ts, src/core/tokens*, and what they alone import: ${modules.size} files); median of ${verdictSets.length} sets, ${coverage(sampled)} interval`,
    value: `${sampled.median.toFixed(2)} % (${median(verdictSets.map((r) => r.samples)).toFixed(0)} samples a set; ${pooled(verdictSets)}); interval ${sampled.low.toFixed(2)}–${sampled.high.toFixed(2)} %: ${established ? "established" : biasedLow ? "withheld (the finer interval reads lower)" : "not established"}`,
    goal: "< 2 %",
    met: established,
  },
  {
    figure: `the same at one sample per ${CHECK} µs asked (~${Math.round(checkRate)} busy a set), median of ${checkSets.length} sets, ${coverage(finer)} interval; and these sets minus the verdict's (Hodges–Lehmann shift, ${coverage(moved)} Mann–Whitney interval): whether sampling more often moves the share, and the verdict's median extrapolated along it to no sampling (linear in the samples a set; no verdict)`,
    value: `${finer.median.toFixed(2)} % (${median(checkSets.map((r) => r.samples)).toFixed(0)} samples a set; ${pooled(checkSets)}); interval ${finer.low.toFixed(2)}–${finer.high.toFixed(2)} %; shift ${moved.shift >= 0 ? "+" : ""}${moved.shift.toFixed(2)} points, interval ${moved.low.toFixed(2)} to ${moved.high.toFixed(2)}: ${moved.low > 0 ? "sampling raises the share (the verdict errs high)" : biasedLow ? "the finer reads lower" : "no shift shown"}; no sampling: ${unsampled.toFixed(2)} %`,
  },
  {
    figure: `the verdict's sets over every thread's CPU in this process (background compiles and collection, libuv's pool; the profiler's own thread left out), not the main thread's alone as the samples are: each set's share times its main thread's part of the process's CPU (/proc schedstat); no verdict (the part is read under the profiler, whose signals land on the main thread); median of ${verdictSets.length} sets, ${coverage(allThreads)} interval`,
    value: `${allThreads.median.toFixed(2)} % (the main thread ${(100 * median(verdictSets.map((r) => r.mainPart))).toFixed(0)} % of the CPU); interval ${allThreads.low.toFixed(2)}–${allThreads.high.toFixed(2)} %`,
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
  `CPU of this process during the runs (the sandboxes' processes only where the figure says so), after one warm-up set of each kind; the sets took ${minutes.toFixed(1)} min. Profiled sets at ${VERDICT} µs ${verdictSets.map((r) => r.share.toFixed(2)).join(", ")} %; at ${CHECK} µs ${checkSets.map((r) => r.share.toFixed(2)).join(", ")} %; of the verdict's accounting samples ${treeOnly} were in a counter method's call outside the accounting's modules and ${filesOnly} in those modules outside any counter method's call (inlined methods lose their frames, so the modules carry them). The modules: ${[...modules].sort().join(", ")}. Timed sets ${timed.map((r) => r.share.toFixed(2)).join(", ")} %; plain sets ${plainCpu.low.toFixed(0)}–${plainCpu.high.toFixed(0)} ms, sets counting nothing median ${median(uncounted.map((r) => r.cpu)).toFixed(0)} ms. An interval is the k-th smallest to the k-th largest of n samples (distribution-free, coverage as given); "established" only if its upper end is below the goal. CPU in a bracket is every thread's, so a concurrent compile or marker reads as accounting: the timed figure errs high.`,
);
