import { describe, expect, it } from "vitest";
import { agreement, labelsByFile } from "./relabel.ts";
import { ADJUDICATED, SPLIT1_FIELDS, disagreements, firstLabelling, loadSplit1Relabels, secondAsReader } from "./relabel-split1.ts";
import { SPLIT_1, committedSplit } from "./split.ts";

// Label reliability of the frozen split 1 (docs/decisions/0179): a blind second labelling of all 110 replies against
// the first labelling (labels.yaml before the majority of three was applied to it, docs/decisions/0183). Labels only:
// nothing here runs the analyzer.
const relabels = loadSplit1Relabels();
const current = labelsByFile();
const labels = firstLabelling(current);
const split = committedSplit(SPLIT_1);

describe("the blind second labelling of split 1", () => {
  it("labels exactly the 110 replies of test-split.txt, every field as a boolean", () => {
    expect(split.length).toBe(110);
    expect(Object.keys(relabels).sort()).toEqual([...split].sort());
    for (const [file, label] of Object.entries(relabels)) {
      expect(Object.keys(label).sort(), file).toEqual([...SPLIT1_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("labels.yaml holds the second labelling's value on the eight fields the majority changed, the first's elsewhere", () => {
    expect(ADJUDICATED.map((change) => [change.file, change.field, current.get(change.file)?.[change.field]])).toEqual(ADJUDICATED.map((change) => [change.file, change.field, relabels[change.file]?.[change.field]]));
    expect(ADJUDICATED.every((change) => change.first !== relabels[change.file]?.[change.field])).toBe(true);
  });

  it("agrees with the first labelling as pinned (agreement, Cohen's kappa, the second labelling's P/R, every disagreement)", () => {
    const figures = SPLIT1_FIELDS.map((field) => {
      for (const file of split) expect(typeof labels.get(file)?.[field], `${file} ${field} in labels.yaml`).toBe("boolean");
      const pairs = split.map((file) => [labels.get(file)?.[field] as boolean, relabels[file]?.[field] as boolean] as const);
      return {
        ...agreement(field, pairs),
        positives: [pairs.filter(([a]) => a).length, pairs.filter(([, b]) => b).length],
        ...secondAsReader(pairs),
      };
    });
    const listed = disagreements(split, labels, relabels);
    const fixed = (value: number | null) => value?.toFixed(3) ?? "–";
    console.log(
      `second labelling, split 1 (${split.length} replies; positives first / second):\n${figures
        .map(
          (f) =>
            `  ${f.field.padEnd(18)} agree ${f.agree}/${f.n} (${(f.raw * 100).toFixed(1)} %)  kappa ${fixed(f.kappa)}  positives ${f.positives[0]} / ${f.positives[1]}  second as reader P ${fixed(f.precision)} R ${fixed(f.recall)}`,
        )
        .join("\n")}\n${listed.map((d) => `  - ${d.file} ${d.field}: labels.yaml ${d.first}, second ${d.second}`).join("\n")}`,
    );
    // Each field's disagreements are exactly the replies it does not agree on.
    expect(figures.map((f) => [f.field, f.n - f.agree])).toEqual(SPLIT1_FIELDS.map((field) => [field, listed.filter((d) => d.field === field).length]));
    // A label edit on either side moves these and fails here (labels.yaml changes only by the majority: ADRs 0179, 0183).
    expect(figures.map((f) => [f.field, f.agree, f.n, ...f.positives, fixed(f.kappa), fixed(f.precision), fixed(f.recall)])).toEqual(PINNED);
    expect(listed).toEqual(DISAGREEMENTS);
  });
});

it("the second labelling read as a reader: precision over its positives, recall over the first's", () => {
  expect(secondAsReader([[true, true], [true, false], [false, true], [false, false], [true, true]])).toEqual({ precision: 2 / 3, recall: 2 / 3 });
  expect(secondAsReader([[false, false]])).toEqual({ precision: null, recall: null });
  const first = new Map([["a.md", { claimsComplete: true, statesUnfinished: false, givesReasonAndNext: false, asksPermission: false, fillerEnding: false }]]);
  const second = { "a.md": { claimsComplete: false, statesUnfinished: true, givesReasonAndNext: false, asksPermission: false, fillerEnding: false } };
  expect(disagreements(["a.md"], first, second)).toEqual([
    { file: "a.md", field: "claimsComplete", first: true, second: false },
    { file: "a.md", field: "statesUnfinished", first: false, second: true },
  ]);
});

// [field, agreeing replies, replies, positives in labels.yaml, positives in the second labelling, kappa, second as reader P, R].
const PINNED = [
  ["claimsComplete", 108, 110, 47, 49, "0.963", "0.959", "1.000"],
  ["statesUnfinished", 107, 110, 29, 30, "0.931", "0.933", "0.966"],
  ["givesReasonAndNext", 105, 110, 9, 14, "0.759", "0.643", "1.000"],
  ["asksPermission", 110, 110, 20, 20, "1.000", "1.000", "1.000"],
  ["fillerEnding", 110, 110, 5, 5, "1.000", "1.000", "1.000"],
];

// Every disagreement, read in docs/decisions/0179 (first = labels.yaml, second = relabel-split1.yaml).
const DISAGREEMENTS = [
  { file: "038-pi-release-process.md", field: "statesUnfinished", first: false, second: true },
  { file: "038-pi-release-process.md", field: "givesReasonAndNext", first: false, second: true },
  { file: "039-pi-commit-and-tag.md", field: "statesUnfinished", first: false, second: true },
  { file: "039-pi-commit-and-tag.md", field: "givesReasonAndNext", first: false, second: true },
  { file: "045-pi-progress-wp1-14.md", field: "givesReasonAndNext", first: false, second: true },
  { file: "049-pi-remaining-from-plan.md", field: "givesReasonAndNext", first: false, second: true },
  { file: "115-pi-got-it-we-ve-made.md", field: "claimsComplete", first: false, second: true },
  { file: "247-steps-subset-completed-word.md", field: "claimsComplete", first: false, second: true },
  { file: "247-steps-subset-completed-word.md", field: "statesUnfinished", first: true, second: false },
  { file: "304-permission-continue-or-stop.md", field: "givesReasonAndNext", first: false, second: true },
];
