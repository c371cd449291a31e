/**
 * A second human labeller scored as if it were the analyzer (docs/decisions/0245): for every split labelled twice whole
 * and blind, the second labelling's TP/FP/FN per field against the first labelling (before any majority was applied) and
 * against labels.yaml as it stands (the labels the analyzer is scored on, after the majority of three, which leans toward
 * the second labeller wherever it agreed with the third). Labels only: nothing here runs the analyzer, so it reads sealed
 * and held-out splits alike without exposing any analyzer result. Printed by scripts/experiments/labeller-as-reader.ts;
 * docs/metrics.md carries the pooled row.
 */
import { BOOLEAN_FIELDS, type BooleanField } from "./labelled.ts";
import { labelsByFile } from "./relabel.ts";
import { ADJUDICATED, type Adjudicated, firstLabelling, loadSplit1Relabels } from "./relabel-split1.ts";
import { SPLIT8_ADJUDICATED, loadSplit8Relabels } from "./relabel-split8.ts";
import { loadSplit8RestRelabels } from "./relabel-split8-rest.ts";
import { SPLIT9_ADJUDICATED, loadSplit9Relabels } from "./relabel-split9.ts";
import { SPLIT10_ADJUDICATED, loadSplit10Relabels } from "./relabel-split10.ts";
import { SPLIT11_ADJUDICATED, loadSplit11Relabels } from "./relabel-split11.ts";
import { SPLIT12_ADJUDICATED, loadSplit12Relabels } from "./relabel-split12.ts";

type Relabels = Record<string, Record<BooleanField, boolean>>;
interface Twice {
  split: string;
  relabels: Relabels;
  adjudicated: readonly Adjudicated[];
}

export const READER_FIELDS = BOOLEAN_FIELDS.filter((field) => field !== "fillerEnding");

const splits: Twice[] = [
  { split: "1 (frozen)", relabels: loadSplit1Relabels(), adjudicated: ADJUDICATED },
  { split: "8", relabels: { ...loadSplit8Relabels(), ...loadSplit8RestRelabels() }, adjudicated: SPLIT8_ADJUDICATED },
  { split: "9", relabels: loadSplit9Relabels(), adjudicated: SPLIT9_ADJUDICATED },
  { split: "10", relabels: loadSplit10Relabels(), adjudicated: SPLIT10_ADJUDICATED },
  { split: "11", relabels: loadSplit11Relabels(), adjudicated: SPLIT11_ADJUDICATED },
  { split: "12", relabels: loadSplit12Relabels(), adjudicated: SPLIT12_ADJUDICATED },
];

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

function tally(files: readonly string[], truth: ReadonlyMap<string, Readonly<Record<string, unknown>>>, relabels: Relabels, field: BooleanField): Tally {
  const out = { tp: 0, fp: 0, fn: 0 };
  for (const file of files) {
    const truthValue = truth.get(file)?.[field];
    if (typeof truthValue !== "boolean") throw new Error(`${file}: labels.yaml has no boolean ${field}`);
    const said = relabels[file]?.[field] === true;
    if (said && truthValue) out.tp += 1;
    else if (said) out.fp += 1;
    else if (truthValue) out.fn += 1;
  }
  return out;
}

/** One row of the table: a split (or the pool) read against one baseline, TP/FP/FN per field. */
export interface ReaderRow {
  split: string;
  replies: number;
  against: "first labelling" | "labels.yaml";
  fields: Record<string, Tally>;
}

/** Every twice-labelled split against both baselines, then the pool of all of them against each. */
export function labellerAsReader(): ReaderRow[] {
  const labels = labelsByFile();
  const rows: ReaderRow[] = [];
  const pooled: Record<ReaderRow["against"], Record<string, Tally>> = { "first labelling": {}, "labels.yaml": {} };
  let replies = 0;
  for (const twice of splits) {
    const files = Object.keys(twice.relabels);
    replies += files.length;
    const baselines = [["first labelling", firstLabelling(labels, twice.adjudicated)], ["labels.yaml", labels]] as const;
    for (const [against, truth] of baselines) {
      const fields: Record<string, Tally> = {};
      for (const field of READER_FIELDS) {
        const t = tally(files, truth, twice.relabels, field);
        fields[field] = t;
        const sum = pooled[against][field] ?? { tp: 0, fp: 0, fn: 0 };
        pooled[against][field] = { tp: sum.tp + t.tp, fp: sum.fp + t.fp, fn: sum.fn + t.fn };
      }
      rows.push({ split: twice.split, replies: files.length, against, fields });
    }
  }
  for (const against of ["first labelling", "labels.yaml"] as const) rows.push({ split: "pooled", replies, against, fields: pooled[against] });
  return rows;
}

const ratio = (a: number, b: number) => (b === 0 ? "–" : (a / b).toFixed(3));
/** "P/R (TP/FP/FN)". */
export const readerCell = (t: Tally) => `${ratio(t.tp, t.tp + t.fp)}/${ratio(t.tp, t.tp + t.fn)} (${t.tp}/${t.fp}/${t.fn})`;

/**
 * docs/metrics.md's lines on how well one labeller reads another (docs/decisions/0245): the blind second labelling scored
 * as a reader against the first, on the frozen split and pooled over every split labelled twice — the agreement any
 * reader can expect with one labelling, beside the analyzer's. Labels only.
 */
export function agreementLines(rows: readonly ReaderRow[]): string[] {
  const first = rows.filter((row) => row.against === "first labelling" && (row.split === "pooled" || row.split.startsWith("1 ")));
  const cell = (t: Tally) => `${ratio(t.tp, t.tp + t.fp)} / ${ratio(t.tp, t.tp + t.fn)}`;
  return [
    "Two labellers' agreement, for scale (docs/decisions/0245, labels only): a blind second labelling scored as if it were",
    "the analyzer, against the first labelling (before any majority). A reader cannot be expected to agree with one labelling",
    "much better than a second careful person does.",
    "",
    `| second labeller against the first | ${READER_FIELDS.map((field) => `\`${field}\` P / R`).join(" | ")} |`,
    `|---|${READER_FIELDS.map(() => "---").join("|")}|`,
    ...first.map((row) => `| ${row.split === "pooled" ? `pooled, the six twice-labelled splits (${row.replies})` : `split 1, the frozen split (${row.replies})`} | ${READER_FIELDS.map((field) => cell(row.fields[field] ?? { tp: 0, fp: 0, fn: 0 })).join(" | ")} |`),
    "",
  ];
}
