/**
 * Where the accounting's samples land (ADR 0192): the accounting bench's sets, sampler (one sample
 * asked per 100 µs) and attribution (lib/accounting-code.ts: a frame of a counter method or of the
 * accounting's modules), with this tree's counter. After one warm-up set, each set's accounting
 * samples are tallied three ways and summed over the sets:
 *  - by entry: the outermost accounting frame and the frame that called it (the loop's request,
 *    the double's reply, ...);
 *  - by path: the function names from that entry down to the sample's own frame (inlined functions
 *    lose their frames, so a caller stands for them);
 *  - by quarter of the set's samples in time: the set's first run meets every text for the first
 *    time (a fresh text counter a set), the other three find them again.
 * Prints the share over the busy samples as the bench does. No verdict; run beside nothing else
 * worth timing, and note the load.
 *
 *   node --import tsx scripts/experiments/accounting-where.ts [sets, default 8] [top, default 30]
 */
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { Profiler, Runtime } from "node:inspector";
import { join } from "node:path";
import { TokenCounter } from "../../src/core/tokens.ts";
import { RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { either } from "../bench/lib/accounting-code.ts";
import { accountingModules, inModules, readImports } from "../bench/lib/accounting-modules.ts";
import { ROOT, runs } from "../bench/lib/accounting-workload.ts";
import { functionKeys, isOneOf, methodsOf } from "../bench/lib/counter-functions.ts";

const sets = Number(process.argv[2] ?? 8);
const top = Number(process.argv[3] ?? 30);

const session = new Session();
session.connect();
await session.post("Profiler.enable");
const inAccounting = either(isOneOf(await functionKeys(session, methodsOf([RequestTokenCounter, TokenCounter]))), inModules(accountingModules(readImports(join(ROOT, "src")))));

const byEntry = new Map<string, number>();
const byPath = new Map<string, number>();
const quarters = [0, 0, 0, 0];
let accounting = 0;
let busy = 0;
const tally = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
const frameName = (frame: Runtime.CallFrame | undefined): string => (frame === undefined ? "(root)" : `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(src|scripts)\//, "")}`);

/** Each sample's stack, outermost first, memoized per node. */
function stacks(profile: Profiler.Profile): (id: number) => Runtime.CallFrame[] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const known = new Map<number, Runtime.CallFrame[]>();
  const stackOf = (id: number): Runtime.CallFrame[] => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    const up = parent.get(id);
    const stack = [...(up === undefined ? [] : stackOf(up)), (byId.get(id) as Profiler.ProfileNode).callFrame];
    known.set(id, stack);
    return stack;
  };
  return stackOf;
}

const loads: string[] = [];
const loadNow = (): string => readFileSync("/proc/loadavg", "utf8").split(" ")[0] as string;
for (let set = 0; set <= sets; set += 1) {
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const counter = new RequestTokenCounter(new TokenCounter());
  await runs(counter, counter);
  const { profile } = await session.post("Profiler.stop");
  // The first set warms up (module loading, the rank table, first compiles).
  if (set === 0) continue;
  if (set % 4 === 1) loads.push(loadNow());
  const stackOf = stacks(profile);
  const samples = profile.samples ?? [];
  samples.forEach((id, i) => {
    const stack = stackOf(id);
    if ((stack[stack.length - 1] as Runtime.CallFrame).functionName === "(idle)") return;
    busy += 1;
    const entry = stack.findIndex(inAccounting);
    if (entry < 0) return;
    accounting += 1;
    const quarter = Math.min(3, Math.floor((4 * i) / samples.length));
    quarters[quarter] = (quarters[quarter] as number) + 1;
    tally(byEntry, `${frameName(stack[entry])} <- ${frameName(stack[entry - 1])}`);
    tally(byPath, stack.slice(entry).map((frame) => frame.functionName || "(anonymous)").join(" > "));
  });
}
loads.push(loadNow());

const list = (map: Map<string, number>): string =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, n]) => `${String(n).padStart(5)} ${((100 * n) / accounting).toFixed(1).padStart(5)} %  ${key}`)
    .join("\n");
console.log(`${sets} sets: ${accounting} accounting samples of ${busy} busy, ${((100 * accounting) / busy).toFixed(2)} %, ${(accounting / sets).toFixed(1)} a set; load (1 min) ${loads.join(", ")}`);
console.log(`by quarter of each set's samples (the first run meets every text first): ${quarters.map((n) => (n / sets).toFixed(1)).join(", ")} a set`);
console.log(`\nby entry (outermost accounting frame <- its caller):\n${list(byEntry)}`);
console.log(`\nby path (from the entry to the sample's frame):\n${list(byPath)}`);
