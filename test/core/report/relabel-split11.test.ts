import { describe } from "vitest";
import { secondLabellingTests } from "./second-labelling.ts";
import { SPLIT11_ADJUDICATED, loadSplit11Relabels, split11Names } from "./relabel-split11.ts";

// Label reliability of the sealed split 11 (docs/decisions/0229): a blind second labelling of every reply against the
// first labelling (labels.yaml, 12s's). Labels only: nothing here runs the analyzer, on split 11 or anywhere.
const relabels = loadSplit11Relabels();
const split11 = split11Names();

describe("the blind second labelling of split 11", () => {
  // The first labelling: labels.yaml before the third labelling's majority was applied (SPLIT11_ADJUDICATED).
  secondLabellingTests({
    split: "split 11",
    covers: "split 11's 124 reply files (3200–3323)",
    names: split11,
    relabels,
    adjudicated: SPLIT11_ADJUDICATED,
    size: SIZE,
    pinned: { figures: PINNED, disagreements: DISAGREEMENTS },
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
