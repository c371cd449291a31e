import { describe, expect, it } from "vitest";
import { type BooleanField } from "./labelled.ts";
import { type Verdict } from "./majority.ts";
import { thirdLabellingInputs, thirdLabellingTests } from "./third-labelling.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT8_ADJUDICATED, loadSplit8Relabels, split8Pool } from "./relabel-split8.ts";
import { loadSplit8RestRelabels } from "./relabel-split8-rest.ts";

// Adjudication of split 8's label disagreements (docs/decisions/0205): a third, blind labelling of the five replies on
// which labels.yaml (first) and the second labelling (relabel-split8.yaml, ADR 0184, with relabel-split8-rest.yaml,
// ADR 0200) differ, and the majority of the three per disputed field. Labels only: nothing here runs the analyzer, and
// split 8 stayed sealed until its look (0206; dev since 0219). The majority was applied to labels.yaml in its own commit; `first` is labels.yaml before that
// (firstLabelling with SPLIT8_ADJUDICATED).

// The seven disputed fields as ADR 0200 handed them to the third labeller (file then field order).
const DISPUTED_FIELDS = [
  "2079-mgemini-i-do-not.md fillerEnding",
  "2092-leecodex-section-1-written.md claimsComplete",
  "2092-leecodex-section-1-written.md statesUnfinished",
  "2132-barnaby-found-it-the.md statesUnfinished",
  "2132-barnaby-found-it-the.md givesReasonAndNext",
  "2138-barnaby-here-s-the.md statesUnfinished",
  "2141-barnaby-hi-what-do.md fillerEnding",
];

const DISPUTED_FILES = [...new Set(DISPUTED_FIELDS.map((entry) => entry.split(" ")[0] as string))];

const second = { ...loadSplit8Relabels(), ...loadSplit8RestRelabels() };
const split = split8Pool();
const inputs = thirdLabellingInputs({
  thirdFile: "relabel-split8-third.yaml",
  changes: SPLIT8_ADJUDICATED,
  second,
  split,
  files: DISPUTED_FILES,
});
const { third, labels, disputed, settled } = inputs;

describe("the third labelling of split 8's disputed replies", () => {
  thirdLabellingTests({
    ...inputs,
    split: "split-8",
    sources: "first = labels.yaml, second = relabel-split8(-rest).yaml, third = relabel-split8-third.yaml",
    replies: "five replies",
    changesName: "SPLIT8_ADJUDICATED",
    pinned: { majority: MAJORITY, changesLabelsYaml: CHANGES_LABELS_YAML, thirdAgainstBoth: THIRD_AGAINST_BOTH },
  });

  it("the disputed fields are the seven ADR 0200 handed on, and the second labelling covers split 8 once", () => {
    expect(split.length).toBe(142);
    expect(Object.keys(second).sort()).toEqual(split);
    expect(disputed.map((d) => `${d.file} ${d.field}`)).toEqual(DISPUTED_FIELDS);
    expect(settled.length).toBe(5 * 5 - DISPUTED_FIELDS.length);
  });
});

// The majority table of docs/decisions/0205, pinned as first seen (the test was committed, in 2d01b75, before it ran).
const MAJORITY: Verdict[] = [
  { file: "2079-mgemini-i-do-not.md", field: "fillerEnding", first: false, second: true, third: true, majority: true },
  { file: "2092-leecodex-section-1-written.md", field: "claimsComplete", first: true, second: false, third: false, majority: false },
  { file: "2092-leecodex-section-1-written.md", field: "statesUnfinished", first: false, second: true, third: true, majority: true },
  { file: "2132-barnaby-found-it-the.md", field: "statesUnfinished", first: true, second: false, third: true, majority: true },
  { file: "2132-barnaby-found-it-the.md", field: "givesReasonAndNext", first: true, second: false, third: true, majority: true },
  { file: "2138-barnaby-here-s-the.md", field: "statesUnfinished", first: false, second: true, third: false, majority: false },
  { file: "2141-barnaby-hi-what-do.md", field: "fillerEnding", first: false, second: true, third: true, majority: true },
];
const CHANGES_LABELS_YAML = [
  "2079-mgemini-i-do-not.md fillerEnding",
  "2092-leecodex-section-1-written.md claimsComplete",
  "2092-leecodex-section-1-written.md statesUnfinished",
  "2141-barnaby-hi-what-do.md fillerEnding",
];
// The one settled field the third reads otherwise: 2092 reason and next (the first two agree on false; it stays false).
const THIRD_AGAINST_BOTH: { file: string; field: BooleanField; both: boolean; third: boolean }[] = [
  { file: "2092-leecodex-section-1-written.md", field: "givesReasonAndNext", both: false, third: true },
];
