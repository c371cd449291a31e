/**
 * The checks every third, blind labelling of a split's disputed replies answers (docs/decisions/0183, 0205, 0217):
 * one field set per disputed reply, the majority as pinned, labels.yaml holding it, the third beside the settled
 * fields, and ADR 0089's consistency. Each split's test file pins its own tables and calls this inside its describe.
 * Splits 8 and 9 are dev since 0219; their labelling tests stay as the record of how their labels were settled.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { BOOLEAN_FIELDS, type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { type Settled, type Verdict, adjudicate } from "./majority.ts";
import { labelsByFile, loadRelabelFile } from "./relabel.ts";
import { type Adjudicated, disagreements, firstLabelling } from "./relabel-split1.ts";

type Relabels = Readonly<Record<string, Readonly<Record<BooleanField, boolean>>>>;

export interface ThirdLabelling {
  /** "split-8", for the printed table. */
  split: string;
  /** Where the three labellings are, for the printed table. */
  sources: string;
  /** "five replies", as the test names say it. */
  replies: string;
  files: readonly string[];
  third: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  verdicts: readonly Verdict[];
  adjudicated: ReadonlyMap<string, Record<BooleanField, boolean>>;
  settled: readonly Settled[];
  current: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** The name of the list of changes, and the list (each change with the first labelling's value). */
  changesName: string;
  changes: readonly { file: string; field: string; first: boolean }[];
  pinned: { majority: readonly Verdict[]; changesLabelsYaml: readonly string[]; thirdAgainstBoth: readonly Settled[] };
}

export function thirdLabellingTests(t: ThirdLabelling): void {
  it(`holds exactly the ${t.replies} the first two labellings disagree on, every field a boolean`, () => {
    expect(Object.keys(t.third).sort()).toEqual(t.files);
    expect([...t.adjudicated.keys()].sort()).toEqual(t.files);
    for (const [file, label] of Object.entries(t.third)) {
      expect(Object.keys(label).sort(), file).toEqual([...BOOLEAN_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("decides every disputed field by the majority of three, as pinned", () => {
    console.log(
      `${t.split} adjudication (${t.verdicts.length} disputed fields on ${t.adjudicated.size} replies; ${t.sources}):\n${t.verdicts
        .map((v) => `  ${v.file.padEnd(40)} ${v.field.padEnd(18)} first ${String(v.first).padEnd(5)} second ${String(v.second).padEnd(5)} third ${String(v.third).padEnd(5)} majority ${v.majority}${v.majority === v.first ? "" : "  (changes labels.yaml)"}`)
        .join("\n")}`,
    );
    expect(t.verdicts).toEqual(t.pinned.majority);
    expect(t.verdicts.filter((v) => v.majority !== v.first).map((v) => `${v.file} ${v.field}`)).toEqual(t.pinned.changesLabelsYaml);
  });

  it(`labels.yaml now holds the majority on every field of the ${t.replies}, and ${t.changesName} lists exactly the changes`, () => {
    for (const [file, label] of t.adjudicated) expect(Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, t.current.get(file)?.[field]])), file).toEqual(label);
    expect(t.changes.map((change) => `${change.file} ${change.field}`)).toEqual(t.pinned.changesLabelsYaml);
    expect(t.changes.map((change) => change.first)).toEqual(t.verdicts.filter((v) => v.majority !== v.first).map((v) => v.first));
  });

  it(`agrees with the first two wherever they agree, on these ${t.replies}, except where pinned`, () => {
    console.log(`${t.split} third against both on the ${t.settled.length} settled fields: ${t.settled.filter((s) => s.both === s.third).length} agree; differs on ${JSON.stringify(t.settled.filter((s) => s.both !== s.third))}`);
    expect(t.settled.filter((s) => s.both !== s.third)).toEqual(t.pinned.thirdAgainstBoth);
  });

  it("leaves every adjudicated reply consistent with ADR 0089 (never claim and unfinished; reason and next only when unfinished)", () => {
    for (const [file, label] of t.adjudicated) {
      expect(label.claimsComplete && label.statesUnfinished, file).toBe(false);
      expect(!label.givesReasonAndNext || label.statesUnfinished, file).toBe(true);
    }
  });
}

/** Where a split's three labellings are, and which replies the third labeller was handed. */
export interface ThirdLabellingSources {
  /** The third labelling's file name in fixtures/final-replies. */
  thirdFile: string;
  /** labels.yaml's fields the majority changed, with the first labelling's value: restores the first labelling. */
  changes: readonly Adjudicated[];
  second: Relabels;
  /** Every reply the second labelling covers. */
  split: readonly string[];
  /** The disputed replies as handed to the third labeller. */
  files: readonly string[];
}

/**
 * The three labellings read and the majority taken: the first (labels.yaml before the majority, `firstLabelling`), the
 * second's disagreements with it, and the third's vote on each disputed field; the fields of the disputed replies
 * where the first two agree carry the third's value beside theirs (settled).
 */
export function thirdLabellingInputs(s: ThirdLabellingSources) {
  const third = loadRelabelFile<BooleanField>(join(REPLIES_DIR, s.thirdFile));
  const current = labelsByFile();
  const labels = firstLabelling(current, s.changes);
  const disputed = disagreements(s.split, labels, s.second);
  const { verdicts, adjudicated, settled } = adjudicate(disputed, labels, s.second, third, s.files);
  return { files: s.files, changes: s.changes, third, current, labels, disputed, verdicts, adjudicated, settled };
}
