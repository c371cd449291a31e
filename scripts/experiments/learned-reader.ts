/**
 * The learned-reader experiment (docs/decisions/0147): does a plain logistic regression over word
 * n-grams per zone, trained on the dev replies only, carry to the held-out splits better than the
 * rule analyzer (src/core/report/analyze.ts)?
 *
 *   node --import tsx scripts/experiments/learned-reader.ts
 *
 * Everything the model depends on — vocabulary, regularisation, threshold — is chosen from dev
 * replies alone, by 5-fold cross-validation with a fixed seed; the held-out splits are scored once,
 * at the end. Only aggregate precision and recall are printed, never a held-out reply or its label
 * (the held-out rules of docs/decisions/0090, 0121). Every run is a look at the held-out splits:
 * record it in the look log (0141, 0147) and change nothing here after it.
 */
import { seededRng } from "../../src/core/random.ts";
import { type LabelledReply, analyzeReply, heldOutPart, loadLabelledReplies, portions } from "../../test/core/report/labelled.ts";
import { HELD_OUT_SPLITS, splitFiles, withoutSealed } from "../../test/core/report/split.ts";
import { DEFAULT_TRAIN, type PR, bestThreshold, foldsOf, logLoss, precisionRecall, predict, train } from "./logistic.ts";
import { type SparseRow, replyFeatures, toRow, vocabulary } from "./reader-features.ts";

const FIELDS = ["claimsComplete", "statesUnfinished", "asksPermission"] as const;
type Field = (typeof FIELDS)[number];

const SEED = 20261247;
const FOLDS = 5;
// A feature must occur in two training replies to enter the vocabulary: fixed, not tuned.
const MIN_COUNT = 2;
const LAMBDAS = [1e-6, 1e-5, 1e-4, 1e-3];

// Split 6 (docs/decisions/0148) came after this experiment's look (0147): held out of training, not scored here.
// Split 7 (docs/decisions/0165) came after it too, joined at its look (0182): held out of training, not scored here.
// Split 8 (docs/decisions/0180) came after it too, joined at its look (0206): held out of training, not scored here.
// Split 9 (docs/decisions/0215) likewise, joined at its look (0218). Both are dev since 0219, so they train here now.
const replies = withoutSealed(loadLabelledReplies());
const parts = portions(replies, splitFiles(HELD_OUT_SPLITS));
const dev = parts.dev;
const heldOut: Array<[string, LabelledReply[]]> = [
  ["split 1", heldOutPart(parts, 1)],
  ["split 2", heldOutPart(parts, 2)],
  ["split 3", heldOutPart(parts, 3)],
  ["split 4", heldOutPart(parts, 4)],
  ["split 5", heldOutPart(parts, 5)],
  ["held-out pooled", [...heldOutPart(parts, 1), ...heldOutPart(parts, 2), ...heldOutPart(parts, 3), ...heldOutPart(parts, 4), ...heldOutPart(parts, 5)]],
];

const label = (reply: LabelledReply, field: Field): boolean => reply.expected[field] === true;
const featuresOf = new Map<LabelledReply, string[]>(replies.map((reply) => [reply, replyFeatures(reply.text)]));

/** Rows of the given replies over a vocabulary built from `from` only. */
function rowsOver(from: readonly LabelledReply[], replies: readonly LabelledReply[]): { rows: SparseRow[]; dimension: number } {
  const vocab = vocabulary(from.map((reply) => featuresOf.get(reply) as string[]), MIN_COUNT);
  const index = new Map(vocab.map((name, i) => [name, i]));
  return { rows: replies.map((reply) => toRow(featuresOf.get(reply) as string[], index)), dimension: vocab.length };
}

// The folds and each fold's rows (vocabulary from its training part) are shared by every field and lambda.
const fold = foldsOf(dev.length, FOLDS, seededRng(SEED));
const foldData = Array.from({ length: FOLDS }, (_, f) => {
  const trainSet = dev.filter((_, i) => fold[i] !== f);
  const testIdx = dev.map((_, i) => i).filter((i) => fold[i] === f);
  const { rows, dimension } = rowsOver(trainSet, [...trainSet, ...testIdx.map((i) => dev[i] as LabelledReply)]);
  return { trainSet, testIdx, trainRows: rows.slice(0, trainSet.length), testRows: rows.slice(trainSet.length), dimension };
});

/** Out-of-fold probabilities for every dev reply. */
function outOfFold(field: Field, lambda: number): number[] {
  const out = new Array<number>(dev.length).fill(0);
  for (const data of foldData) {
    const model = train(data.trainRows, data.trainSet.map((r) => label(r, field)), data.dimension, { ...DEFAULT_TRAIN, lambda });
    data.testIdx.forEach((i, k) => {
      out[i] = predict(model, data.testRows[k] as SparseRow);
    });
  }
  return out;
}

const fmt = (v: number | null): string => (v === null ? "–" : v.toFixed(2));
const pr = (s: PR): string => `${fmt(s.precision)}/${fmt(s.recall)}`;
const rulesOf = new Map<LabelledReply, ReturnType<typeof analyzeReply>>();
const rules = (reply: LabelledReply): ReturnType<typeof analyzeReply> => {
  let got = rulesOf.get(reply);
  if (got === undefined) {
    got = analyzeReply(reply);
    rulesOf.set(reply, got);
  }
  return got;
};

function row(name: string, part: readonly LabelledReply[], field: Field, model: readonly boolean[]): string {
  const want = part.map((r) => label(r, field));
  const byRules = part.map((r) => rules(r)[field] === true);
  const cells = [
    precisionRecall(byRules, want),
    precisionRecall(model, want),
    precisionRecall(byRules.map((v, i) => v || (model[i] as boolean)), want),
    precisionRecall(byRules.map((v, i) => v && (model[i] as boolean)), want),
  ];
  return `| ${name} | ${part.length} | ${cells[0]?.positives} | ${cells.map(pr).join(" | ")} |`;
}

const { rows: devRows, dimension } = rowsOver(dev, dev);
console.log(`Learned reader (docs/decisions/0147): ${dev.length} dev replies, vocabulary ${dimension} features (min count ${MIN_COUNT}), ${FOLDS}-fold CV seed ${SEED}, lambdas ${LAMBDAS.join(", ")}, ${DEFAULT_TRAIN.iterations} steps at rate ${DEFAULT_TRAIN.learningRate}.`);
console.log("P/R as precision/recall. Dev rows: the model out-of-fold (the rules were written on dev, so their dev figure flatters them).\n");
for (const field of FIELDS) {
  // Lambda by cross-validated log-loss, then the threshold by cross-validated F1 at that lambda: dev only.
  const trials = LAMBDAS.map((lambda) => {
    const probabilities = outOfFold(field, lambda);
    return { lambda, probabilities, loss: logLoss(probabilities, dev.map((r) => label(r, field))) };
  });
  const chosen = trials.reduce((a, b) => (b.loss < a.loss ? b : a));
  const threshold = bestThreshold(chosen.probabilities, dev.map((r) => label(r, field)));
  const model = train(devRows, dev.map((r) => label(r, field)), dimension, { ...DEFAULT_TRAIN, lambda: chosen.lambda });
  const index = new Map(vocabulary(dev.map((r) => featuresOf.get(r) as string[]), MIN_COUNT).map((name, i) => [name, i]));
  const decide = (part: readonly LabelledReply[]): boolean[] => part.map((r) => predict(model, toRow(featuresOf.get(r) as string[], index)) >= threshold);
  console.log(`### ${field} — lambda ${chosen.lambda} (CV log-loss ${trials.map((t) => `${t.lambda}: ${t.loss.toFixed(3)}`).join(", ")}), threshold ${threshold.toFixed(3)}`);
  console.log("");
  console.log("| portion | replies | positives | rules | model | rules OR model | rules AND model |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  console.log(row("dev (model CV)", dev, field, chosen.probabilities.map((p) => p >= threshold)));
  for (const [name, part] of heldOut) console.log(row(name, part, field, decide(part)));
  console.log("");
}
