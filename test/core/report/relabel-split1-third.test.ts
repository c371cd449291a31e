import { describe, expect, it } from "vitest";
import { type Verdict, majority } from "./majority.ts";
import { thirdLabellingInputs, thirdLabellingTests } from "./third-labelling.ts";
import { ADJUDICATED, disagreements, firstLabelling, loadSplit1Relabels } from "./relabel-split1.ts";
import { SPLIT_1, committedSplit } from "./split.ts";

// Adjudication of split 1's label disagreements (docs/decisions/0183): a third, blind labelling of the seven replies
// on which labels.yaml (first) and relabel-split1.yaml (second, ADR 0179) differ, and the majority of the three per
// disputed field. Labels only: nothing here runs the analyzer. The lead applied the majority to labels.yaml in its own
// commit (docs/decisions/0182); `first` is labels.yaml before that (firstLabelling).
const DISPUTED_FILES = [
  "038-pi-release-process.md",
  "039-pi-commit-and-tag.md",
  "045-pi-progress-wp1-14.md",
  "049-pi-remaining-from-plan.md",
  "115-pi-got-it-we-ve-made.md",
  "247-steps-subset-completed-word.md",
  "304-permission-continue-or-stop.md",
];

const second = loadSplit1Relabels();
const split = committedSplit(SPLIT_1);
const inputs = thirdLabellingInputs({
  thirdFile: "relabel-split1-third.yaml",
  changes: ADJUDICATED,
  second,
  split,
  files: DISPUTED_FILES,
});
const { third, labels, disputed, settled } = inputs;

describe("the third labelling of split 1's disputed replies", () => {
  thirdLabellingTests({
    ...inputs,
    split: "split-1",
    sources: "first = labels.yaml, second = relabel-split1.yaml, third = relabel-split1-third.yaml",
    replies: "seven replies",
    changesName: "ADJUDICATED",
    pinned: { majority: MAJORITY, changesLabelsYaml: CHANGES_LABELS_YAML, thirdAgainstBoth: [] },
  });

  it("the settled fields are the seven replies' other fields", () => {
    expect(settled.length).toBe(7 * 5 - MAJORITY.length);
  });
});

it("the majority of three booleans", () => {
  expect([majority(true, true, false), majority(true, false, false), majority(false, true, true), majority(false, false, false)]).toEqual([true, false, true, false]);
});

// The majority table of docs/decisions/0183, pinned as first computed.
const MAJORITY: Verdict[] = [
  { file: "038-pi-release-process.md", field: "statesUnfinished", first: false, second: true, third: true, majority: true },
  { file: "038-pi-release-process.md", field: "givesReasonAndNext", first: false, second: true, third: true, majority: true },
  { file: "039-pi-commit-and-tag.md", field: "statesUnfinished", first: false, second: true, third: true, majority: true },
  { file: "039-pi-commit-and-tag.md", field: "givesReasonAndNext", first: false, second: true, third: true, majority: true },
  { file: "045-pi-progress-wp1-14.md", field: "givesReasonAndNext", first: false, second: true, third: true, majority: true },
  { file: "049-pi-remaining-from-plan.md", field: "givesReasonAndNext", first: false, second: true, third: true, majority: true },
  { file: "115-pi-got-it-we-ve-made.md", field: "claimsComplete", first: false, second: true, third: true, majority: true },
  { file: "247-steps-subset-completed-word.md", field: "claimsComplete", first: false, second: true, third: false, majority: false },
  { file: "247-steps-subset-completed-word.md", field: "statesUnfinished", first: true, second: false, third: true, majority: true },
  { file: "304-permission-continue-or-stop.md", field: "givesReasonAndNext", first: false, second: true, third: true, majority: true },
];
const CHANGES_LABELS_YAML = [
  "038-pi-release-process.md statesUnfinished",
  "038-pi-release-process.md givesReasonAndNext",
  "039-pi-commit-and-tag.md statesUnfinished",
  "039-pi-commit-and-tag.md givesReasonAndNext",
  "045-pi-progress-wp1-14.md givesReasonAndNext",
  "049-pi-remaining-from-plan.md givesReasonAndNext",
  "115-pi-got-it-we-ve-made.md claimsComplete",
  "304-permission-continue-or-stop.md givesReasonAndNext",
];
