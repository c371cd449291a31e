/**
 * The pure pieces of the learned-reader experiment (scripts/experiments, docs/decisions/0147):
 * zone features and the logistic regression. The held-out figures are the script's to print, not a
 * test's to assert.
 */
import { describe, expect, it } from "vitest";
import { seededRng } from "../../src/core/random.ts";
import { bestThreshold, foldsOf, precisionRecall, predict, train } from "../../scripts/experiments/logistic.ts";
import { replyFeatures, shapeFeatures, toRow, tokens, vocabulary, zones } from "../../scripts/experiments/reader-features.ts";

describe("reply features", () => {
  it("lower-cases words, reads every number as 0 and keeps ? as a token", () => {
    expect(tokens("Done: B1–B3 pass. Shall I go on?")).toEqual(["done", "b1", "b3", "pass", "shall", "i", "go", "on", "?"]);
    expect(tokens("All 4 checks pass")).toEqual(["all", "0", "checks", "pass"]);
  });

  it("splits a reply into its zones, skipping fenced code", () => {
    const reply = "# Summary\n\nAll tests pass.\n\n```\nnpm test\n```\n\nTwo steps remain. Want me to keep going?\n";
    expect(zones(reply)).toEqual({
      first: "Summary",
      head3: "Summary All tests pass. Two steps remain. Want me to keep going?",
      lastPara: "Two steps remain. Want me to keep going?",
      lastSentence: "Want me to keep going?",
    });
    expect(shapeFeatures(reply)).toEqual(["shape:endsWithQuestion", "shape:fence", "shape:heading"]);
  });

  it("names unigrams and bigrams per zone, each once", () => {
    expect(replyFeatures("Done.")).toEqual(["first:done", "head3:done", "lastPara:done", "lastSentence:done", "shape:short"]);
  });

  it("keeps features seen in enough replies and gives rows of length 1", () => {
    const vocab = vocabulary([["a", "b"], ["a", "c"], ["a", "b", "d"]], 2);
    expect(vocab).toEqual(["a", "b"]);
    const row = toRow(["d", "b", "a"], new Map(vocab.map((name, i) => [name, i])));
    expect(row).toEqual({ index: [0, 1], value: [1 / Math.sqrt(2), 1 / Math.sqrt(2)] });
  });
});

describe("logistic regression", () => {
  // Feature 0 present ⇔ true; features 1 and 2 are noise present on both sides.
  const rows = [
    { index: [0, 1], value: [1, 1] },
    { index: [0, 2], value: [1, 1] },
    { index: [0], value: [1] },
    { index: [1], value: [1] },
    { index: [2], value: [1] },
    { index: [1, 2], value: [1, 1] },
  ];
  const labels = [true, true, true, false, false, false];
  const options = { lambda: 1e-3, iterations: 300, learningRate: 2 };

  it("separates a separable set", () => {
    const model = train(rows, labels, 3, options);
    const predicted = rows.map((row) => predict(model, row) >= 0.5);
    expect(predicted).toEqual(labels);
    expect(precisionRecall(predicted, labels)).toEqual({ positives: 3, precision: 1, recall: 1 });
  });

  it("trains deterministically: the same data gives the same weights", () => {
    const a = train(rows, labels, 3, options);
    const b = train(rows, labels, 3, options);
    expect({ weights: Array.from(a.weights), bias: a.bias }).toEqual({ weights: Array.from(b.weights), bias: b.bias });
  });

  it("shrinks the weights as lambda grows", () => {
    const weak = train(rows, labels, 3, options);
    const strong = train(rows, labels, 3, { ...options, lambda: 0.1 });
    expect(Math.abs(strong.weights[0] as number)).toBeLessThan(Math.abs(weak.weights[0] as number));
  });

  it("refuses rows and labels of different lengths", () => {
    expect(() => train(rows, labels.slice(1), 3, options)).toThrow("train: 6 rows but 5 labels");
  });

  it("picks the threshold that best separates the probabilities", () => {
    expect(bestThreshold([0.1, 0.2, 0.3, 0.4], [false, false, true, true])).toBe(0.3);
  });

  it("deals folds of equal size, the same for the same seed", () => {
    const folds = foldsOf(10, 5, seededRng(7));
    expect(folds).toEqual(foldsOf(10, 5, seededRng(7)));
    expect([0, 1, 2, 3, 4].map((f) => folds.filter((x) => x === f).length)).toEqual([2, 2, 2, 2, 2]);
  });
});
