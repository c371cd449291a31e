/**
 * A third, blind labelling's verdict on the fields two labellings dispute (docs/decisions/0205, 0217): the majority of
 * three per disputed field, each disputed reply's five fields after it, and the settled fields with the third's value
 * beside theirs. Labels only: nothing here runs the analyzer.
 */
import { BOOLEAN_FIELDS, type BooleanField } from "./labelled.ts";
import type { Disagreement } from "./relabel-split1.ts";

type Labels = ReadonlyMap<string, Readonly<Record<string, unknown>>>;
type Relabels = Readonly<Record<string, Readonly<Record<BooleanField, boolean>>>>;

export interface Verdict extends Disagreement {
  third: boolean;
  majority: boolean;
}

export interface Settled {
  file: string;
  field: BooleanField;
  both: boolean;
  third: boolean;
}

/** The value at least two of three labellings give. */
export function majority(first: boolean, second: boolean, third: boolean): boolean {
  return [first, second, third].filter(Boolean).length >= 2;
}

/** The third labelling (`third`) read against the first (`labels`) and second (`second`) on their disputed fields. */
export function adjudicate(disputed: readonly Disagreement[], labels: Labels, second: Relabels, third: Relabels, files: readonly string[]) {
  const verdicts: Verdict[] = disputed.map((d) => {
    const value = third[d.file]?.[d.field] as boolean;
    return { ...d, third: value, majority: majority(d.first, d.second, value) };
  });
  // Each disputed reply's five fields after the majority: labels.yaml's value where the first two agree.
  const adjudicated = new Map(
    [...new Set(disputed.map((d) => d.file))].map((file) => [
      file,
      Object.fromEntries(
        BOOLEAN_FIELDS.map((field) => [field, verdicts.find((v) => v.file === file && v.field === field)?.majority ?? labels.get(file)?.[field]]),
      ) as Record<BooleanField, boolean>,
    ]),
  );
  const settled: Settled[] = files.flatMap((file) =>
    BOOLEAN_FIELDS.filter((field) => labels.get(file)?.[field] === second[file]?.[field]).map((field) => ({
      file,
      field,
      both: labels.get(file)?.[field] as boolean,
      third: third[file]?.[field] as boolean,
    })),
  );
  return { verdicts, adjudicated, settled };
}
