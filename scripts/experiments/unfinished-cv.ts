/**
 * The unfinished-reader experiment (docs/decisions/0197): does a small learned reader of statesUnfinished, trained on dev
 * replies only, carry to projects it has not seen better than the rules? Grouped cross-validation on dev: each fold holds
 * out whole source repositories (the written replies are one group), as split 8 held out new projects.
 *
 *   node --import tsx scripts/experiments/unfinished-cv.ts
 *
 * Readers: (a) the rules as they are (analyzeFinalReport); (b) a logistic regression over the words of the status zones
 * (unfinished-features.ts); (c) the same over the words plus the rows the analyzer fired and its verdicts; (d) rules OR (b).
 * Everything a fold's model depends on — vocabulary, λ, threshold — comes from that fold's training projects alone (λ and
 * threshold by an inner grouped CV over them). The rules were written on all of dev, so their figure here is in-sample
 * and flatters them; the models' are out-of-project. Reads no held-out reply: loadDevReplies drops splits 1–9 by name
 * before reading any text, and assertDevOnly guards every path. Only figures are printed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { explainFinalReport } from "../../src/core/report/analyze.ts";
import { type LabelledReply, REPLIES_DIR, analyzeReply } from "../../test/core/report/labelled.ts";
import { DEFAULT_TRAIN, type PR, bestThreshold, f1, logLoss, precisionRecall, predict, train } from "./logistic.ts";
import { type SparseRow, toRow, vocabulary } from "./reader-features.ts";
import { assertDevOnly, groupedFolds, heldOutNames, loadDevReplies, projectsFromSources } from "./unfinished-data.ts";
import { unfinishedFeatures } from "./unfinished-features.ts";

export const SEED = 20261297;
export const FOLDS = 8;
const INNER_FOLDS = 4;
// A feature must occur in two training replies to enter the vocabulary: fixed, not tuned.
const MIN_COUNT = 2;
const LAMBDAS = [1e-5, 1e-4, 1e-3, 1e-2];

const heldOut = heldOutNames();
const dev = loadDevReplies(heldOut);
assertDevOnly(dev, heldOut);
const projects = projectsFromSources(readFileSync(join(REPLIES_DIR, "SOURCES.md"), "utf8"), new Set(dev.map((r) => r.file)));
const group = dev.map((r) => projects.get(r.file) ?? "unknown");
const labels = dev.map((r) => r.expected.statesUnfinished === true);

/** The analyzer's rows that fired and its three verdicts, as `r:` feature names. */
function ruleRows(reply: LabelledReply): { rows: string[]; unfinished: boolean } {
  const options = reply.steps === undefined ? {} : { steps: reply.steps };
  const got = analyzeReply(reply);
  const rows = explainFinalReport(reply.text, options).map((hit) => hit.id);
  if (got.statesUnfinished) rows.push("verdict.unfinished");
  if (got.claimsComplete) rows.push("verdict.complete");
  if (got.asksPermission) rows.push("verdict.permission");
  return { rows, unfinished: got.statesUnfinished };
}

const rules = dev.map(ruleRows);
const rulesVerdict = rules.map((r) => r.unfinished);
const wordFeatures = dev.map((r) => unfinishedFeatures(r.text));
const bothFeatures = dev.map((r, i) => unfinishedFeatures(r.text, (rules[i] as { rows: string[] }).rows));

interface Fit {
  lambda: number;
  threshold: number;
  probabilities: number[];
}

function rowsOver(features: readonly string[][], trainIdx: readonly number[], idx: readonly number[]): { rows: SparseRow[]; dimension: number } {
  const vocab = vocabulary(trainIdx.map((i) => features[i] as string[]), MIN_COUNT);
  const index = new Map(vocab.map((name, i) => [name, i]));
  return { rows: idx.map((i) => toRow(features[i] as string[], index)), dimension: vocab.length };
}

/** Trains on trainIdx (λ and threshold by an inner grouped CV over its projects) and gives testIdx's probabilities. */
function fitPredict(features: readonly string[][], trainIdx: readonly number[], testIdx: readonly number[], seed: number): Fit {
  const inner = groupedFolds(trainIdx.map((i) => group[i] as string), INNER_FOLDS, seed);
  const trainLabels = trainIdx.map((i) => labels[i] as boolean);
  const trials = LAMBDAS.map((lambda) => {
    const oof = new Array<number>(trainIdx.length).fill(0);
    for (let f = 0; f < INNER_FOLDS; f += 1) {
      const fit = trainIdx.filter((_, k) => inner[k] !== f);
      const held = trainIdx.map((_, k) => k).filter((k) => inner[k] === f);
      const { rows, dimension } = rowsOver(features, fit, [...fit, ...held.map((k) => trainIdx[k] as number)]);
      const model = train(rows.slice(0, fit.length), fit.map((i) => labels[i] as boolean), dimension, { ...DEFAULT_TRAIN, lambda });
      held.forEach((k, n) => {
        oof[k] = predict(model, rows[fit.length + n] as SparseRow);
      });
    }
    return { lambda, oof, loss: logLoss(oof, trainLabels) };
  });
  const chosen = trials.reduce((a, b) => (b.loss < a.loss ? b : a));
  const threshold = bestThreshold(chosen.oof, trainLabels);
  const { rows, dimension } = rowsOver(features, trainIdx, [...trainIdx, ...testIdx]);
  const model = train(rows.slice(0, trainIdx.length), trainLabels, dimension, { ...DEFAULT_TRAIN, lambda: chosen.lambda });
  return { lambda: chosen.lambda, threshold, probabilities: testIdx.map((_, n) => predict(model, rows[trainIdx.length + n] as SparseRow)) };
}

const fold = groupedFolds(group, FOLDS, SEED);
const words = new Array<boolean>(dev.length).fill(false);
const both = new Array<boolean>(dev.length).fill(false);
const perFold: string[] = [];
const fmt = (v: number | null): string => (v === null ? "–" : v.toFixed(2));
const cell = (s: PR): string => `${fmt(s.precision)}/${fmt(s.recall)}/${f1(s).toFixed(2)}`;

for (let f = 0; f < FOLDS; f += 1) {
  const trainIdx = dev.map((_, i) => i).filter((i) => fold[i] !== f);
  const testIdx = dev.map((_, i) => i).filter((i) => fold[i] === f);
  assertDevOnly([...trainIdx, ...testIdx].map((i) => dev[i] as LabelledReply), heldOut);
  const w = fitPredict(wordFeatures, trainIdx, testIdx, SEED + 1 + f);
  const b = fitPredict(bothFeatures, trainIdx, testIdx, SEED + 1 + f);
  testIdx.forEach((i, n) => {
    words[i] = (w.probabilities[n] as number) >= w.threshold;
    both[i] = (b.probabilities[n] as number) >= b.threshold;
  });
  const want = testIdx.map((i) => labels[i] as boolean);
  const pick = (arr: readonly boolean[]): boolean[] => testIdx.map((i) => arr[i] as boolean);
  const projectsIn = new Set(testIdx.map((i) => group[i]));
  perFold.push(
    `| ${f + 1} | ${projectsIn.size}${projectsIn.has("written") ? " (written)" : ""} | ${testIdx.length} | ${want.filter(Boolean).length} | ${cell(precisionRecall(pick(rulesVerdict), want))} | ${cell(precisionRecall(pick(words), want))} | ${cell(precisionRecall(pick(both), want))} | ${cell(precisionRecall(testIdx.map((i) => (rulesVerdict[i] as boolean) || (words[i] as boolean)), want))} | ${w.lambda}, ${w.threshold.toFixed(3)} | ${b.lambda}, ${b.threshold.toFixed(3)} |`,
  );
}

function pooled(name: string, keep: (i: number) => boolean): string {
  const idx = dev.map((_, i) => i).filter(keep);
  const want = idx.map((i) => labels[i] as boolean);
  const pick = (arr: readonly boolean[]): boolean[] => idx.map((i) => arr[i] as boolean);
  return `| ${name} | ${new Set(idx.map((i) => group[i])).size} | ${idx.length} | ${want.filter(Boolean).length} | ${cell(precisionRecall(pick(rulesVerdict), want))} | ${cell(precisionRecall(pick(words), want))} | ${cell(precisionRecall(pick(both), want))} | ${cell(precisionRecall(idx.map((i) => (rulesVerdict[i] as boolean) || (words[i] as boolean)), want))} | | |`;
}

console.log(`Unfinished reader (docs/decisions/0197): ${dev.length} dev replies (${labels.filter(Boolean).length} statesUnfinished), ${new Set(group).size} projects, ${FOLDS} grouped folds (seed ${SEED}), inner ${INNER_FOLDS} grouped folds, λ ∈ {${LAMBDAS.join(", ")}}, min count ${MIN_COUNT}, ${DEFAULT_TRAIN.iterations} steps of ${DEFAULT_TRAIN.learningRate}.`);
console.log("Cells: precision/recall/F1 of statesUnfinished. Rules: in-sample (written on all of dev). Models: out-of-project.\n");
console.log("| fold | projects | replies | positives | (a) rules | (b) words | (c) words + rule rows | (d) rules OR (b) | (b) λ, threshold | (c) λ, threshold |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|---|");
for (const line of perFold) console.log(line);
console.log(pooled("pooled", () => true));
console.log(pooled("pooled, real", (i) => dev[i]?.origin === "real"));
console.log(pooled("pooled, written", (i) => dev[i]?.origin === "written"));
