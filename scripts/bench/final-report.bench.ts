/**
 * The final-report analyzer (src/core/report/analyze.ts, per clause since docs/decisions/0091) in
 * milliseconds per MiB on three 1 MiB inputs, token counts served from a warm TokenCounter (the
 * o200k count is tokens.bench's business):
 *
 * - realistic: every labelled final reply of fixtures/final-replies (754 after round 3, 312 before), concatenated and repeated;
 * - short lines: 1 MiB of three- to eight-character lines ("Done.", "- ok", "B3 next");
 * - adversarial: long lines made of the rows' own prefixes ("still not | ❌ 1 of 2 if fails B1-B3 `x").
 *
 * CPU time (user + system) of each round, median of the rounds, so a busy shared machine slows
 * the wall clock more than the figure. Also: the whole corpus, per reply, and with `steps`.
 * Target (issue 12): ≤ 5 ms per MiB. `npm run bench -- final-report`
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { analyzeFinalReport } from "../../src/core/report/analyze.ts";
import { TokenCounter } from "../../src/core/tokens.ts";

const MiB = 1024 * 1024;
const ROUNDS = 15;
const dir = join(import.meta.dirname, "../../fixtures/final-replies");
const replies = readdirSync(dir)
  .filter((name) => /^\d{3}-.*\.md$/.test(name))
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
];

const counter = new TokenCounter();
function cpuMs(run: () => void): number {
  run();
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const rows: Array<[string, string]> = [];
for (const [name, text] of inputs) {
  const ms = cpuMs(() => analyzeFinalReport(text, counter));
  rows.push([`${name} · 1 MiB`, (ms / (text.length / MiB)).toFixed(1)]);
}
const steps = { steps: ["B1", "B2", "B3", "B4", "B5", "B6"] };
const realistic = (inputs[0] as [string, string])[1];
rows.push(["realistic · 1 MiB, with the handoff's six steps", (cpuMs(() => analyzeFinalReport(realistic, counter, steps)) / (realistic.length / MiB)).toFixed(1)]);
const corpusMs = cpuMs(() => {
  for (const reply of replies) analyzeFinalReport(reply, counter);
});
const corpusMiB = replies.join("").length / MiB;

console.log("| input | ms per MiB (CPU, median of 15) |");
console.log("|---|---:|");
for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
console.log(`| all ${replies.length} labelled replies, one call each (${(corpusMiB * 1024).toFixed(0)} KiB) | ${(corpusMs / corpusMiB).toFixed(1)} |`);
console.log(`\n${replies.length} replies: ${((corpusMs / replies.length) * 1000).toFixed(0)} µs per reply.`);
