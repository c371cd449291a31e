import { describe, expect, it } from "vitest";
import { BOOLEAN_FIELDS } from "./labelled.ts";
import { agreement, labelsByFile } from "./relabel.ts";
import { disagreements, firstLabelling } from "./relabel-split1.ts";
import { SPLIT9_ADJUDICATED, loadSplit9Relabels } from "./relabel-split9.ts";
import { SPLIT_9, committedSplit } from "./split.ts";

// Label reliability of the sealed split 9 (docs/decisions/0216): a blind second labelling of all 67 replies against
// the first labelling (labels.yaml). Labels only: nothing here runs the analyzer, on split 9 or anywhere.
const relabels = loadSplit9Relabels();
// The first labelling: labels.yaml before the majority of three (docs/decisions/0217) changed SPLIT9_ADJUDICATED's fields.
const labels = firstLabelling(labelsByFile(), SPLIT9_ADJUDICATED);
const split9 = committedSplit(SPLIT_9);

describe("the blind second labelling of split 9", () => {
  it("covers exactly split 9's 67 names, each with the five booleans", () => {
    expect(split9.length).toBe(67);
    expect(Object.keys(relabels)).toEqual(split9);
    for (const [file, label] of Object.entries(relabels)) {
      expect(Object.keys(label).sort(), file).toEqual([...BOOLEAN_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("compares with the first labelling per field (agreement, Cohen's kappa, positives) and lists every disagreement", () => {
    const figures = BOOLEAN_FIELDS.map((field) => {
      for (const file of split9) expect(typeof labels.get(file)?.[field], `${file} ${field} in labels.yaml`).toBe("boolean");
      const pairs = split9.map((file) => [labels.get(file)?.[field] as boolean, relabels[file]?.[field] as boolean] as const);
      return { ...agreement(field, pairs), positives: [pairs.filter(([a]) => a).length, pairs.filter(([, b]) => b).length] };
    });
    const listed = disagreements(split9, labels, relabels);
    console.log(
      `second labelling, split 9 (${split9.length} replies; labels only):\n${figures
        .map((f) => `  ${f.field.padEnd(18)} agree ${f.agree}/${f.n} (${(f.raw * 100).toFixed(1)} %)  kappa ${f.kappa?.toFixed(3) ?? "–"}  positives ${f.positives.join(" / ")}`)
        .join("\n")}\n${listed.map((d) => `  - ${d.file} ${d.field}: labels.yaml ${d.first}, second ${d.second}`).join("\n")}`,
    );
    expect(figures.map((f) => f.n)).toEqual(BOOLEAN_FIELDS.map(() => 67));
    expect(listed.length).toBe(figures.reduce((sum, f) => sum + (f.n - f.agree), 0));
    expect(figures.map((f) => [f.field, f.agree, f.n, f.kappa === null ? null : Number(f.kappa.toFixed(3)), f.positives])).toEqual(PINNED);
    expect(listed).toEqual(DISAGREEMENTS);
  });
});

// [field, agreeing replies, replies, Cohen's kappa to 3 places, [positives in labels.yaml, in the second labelling]],
// as first seen after the labels' and the test's commits (docs/decisions/0216): a label edit on either side fails here.
const PINNED = [
  ["claimsComplete", 63, 67, 0.873, [41, 43]],
  ["statesUnfinished", 64, 67, 0.776, [9, 6]],
  ["givesReasonAndNext", 66, 67, 0.881, [5, 4]],
  ["asksPermission", 64, 67, 0.868, [13, 16]],
  ["fillerEnding", 67, 67, 1, [1, 1]],
];

// The first labelling's disagreements, reported, not resolved (docs/decisions/0216); labels.yaml is not edited here.
const DISAGREEMENTS = [
  { file: "2600-eqri-i-understand-your.md", field: "asksPermission", first: false, second: true },
  { file: "2605-eqri-i-completely-understand.md", field: "asksPermission", first: false, second: true },
  { file: "2609-bingwall-that-was-the.md", field: "claimsComplete", first: true, second: false },
  { file: "2642-piemenu-the-app-is.md", field: "givesReasonAndNext", first: true, second: false },
  { file: "2655-rooport-now-that-the.md", field: "claimsComplete", first: false, second: true },
  { file: "2655-rooport-now-that-the.md", field: "statesUnfinished", first: true, second: false },
  { file: "2659-rooport-the-migration-workflow.md", field: "claimsComplete", first: false, second: true },
  { file: "2659-rooport-the-migration-workflow.md", field: "statesUnfinished", first: true, second: false },
  { file: "2661-rooport-please-clarify-the.md", field: "asksPermission", first: false, second: true },
  { file: "2664-rooport-the-simulated-execution.md", field: "claimsComplete", first: false, second: true },
  { file: "2664-rooport-the-simulated-execution.md", field: "statesUnfinished", first: true, second: false },
];
