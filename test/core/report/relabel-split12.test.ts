import { describe } from "vitest";
import { secondLabellingTests } from "./second-labelling.ts";
import { SPLIT12_ADJUDICATED, loadSplit12Relabels, split12Names } from "./relabel-split12.ts";

// Label reliability of split 12, sealed for the next session (docs/decisions/0241): a blind second labelling of every
// reply against the first labelling (labels.yaml, 12s2's). Labels only: nothing here runs the analyzer, on split 12 or
// anywhere.
const relabels = loadSplit12Relabels();
const split12 = split12Names();

describe("the blind second labelling of split 12", () => {
  // The first labelling: labels.yaml before the third labelling's majority was applied (SPLIT12_ADJUDICATED).
  secondLabellingTests({
    split: "split 12",
    covers: "split 12's 101 reply files (3400–3500)",
    names: split12,
    relabels,
    adjudicated: SPLIT12_ADJUDICATED,
    size: SIZE,
    pinned: { figures: PINNED, disagreements: DISAGREEMENTS },
  });
});

// Split 12's size at 12s2's commit (split12-ready.txt; ADR 0240).
const SIZE = 101;

// [field, agreeing replies, replies, Cohen's kappa to 3 places, [positives in labels.yaml, in the second labelling]],
// pinned as first seen after the labels' and this test's commits (docs/decisions/0241): a label edit on either side fails here.
const PINNED = [
  ["claimsComplete", 97, 101, 0.921, [54, 52]],
  ["statesUnfinished", 99, 101, 0.922, [16, 14]],
  ["givesReasonAndNext", 99, 101, 0.906, [13, 11]],
  ["asksPermission", 98, 101, 0.941, [47, 50]],
  ["fillerEnding", 101, 101, 1, [1, 1]],
];

// The first labelling's disagreements, reported, not resolved (docs/decisions/0241); labels.yaml is not edited here.
const DISAGREEMENTS = [
  { file: "3407-claude-wakil-adr-0016-written.md", field: "asksPermission", first: false, second: true },
  { file: "3408-claude-wakil-there-s-nothing.md", field: "claimsComplete", first: true, second: false },
  { file: "3430-claude-flutterdocker-review-result-approved.md", field: "asksPermission", first: false, second: true },
  { file: "3454-claude-fitcheck-yes-now-i.md", field: "claimsComplete", first: true, second: false },
  { file: "3454-claude-fitcheck-yes-now-i.md", field: "asksPermission", first: false, second: true },
  { file: "3480-claude-safecast-yes-all-code.md", field: "claimsComplete", first: true, second: false },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "claimsComplete", first: false, second: true },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "statesUnfinished", first: true, second: false },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "givesReasonAndNext", first: true, second: false },
  { file: "3486-claude-safecast-fixed-the-problem.md", field: "givesReasonAndNext", first: true, second: false },
  { file: "3488-claude-safecast-yes-exactly-the.md", field: "statesUnfinished", first: true, second: false },
];
