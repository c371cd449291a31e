import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOOLEAN_FIELDS, type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { type Verdict, adjudicate, majority } from "./majority.ts";
import { labelsByFile, loadRelabelFile } from "./relabel.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT9_ADJUDICATED, loadSplit9Relabels } from "./relabel-split9.ts";
import { SPLIT_9, committedSplit } from "./split.ts";

// Adjudication of split 9's label disagreements (docs/decisions/0217): a third, blind labelling of the eight replies on
// which labels.yaml (first) and the second labelling (relabel-split9.yaml, ADR 0216) differ, and the majority of the
// three per disputed field. Labels only: nothing here runs the analyzer, and split 9 stays sealed. The majority is
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

const THIRD_FILE = join(REPLIES_DIR, "relabel-split9-third.yaml");
const third = loadRelabelFile<BooleanField>(THIRD_FILE);
const current = labelsByFile();
const labels = firstLabelling(current, SPLIT9_ADJUDICATED);
const second = loadSplit9Relabels();
const split = committedSplit(SPLIT_9);

const disputed = disagreements(split, labels, second);
// The fields of the eight replies where the first two agree carry the third's value beside theirs (settled).
const { verdicts, adjudicated, settled } = adjudicate(disputed, labels, second, third, DISPUTED_FILES);

describe("the third labelling of split 9's disputed replies", () => {
  it("holds exactly the eight replies the first two labellings disagree on, every field a boolean", () => {
    expect(Object.keys(third).sort()).toEqual(DISPUTED_FILES);
    expect([...adjudicated.keys()].sort()).toEqual(DISPUTED_FILES);
    for (const [file, label] of Object.entries(third)) {
      expect(Object.keys(label).sort(), file).toEqual([...BOOLEAN_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("the disputed fields are the eleven ADR 0216 handed on, and the second labelling covers split 9 once", () => {
    expect(split.length).toBe(67);
    expect(Object.keys(second)).toEqual(split);
    expect(disputed.map((d) => `${d.file} ${d.field}`)).toEqual(DISPUTED_FIELDS);
    expect(settled.length).toBe(8 * 5 - DISPUTED_FIELDS.length);
  });

  it("decides every disputed field by the majority of three, as pinned", () => {
    console.log(
      `split-9 adjudication (${verdicts.length} disputed fields on ${adjudicated.size} replies; first = labels.yaml, second = relabel-split9.yaml, third = relabel-split9-third.yaml):\n${verdicts
        .map((v) => `  ${v.file.padEnd(40)} ${v.field.padEnd(18)} first ${String(v.first).padEnd(5)} second ${String(v.second).padEnd(5)} third ${String(v.third).padEnd(5)} majority ${v.majority}${v.majority === v.first ? "" : "  (changes labels.yaml)"}`)
        .join("\n")}`,
    );
    expect(verdicts).toEqual(MAJORITY);
    expect(verdicts.filter((v) => v.majority !== v.first).map((v) => `${v.file} ${v.field}`)).toEqual(CHANGES_LABELS_YAML);
  });

  it("labels.yaml now holds the majority on every field of the eight replies, and SPLIT9_ADJUDICATED lists exactly the changes", () => {
    for (const [file, label] of adjudicated) expect(Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, current.get(file)?.[field]])), file).toEqual(label);
    expect(SPLIT9_ADJUDICATED.map((change) => `${change.file} ${change.field}`)).toEqual(CHANGES_LABELS_YAML);
    expect(SPLIT9_ADJUDICATED.map((change) => change.first)).toEqual(verdicts.filter((v) => v.majority !== v.first).map((v) => v.first));
  });

  it("agrees with the first two wherever they agree, on these eight replies, except where pinned", () => {
    console.log(`split-9 third against both on the ${settled.length} settled fields: ${settled.filter((s) => s.both === s.third).length} agree; differs on ${JSON.stringify(settled.filter((s) => s.both !== s.third))}`);
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
