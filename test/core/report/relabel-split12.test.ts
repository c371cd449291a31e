import { describe, expect, it } from "vitest";
import { BOOLEAN_FIELDS } from "./labelled.ts";
import { agreement, labelsByFile } from "./relabel.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT12_ADJUDICATED, loadSplit12Relabels, split12Names } from "./relabel-split12.ts";

// Label reliability of split 12, sealed for the next session (docs/decisions/0241): a blind second labelling of every
// reply against the first labelling (labels.yaml, 12s2's). Labels only: nothing here runs the analyzer, on split 12 or
// anywhere.
const relabels = loadSplit12Relabels();
const split12 = split12Names();

describe("the blind second labelling of split 12", () => {
  it("covers exactly split 12's 101 reply files (3400–3500), each with the five booleans", () => {
    expect(split12.length).toBe(SIZE);
    expect(Object.keys(relabels)).toEqual(split12);
    for (const [file, label] of Object.entries(relabels)) {
      expect(Object.keys(label).sort(), file).toEqual([...BOOLEAN_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("is consistent with ADR 0089 (never claim and unfinished; reason and next only when unfinished)", () => {
    for (const [file, label] of Object.entries(relabels)) {
      expect(label.claimsComplete && label.statesUnfinished, file).toBe(false);
      expect(!label.givesReasonAndNext || label.statesUnfinished, file).toBe(true);
    }
  });

  it("compares with the first labelling per field (agreement, Cohen's kappa, positives) and lists every disagreement", () => {
    // The first labelling: labels.yaml before 0242 applied the majority of three.
    const labels = firstLabelling(labelsByFile(), SPLIT12_ADJUDICATED);
    const figures = BOOLEAN_FIELDS.map((field) => {
      for (const file of split12) expect(typeof labels.get(file)?.[field], `${file} ${field} in labels.yaml`).toBe("boolean");
      const pairs = split12.map((file) => [labels.get(file)?.[field] as boolean, relabels[file]?.[field] as boolean] as const);
      return { ...agreement(field, pairs), positives: [pairs.filter(([a]) => a).length, pairs.filter(([, b]) => b).length] };
    });
    const listed = disagreements(split12, labels, relabels);
    console.log(
      `second labelling, split 12 (${split12.length} replies; labels only):\n${figures
        .map((f) => `  ${f.field.padEnd(18)} agree ${f.agree}/${f.n} (${(f.raw * 100).toFixed(1)} %)  kappa ${f.kappa?.toFixed(3) ?? "–"}  positives ${f.positives.join(" / ")}`)
        .join("\n")}\n${listed.map((d) => `  - ${d.file} ${d.field}: labels.yaml ${d.first}, second ${d.second}`).join("\n")}`,
    );
    expect(figures.map((f) => f.n)).toEqual(BOOLEAN_FIELDS.map(() => SIZE));
    expect(listed.length).toBe(figures.reduce((sum, f) => sum + (f.n - f.agree), 0));
    expect(figures.map((f) => [f.field, f.agree, f.n, f.kappa === null ? null : Number(f.kappa.toFixed(3)), f.positives])).toEqual(PINNED);
    expect(listed).toEqual(DISAGREEMENTS);
  });
});

// Split 12's size at 12s2's commit (split12-ready.txt; ADR 0240).
const SIZE = 101;

// [field, agreeing replies, replies, Cohen's kappa to 3 places, [positives in labels.yaml, in the second labelling]],
// pinned as first seen after the labels' and this test's commits (docs/decisions/0241): a label edit on either side fails here.
const PINNED = [
  ["claimsComplete", 97, 101, 0.921, [54, 52]],
  ["statesUnfinished", 99, 101, 0.922, [16, 14]],
  ["givesReasonAndNext", 99, 101, 0.906, [13, 11]],
  ["asksPermission", 98, 101, 0.941, [47, 50]],
  ["fillerEnding", 101, 101, 1, [1, 1]],
];

// The first labelling's disagreements, reported, not resolved (docs/decisions/0241); labels.yaml is not edited here.
const DISAGREEMENTS = [
  { file: "3407-claude-wakil-adr-0016-written.md", field: "asksPermission", first: false, second: true },
  { file: "3408-claude-wakil-there-s-nothing.md", field: "claimsComplete", first: true, second: false },
  { file: "3430-claude-flutterdocker-review-result-approved.md", field: "asksPermission", first: false, second: true },
  { file: "3454-claude-fitcheck-yes-now-i.md", field: "claimsComplete", first: true, second: false },
  { file: "3454-claude-fitcheck-yes-now-i.md", field: "asksPermission", first: false, second: true },
  { file: "3480-claude-safecast-yes-all-code.md", field: "claimsComplete", first: true, second: false },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "claimsComplete", first: false, second: true },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "statesUnfinished", first: true, second: false },
  { file: "3482-claude-safecast-pushed-now-every.md", field: "givesReasonAndNext", first: true, second: false },
  { file: "3486-claude-safecast-fixed-the-problem.md", field: "givesReasonAndNext", first: true, second: false },
  { file: "3488-claude-safecast-yes-exactly-the.md", field: "statesUnfinished", first: true, second: false },
];
