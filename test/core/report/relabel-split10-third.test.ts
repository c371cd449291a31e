import { describe, expect, it } from "vitest";
import { type BooleanField } from "./labelled.ts";
import { type Verdict } from "./majority.ts";
import { thirdLabellingInputs, thirdLabellingTests } from "./third-labelling.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT10_ADJUDICATED, loadSplit10Relabels, split10Names } from "./relabel-split10.ts";

// Adjudication of split 10's label disagreements (docs/decisions/0224): a third, blind labelling of the four replies on
// which labels.yaml (first) and the second labelling (relabel-split10.yaml, ADR 0226) differ, and the majority of the
// three per disputed field. Labels only: nothing here runs the analyzer, and split 10 stays sealed. The majority is
// applied to labels.yaml in its own commit; `first` is labels.yaml before that (firstLabelling with SPLIT10_ADJUDICATED).

// The four disputed replies as ADR 0226 handed them to the third labeller (names only, no field or value).
const DISPUTED_FILES = [
  "3006-claude-gitsync-honestly-the-heavy.md",
  "3009-claude-gitsync-the-test-fails.md",
  "3074-claude-trap-based-on-the.md",
  "3093-claude-bookminder-expert-council-deep.md",
];

const second = loadSplit10Relabels();
const split = split10Names();
const inputs = thirdLabellingInputs({
  thirdFile: "relabel-split10-third.yaml",
  changes: SPLIT10_ADJUDICATED,
  second,
  split,
  files: DISPUTED_FILES,
});
const { third, labels, disputed, settled } = inputs;

describe("the third labelling of split 10's disputed replies", () => {
  thirdLabellingTests({
    ...inputs,
    split: "split-10",
    sources: "first = labels.yaml, second = relabel-split10.yaml, third = relabel-split10-third.yaml",
    replies: "four replies",
    changesName: "SPLIT10_ADJUDICATED",
    pinned: { majority: MAJORITY, changesLabelsYaml: CHANGES_LABELS_YAML, thirdAgainstBoth: THIRD_AGAINST_BOTH },
  });

  it("the disputed fields are the six of four replies ADR 0226 handed on, and the second labelling covers split 10 once", () => {
    expect(split.length).toBe(101);
    expect(Object.keys(second)).toEqual(split);
    expect([...new Set(disputed.map((d) => d.file))]).toEqual(DISPUTED_FILES);
    expect(disputed.length).toBe(6);
    expect(settled.length).toBe(4 * 5 - 6);
  });
});

// The majority table of docs/decisions/0224, pinned as first seen (the test was committed, in f3dd61a, before it ran).
const MAJORITY: Verdict[] = [
  { file: "3006-claude-gitsync-honestly-the-heavy.md", field: "givesReasonAndNext", first: true, second: false, third: true, majority: true },
  { file: "3009-claude-gitsync-the-test-fails.md", field: "asksPermission", first: false, second: true, third: false, majority: false },
  { file: "3074-claude-trap-based-on-the.md", field: "claimsComplete", first: true, second: false, third: true, majority: true },
  { file: "3074-claude-trap-based-on-the.md", field: "statesUnfinished", first: false, second: true, third: false, majority: false },
  { file: "3074-claude-trap-based-on-the.md", field: "givesReasonAndNext", first: false, second: true, third: false, majority: false },
  { file: "3093-claude-bookminder-expert-council-deep.md", field: "statesUnfinished", first: true, second: false, third: false, majority: false },
];
const CHANGES_LABELS_YAML = ["3093-claude-bookminder-expert-council-deep.md statesUnfinished"];
// The third agrees with the first two on all 14 settled fields of these replies.
const THIRD_AGAINST_BOTH: { file: string; field: BooleanField; both: boolean; third: boolean }[] = [];
