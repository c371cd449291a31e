/**
 * The blind second labelling of the frozen split 1 (docs/decisions/0179): all 110 replies of test-split.txt, the
 * second labeller's booleans, the disagreements with labels.yaml, and how a second reader scores against the first.
 */
import { join } from "node:path";
import { BOOLEAN_FIELDS, type BooleanField, REPLIES_DIR } from "./labelled.ts";
import { loadRelabelFile } from "./relabel.ts";

export const SPLIT1_RELABEL_FILE = join(REPLIES_DIR, "relabel-split1.yaml");
export const SPLIT1_FIELDS = BOOLEAN_FIELDS;

export function loadSplit1Relabels(): Record<string, Record<BooleanField, boolean>> {
  return loadRelabelFile(SPLIT1_RELABEL_FILE);
}

export interface Disagreement {
  file: string;
  field: BooleanField;
  first: boolean;
  second: boolean;
}

type Labels = ReadonlyMap<string, Readonly<Record<string, unknown>>>;
type Relabels = Readonly<Record<string, Readonly<Record<BooleanField, boolean>>>>;

/** Every (file, field) where labels.yaml (first) and the second labelling differ, in file then field order. */
export function disagreements(files: readonly string[], first: Labels, second: Relabels): Disagreement[] {
  return files.flatMap((file) =>
    SPLIT1_FIELDS.filter((field) => first.get(file)?.[field] !== second[file]?.[field]).map((field) => ({
      file,
      field,
      first: first.get(file)?.[field] as boolean,
      second: second[file]?.[field] as boolean,
    })),
  );
}

/**
 * The second labelling read as if it were an analyzer scored against labels.yaml: the precision and recall a
 * perfect reader of the second labeller's kind would get against the first labels. Null when nothing to divide.
 */
export function secondAsReader(pairs: ReadonlyArray<readonly [boolean, boolean]>): { precision: number | null; recall: number | null } {
  const tp = pairs.filter(([a, b]) => a && b).length;
  const saidTrue = pairs.filter(([, b]) => b).length;
  const wereTrue = pairs.filter(([a]) => a).length;
  return { precision: saidTrue === 0 ? null : tp / saidTrue, recall: wereTrue === 0 ? null : tp / wereTrue };
}

/**
 * The eight fields of labels.yaml that the majority of three (docs/decisions/0183) changed on split 1, applied in
 * their own commit at the round-6 look (docs/decisions/0182), with the value the first labelling gave.
 */
export const ADJUDICATED: readonly Adjudicated[] = [
  { file: "038-pi-release-process.md", field: "statesUnfinished", first: false },
  { file: "038-pi-release-process.md", field: "givesReasonAndNext", first: false },
  { file: "039-pi-commit-and-tag.md", field: "statesUnfinished", first: false },
  { file: "039-pi-commit-and-tag.md", field: "givesReasonAndNext", first: false },
  { file: "045-pi-progress-wp1-14.md", field: "givesReasonAndNext", first: false },
  { file: "049-pi-remaining-from-plan.md", field: "givesReasonAndNext", first: false },
  { file: "115-pi-got-it-we-ve-made.md", field: "claimsComplete", first: false },
  { file: "304-permission-continue-or-stop.md", field: "givesReasonAndNext", first: false },
];

/** A field of labels.yaml a majority of three changed, with the value the first labelling gave. */
export interface Adjudicated {
  file: string;
  field: BooleanField;
  first: boolean;
}

/**
 * The first labelling as labels.yaml held it before a majority was applied (split 1's ADJUDICATED by default; split 8's
 * is SPLIT8_ADJUDICATED, docs/decisions/0205): the reliability figures' baseline.
 */
export function firstLabelling(labels: Labels, changes: readonly Adjudicated[] = ADJUDICATED): Map<string, Readonly<Record<string, unknown>>> {
  const first = new Map<string, Readonly<Record<string, unknown>>>(labels);
  for (const change of changes) first.set(change.file, { ...first.get(change.file), [change.field]: change.first });
  return first;
}
