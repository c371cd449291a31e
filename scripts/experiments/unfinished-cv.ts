/**
 * The unfinished-reader experiment (docs/decisions/0197): does a small learned reader of statesUnfinished, trained on dev
 * replies only, carry to projects it has not seen better than the rules? Grouped cross-validation on dev: each fold holds
 * out whole source repositories (the written replies are one group), as split 8 held out new projects.
 *
 *   node --import tsx scripts/experiments/unfinished-cv.ts        (~10 min on a loaded 2-core machine)
 *
 * Readers: (a) the rules as they are (analyzeFinalReport); (b) a logistic regression over the words of the status zones
 * (unfinished-features.ts); (c) the same over the words plus the rows the analyzer fired and its verdicts; (d) rules OR (b).
 * Everything a fold's model depends on — vocabulary, λ, threshold — comes from that fold's training projects alone
 * (unfinished-fit.ts). The rules were written on all of dev, so their figure here is in-sample and flatters them, and so
 * is (c)'s, through its rule features; (b)'s is out-of-project. A last row runs (b) on random (ungrouped) folds, to show
 * what leaving projects out costs. Reads no held-out reply: loadDevReplies drops splits 1–9 by name before reading any
 * text, and assertDevOnly guards every fold. Only figures are printed.
 */
import { join } from "node:path";
import { seededRng } from "../../src/core/random.ts";
import { analyzeFinalReport, explainFinalReport } from "../../src/core/report/analyze.ts";
import type { LabelledReply } from "../../test/core/report/labelled.ts";
import { DEFAULT_TRAIN, type PR, f1, foldsOf, precisionRecall } from "./logistic.ts";
import { assertDevOnly, groupedFolds, devCorpus } from "./unfinished-data.ts";
import { unfinishedFeatures } from "./unfinished-features.ts";
import { INNER_FOLDS, LAMBDAS, MIN_COUNT, auc, fitPredict, ruleRows } from "./unfinished-fit.ts";

const SEED = 20261297;
const FOLDS = 8;

const { heldOut, dev, group, labels } = devCorpus();
const rules = dev.map((r) => ruleRows({ analyze: analyzeFinalReport, explain: explainFinalReport }, r));
const rulesVerdict = rules.map((r) => r.unfinished);
const wordFeatures = dev.map((r) => unfinishedFeatures(r.text));
const bothFeatures = dev.map((r, i) => unfinishedFeatures(r.text, (rules[i] as { rows: string[] }).rows));

const fmt = (v: number | null): string => (v === null ? "–" : v.toFixed(2));
const cell = (s: PR): string => `${fmt(s.precision)}/${fmt(s.recall)}/${f1(s).toFixed(2)}`;

/** Out-of-fold decisions and probabilities of one feature set over the given folds, and each fold's λ and threshold. */
function outOfFold(features: readonly string[][], fold: readonly number[], folds: number): { decided: boolean[]; p: number[]; chosen: string[] } {
  const decided = new Array<boolean>(dev.length).fill(false);
  const p = new Array<number>(dev.length).fill(0);
  const chosen: string[] = [];
  for (let f = 0; f < folds; f += 1) {
    const trainIdx = dev.map((_, i) => i).filter((i) => fold[i] !== f);
    const testIdx = dev.map((_, i) => i).filter((i) => fold[i] === f);
    assertDevOnly([...trainIdx, ...testIdx].map((i) => dev[i] as LabelledReply), heldOut);
    const fit = fitPredict(features, labels, group, trainIdx, testIdx, SEED + 1 + f);
    testIdx.forEach((i, n) => {
      p[i] = fit.probabilities[n] as number;
      decided[i] = (fit.probabilities[n] as number) >= fit.threshold;
    });
    chosen.push(`${fit.lambda}, ${fit.threshold.toFixed(3)}`);
  }
  return { decided, p, chosen };
}

const fold = groupedFolds(group, FOLDS, SEED);
const words = outOfFold(wordFeatures, fold, FOLDS);
const both = outOfFold(bothFeatures, fold, FOLDS);
const either = rulesVerdict.map((v, i) => v || (words.decided[i] as boolean));

function line(name: string, idx: readonly number[], extra: string): string {
  const want = idx.map((i) => labels[i] as boolean);
  const pick = (arr: readonly boolean[]): boolean[] => idx.map((i) => arr[i] as boolean);
  const written = idx.some((i) => group[i] === "written") ? " (written)" : "";
  return `| ${name} | ${new Set(idx.map((i) => group[i])).size}${written} | ${idx.length} | ${want.filter(Boolean).length} | ${cell(precisionRecall(pick(rulesVerdict), want))} | ${cell(precisionRecall(pick(words.decided), want))} | ${cell(precisionRecall(pick(both.decided), want))} | ${cell(precisionRecall(pick(either), want))} | ${extra} |`;
}

const all = dev.map((_, i) => i);
console.log(`Unfinished reader (docs/decisions/0197): ${dev.length} dev replies (${labels.filter(Boolean).length} statesUnfinished), ${new Set(group).size} projects, ${FOLDS} grouped folds (seed ${SEED}), inner ${INNER_FOLDS} grouped folds, λ ∈ {${LAMBDAS.join(", ")}}, min count ${MIN_COUNT}, ${DEFAULT_TRAIN.iterations} steps of ${DEFAULT_TRAIN.learningRate}.`);
console.log("Cells: precision/recall/F1 of statesUnfinished. (a) and (c) in-sample through the rules (written on all of dev); (b) out-of-project.\n");
console.log("| fold | projects | replies | positives | (a) rules | (b) words | (c) words + rule rows | (d) rules OR (b) | (b) λ, threshold; (c) λ, threshold |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
for (let f = 0; f < FOLDS; f += 1) console.log(line(`${f + 1}`, all.filter((i) => fold[i] === f), `${words.chosen[f]}; ${both.chosen[f]}`));
console.log(line("pooled", all, `AUC (b) ${fmt(auc(words.p, labels))}, (c) ${fmt(auc(both.p, labels))}`));
console.log(line("pooled, real", all.filter((i) => dev[i]?.origin === "real"), ""));
console.log(line("pooled, written", all.filter((i) => dev[i]?.origin === "written"), ""));

// The contrast: (b) on random folds, projects shared between training and test.
const random = outOfFold(wordFeatures, foldsOf(dev.length, FOLDS, seededRng(SEED)), FOLDS);
console.log(`\n(b) on ${FOLDS} random folds (seed ${SEED}, projects shared; λ and threshold by the same inner grouped CV): ${cell(precisionRecall(random.decided, labels))}, AUC ${fmt(auc(random.p, labels))}.`);
