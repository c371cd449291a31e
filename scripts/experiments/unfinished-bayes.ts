/**
 * The unfinished-reader experiment's second learner (docs/decisions/0197): Bernoulli naive Bayes over the same status-zone
 * words (and words + rule rows), on the same 8 grouped folds and on random folds, so the regression's result is not one
 * trainer's. Dev only, as unfinished-cv.ts (whose readers and guard it shares).
 *
 *   node --import tsx scripts/experiments/unfinished-bayes.ts        (~1 min)
 */
import { seededRng } from "../../src/core/random.ts";
import { analyzeFinalReport, explainFinalReport } from "../../src/core/report/analyze.ts";
import type { LabelledReply } from "../../test/core/report/labelled.ts";
import { type PR, f1, foldsOf, precisionRecall } from "./logistic.ts";
import { assertDevOnly, groupedFolds, devCorpus } from "./unfinished-data.ts";
import { unfinishedFeatures } from "./unfinished-features.ts";
import { auc, fitPredictBayes, ruleRows } from "./unfinished-fit.ts";

const SEED = 20261297;
const FOLDS = 8;

const { heldOut, dev, group, labels } = devCorpus();
const rules = dev.map((r) => ruleRows({ analyze: analyzeFinalReport, explain: explainFinalReport }, r));
const wordFeatures = dev.map((r) => unfinishedFeatures(r.text));
const bothFeatures = dev.map((r, i) => unfinishedFeatures(r.text, (rules[i] as { rows: string[] }).rows));
const fmt = (v: number | null): string => (v === null ? "–" : v.toFixed(2));
const cell = (s: PR): string => `${fmt(s.precision)}/${fmt(s.recall)}/${f1(s).toFixed(2)}`;

function outOfFold(features: readonly string[][], fold: readonly number[]): string {
  const decided = new Array<boolean>(dev.length).fill(false);
  const p = new Array<number>(dev.length).fill(0);
  for (let f = 0; f < FOLDS; f += 1) {
    const trainIdx = dev.map((_, i) => i).filter((i) => fold[i] !== f);
    const testIdx = dev.map((_, i) => i).filter((i) => fold[i] === f);
    assertDevOnly([...trainIdx, ...testIdx].map((i) => dev[i] as LabelledReply), heldOut);
    const fit = fitPredictBayes(features, labels, group, trainIdx, testIdx, SEED + 1 + f);
    testIdx.forEach((i, n) => {
      p[i] = fit.probabilities[n] as number;
      decided[i] = (fit.probabilities[n] as number) >= fit.threshold;
    });
  }
  return `${cell(precisionRecall(decided, labels))}, AUC ${fmt(auc(p, labels))}`;
}

const grouped = groupedFolds(group, FOLDS, SEED);
const random = foldsOf(dev.length, FOLDS, seededRng(SEED));
console.log(`Naive Bayes, statesUnfinished, ${dev.length} dev replies (${labels.filter(Boolean).length} positives), ${FOLDS} folds; P/R/F1, pooled out-of-fold:`);
console.log(`- words, grouped folds: ${outOfFold(wordFeatures, grouped)}`);
console.log(`- words + rule rows, grouped folds: ${outOfFold(bothFeatures, grouped)}`);
console.log(`- words, random folds: ${outOfFold(wordFeatures, random)}`);
console.log(`- rules (in-sample): ${cell(precisionRecall(rules.map((r) => r.unfinished), labels))}`);
