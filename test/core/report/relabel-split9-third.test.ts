import { describe, expect, it } from "vitest";
import { type BooleanField } from "./labelled.ts";
import { type Verdict } from "./majority.ts";
import { thirdLabellingInputs, thirdLabellingTests } from "./third-labelling.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT9_ADJUDICATED, loadSplit9Relabels } from "./relabel-split9.ts";
import { SPLIT_9, committedSplit } from "./split.ts";

// Adjudication of split 9's label disagreements (docs/decisions/0217): a third, blind labelling of the eight replies on
// which labels.yaml (first) and the second labelling (relabel-split9.yaml, ADR 0216) differ, and the majority of the
// three per disputed field. Labels only: nothing here runs the analyzer, and split 9 stayed sealed until its look (0218; dev since 0219). The majority is
// applied to labels.yaml in its own commit; `first` is labels.yaml before that (firstLabelling with SPLIT9_ADJUDICATED).

// The eleven disputed fields as ADR 0216 handed them to the third labeller (file then field order).
const DISPUTED_FIELDS = [
  "2600-eqri-i-understand-your.md asksPermission",
  "2605-eqri-i-completely-understand.md asksPermission",
  "2609-bingwall-that-was-the.md claimsComplete",
  "2642-piemenu-the-app-is.md givesReasonAndNext",
  "2655-rooport-now-that-the.md claimsComplete",
  "2655-rooport-now-that-the.md statesUnfinished",
  "2659-rooport-the-migration-workflow.md claimsComplete",
  "2659-rooport-the-migration-workflow.md statesUnfinished",
  "2661-rooport-please-clarify-the.md asksPermission",
  "2664-rooport-the-simulated-execution.md claimsComplete",
  "2664-rooport-the-simulated-execution.md statesUnfinished",
];

const DISPUTED_FILES = [...new Set(DISPUTED_FIELDS.map((entry) => entry.split(" ")[0] as string))];

const second = loadSplit9Relabels();
const split = committedSplit(SPLIT_9);
const inputs = thirdLabellingInputs({
  thirdFile: "relabel-split9-third.yaml",
  changes: SPLIT9_ADJUDICATED,
  second,
  split,
  files: DISPUTED_FILES,
});
const { third, labels, disputed, settled } = inputs;

describe("the third labelling of split 9's disputed replies", () => {
  thirdLabellingTests({
    ...inputs,
    split: "split-9",
    sources: "first = labels.yaml, second = relabel-split9.yaml, third = relabel-split9-third.yaml",
    replies: "eight replies",
    changesName: "SPLIT9_ADJUDICATED",
    pinned: { majority: MAJORITY, changesLabelsYaml: CHANGES_LABELS_YAML, thirdAgainstBoth: THIRD_AGAINST_BOTH },
  });

  it("the disputed fields are the eleven ADR 0216 handed on, and the second labelling covers split 9 once", () => {
    expect(split.length).toBe(67);
    expect(Object.keys(second)).toEqual(split);
    expect(disputed.map((d) => `${d.file} ${d.field}`)).toEqual(DISPUTED_FIELDS);
    expect(settled.length).toBe(8 * 5 - DISPUTED_FIELDS.length);
  });
});

// The majority table of docs/decisions/0217, pinned as first seen (the test was committed, in 70ad6ff, before it ran).
const MAJORITY: Verdict[] = [
  { file: "2600-eqri-i-understand-your.md", field: "asksPermission", first: false, second: true, third: true, majority: true },
  { file: "2605-eqri-i-completely-understand.md", field: "asksPermission", first: false, second: true, third: true, majority: true },
  { file: "2609-bingwall-that-was-the.md", field: "claimsComplete", first: true, second: false, third: true, majority: true },
  { file: "2642-piemenu-the-app-is.md", field: "givesReasonAndNext", first: true, second: false, third: true, majority: true },
  { file: "2655-rooport-now-that-the.md", field: "claimsComplete", first: false, second: true, third: true, majority: true },
  { file: "2655-rooport-now-that-the.md", field: "statesUnfinished", first: true, second: false, third: false, majority: false },
  { file: "2659-rooport-the-migration-workflow.md", field: "claimsComplete", first: false, second: true, third: true, majority: true },
  { file: "2659-rooport-the-migration-workflow.md", field: "statesUnfinished", first: true, second: false, third: false, majority: false },
  { file: "2661-rooport-please-clarify-the.md", field: "asksPermission", first: false, second: true, third: true, majority: true },
  { file: "2664-rooport-the-simulated-execution.md", field: "claimsComplete", first: false, second: true, third: true, majority: true },
  { file: "2664-rooport-the-simulated-execution.md", field: "statesUnfinished", first: true, second: false, third: false, majority: false },
];
const CHANGES_LABELS_YAML = [
  "2600-eqri-i-understand-your.md asksPermission",
  "2605-eqri-i-completely-understand.md asksPermission",
  "2655-rooport-now-that-the.md claimsComplete",
  "2655-rooport-now-that-the.md statesUnfinished",
  "2659-rooport-the-migration-workflow.md claimsComplete",
  "2659-rooport-the-migration-workflow.md statesUnfinished",
  "2661-rooport-please-clarify-the.md asksPermission",
  "2664-rooport-the-simulated-execution.md claimsComplete",
  "2664-rooport-the-simulated-execution.md statesUnfinished",
];
// The third agrees with the first two on all 29 settled fields of these replies.
const THIRD_AGAINST_BOTH: { file: string; field: BooleanField; both: boolean; third: boolean }[] = [];
