/**
 * The prospective half of the unfinished-reader experiment (docs/decisions/0197): the rules' in-sample figure on dev says
 * nothing of how they read new projects, but dev batches F (2200–2399) and G (2400–2599) were each labelled blind from
 * new repositories and scored by the rules of their day before any rule was written from them. So: the rules of that
 * day, the words reader and the words + rule-rows reader, each trained on the dev replies that existed before the batch
 * (numbers below its first; rule rows from that day's rules), and (e) a model over that day's rule rows alone, are
 * scored on the batch. Every reader is then out-of-sample
 * on it, and (c) is exactly what shipping would be: a model over rules tuned on dev, met by new projects. Dev only.
 *
 *   git archive 32f9724 src | (mkdir -p /tmp/rules-f && tar -x -C /tmp/rules-f) && ln -sfn "$PWD/node_modules" /tmp/rules-f/node_modules
 *   git archive 9a66431 src | (mkdir -p /tmp/rules-g && tar -x -C /tmp/rules-g) && ln -sfn "$PWD/node_modules" /tmp/rules-g/node_modules
 *   node --import tsx scripts/experiments/unfinished-prospective.ts /tmp/rules-f /tmp/rules-g
 *
 * 32f9724 is the commit that added batch F's first labels (no rule yet from F); 9a66431 the last before batch G's rules (0191).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { LabelledReply } from "../../test/core/report/labelled.ts";
import { type PR, f1, precisionRecall } from "./logistic.ts";
import { assertDevOnly, devCorpus } from "./unfinished-data.ts";
import { unfinishedFeatures } from "./unfinished-features.ts";
import { type Analyzer, auc, fitPredict, ruleRows } from "./unfinished-fit.ts";

const SEED = 20261299;
const BATCHES = [
  { name: "batch F (2200–2399)", first: 2200, last: 2399, commit: "32f9724" },
  { name: "batch G (2400–2599)", first: 2400, last: 2599, commit: "9a66431" },
];

const trees = process.argv.slice(2);
if (trees.length !== BATCHES.length) throw new Error("usage: unfinished-prospective.ts <tree at 32f9724> <tree at 9a66431> (see the header)");
const { heldOut, dev, group, labels } = devCorpus();
const number = (reply: LabelledReply): number => Number(reply.file.slice(0, reply.file.indexOf("-")));
const wordFeatures = dev.map((r) => unfinishedFeatures(r.text));
const fmt = (v: number | null): string => (v === null ? "–" : v.toFixed(2));
const cell = (s: PR): string => `${fmt(s.precision)}/${fmt(s.recall)}/${f1(s).toFixed(2)}`;

console.log("| batch (rules of commit) | projects | replies | positives | (a) rules of the day | (b) words | (c) words + rule rows of the day | (d) rules OR (b) | (e) rule rows alone | AUC (b), (c), (e) |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
for (const [k, batch] of BATCHES.entries()) {
  const mod = (await import(pathToFileURL(join(trees[k] as string, "src/core/report/analyze.ts")).href)) as { analyzeFinalReport: Analyzer["analyze"]; explainFinalReport: Analyzer["explain"] };
  const old: Analyzer = { analyze: mod.analyzeFinalReport, explain: mod.explainFinalReport };
  const trainIdx = dev.map((_, i) => i).filter((i) => number(dev[i] as LabelledReply) < batch.first);
  const testIdx = dev.map((_, i) => i).filter((i) => number(dev[i] as LabelledReply) >= batch.first && number(dev[i] as LabelledReply) <= batch.last);
  assertDevOnly([...trainIdx, ...testIdx].map((i) => dev[i] as LabelledReply), heldOut);
  const rules = new Map([...trainIdx, ...testIdx].map((i) => [i, ruleRows(old, dev[i] as LabelledReply)]));
  const bothFeatures = dev.map((r, i) => (rules.has(i) ? unfinishedFeatures(r.text, (rules.get(i) as { rows: string[] }).rows) : []));
  const rowFeatures = dev.map((_, i) => (rules.has(i) ? [...new Set((rules.get(i) as { rows: string[] }).rows)].sort().map((row) => `r:${row}`) : []));
  const w = fitPredict(wordFeatures, labels, group, trainIdx, testIdx, SEED + k);
  const b = fitPredict(bothFeatures, labels, group, trainIdx, testIdx, SEED + k);
  const e = fitPredict(rowFeatures, labels, group, trainIdx, testIdx, SEED + k);
  const want = testIdx.map((i) => labels[i] as boolean);
  const ruled = testIdx.map((i) => (rules.get(i) as { unfinished: boolean }).unfinished);
  const words = w.probabilities.map((p) => p >= w.threshold);
  const both = b.probabilities.map((p) => p >= b.threshold);
  const alone = e.probabilities.map((p) => p >= e.threshold);
  console.log(`| ${batch.name} (${batch.commit}) | ${new Set(testIdx.map((i) => group[i])).size} | ${testIdx.length} | ${want.filter(Boolean).length} | ${cell(precisionRecall(ruled, want))} | ${cell(precisionRecall(words, want))} | ${cell(precisionRecall(both, want))} | ${cell(precisionRecall(ruled.map((v, n) => v || (words[n] as boolean)), want))} | ${cell(precisionRecall(alone, want))} | ${fmt(auc(w.probabilities, want))}, ${fmt(auc(b.probabilities, want))}, ${fmt(auc(e.probabilities, want))} |`);
  console.log(`  trained on ${trainIdx.length} dev replies (${trainIdx.filter((i) => labels[i]).length} positives); (b) λ ${w.lambda} threshold ${w.threshold.toFixed(3)}; (c) λ ${b.lambda} threshold ${b.threshold.toFixed(3)}; (e) λ ${e.lambda} threshold ${e.threshold.toFixed(3)}`);
}
