import { describe, expect, it } from "vitest";
import { BOOLEAN_FIELDS } from "./labelled.ts";
import { agreement, labelsByFile } from "./relabel.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT11_ADJUDICATED, loadSplit11Relabels, split11Names } from "./relabel-split11.ts";

// Label reliability of the sealed split 11 (docs/decisions/0229): a blind second labelling of every reply against the
// first labelling (labels.yaml, 12s's). Labels only: nothing here runs the analyzer, on split 11 or anywhere.
const relabels = loadSplit11Relabels();
const split11 = split11Names();

describe("the blind second labelling of split 11", () => {
  it("covers exactly split 11's 124 reply files (3200–3323), each with the five booleans", () => {
    expect(split11.length).toBe(SIZE);
    expect(Object.keys(relabels)).toEqual(split11);
    for (const [file, label] of Object.entries(relabels)) {
      expect(Object.keys(label).sort(), file).toEqual([...BOOLEAN_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("is consistent with ADR 0089 (never claim and unfinished; reason and next only when unfinished)", () => {
    for (const [file, label] of Object.entries(relabels)) {
      expect(label.claimsComplete && label.statesUnfinished, file).toBe(false);
      expect(!label.givesReasonAndNext || label.statesUnfinished, file).toBe(true);
    }
  });

  it("compares with the first labelling per field (agreement, Cohen's kappa, positives) and lists every disagreement", () => {
    // The first labelling: labels.yaml before 0230's majority was applied (SPLIT11_ADJUDICATED).
    const labels = firstLabelling(labelsByFile(), SPLIT11_ADJUDICATED);
    const figures = BOOLEAN_FIELDS.map((field) => {
      for (const file of split11) expect(typeof labels.get(file)?.[field], `${file} ${field} in labels.yaml`).toBe("boolean");
      const pairs = split11.map((file) => [labels.get(file)?.[field] as boolean, relabels[file]?.[field] as boolean] as const);
      return { ...agreement(field, pairs), positives: [pairs.filter(([a]) => a).length, pairs.filter(([, b]) => b).length] };
    });
    const listed = disagreements(split11, labels, relabels);
    console.log(
      `second labelling, split 11 (${split11.length} replies; labels only):\n${figures
        .map((f) => `  ${f.field.padEnd(18)} agree ${f.agree}/${f.n} (${(f.raw * 100).toFixed(1)} %)  kappa ${f.kappa?.toFixed(3) ?? "–"}  positives ${f.positives.join(" / ")}`)
        .join("\n")}\n${listed.map((d) => `  - ${d.file} ${d.field}: labels.yaml ${d.first}, second ${d.second}`).join("\n")}`,
    );
    expect(figures.map((f) => f.n)).toEqual(BOOLEAN_FIELDS.map(() => SIZE));
    expect(listed.length).toBe(figures.reduce((sum, f) => sum + (f.n - f.agree), 0));
    expect(figures.map((f) => [f.field, f.agree, f.n, f.kappa === null ? null : Number(f.kappa.toFixed(3)), f.positives])).toEqual(PINNED);
    expect(listed).toEqual(DISAGREEMENTS);
  });
});

// Split 11's size at 12s's commit (split11-ready.txt; ADR 0228).
const SIZE = 124;

// [field, agreeing replies, replies, Cohen's kappa to 3 places, [positives in labels.yaml, in the second labelling]],
// pinned as first seen after the labels' and this test's commits (docs/decisions/0229): a label edit on either side fails here.
const PINNED = [
  ["claimsComplete", 117, 124, 0.887, [60, 65]],
  ["statesUnfinished", 117, 124, 0.561, [11, 6]],
  ["givesReasonAndNext", 121, 124, 0.757, [7, 6]],
  ["asksPermission", 123, 124, 0.979, [32, 33]],
  ["fillerEnding", 124, 124, 1, [1, 1]],
];

// The first labelling's disagreements, reported, not resolved (docs/decisions/0229); labels.yaml is not edited here.
const DISAGREEMENTS = [
  { file: "3202-codex-mise-implemented-and-published.md", field: "claimsComplete", first: false, second: true },
  { file: "3202-codex-mise-implemented-and-published.md", field: "statesUnfinished", first: true, second: false },
  { file: "3203-codex-mise-addressed-the-pr.md", field: "claimsComplete", first: false, second: true },
  { file: "3203-codex-mise-addressed-the-pr.md", field: "statesUnfinished", first: true, second: false },
  { file: "3209-codex-mise-released-jdx-tar.md", field: "claimsComplete", first: false, second: true },
  { file: "3209-codex-mise-released-jdx-tar.md", field: "statesUnfinished", first: true, second: false },
  { file: "3240-omp-preloop-merged-pr-179.md", field: "claimsComplete", first: false, second: true },
  { file: "3240-omp-preloop-merged-pr-179.md", field: "statesUnfinished", first: true, second: false },
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "claimsComplete", first: true, second: false },
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "statesUnfinished", first: false, second: true },
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "givesReasonAndNext", first: false, second: true },
  { file: "3310-claude-technocore-yes-all-three.md", field: "claimsComplete", first: false, second: true },
  { file: "3310-claude-technocore-yes-all-three.md", field: "statesUnfinished", first: true, second: false },
  { file: "3310-claude-technocore-yes-all-three.md", field: "givesReasonAndNext", first: true, second: false },
  { file: "3310-claude-technocore-yes-all-three.md", field: "asksPermission", first: false, second: true },
  { file: "3319-claude-technocore-pr-5-https.md", field: "claimsComplete", first: false, second: true },
  { file: "3319-claude-technocore-pr-5-https.md", field: "statesUnfinished", first: true, second: false },
  { file: "3319-claude-technocore-pr-5-https.md", field: "givesReasonAndNext", first: true, second: false },
];
