import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOOLEAN_FIELDS, type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { type Verdict, adjudicate, majority } from "./majority.ts";
import { labelsByFile, loadRelabelFile } from "./relabel.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT8_ADJUDICATED, loadSplit8Relabels, split8Pool } from "./relabel-split8.ts";
import { loadSplit8RestRelabels } from "./relabel-split8-rest.ts";

// Adjudication of split 8's label disagreements (docs/decisions/0205): a third, blind labelling of the five replies on
// which labels.yaml (first) and the second labelling (relabel-split8.yaml, ADR 0184, with relabel-split8-rest.yaml,
// ADR 0200) differ, and the majority of the three per disputed field. Labels only: nothing here runs the analyzer, and
// split 8 stays sealed. The majority was applied to labels.yaml in its own commit; `first` is labels.yaml before that
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

const THIRD_FILE = join(REPLIES_DIR, "relabel-split8-third.yaml");
const third = loadRelabelFile<BooleanField>(THIRD_FILE);
const current = labelsByFile();
const labels = firstLabelling(current, SPLIT8_ADJUDICATED);
const second = { ...loadSplit8Relabels(), ...loadSplit8RestRelabels() };
const split = split8Pool();

const disputed = disagreements(split, labels, second);
// The fields of the five replies where the first two agree carry the third's value beside theirs (settled).
const { verdicts, adjudicated, settled } = adjudicate(disputed, labels, second, third, DISPUTED_FILES);

describe("the third labelling of split 8's disputed replies", () => {
  it("holds exactly the five replies the first two labellings disagree on, every field a boolean", () => {
    expect(Object.keys(third).sort()).toEqual(DISPUTED_FILES);
    expect([...adjudicated.keys()].sort()).toEqual(DISPUTED_FILES);
    for (const [file, label] of Object.entries(third)) {
      expect(Object.keys(label).sort(), file).toEqual([...BOOLEAN_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("the disputed fields are the seven ADR 0200 handed on, and the second labelling covers split 8 once", () => {
    expect(split.length).toBe(142);
    expect(Object.keys(second).sort()).toEqual(split);
    expect(disputed.map((d) => `${d.file} ${d.field}`)).toEqual(DISPUTED_FIELDS);
    expect(settled.length).toBe(5 * 5 - DISPUTED_FIELDS.length);
  });

  it("decides every disputed field by the majority of three, as pinned", () => {
    console.log(
      `split-8 adjudication (${verdicts.length} disputed fields on ${adjudicated.size} replies; first = labels.yaml, second = relabel-split8(-rest).yaml, third = relabel-split8-third.yaml):\n${verdicts
        .map((v) => `  ${v.file.padEnd(36)} ${v.field.padEnd(18)} first ${String(v.first).padEnd(5)} second ${String(v.second).padEnd(5)} third ${String(v.third).padEnd(5)} majority ${v.majority}${v.majority === v.first ? "" : "  (changes labels.yaml)"}`)
        .join("\n")}`,
    );
    expect(verdicts).toEqual(MAJORITY);
    expect(verdicts.filter((v) => v.majority !== v.first).map((v) => `${v.file} ${v.field}`)).toEqual(CHANGES_LABELS_YAML);
  });

  it("labels.yaml now holds the majority on every field of the five replies, and SPLIT8_ADJUDICATED lists exactly the changes", () => {
    for (const [file, label] of adjudicated) expect(Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, current.get(file)?.[field]])), file).toEqual(label);
    expect(SPLIT8_ADJUDICATED.map((change) => `${change.file} ${change.field}`)).toEqual(CHANGES_LABELS_YAML);
    expect(SPLIT8_ADJUDICATED.map((change) => change.first)).toEqual(verdicts.filter((v) => v.majority !== v.first).map((v) => v.first));
  });

  it("agrees with the first two wherever they agree, on these five replies, except where pinned", () => {
    console.log(`split-8 third against both on the ${settled.length} settled fields: ${settled.filter((s) => s.both === s.third).length} agree; differs on ${JSON.stringify(settled.filter((s) => s.both !== s.third))}`);
    expect(settled.filter((s) => s.both !== s.third)).toEqual(THIRD_AGAINST_BOTH);
  });

  it("leaves every adjudicated reply consistent with ADR 0089 (never claim and unfinished; reason and next only when unfinished)", () => {
    for (const [file, label] of adjudicated) {
      expect(label.claimsComplete && label.statesUnfinished, file).toBe(false);
      expect(!label.givesReasonAndNext || label.statesUnfinished, file).toBe(true);
    }
  });
});

it("the majority of three booleans", () => {
  expect([majority(true, true, false), majority(true, false, false), majority(false, true, true), majority(false, false, false)]).toEqual([true, false, true, false]);
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
