/**
 * The checks every blind second labelling of a whole split answers (docs/decisions/0226, 0229, 0241): the split's replies
 * each with the five booleans, ADR 0089's consistency, and agreement, Cohen's kappa and positives per field against the
 * first labelling, with every disagreement listed, all as pinned. Each split's test file pins its own tables and calls
 * this inside its describe; third-labelling.ts does the same for the third labelling.
 */
import { expect, it } from "vitest";
import { BOOLEAN_FIELDS, type BooleanField } from "./labelled.ts";
import { agreement, labelsByFile } from "./relabel.ts";
import { type Adjudicated, disagreements, firstLabelling } from "./relabel-split1.ts";

export interface SecondLabelling {
  /** "split 12", for the printed table. */
  split: string;
  /** What the first test's name says the split is: "split 12's 101 reply files (3400–3500)". */
  covers: string;
  names: readonly string[];
  relabels: Readonly<Record<string, Readonly<Record<BooleanField, boolean>>>>;
  /** labels.yaml's fields a later majority changed, with the first labelling's value: the comparison reads the first. */
  adjudicated: readonly Adjudicated[];
  /** The split's size when the second labeller took it. */
  size: number;
  pinned: { figures: readonly unknown[]; disagreements: readonly unknown[] };
}

export function secondLabellingTests(t: SecondLabelling): void {
  it(`covers exactly ${t.covers}, each with the five booleans`, () => {
    expect(t.names.length).toBe(t.size);
    expect(Object.keys(t.relabels)).toEqual(t.names);
    for (const [file, label] of Object.entries(t.relabels)) {
      expect(Object.keys(label).sort(), file).toEqual([...BOOLEAN_FIELDS].sort());
      expect(Object.values(label).every((value) => typeof value === "boolean"), file).toBe(true);
    }
  });

  it("is consistent with ADR 0089 (never claim and unfinished; reason and next only when unfinished)", () => {
    for (const [file, label] of Object.entries(t.relabels)) {
      expect(label.claimsComplete && label.statesUnfinished, file).toBe(false);
      expect(!label.givesReasonAndNext || label.statesUnfinished, file).toBe(true);
    }
  });

  it("compares with the first labelling per field (agreement, Cohen's kappa, positives) and lists every disagreement", () => {
    const labels = firstLabelling(labelsByFile(), t.adjudicated);
    const figures = BOOLEAN_FIELDS.map((field) => {
      for (const file of t.names) expect(typeof labels.get(file)?.[field], `${file} ${field} in labels.yaml`).toBe("boolean");
      const pairs = t.names.map((file) => [labels.get(file)?.[field] as boolean, t.relabels[file]?.[field] as boolean] as const);
      return { ...agreement(field, pairs), positives: [pairs.filter(([a]) => a).length, pairs.filter(([, b]) => b).length] };
    });
    const listed = disagreements(t.names, labels, t.relabels);
    console.log(
      `second labelling, ${t.split} (${t.names.length} replies; labels only):\n${figures
        .map((f) => `  ${f.field.padEnd(18)} agree ${f.agree}/${f.n} (${(f.raw * 100).toFixed(1)} %)  kappa ${f.kappa?.toFixed(3) ?? "–"}  positives ${f.positives.join(" / ")}`)
        .join("\n")}\n${listed.map((d) => `  - ${d.file} ${d.field}: labels.yaml ${d.first}, second ${d.second}`).join("\n")}`,
    );
    expect(figures.map((f) => f.n)).toEqual(BOOLEAN_FIELDS.map(() => t.size));
    expect(listed.length).toBe(figures.reduce((sum, f) => sum + (f.n - f.agree), 0));
    expect(figures.map((f) => [f.field, f.agree, f.n, f.kappa === null ? null : Number(f.kappa.toFixed(3)), f.positives])).toEqual(t.pinned.figures);
    expect(listed).toEqual(t.pinned.disagreements);
  });
}
