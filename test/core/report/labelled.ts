/**
 * The labelled final replies in fixtures/final-replies and the precision/recall table they give.
 * Shared by the label test and the metrics-document test.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { type FinalReportAnalysis, analyzeFinalReport } from "../../../src/core/report/analyze.ts";

export const REPLIES_DIR = join(import.meta.dirname, "../../../fixtures/final-replies");

export const BOOLEAN_FIELDS = ["claimsComplete", "statesUnfinished", "givesReasonAndNext", "asksPermission", "fillerEnding"] as const;
export type BooleanField = (typeof BOOLEAN_FIELDS)[number];

export interface LabelledReply {
  file: string;
  origin: "real" | "written";
  text: string;
  /** The booleans always; the mechanical fields (firstLine … tokens) only on the replies labelled before issue 12. */
  expected: FinalReportAnalysis;
  /** The handoff steps the reply was written against, passed to the analyzer. */
  steps?: string[];
  knownMiss: Partial<Record<BooleanField, string>>;
}

export function loadLabelledReplies(): LabelledReply[] {
  const labels = parse(readFileSync(join(REPLIES_DIR, "labels.yaml"), "utf8")) as Record<string, Record<string, unknown>>;
  return Object.entries(labels).map(([file, label]) => {
    const { origin, note: _note, knownMiss, steps, ...expected } = label;
    return {
      file,
      origin: origin as "real" | "written",
      text: readFileSync(join(REPLIES_DIR, file), "utf8"),
      expected: expected as unknown as FinalReportAnalysis,
      knownMiss: (knownMiss ?? {}) as Partial<Record<BooleanField, string>>,
      ...(steps === undefined ? {} : { steps: steps as string[] }),
    };
  });
}

export function replyFiles(): string[] {
  return readdirSync(REPLIES_DIR).filter((name) => /^\d{3}-.*\.md$/.test(name)).sort();
}

/** The analysis of a labelled reply, with its handoff steps when it has them. */
export function analyzeReply(reply: LabelledReply): FinalReportAnalysis {
  return analyzeFinalReport(reply.text, undefined, reply.steps === undefined ? {} : { steps: reply.steps });
}

export interface FieldScore {
  field: BooleanField;
  positives: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number | null;
}

export function score(replies: LabelledReply[]): FieldScore[] {
  const results = replies.map((reply) => ({ reply, got: analyzeReply(reply) }));
  return BOOLEAN_FIELDS.map((field) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const { reply, got } of results) {
      const want = reply.expected[field];
      if (got[field] && want) tp += 1;
      else if (got[field] && !want) fp += 1;
      else if (!got[field] && want) fn += 1;
    }
    return {
      field,
      positives: tp + fn,
      tp,
      fp,
      fn,
      precision: tp + fp === 0 ? null : tp / (tp + fp),
      recall: tp + fn === 0 ? null : tp / (tp + fn),
    };
  });
}

const pct = (value: number | null): string => (value === null ? "–" : value.toFixed(2));

function table(scores: FieldScore[]): string {
  return [
    "| field | labelled true | TP | FP | FN | precision | recall |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...scores.map((s) => `| \`${s.field}\` | ${s.positives} | ${s.tp} | ${s.fp} | ${s.fn} | ${pct(s.precision)} | ${pct(s.recall)} |`),
  ].join("\n");
}

/** The dev and test portions (docs/decisions/0090). */
export function portions(replies: LabelledReply[], testFiles: ReadonlySet<string>): { dev: LabelledReply[]; test: LabelledReply[] } {
  return { dev: replies.filter((reply) => !testFiles.has(reply.file)), test: replies.filter((reply) => testFiles.has(reply.file)) };
}

/** Precision and recall on the frozen test split, as src/core/report/accuracy.ts carries them for the report. */
export function renderAccuracyModule(test: LabelledReply[], dev: LabelledReply[]): string {
  const round = (value: number | null): number | null => (value === null ? null : Math.round(value * 1000) / 1000);
  const fields = (scores: FieldScore[]): string =>
    scores.map((s) => `    ${s.field}: { positives: ${s.positives}, precision: ${round(s.precision)}, recall: ${round(s.recall)} },`).join("\n");
  return [
    "/**",
    " * The final-report analyzer's measured accuracy, generated from fixtures/final-replies by",
    " * test/core/report/final-replies.test.ts (UPDATE_METRICS=1 rewrites it; a plain run fails when stale).",
    " * The report prints the test-split figures beside the rates they qualify. Do not edit by hand.",
    " */",
    "export interface FieldAccuracy {",
    "  positives: number;",
    "  precision: number | null;",
    "  recall: number | null;",
    "}",
    "",
    "export interface AnalyzerAccuracy {",
    "  replies: number;",
    "  real: number;",
    "  fields: Record<\"claimsComplete\" | \"statesUnfinished\" | \"givesReasonAndNext\" | \"asksPermission\" | \"fillerEnding\", FieldAccuracy>;",
    "}",
    "",
    "export const ANALYZER_ACCURACY: { test: AnalyzerAccuracy; dev: AnalyzerAccuracy } = {",
    `  test: { replies: ${test.length}, real: ${test.filter((r) => r.origin === "real").length}, fields: {`,
    fields(score(test)),
    "  } },",
    `  dev: { replies: ${dev.length}, real: ${dev.filter((r) => r.origin === "real").length}, fields: {`,
    fields(score(dev)),
    "  } },",
    "};",
    "",
  ].join("\n");
}

/** The `## Final-report analysis` section of docs/metrics.md, generated from the labels. */
export function renderMetricsSection(replies: LabelledReply[], testFiles: ReadonlySet<string>): string {
  const { dev, test } = portions(replies, testFiles);
  const real = replies.filter((reply) => reply.origin === "real");
  const misses = (part: LabelledReply[]): string[] =>
    part.flatMap((reply) => (Object.entries(reply.knownMiss) as Array<[BooleanField, string]>).map(([field, why]) => `- \`${reply.file}\` \`${field}\`: ${why}`));
  return [
    "## Final-report analysis",
    "",
    "`analyzeFinalReport` (src/core/report/analyze.ts) against the hand-labelled final replies in",
    `\`fixtures/final-replies/\`: ${replies.length} replies, ${real.length} of them real final messages of recorded Codex,`,
    `Claude Code and pi sessions and ${replies.length - real.length} written (sources in that folder's SOURCES.md, labelling rules in`,
    "docs/decisions/0089-final-reply-labelling-rules.md). Before the analyzer was reworked per clause",
    `(docs/decisions/0091), ${test.length} replies were drawn at random with a fixed seed into a frozen test split`,
    "(`fixtures/final-replies/test-split.txt`, docs/decisions/0090); patterns were developed on the other",
    `${dev.length} only. Every disagreement is listed under \`knownMiss\` in \`labels.yaml\` and below; the test fails if a`,
    "known miss is fixed or a new one appears. The study report prints the test-split figures",
    "(src/core/report/accuracy.ts, generated by the same test) beside the rates they qualify.",
    "",
    `**Frozen test split** (${test.length} replies, ${test.filter((r) => r.origin === "real").length} real) — the estimate for replies the analyzer has not seen:`,
    "",
    table(score(test)),
    "",
    `Dev portion (${dev.length} replies, ${dev.filter((r) => r.origin === "real").length} real; the patterns were developed on these, so this flatters them):`,
    "",
    table(score(dev)),
    "",
    "The target is precision and recall ≥ 0.95 on the test split for `claimsComplete`, `statesUnfinished` and",
    "`asksPermission`. Fields with few positives (`fillerEnding`, `givesReasonAndNext`) are rough.",
    "",
    "Known misses in the test split (seen only after the analyzer was frozen; not fixed, since that",
    "would tune to the split):",
    "",
    ...misses(test),
    "",
    "Known misses in the dev portion:",
    "",
    ...misses(dev),
    "",
    "Regenerate after changing the table or the labels: `UPDATE_METRICS=1 npx vitest run test/core/report`.",
    "",
  ].join("\n");
}
