import { describe, expect, it } from "vitest";
import { replyFiles } from "./labelled.ts";
import { labelsByFile } from "./relabel.ts";
import { ROUND5_FIELDS, drawRound5Relabel, fieldAgreement, loadRound5Relabels, round5Pools } from "./relabel-round5.ts";

// Label reliability of round 5's batches (docs/decisions/0161): a blind second labelling of 50 split-6 and 40
// dev-batch-D replies against labels.yaml. Labels only: nothing here runs the analyzer, on split 6 or anywhere.
const relabels = loadRound5Relabels();
const labels = labelsByFile();
const draw = drawRound5Relabel();

describe("the blind second labelling of round 5's batches", () => {
  it("draws from split 6's 127 sealed names and batch D's 161 replies, and labels exactly that draw", () => {
    const pools = round5Pools();
    expect([pools.split6.length, pools.devD.length]).toEqual([127, 161]);
    expect([draw.split6.length, draw.devD.length]).toEqual([50, 40]);
    expect(Object.keys(relabels).sort()).toEqual([...draw.devD, ...draw.split6].sort());
    for (const [file, label] of Object.entries(relabels)) {
      expect(Object.keys(label).sort(), file).toEqual([...ROUND5_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("does not move when later replies are added around either pool", () => {
    const later = ["1363-later-reply.md", "1399-later-reply.md", "1527-later-reply.md", "1600-later-reply.md"];
    expect(drawRound5Relabel([...replyFiles(), ...later].sort())).toEqual(draw);
  });

  it("agrees with labels.yaml as pinned, per batch and field (raw share, Cohen's kappa, every disagreement)", () => {
    const report = (Object.entries(draw) as Array<[string, string[]]>).map(([batch, files]) => {
      const figures = ROUND5_FIELDS.map((field) => {
        for (const file of files) expect(typeof labels.get(file)?.[field], `${file} ${field} in labels.yaml`).toBe("boolean");
        return fieldAgreement(field, files.map((file) => [labels.get(file)?.[field] as boolean, relabels[file]?.[field] as boolean] as const));
      });
      const disagreements = files.flatMap((file) =>
        ROUND5_FIELDS.filter((field) => labels.get(file)?.[field] !== relabels[file]?.[field]).map(
          (field) => `${file} ${field}: labels.yaml ${labels.get(file)?.[field]}, second ${relabels[file]?.[field]}`,
        ),
      );
      return { batch, figures, disagreements };
    });
    console.log(
      report
        .map(
          ({ batch, figures, disagreements }) =>
            `second labelling, ${batch} (${figures[0]?.n} replies):\n${figures
              .map((f) => `  ${f.field.padEnd(18)} agree ${f.agree}/${f.n} (${(f.raw * 100).toFixed(1)} %)  kappa ${f.kappa?.toFixed(3) ?? "–"}`)
              .join("\n")}\n${disagreements.map((line) => `  - ${line}`).join("\n")}`,
        )
        .join("\n"),
    );
    expect(report.map(({ batch, figures }) => [batch, figures.map((f) => [f.field, f.agree, f.n])])).toEqual(PINNED);
    expect(report.map(({ batch, disagreements }) => [batch, disagreements.length])).toEqual([
      ["split6", 5],
      ["devD", 3],
    ]);
  });
});

it("the round-5 kappa is 1 for identical labels, 0 at chance and null when both give one value", () => {
  expect(fieldAgreement("fillerEnding", [[true, true], [false, false]]).kappa).toBe(1);
  expect(fieldAgreement("fillerEnding", [[true, true], [true, false], [false, true], [false, false]]).kappa).toBe(0);
  expect(fieldAgreement("asksPermission", [[false, false], [false, false]])).toEqual({ field: "asksPermission", n: 2, agree: 2, raw: 1, kappa: null });
  // 1 of 4 disagree, first labelling 2 positives, second 1: expected agreement 0.5, kappa (0.75 - 0.5) / 0.5.
  expect(fieldAgreement("statesUnfinished", [[true, true], [true, false], [false, false], [false, false]]).kappa).toBe(0.5);
});

// [batch, [field, agreeing replies, drawn replies]]: a label edit on either side moves these and fails here.
const PINNED = [
  [
    "split6",
    [
      ["claimsComplete", 49, 50],
      ["statesUnfinished", 48, 50],
      ["givesReasonAndNext", 48, 50],
      ["asksPermission", 50, 50],
      ["fillerEnding", 50, 50],
    ],
  ],
  [
    "devD",
    [
      ["claimsComplete", 40, 40],
      ["statesUnfinished", 40, 40],
      ["givesReasonAndNext", 40, 40],
      ["asksPermission", 39, 40],
      ["fillerEnding", 38, 40],
    ],
  ],
];
