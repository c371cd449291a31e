import { describe, expect, it } from "vitest";
import { type BooleanField } from "./labelled.ts";
import { type Verdict } from "./majority.ts";
import { thirdLabellingInputs, thirdLabellingTests } from "./third-labelling.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT11_ADJUDICATED, loadSplit11Relabels, split11Names } from "./relabel-split11.ts";

// Adjudication of split 11's label disagreements (docs/decisions/0230): a third, blind labelling of the seven replies on
// which labels.yaml (first) and the second labelling (relabel-split11.yaml, ADR 0229) differ, and the majority of the
// three per disputed field. Labels only: nothing here runs the analyzer, and split 11 stays sealed. The majority is
// applied to labels.yaml in its own commit; `first` is labels.yaml before that (firstLabelling with SPLIT11_ADJUDICATED).

// The seven disputed replies as ADR 0229 handed them to the third labeller (/work/wt/split11-disputes.txt: names and
// disputed fields, no value).
const DISPUTED_FILES = [
  "3202-codex-mise-implemented-and-published.md",
  "3203-codex-mise-addressed-the-pr.md",
  "3209-codex-mise-released-jdx-tar.md",
  "3240-omp-preloop-merged-pr-179.md",
  "3275-opencode-learnp5-done-the-regression.md",
  "3310-claude-technocore-yes-all-three.md",
  "3319-claude-technocore-pr-5-https.md",
];

const second = loadSplit11Relabels();
const split = split11Names();
const inputs = thirdLabellingInputs({
  thirdFile: "relabel-split11-third.yaml",
  changes: SPLIT11_ADJUDICATED,
  second,
  split,
  files: DISPUTED_FILES,
});
const { third, labels, disputed, settled } = inputs;

describe("the third labelling of split 11's disputed replies", () => {
  thirdLabellingTests({
    ...inputs,
    split: "split-11",
    sources: "first = labels.yaml, second = relabel-split11.yaml, third = relabel-split11-third.yaml",
    replies: "seven replies",
    changesName: "SPLIT11_ADJUDICATED",
    pinned: { majority: MAJORITY, changesLabelsYaml: CHANGES_LABELS_YAML, thirdAgainstBoth: THIRD_AGAINST_BOTH },
  });

  it("the disputed fields are the 18 of seven replies ADR 0229 handed on, and the second labelling covers split 11 once", () => {
    expect(split.length).toBe(124);
    expect(Object.keys(second)).toEqual(split);
    expect([...new Set(disputed.map((d) => d.file))]).toEqual(DISPUTED_FILES);
    expect(disputed.length).toBe(18);
    expect(settled.length).toBe(7 * 5 - 18);
  });
});

// The majority table of docs/decisions/0230, pinned as first seen (the test was committed, in f4c986f, before it ran).
const MAJORITY: Verdict[] = [
  { file: "3202-codex-mise-implemented-and-published.md", field: "claimsComplete", first: false, second: true, third: false, majority: false },
  { file: "3202-codex-mise-implemented-and-published.md", field: "statesUnfinished", first: true, second: false, third: true, majority: true },
  { file: "3203-codex-mise-addressed-the-pr.md", field: "claimsComplete", first: false, second: true, third: false, majority: false },
  { file: "3203-codex-mise-addressed-the-pr.md", field: "statesUnfinished", first: true, second: false, third: true, majority: true },
  { file: "3209-codex-mise-released-jdx-tar.md", field: "claimsComplete", first: false, second: true, third: false, majority: false },
  { file: "3209-codex-mise-released-jdx-tar.md", field: "statesUnfinished", first: true, second: false, third: true, majority: true },
  { file: "3240-omp-preloop-merged-pr-179.md", field: "claimsComplete", first: false, second: true, third: false, majority: false },
  { file: "3240-omp-preloop-merged-pr-179.md", field: "statesUnfinished", first: true, second: false, third: true, majority: true },
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "claimsComplete", first: true, second: false, third: false, majority: false },
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "statesUnfinished", first: false, second: true, third: true, majority: true },
  { file: "3275-opencode-learnp5-done-the-regression.md", field: "givesReasonAndNext", first: false, second: true, third: true, majority: true },
  { file: "3310-claude-technocore-yes-all-three.md", field: "claimsComplete", first: false, second: true, third: true, majority: true },
  { file: "3310-claude-technocore-yes-all-three.md", field: "statesUnfinished", first: true, second: false, third: false, majority: false },
  { file: "3310-claude-technocore-yes-all-three.md", field: "givesReasonAndNext", first: true, second: false, third: false, majority: false },
  { file: "3310-claude-technocore-yes-all-three.md", field: "asksPermission", first: false, second: true, third: true, majority: true },
  { file: "3319-claude-technocore-pr-5-https.md", field: "claimsComplete", first: false, second: true, third: true, majority: true },
  { file: "3319-claude-technocore-pr-5-https.md", field: "statesUnfinished", first: true, second: false, third: false, majority: false },
  { file: "3319-claude-technocore-pr-5-https.md", field: "givesReasonAndNext", first: true, second: false, third: false, majority: false },
];
const CHANGES_LABELS_YAML = [
  "3275-opencode-learnp5-done-the-regression.md claimsComplete",
  "3275-opencode-learnp5-done-the-regression.md statesUnfinished",
  "3275-opencode-learnp5-done-the-regression.md givesReasonAndNext",
  "3310-claude-technocore-yes-all-three.md claimsComplete",
  "3310-claude-technocore-yes-all-three.md statesUnfinished",
  "3310-claude-technocore-yes-all-three.md givesReasonAndNext",
  "3310-claude-technocore-yes-all-three.md asksPermission",
  "3319-claude-technocore-pr-5-https.md claimsComplete",
  "3319-claude-technocore-pr-5-https.md statesUnfinished",
  "3319-claude-technocore-pr-5-https.md givesReasonAndNext",
];
// The third agrees with the first two on all 17 settled fields of these replies.
const THIRD_AGAINST_BOTH: { file: string; field: BooleanField; both: boolean; third: boolean }[] = [];
