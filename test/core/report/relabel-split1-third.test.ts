import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOOLEAN_FIELDS, type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { type Verdict, adjudicate, majority } from "./majority.ts";
import { labelsByFile, loadRelabelFile } from "./relabel.ts";
import { ADJUDICATED, disagreements, firstLabelling, loadSplit1Relabels } from "./relabel-split1.ts";
import { SPLIT_1, committedSplit } from "./split.ts";

// Adjudication of split 1's label disagreements (docs/decisions/0183): a third, blind labelling of the seven replies
// on which labels.yaml (first) and relabel-split1.yaml (second, ADR 0179) differ, and the majority of the three per
// disputed field. Labels only: nothing here runs the analyzer. The lead applied the majority to labels.yaml in its own
// commit (docs/decisions/0182); `first` is labels.yaml before that (firstLabelling).
const THIRD_FILE = join(REPLIES_DIR, "relabel-split1-third.yaml");
const third = loadRelabelFile<BooleanField>(THIRD_FILE);
const current = labelsByFile();
const labels = firstLabelling(current);
const second = loadSplit1Relabels();
const split = committedSplit(SPLIT_1);

const disputed = disagreements(split, labels, second);
const { verdicts, adjudicated } = adjudicate(disputed, labels, second, third, []);

describe("the third labelling of split 1's disputed replies", () => {
  it("holds exactly the seven replies the first two labellings disagree on, every field a boolean", () => {
    expect(Object.keys(third).sort()).toEqual(DISPUTED_FILES);
    expect([...adjudicated.keys()].sort()).toEqual(DISPUTED_FILES);
    for (const [file, label] of Object.entries(third)) {
      expect(Object.keys(label).sort(), file).toEqual([...BOOLEAN_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("decides every disputed field by the majority of three, as pinned", () => {
    console.log(
      `split-1 adjudication (${verdicts.length} disputed fields on ${adjudicated.size} replies; first = labels.yaml, second = relabel-split1.yaml, third = relabel-split1-third.yaml):\n${verdicts
        .map((v) => `  ${v.file.padEnd(36)} ${v.field.padEnd(18)} first ${String(v.first).padEnd(5)} second ${String(v.second).padEnd(5)} third ${String(v.third).padEnd(5)} majority ${v.majority}${v.majority === v.first ? "" : "  (changes labels.yaml)"}`)
        .join("\n")}`,
    );
    expect(verdicts).toEqual(MAJORITY);
    expect(verdicts.filter((v) => v.majority !== v.first).map((v) => `${v.file} ${v.field}`)).toEqual(CHANGES_LABELS_YAML);
  });

  it("labels.yaml now holds the majority on every field of the seven replies, and ADJUDICATED lists exactly the changes", () => {
    for (const [file, label] of adjudicated) expect(Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, current.get(file)?.[field]])), file).toEqual(label);
    expect(ADJUDICATED.map((change) => `${change.file} ${change.field}`)).toEqual(CHANGES_LABELS_YAML);
  });

  it("agrees with the first two wherever they agree, on these seven replies", () => {
    const settled = DISPUTED_FILES.flatMap((file) =>
      BOOLEAN_FIELDS.filter((field) => labels.get(file)?.[field] === second[file]?.[field]).map((field) => ({
        file,
        field,
        both: labels.get(file)?.[field],
        third: third[file]?.[field],
      })),
    );
    expect(settled.length).toBe(7 * 5 - MAJORITY.length);
    expect(settled.filter((s) => s.both !== s.third)).toEqual([]);
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

const DISPUTED_FILES = [
  "038-pi-release-process.md",
  "039-pi-commit-and-tag.md",
  "045-pi-progress-wp1-14.md",
  "049-pi-remaining-from-plan.md",
  "115-pi-got-it-we-ve-made.md",
  "247-steps-subset-completed-word.md",
  "304-permission-continue-or-stop.md",
];

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
