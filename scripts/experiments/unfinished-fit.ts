/**
 * Fitting the unfinished reader (docs/decisions/0197): one logistic regression over given feature lists, with its
 * vocabulary, λ and threshold all chosen from the training replies alone (λ by an inner grouped CV's log-loss over their
 * projects, the threshold by that CV's best F1), and the analyzer's rows as feature names. Shared by the grouped CV
 * (unfinished-cv.ts) and the prospective check (unfinished-prospective.ts).
 */
import type { AnalyzeOptions, FinalReportAnalysis, PatternHit } from "../../src/core/report/analyze.ts";
import type { LabelledReply } from "../../test/core/report/labelled.ts";
import { DEFAULT_TRAIN, bestThreshold, logLoss, predict, train } from "./logistic.ts";
import { type SparseRow, toRow, vocabulary } from "./reader-features.ts";
import { groupedFolds } from "./unfinished-data.ts";

export const INNER_FOLDS = 4;
// A feature must occur in two training replies to enter the vocabulary: fixed, not tuned.
export const MIN_COUNT = 2;
export const LAMBDAS = [1e-5, 1e-4, 1e-3, 1e-2];

export interface Fit {
  lambda: number;
  threshold: number;
  /** The test replies' probabilities, in testIdx order. */
  probabilities: number[];
}

/** An analyzer as the experiment calls it: today's, or an older tree's (the prospective check). */
export interface Analyzer {
  analyze: (text: string, counter: undefined, options: AnalyzeOptions) => FinalReportAnalysis;
  explain: (text: string, options: AnalyzeOptions) => PatternHit[];
}

/** The rows that fired and the three verdicts, as feature names, and the rules' statesUnfinished. */
export function ruleRows(analyzer: Analyzer, reply: LabelledReply): { rows: string[]; unfinished: boolean } {
  const options = reply.steps === undefined ? {} : { steps: reply.steps };
  const got = analyzer.analyze(reply.text, undefined, options);
  const rows = analyzer.explain(reply.text, options).map((hit) => hit.id);
  if (got.statesUnfinished) rows.push("verdict.unfinished");
  if (got.claimsComplete) rows.push("verdict.complete");
  if (got.asksPermission) rows.push("verdict.permission");
  return { rows, unfinished: got.statesUnfinished };
}

function rowsOver(features: readonly string[][], trainIdx: readonly number[], idx: readonly number[]): { rows: SparseRow[]; dimension: number } {
  const vocab = vocabulary(trainIdx.map((i) => features[i] as string[]), MIN_COUNT);
  const index = new Map(vocab.map((name, i) => [name, i]));
  return { rows: idx.map((i) => toRow(features[i] as string[], index)), dimension: vocab.length };
}

/** Trains on trainIdx (λ and threshold by an inner grouped CV over its projects) and gives testIdx's probabilities. */
export function fitPredict(features: readonly string[][], labels: readonly boolean[], group: readonly string[], trainIdx: readonly number[], testIdx: readonly number[], seed: number): Fit {
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

/** Area under the ROC curve (ties count a half): how well the probabilities rank, whatever the threshold. */
export function auc(probabilities: readonly number[], labels: readonly boolean[]): number | null {
  const pairs = probabilities.map((p, i) => ({ p, y: labels[i] as boolean })).sort((a, b) => a.p - b.p);
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < pairs.length; ) {
    let j = i;
    while (j < pairs.length && (pairs[j] as { p: number }).p === (pairs[i] as { p: number }).p) j += 1;
    const midRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k += 1) if ((pairs[k] as { y: boolean }).y) {
      positives += 1;
      rankSum += midRank;
    }
    i = j;
  }
  const negatives = pairs.length - positives;
  return positives === 0 || negatives === 0 ? null : (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/**
 * Bernoulli naive Bayes over the same feature lists (add-one smoothing, vocabulary from the training replies), as a
 * second learner beside the regression: the threshold on its posterior by an inner grouped CV's best F1, as fitPredict.
 */
export function fitPredictBayes(features: readonly string[][], labels: readonly boolean[], group: readonly string[], trainIdx: readonly number[], testIdx: readonly number[], seed: number): Fit {
  const inner = groupedFolds(trainIdx.map((i) => group[i] as string), INNER_FOLDS, seed);
  const oof = new Array<number>(trainIdx.length).fill(0);
  for (let f = 0; f < INNER_FOLDS; f += 1) {
    const fit = trainIdx.filter((_, k) => inner[k] !== f);
    const scorer = bayes(features, labels, fit);
    trainIdx.forEach((i, k) => {
      if (inner[k] === f) oof[k] = scorer(features[i] as string[]);
    });
  }
  const threshold = bestThreshold(oof, trainIdx.map((i) => labels[i] as boolean));
  const scorer = bayes(features, labels, trainIdx);
  return { lambda: Number.NaN, threshold, probabilities: testIdx.map((i) => scorer(features[i] as string[])) };
}

/** A Bernoulli naive Bayes posterior trained on the given replies. */
function bayes(features: readonly string[][], labels: readonly boolean[], trainIdx: readonly number[]): (names: readonly string[]) => number {
  const vocab = vocabulary(trainIdx.map((i) => features[i] as string[]), MIN_COUNT);
  const index = new Map(vocab.map((name, i) => [name, i]));
  const pos = new Float64Array(vocab.length);
  const neg = new Float64Array(vocab.length);
  let nPos = 0;
  for (const i of trainIdx) {
    const yes = labels[i] as boolean;
    if (yes) nPos += 1;
    for (const name of new Set(features[i])) {
      const j = index.get(name);
      if (j === undefined) continue;
      const counts = yes ? pos : neg;
      counts[j] = (counts[j] as number) + 1;
    }
  }
  const nNeg = trainIdx.length - nPos;
  const present = new Float64Array(vocab.length);
  let absentSum = Math.log((nPos + 1) / (nNeg + 1));
  for (let j = 0; j < vocab.length; j += 1) {
    const p = ((pos[j] as number) + 1) / (nPos + 2);
    const q = ((neg[j] as number) + 1) / (nNeg + 2);
    absentSum += Math.log((1 - p) / (1 - q));
    present[j] = Math.log(p / q) - Math.log((1 - p) / (1 - q));
  }
  return (names) => {
    let z = absentSum;
    for (const name of new Set(names)) {
      const j = index.get(name);
      if (j !== undefined) z += present[j] as number;
    }
    return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
  };
}
