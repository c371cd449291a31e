/**
 * L2-regularised logistic regression by plain batch gradient descent over sparse rows, for the
 * learned-reader experiment (docs/decisions/0147). No dependencies and no randomness: weights start
 * at zero and every step uses the whole set, so the same data gives the same weights.
 */
import type { SparseRow } from "./reader-features.ts";

export interface LogisticModel {
  weights: Float64Array;
  bias: number;
}

export interface TrainOptions {
  /** L2 strength on the weights (not the bias), per reply: loss = mean log-loss + lambda/2 · |w|². */
  lambda: number;
  iterations: number;
  learningRate: number;
}

// Rows have length 1 (toRow), so the mean log-loss curves by at most 1/4 and plain steps below
// 2 / (1/4 + lambda) ≈ 8 converge; 1500 steps of 6 left the dev cross-validated loss flat in lambda
// below 1e-4 (chosen on dev only, before any held-out look).
export const DEFAULT_TRAIN: Omit<TrainOptions, "lambda"> = { iterations: 1500, learningRate: 6 };

const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

function margin(model: LogisticModel, row: SparseRow): number {
  let z = model.bias;
  for (let k = 0; k < row.index.length; k += 1) z += (model.weights[row.index[k] as number] as number) * (row.value[k] as number);
  return z;
}

/** The probability the model gives a row's label being true. */
export function predict(model: LogisticModel, row: SparseRow): number {
  return sigmoid(margin(model, row));
}

export function train(rows: readonly SparseRow[], labels: readonly boolean[], dimension: number, options: TrainOptions): LogisticModel {
  if (rows.length !== labels.length) throw new Error(`train: ${rows.length} rows but ${labels.length} labels`);
  if (rows.length === 0) throw new Error("train: no rows");
  const model: LogisticModel = { weights: new Float64Array(dimension), bias: 0 };
  const gradient = new Float64Array(dimension);
  const n = rows.length;
  for (let step = 0; step < options.iterations; step += 1) {
    gradient.fill(0);
    let biasGradient = 0;
    for (let i = 0; i < n; i += 1) {
      const row = rows[i] as SparseRow;
      const error = predict(model, row) - (labels[i] ? 1 : 0);
      biasGradient += error;
      for (let k = 0; k < row.index.length; k += 1) {
        const j = row.index[k] as number;
        gradient[j] = (gradient[j] as number) + error * (row.value[k] as number);
      }
    }
    for (let j = 0; j < dimension; j += 1) {
      const w = model.weights[j] as number;
      model.weights[j] = w - options.learningRate * ((gradient[j] as number) / n + options.lambda * w);
    }
    model.bias -= options.learningRate * (biasGradient / n);
  }
  return model;
}

/** Mean log-loss of probabilities against labels (probabilities clipped away from 0 and 1). */
export function logLoss(probabilities: readonly number[], labels: readonly boolean[]): number {
  let sum = 0;
  for (let i = 0; i < probabilities.length; i += 1) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, probabilities[i] as number));
    sum -= labels[i] ? Math.log(p) : Math.log(1 - p);
  }
  return sum / probabilities.length;
}

/** Precision and recall of predictions against labels; null where undefined (nothing predicted / no positives). */
export interface PR {
  positives: number;
  precision: number | null;
  recall: number | null;
}

export function precisionRecall(predicted: readonly boolean[], labels: readonly boolean[]): PR {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < labels.length; i += 1) {
    if (predicted[i] && labels[i]) tp += 1;
    else if (predicted[i]) fp += 1;
    else if (labels[i]) fn += 1;
  }
  return { positives: tp + fn, precision: tp + fp === 0 ? null : tp / (tp + fp), recall: tp + fn === 0 ? null : tp / (tp + fn) };
}

/** F1, 0 when precision or recall is undefined or both are 0. */
export function f1(pr: PR): number {
  const { precision: p, recall: r } = pr;
  return p === null || r === null || p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/** The threshold among the given probabilities (and 0.5) that gives the best F1; ties go to the one closest to 0.5. */
export function bestThreshold(probabilities: readonly number[], labels: readonly boolean[]): number {
  const candidates = [...new Set([0.5, ...probabilities])].sort((a, b) => a - b);
  let best = 0.5;
  let bestF1 = -1;
  for (const t of candidates) {
    const score = f1(precisionRecall(probabilities.map((p) => p >= t), labels));
    if (score > bestF1 + 1e-12 || (Math.abs(score - bestF1) <= 1e-12 && Math.abs(t - 0.5) < Math.abs(best - 0.5))) {
      best = t;
      bestF1 = score;
    }
  }
  return best;
}

/** Fold numbers 0…k−1 for n items: a seeded shuffle dealt round-robin, so folds differ in size by at most one. */
export function foldsOf(n: number, k: number, rng: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const fold = new Array<number>(n).fill(0);
  order.forEach((item, position) => {
    fold[item] = position % k;
  });
  return fold;
}
