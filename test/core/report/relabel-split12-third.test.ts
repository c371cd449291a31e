import { describe, expect, it } from "vitest";
import { type BooleanField } from "./labelled.ts";
import { type Verdict } from "./majority.ts";
import { thirdLabellingInputs, thirdLabellingTests } from "./third-labelling.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT12_ADJUDICATED, loadSplit12Relabels, split12Names } from "./relabel-split12.ts";

// Adjudication of split 12's label disagreements (docs/decisions/0242): a third, blind labelling of the eight replies on
// which labels.yaml (first) and the second labelling (relabel-split12.yaml, ADR 0241) differ, and the majority of the
// three per disputed field. Labels only: nothing here runs the analyzer, and split 12 stays sealed. The majority is
// applied to labels.yaml in its own commit; `first` is labels.yaml before that (firstLabelling with SPLIT12_ADJUDICATED).

// The eight disputed replies as ADR 0241 handed them to the third labeller (/work/wt/split12-disputes.txt: names and
// disputed fields, no value).
const DISPUTED_FILES = [
  "3407-claude-wakil-adr-0016-written.md",
  "3408-claude-wakil-there-s-nothing.md",
  "3430-claude-flutterdocker-review-result-approved.md",
  "3454-claude-fitcheck-yes-now-i.md",
  "3480-claude-safecast-yes-all-code.md",
  "3482-claude-safecast-pushed-now-every.md",
  "3486-claude-safecast-fixed-the-problem.md",
  "3488-claude-safecast-yes-exactly-the.md",
];

const second = loadSplit12Relabels();
const split = split12Names();
const inputs = thirdLabellingInputs({
  thirdFile: "relabel-split12-third.yaml",
  changes: SPLIT12_ADJUDICATED,
  second,
  split,
  files: DISPUTED_FILES,
});
const { third, labels, disputed, settled } = inputs;

describe("the third labelling of split 12's disputed replies", () => {
  thirdLabellingTests({
    ...inputs,
    split: "split-12",
    sources: "first = labels.yaml, second = relabel-split12.yaml, third = relabel-split12-third.yaml",
    replies: "eight replies",
    changesName: "SPLIT12_ADJUDICATED",
    pinned: { majority: MAJORITY, changesLabelsYaml: CHANGES_LABELS_YAML, thirdAgainstBoth: THIRD_AGAINST_BOTH },
  });

  it("the disputed fields are the 11 of eight replies ADR 0241 handed on, and the second labelling covers split 12 once", () => {
    expect(split.length).toBe(101);
    expect(Object.keys(second)).toEqual(split);
    expect([...new Set(disputed.map((d) => d.file))]).toEqual(DISPUTED_FILES);
    expect(disputed.length).toBe(11);
    expect(settled.length).toBe(8 * 5 - 11);
  });
});

// The majority table of docs/decisions/0242, pinned as first seen (the test was committed, in 620388b, before it ran).
const MAJORITY: Verdict[] = [
  { file: "3407-claude-wakil-adr-0016-written.md", field: "asksPermission", first: false, second: true, third: true, majority: true },
  { file: "3408-claude-wakil-there-s-nothing.md", field: "claimsComplete", first: true, second: false, third: false, majority: false },
  { file: "3430-claude-flutterdocker-review-result-approved.md", field: "asksPermission", first: false, second: true, third: true, majority: true },
  { file: "3454-claude-fitcheck-yes-now-i.md", field: "claimsComplete", first: true, second: false, third: true, majority: true },
  { file: "3454-claude-fitcheck-yes-now-i.md", field: "asksPermission", first: false, second: true, third: true, majority: true },
  { file: "3480-claude-safecast-yes-all-code.md", field: "claimsComplete", first: true, second: false, third: false, majority: false },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "claimsComplete", first: false, second: true, third: false, majority: false },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "statesUnfinished", first: true, second: false, third: true, majority: true },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "givesReasonAndNext", first: true, second: false, third: true, majority: true },
  { file: "3486-claude-safecast-fixed-the-problem.md", field: "givesReasonAndNext", first: true, second: false, third: true, majority: true },
  { file: "3488-claude-safecast-yes-exactly-the.md", field: "statesUnfinished", first: true, second: false, third: false, majority: false },
];
const CHANGES_LABELS_YAML = [
  "3407-claude-wakil-adr-0016-written.md asksPermission",
  "3408-claude-wakil-there-s-nothing.md claimsComplete",
  "3430-claude-flutterdocker-review-result-approved.md asksPermission",
  "3454-claude-fitcheck-yes-now-i.md asksPermission",
  "3480-claude-safecast-yes-all-code.md claimsComplete",
  "3488-claude-safecast-yes-exactly-the.md statesUnfinished",
];
// The third agrees with the first two on all 29 settled fields of these replies.
const THIRD_AGAINST_BOTH: { file: string; field: BooleanField; both: boolean; third: boolean }[] = [];
