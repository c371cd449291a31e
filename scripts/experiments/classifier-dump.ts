/**
 * Every result of a tree's `classifyPlanReply` and `findOutcomeTags`, one JSON line per text (ADR 0188): the classifier
 * bench's inputs, each final reply (`.md`) as it is and wrapped as a plan (not split 12's, 3400–3599: sealed, 0240), and
 * 13,000 fast-check texts from a fixed seed (tags and near-tags, crowds of `<p`, fences, backtick runs of 1–70, CR,
 * blank lines, unicode). Two trees' dumps compared with `cmp` show that a speed change changed no result.
 *
 *   node --import tsx scripts/experiments/classifier-dump.ts /tmp/base > /tmp/base.jsonl
 *   node --import tsx scripts/experiments/classifier-dump.ts . > /tmp/this.jsonl && cmp /tmp/base.jsonl /tmp/this.jsonl
 */
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { classifierInputs } from "../bench/lib/classifier-inputs.ts";

interface Classifier {
  classifyPlanReply: (text: string) => unknown;
  findOutcomeTags: (text: string) => unknown;
}
const tree = resolve(process.argv[2] ?? ".");
const { classifyPlanReply, findOutcomeTags } = (await import(pathToFileURL(join(tree, "src/core/plan/classify.ts")).href)) as Classifier;

const REPLIES = join(import.meta.dirname, "../../fixtures/final-replies");
const SEALED = { first: 3400, last: 3599 };

function fixtureTexts(): Array<[string, string]> {
  const texts: Array<[string, string]> = [];
  for (const file of readdirSync(REPLIES).filter((name) => name.endsWith(".md")).sort()) {
    const number = Number.parseInt(file, 10);
    if (number >= SEALED.first && number <= SEALED.last) continue;
    const text = readFileSync(join(REPLIES, file), "utf8");
    texts.push([file, text], [`${file} wrapped`, `Here is the plan.\n\n<proposed_plan>\n${text}\n</proposed_plan>\n`]);
  }
  return texts;
}

const tagTexts = ["<proposed_plan>", "</proposed_plan>", "<plan_blocked>", "</plan_blocked>", "<plan_clarification>", "</plan_clarification>"];
const piece = fc.constantFrom(
  ...tagTexts,
  ...["<proposed_plan", "<plan_b>", "<p", "<pz", "</p", "<", "<<", "proposed_plan>", "/plan_blocked>", "plan_clarification"],
  ...["```", "````", "~~~", "~~~~", "`", "``", "```x```", "```ts", "    ```", "   ```", "`<proposed_plan>`", "x <plan_blocked> y"],
  ...["\t", " ", " \t", "\n", "\n\n", "\r\n", "\r", "- step", "text", "é", "😀", "\u2028", "\n<proposed_plan>\n", "\n</proposed_plan>\n"],
);
const miss = fc.constantFrom("<p", "<pz", "</p", "<p>", "<plan_b", "<proposed_plan", "</plan_blocked", "<", "x <p", "<p<p", " <pz\t", "<proposed_plan ", "<pxxxxxxxxxxxx>");
const padding = `${"words of a long first paragraph ".repeat(140)}\n\n`;
const markdownish = fc.array(fc.oneof({ weight: 6, arbitrary: piece }, { weight: 1, arbitrary: fc.string() }), { maxLength: 120 }).map((parts) => parts.join(""));
const lines = fc.tuple(fc.array(piece, { maxLength: 200 }), fc.constantFrom("\n", "\r\n", "\n\n")).map(([parts, nl]) => parts.join(nl));
const runs = fc.array(fc.oneof(fc.integer({ min: 1, max: 70 }).map((n) => "`".repeat(n)), piece), { minLength: 9, maxLength: 100 }).map((parts) => parts.join(""));
const repeated = fc.tuple(fc.oneof(markdownish, lines, runs), fc.integer({ min: 1, max: 40 }), fc.boolean()).map(([text, times, padded]) => (padded ? padding : "") + text.repeat(times));
const crowds = fc
  .tuple(fc.array(fc.oneof({ weight: 8, arbitrary: miss }, { weight: 1, arbitrary: piece }), { minLength: 60, maxLength: 400 }), fc.constantFrom("\n", "\r\n", " ", "", "\n\n"), fc.boolean())
  .map(([parts, separator, padded]) => (padded ? padding : "") + parts.join(separator));
const generated: Array<[string, fc.Arbitrary<string>, number]> = [
  ["markdown", markdownish, 3000],
  ["lines", lines, 2000],
  ["runs", runs, 1500],
  ["repeated", repeated, 1500],
  ["crowds", crowds, 3000],
  ["graphemes", fc.string({ unit: "grapheme", maxLength: 60 }), 2000],
];

const texts: Array<[string, string]> = [...Object.entries(classifierInputs()), ...fixtureTexts()];
for (const [name, arbitrary, count] of generated) fc.sample(arbitrary, { numRuns: count, seed: 13013 }).forEach((text, i) => texts.push([`${name} ${i}`, text]));
for (const [name, text] of texts) process.stdout.write(`${JSON.stringify([name, classifyPlanReply(text), findOutcomeTags(text)])}\n`);
process.stderr.write(`${texts.length} texts\n`);
