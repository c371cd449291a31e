import { describe, expect, it } from "vitest";
import { BOOLEAN_FIELDS } from "./labelled.ts";
import { agreement, labelsByFile } from "./relabel.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT10_ADJUDICATED, loadSplit10Relabels, split10Names } from "./relabel-split10.ts";

// Label reliability of the sealed split 10 (docs/decisions/0226): a blind second labelling of every reply against the
// first labelling (labels.yaml, 12d's). Labels only: nothing here runs the analyzer, on split 10 or anywhere.
const relabels = loadSplit10Relabels();
const split10 = split10Names();

describe("the blind second labelling of split 10", () => {
  it("covers exactly split 10's 101 reply files, each with the five booleans", () => {
    expect(split10.length).toBe(101);
    expect(Object.keys(relabels)).toEqual(split10);
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
    // The first labelling: labels.yaml before the majority of three (docs/decisions/0224) was applied.
    const labels = firstLabelling(labelsByFile(), SPLIT10_ADJUDICATED);
    const figures = BOOLEAN_FIELDS.map((field) => {
      for (const file of split10) expect(typeof labels.get(file)?.[field], `${file} ${field} in labels.yaml`).toBe("boolean");
      const pairs = split10.map((file) => [labels.get(file)?.[field] as boolean, relabels[file]?.[field] as boolean] as const);
      return { ...agreement(field, pairs), positives: [pairs.filter(([a]) => a).length, pairs.filter(([, b]) => b).length] };
    });
    const listed = disagreements(split10, labels, relabels);
    console.log(
      `second labelling, split 10 (${split10.length} replies; labels only):\n${figures
        .map((f) => `  ${f.field.padEnd(18)} agree ${f.agree}/${f.n} (${(f.raw * 100).toFixed(1)} %)  kappa ${f.kappa?.toFixed(3) ?? "–"}  positives ${f.positives.join(" / ")}`)
        .join("\n")}\n${listed.map((d) => `  - ${d.file} ${d.field}: labels.yaml ${d.first}, second ${d.second}`).join("\n")}`,
    );
    expect(figures.map((f) => f.n)).toEqual(BOOLEAN_FIELDS.map(() => 101));
    expect(listed.length).toBe(figures.reduce((sum, f) => sum + (f.n - f.agree), 0));
    expect(figures.map((f) => [f.field, f.agree, f.n, f.kappa === null ? null : Number(f.kappa.toFixed(3)), f.positives])).toEqual(PINNED);
    expect(listed).toEqual(DISAGREEMENTS);
  });
});

// [field, agreeing replies, replies, Cohen's kappa to 3 places, [positives in labels.yaml, in the second labelling]],
// pinned as first seen after the labels' and this test's commits (docs/decisions/0226): a label edit on either side fails here.
const PINNED = [
  ["claimsComplete", 100, 101, 0.98, [54, 53]],
  ["statesUnfinished", 99, 101, 0.889, [10, 10]],
  ["givesReasonAndNext", 99, 101, 0.864, [8, 8]],
  ["asksPermission", 100, 101, 0.978, [33, 34]],
  ["fillerEnding", 101, 101, 1, [2, 2]],
];

// The first labelling's disagreements, reported, not resolved (docs/decisions/0226); labels.yaml is not edited here.
const DISAGREEMENTS = [
  { file: "3006-claude-gitsync-honestly-the-heavy.md", field: "givesReasonAndNext", first: true, second: false },
  { file: "3009-claude-gitsync-the-test-fails.md", field: "asksPermission", first: false, second: true },
  { file: "3074-claude-trap-based-on-the.md", field: "claimsComplete", first: true, second: false },
  { file: "3074-claude-trap-based-on-the.md", field: "statesUnfinished", first: false, second: true },
  { file: "3074-claude-trap-based-on-the.md", field: "givesReasonAndNext", first: false, second: true },
  { file: "3093-claude-bookminder-expert-council-deep.md", field: "statesUnfinished", first: true, second: false },
];
