/**
 * Two trees' plan classifiers in one process, input by input (ADR 0188): the classifier bench's inputs in its order,
 * this tree's `classifyPlanReply` and a base tree's (its src/ as an earlier commit has it) taking turns run by run,
 * which goes first swapped every run, so both see the same load. Prints each side's median process CPU ms per MiB and
 * the ratio this / base; the two must agree on every input first. What V8 compiles first differs from process to
 * process, so run it a few times and read the ratios' medians.
 *
 *   git archive main src | tar -x -C /tmp/base
 *   node --import tsx scripts/experiments/classifier-ab.ts /tmp/base [runs, default 20]
 */
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { classifyPlanReply } from "../../src/core/plan/classify.ts";
import { classifierInputs } from "../bench/lib/classifier-inputs.ts";
import { cpuNow, median } from "../bench/lib/report.ts";

type Classify = (text: string) => unknown;
const [baseDir, runsArg] = process.argv.slice(2);
if (baseDir === undefined) throw new Error("usage: classifier-ab.ts BASE_TREE [runs]");
const base = ((await import(pathToFileURL(join(resolve(baseDir), "src/core/plan/classify.ts")).href)) as { classifyPlanReply: Classify }).classifyPlanReply;
const runs = Number(runsArg ?? 20);
const sides: ReadonlyArray<Classify> = [base, classifyPlanReply];

console.log(`load ${loadavg().map((value) => value.toFixed(2)).join(" / ")}, ${runs} runs after 5 warm-ups, process CPU ms per MiB`);
for (const [name, text] of Object.entries(classifierInputs())) {
  if (JSON.stringify(base(text)) !== JSON.stringify(classifyPlanReply(text))) throw new Error(`${name}: the trees disagree`);
  const mib = text.length / (1024 * 1024);
  for (let i = 0; i < 5; i += 1) for (const classify of sides) classify(text);
  const times: number[][] = [[], []];
  for (let i = 0; i < runs; i += 1) {
    for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const start = cpuNow();
      sides[k]?.(text);
      times[k]?.push((cpuNow() - start) / mib);
    }
  }
  const [before, after] = times.map((values) => median(values)) as [number, number];
  console.log(`${name}: base ${before.toFixed(2)}, this ${after.toFixed(2)}, ratio ${(after / before).toFixed(2)}`);
}
