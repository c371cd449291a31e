import { describe, expect, it } from "vitest";
import { loadLabelledReplies } from "./labelled.ts";
import { RELABEL_FIELDS, RELABEL_SIZE, agreement, drawRelabelSample, loadRelabels } from "./relabel.ts";

// Label reliability (docs/decisions/0145): a second, blind labelling of 60 dev replies against labels.yaml.
// 846 and 847 were seen with their labels.yaml notes before the draw, so they are not counted.
const SEEN_BEFORE = new Set(["846-minsky-the-updated-description-now-1.md", "847-minsky-it-seems-we-need-to.md"]);
const relabels = loadRelabels();
const labels = new Map(loadLabelledReplies().map((reply) => [reply.file, reply.expected]));
const counted = Object.keys(relabels).filter((file) => !SEEN_BEFORE.has(file)).sort();

describe("the blind second labelling of dev replies", () => {
  it("labels exactly the seeded draw of 60 dev replies, all three fields as booleans", () => {
    expect(Object.keys(relabels).sort()).toEqual(drawRelabelSample());
    expect(Object.keys(relabels).length).toBe(RELABEL_SIZE);
    for (const [file, label] of Object.entries(relabels)) {
      expect(Object.keys(label).sort(), file).toEqual([...RELABEL_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("agrees with labels.yaml as pinned (raw share and Cohen's kappa per field; disagreements listed)", () => {
    const figures = RELABEL_FIELDS.map((field) =>
      agreement(field, counted.map((file) => [labels.get(file)?.[field] as boolean, relabels[file]?.[field] as boolean] as const)),
    );
    const disagreements = counted.flatMap((file) =>
      RELABEL_FIELDS.filter((field) => labels.get(file)?.[field] !== relabels[file]?.[field]).map(
        (field) => `${file} ${field}: labels.yaml ${labels.get(file)?.[field]}, second labelling ${relabels[file]?.[field]}`,
      ),
    );
    console.log(
      `second labelling, ${counted.length} dev replies:\n${figures
        .map((f) => `  ${f.field.padEnd(18)} agree ${f.agree}/${f.n} (${(f.raw * 100).toFixed(1)} %)  kappa ${f.kappa?.toFixed(3) ?? "–"}`)
        .join("\n")}\n${disagreements.map((line) => `  - ${line}`).join("\n")}`,
    );
    expect(figures.map((f) => [f.field, f.agree, f.n])).toEqual(PINNED);
  });
});

it("Cohen's kappa is 1 for identical labels, 0 for chance-level and null when both give one value", () => {
  expect(agreement("claimsComplete", [[true, true], [false, false]]).kappa).toBe(1);
  expect(agreement("claimsComplete", [[true, true], [true, false], [false, true], [false, false]]).kappa).toBe(0);
  expect(agreement("claimsComplete", [[false, false], [false, false]])).toEqual({ field: "claimsComplete", n: 2, agree: 2, raw: 1, kappa: null });
});

// [field, agreeing replies, counted replies]: a label edit on either side moves these and fails here.
const PINNED: Array<[string, number, number]> = [
  ["claimsComplete", 57, 58],
  ["statesUnfinished", 58, 58],
  ["asksPermission", 58, 58],
];
