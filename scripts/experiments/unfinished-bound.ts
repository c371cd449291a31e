/**
 * An upper bound for the unfinished-reader experiment (docs/decisions/0197): the words regression at one fixed λ (1e-5),
 * its threshold chosen on the out-of-fold probabilities themselves — so on the test projects, which no real reader can
 * do. Not an estimate: how well the words could do across projects if the threshold were known, beside random folds.
 * Dev only, as unfinished-cv.ts.
 *
 *   node --import tsx scripts/experiments/unfinished-bound.ts        (~4 min at load 4)
 */
import { seededRng } from "../../src/core/random.ts";
import type { LabelledReply } from "../../test/core/report/labelled.ts";
import { DEFAULT_TRAIN, bestThreshold, f1, foldsOf, precisionRecall, predict, train } from "./logistic.ts";
import { toRow, vocabulary } from "./reader-features.ts";
import { assertDevOnly, groupedFolds, devCorpus } from "./unfinished-data.ts";
import { unfinishedFeatures } from "./unfinished-features.ts";
import { MIN_COUNT, auc } from "./unfinished-fit.ts";

const SEED = 20261297;
const FOLDS = 8;
const LAMBDA = 1e-5;

const { heldOut, dev, group, labels } = devCorpus();
const features = dev.map((r) => unfinishedFeatures(r.text));

function bound(fold: readonly number[]): string {
  const p = new Array<number>(dev.length).fill(0);
  for (let f = 0; f < FOLDS; f += 1) {
    const trainIdx = dev.map((_, i) => i).filter((i) => fold[i] !== f);
    const testIdx = dev.map((_, i) => i).filter((i) => fold[i] === f);
    assertDevOnly([...trainIdx, ...testIdx].map((i) => dev[i] as LabelledReply), heldOut);
    const vocab = vocabulary(trainIdx.map((i) => features[i] as string[]), MIN_COUNT);
    const index = new Map(vocab.map((name, i) => [name, i]));
    const model = train(trainIdx.map((i) => toRow(features[i] as string[], index)), trainIdx.map((i) => labels[i] as boolean), vocab.length, { ...DEFAULT_TRAIN, lambda: LAMBDA });
    for (const i of testIdx) p[i] = predict(model, toRow(features[i] as string[], index));
  }
  const threshold = bestThreshold(p, labels);
  const pr = precisionRecall(p.map((x) => x >= threshold), labels);
  return `${pr.precision?.toFixed(2)}/${pr.recall?.toFixed(2)}/${f1(pr).toFixed(2)} at threshold ${threshold.toFixed(3)}, AUC ${auc(p, labels)?.toFixed(2)}`;
}

console.log(`Words regression, λ ${LAMBDA}, threshold chosen on the out-of-fold probabilities (an upper bound), ${dev.length} dev replies:`);
console.log(`- ${FOLDS} grouped folds: ${bound(groupedFolds(group, FOLDS, SEED))}`);
console.log(`- ${FOLDS} random folds: ${bound(foldsOf(dev.length, FOLDS, seededRng(SEED)))}`);
