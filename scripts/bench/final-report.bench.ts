/**
 * The final-report analyzer (src/core/report/analyze.ts, per clause since docs/decisions/0091) in
 * milliseconds per MiB on three 1 MiB inputs, beside the goal of issue 13 (≤ 5 ms per MiB):
 *
 * - realistic: every labelled final reply of fixtures/final-replies but the sealed splits' (the analyzer
 *   never runs on those before their look, ADR 0180), concatenated and repeated;
 * - short lines: 1 MiB of three- to eight-character lines ("Done.", "- ok", "B3 next");
 * - adversarial: long lines made of the rows' own prefixes ("still not | ❌ 1 of 2 if fails B1-B3 `x");
 *   and two aimed at the window (ADR 0135): a fence run on every line, one line of backticks.
 *
 * Each is measured as the analyzer reads it (a long reply on its head and tail windows, ADR 0135)
 * and, as its peer in the same run, read whole (`window: Infinity`, the analyzer before ADR 0135),
 * the two interleaved round by round. Token counts are not part of the figure (that is
 * tokens.bench's and accounting.bench's business): the analyzer is handed a counter that already
 * knows each input's count by identity; what a warm TokenCounter costs to find a 1 MiB text is
 * printed on its own line. CPU time (user + system) of each call, median of the rounds.
 * Also: the whole corpus, one call per reply, and the realistic input with a handoff's steps.
 * `npm run bench -- final-report`
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type AnalyzeOptions, WINDOW_HEAD, WINDOW_TAIL, analyzeFinalReport } from "../../src/core/report/analyze.ts";
import { TokenCounter } from "../../src/core/tokens.ts";
import { SEALED_SPLITS, committedSplit } from "../../test/core/report/split.ts";
import { machineLine } from "./lib/report.ts";

const MiB = 1024 * 1024;
const GOAL = 5;
const ROUNDS = 25;
const dir = join(import.meta.dirname, "../../fixtures/final-replies");
const sealed = new Set(SEALED_SPLITS.flatMap((spec) => committedSplit(spec)));
const replies = readdirSync(dir)
  .filter((name) => /^\d{3,4}-.*\.md$/.test(name) && !sealed.has(name))
  .sort()
  .map((name) => readFileSync(join(dir, name), "utf8"));

function repeatTo(unit: string, size: number): string {
  let text = "";
  while (text.length < size) text += unit;
  return text.slice(0, size);
}

const inputs: Array<[string, string]> = [
  ["realistic (the labelled replies, repeated)", repeatTo(replies.join("\n\n"), MiB)],
  ["short lines", repeatTo("Done.\n- ok\nB3 next\n", MiB)],
  ["adversarial (row prefixes, long lines)", repeatTo(`${"still not | ❌ 1 of 2 if fails B1-B3 `x ".repeat(40)}\n`, MiB)],
  // The window's own reading: a fence run on every line (the middle's fence state), and one line of backticks (a fence as long as the reply).
  ["adversarial: a fence run on every line", repeatTo("```\nx```\n", MiB)],
  ["adversarial: one line of backticks", repeatTo("`", MiB)],
];

/** A counter that knows the bench inputs' counts already (found by identity), so token counting stays out of the figure. */
class KnownCounts extends TokenCounter {
  private readonly known = new Map<string, number>();
  remember(text: string): void {
    this.known.set(text, super.count(text));
  }
  override count(text: string): number {
    return this.known.get(text) ?? super.count(text);
  }
}
const counter = new KnownCounts();
for (const [, text] of inputs) counter.remember(text);
for (const reply of replies) counter.remember(reply);

const cpuMsOf = (run: () => void): number => {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** Medians of the variants' CPU times, the variants run in turn within each round (interleaved). */
function interleaved(variants: Array<() => void>, rounds = ROUNDS): number[] {
  for (const run of variants) run();
  const times = variants.map(() => [] as number[]);
  for (let round = 0; round < rounds; round += 1) variants.forEach((run, i) => (times[i] as number[]).push(cpuMsOf(run)));
  return times.map(median);
}

const WHOLE: AnalyzeOptions = { window: { head: Number.POSITIVE_INFINITY, tail: Number.POSITIVE_INFINITY } };
const steps = ["B1", "B2", "B3", "B4", "B5", "B6"];
const rows: string[] = [];
const verdict = (ms: number): string => (ms <= GOAL ? "meets" : "OVER");
for (const [name, text] of inputs) {
  const perMiB = text.length / MiB;
  const [bounded, whole] = interleaved([() => analyzeFinalReport(text, counter), () => analyzeFinalReport(text, counter, WHOLE)]) as [number, number];
  rows.push(`| ${name} · 1 MiB | ${(bounded / perMiB).toFixed(2)} | ≤ ${GOAL} (${verdict(bounded / perMiB)}) | ${(whole / perMiB).toFixed(1)} | ${(whole / bounded).toFixed(1)}× |`);
}
const realistic = (inputs[0] as [string, string])[1];
const [withSteps, wholeWithSteps] = interleaved([() => analyzeFinalReport(realistic, counter, { steps }), () => analyzeFinalReport(realistic, counter, { ...WHOLE, steps })]) as [number, number];
rows.push(`| realistic · 1 MiB, with the handoff's six steps | ${(withSteps / (realistic.length / MiB)).toFixed(2)} | ≤ ${GOAL} (${verdict(withSteps / (realistic.length / MiB))}) | ${(wholeWithSteps / (realistic.length / MiB)).toFixed(1)} | ${(wholeWithSteps / withSteps).toFixed(1)}× |`);

const corpusMiB = replies.join("").length / MiB;
const [corpusMs] = interleaved([
  () => {
    for (const reply of replies) analyzeFinalReport(reply, counter);
  },
], 15) as [number];

// What a warm TokenCounter (not the known-count one above) costs to find a 1 MiB text it has counted: not in the figures above.
const warm = new TokenCounter();
warm.count(realistic);
const [lookupMs] = interleaved([() => warm.count(realistic)]) as [number];

console.log(`${machineLine()}\n`);
console.log(`Windows: the first ${WINDOW_HEAD / 1024} KiB and the last ${WINDOW_TAIL / 1024} KiB of a longer reply (ADR 0135). CPU ms per MiB, median of ${ROUNDS} interleaved rounds.\n`);
console.log("| input | analyzeFinalReport ms per MiB | goal | peer: read whole, ms per MiB | whole ÷ ours |");
console.log("|---|---:|---|---:|---:|");
for (const row of rows) console.log(row);
console.log(`\nAll ${replies.length} labelled replies outside the sealed splits, one call each (${(corpusMiB * 1024).toFixed(0)} KiB, every one read whole): ${(corpusMs / corpusMiB).toFixed(1)} ms per MiB, ${((corpusMs / replies.length) * 1000).toFixed(0)} µs per reply.`);
console.log(`Not counted above: a warm TokenCounter finds the 1 MiB realistic text in ${lookupMs.toFixed(2)} ms (the last few long texts are kept and found by a compare, no digest: src/core/tokens/text-cache.ts, ADR 0193).`);
