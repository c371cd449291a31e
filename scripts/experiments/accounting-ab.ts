/**
 * Two request counters in one process, set by set (ADR 0185): the accounting bench's sets, sampler
 * (one sample asked per 100 µs) and attribution (lib/accounting-code.ts: the counter's methods or
 * its modules, of either tree), with this tree's counter and a base tree's (its src/ as an earlier
 * commit has it) alternating, the first of each pair swapped every pair. Both see the same load,
 * so a change smaller than what whole bench runs differ by can be read; the loop, the double and
 * the tools are this tree's for both. Prints each side's median share (95 % interval), pooled
 * share and accounting samples a set, and the shift this − base (Hodges–Lehmann, Mann–Whitney
 * interval). No verdict: the goal's figure is `npm run bench -- accounting`.
 *
 *   git archive main src package.json | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/
 *   node --import tsx scripts/experiments/accounting-ab.ts /tmp/base [pairs, default 20]
 */
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { TokenCounter } from "../../src/core/tokens.ts";
import { RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { either } from "../bench/lib/accounting-code.ts";
import { accountingModules, inModules, readImports } from "../bench/lib/accounting-modules.ts";
import { ROOT, runs } from "../bench/lib/accounting-workload.ts";
import { functionKeys, isOneOf, methodsOf } from "../bench/lib/counter-functions.ts";
import { medianInterval } from "../bench/lib/interval.ts";
import { profileShare } from "../bench/lib/profile-share.ts";
import { shiftInterval } from "../bench/lib/shift-interval.ts";

interface Side {
  name: string;
  Text: typeof TokenCounter;
  Request: typeof RequestTokenCounter;
  sets: { share: number; samples: number; busy: number }[];
}

const [baseDir, pairsArg] = process.argv.slice(2);
if (baseDir === undefined) throw new Error("usage: accounting-ab.ts BASE_TREE [pairs]");
const base = resolve(baseDir);
const pairs = Number(pairsArg ?? 20);
const load = async (file: string) => (await import(pathToFileURL(join(base, file)).href)) as Record<string, unknown>;
const sides: Side[] = [
  { name: `base ${base}`, Text: (await load("src/core/tokens.ts"))["TokenCounter"] as typeof TokenCounter, Request: (await load("src/run/agent-tokens.ts"))["RequestTokenCounter"] as typeof RequestTokenCounter, sets: [] },
  { name: `this tree ${ROOT}`, Text: TokenCounter, Request: RequestTokenCounter, sets: [] },
];

const session = new Session();
session.connect();
await session.post("Profiler.enable");
const inCounter = isOneOf(await functionKeys(session, methodsOf(sides.flatMap((side) => [side.Request, side.Text]))));
// Modules are matched by their path under src/, so either tree's copy of a file counts.
const inAccounting = either(inCounter, inModules(new Set([...accountingModules(readImports(join(base, "src"))), ...accountingModules(readImports(join(ROOT, "src")))])));

async function profiledSet(side: Side): Promise<Side["sets"][number]> {
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const counter = new side.Request(new side.Text());
  await runs(counter, counter);
  const { profile } = await session.post("Profiler.stop");
  const { inFiles, busy } = profileShare(profile, inAccounting);
  return { share: (100 * inFiles) / busy, samples: inFiles, busy };
}

const loads: string[] = [];
const loadNow = (): string => readFileSync("/proc/loadavg", "utf8").split(" ")[0] as string;
// Warm-up: module loading, both rank tables, first compiles.
for (const side of sides) await profiledSet(side);
for (let pair = 0; pair < pairs; pair += 1) {
  for (const side of pair % 2 === 0 ? sides : [...sides].reverse()) side.sets.push(await profiledSet(side));
  if (pair % 5 === 0) loads.push(loadNow());
}
loads.push(loadNow());

for (const side of sides) {
  const m = medianInterval(side.sets.map((set) => set.share));
  const samples = side.sets.reduce((sum, set) => sum + set.samples, 0);
  const busy = side.sets.reduce((sum, set) => sum + set.busy, 0);
  console.log(
    `${side.name}: median ${m.median.toFixed(2)} % (interval ${m.low.toFixed(2)}–${m.high.toFixed(2)} %, ${Math.round(100 * m.coverage)} %), pooled ${((100 * samples) / busy).toFixed(2)} %, ${(samples / side.sets.length).toFixed(1)} accounting samples a set of ${(busy / side.sets.length).toFixed(0)} busy; sets ${side.sets.map((set) => set.share.toFixed(2)).join(", ")}`,
  );
}
const [before, after] = sides as [Side, Side];
const shift = shiftInterval(
  after.sets.map((set) => set.share),
  before.sets.map((set) => set.share),
);
console.log(`shift this − base: ${shift.shift.toFixed(2)} points (interval ${shift.low.toFixed(2)} to ${shift.high.toFixed(2)}, ${Math.round(100 * shift.coverage)} %), ${pairs} pairs; load (1 min) ${loads.join(", ")}`);
