/**
 * The blind second labelling of the frozen split 1 (docs/decisions/0179): all 110 replies of test-split.txt, the
 * second labeller's booleans, the disagreements with labels.yaml, and how a second reader scores against the first.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { BOOLEAN_FIELDS, type BooleanField, REPLIES_DIR } from "./labelled.ts";

export const SPLIT1_RELABEL_FILE = join(REPLIES_DIR, "relabel-split1.yaml");
export const SPLIT1_FIELDS = BOOLEAN_FIELDS;

export function loadSplit1Relabels(): Record<string, Record<BooleanField, boolean>> {
  return parse(readFileSync(SPLIT1_RELABEL_FILE, "utf8")) as Record<string, Record<BooleanField, boolean>>;
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
