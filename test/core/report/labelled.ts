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
  expected: FinalReportAnalysis;
  knownMiss: Partial<Record<BooleanField, string>>;
}

export function loadLabelledReplies(): LabelledReply[] {
  const labels = parse(readFileSync(join(REPLIES_DIR, "labels.yaml"), "utf8")) as Record<string, Record<string, unknown>>;
  return Object.entries(labels).map(([file, label]) => {
    const { origin, note: _note, knownMiss, ...expected } = label;
    return {
      file,
      origin: origin as "real" | "written",
      text: readFileSync(join(REPLIES_DIR, file), "utf8"),
      expected: expected as unknown as FinalReportAnalysis,
      knownMiss: (knownMiss ?? {}) as Partial<Record<BooleanField, string>>,
    };
  });
}

export function replyFiles(): string[] {
  return readdirSync(REPLIES_DIR).filter((name) => /^\d{3}-.*\.md$/.test(name)).sort();
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
  const results = replies.map((reply) => ({ reply, got: analyzeFinalReport(reply.text) }));
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

/** The `## Final-report analysis` section of docs/metrics.md, generated from the labels. */
export function renderMetricsSection(replies: LabelledReply[]): string {
  const real = replies.filter((reply) => reply.origin === "real");
  const realScores = score(real);
  const fewest = [...realScores].sort((a, b) => a.positives - b.positives).slice(0, 3);
  return [
    "## Final-report analysis",
    "",
    "`analyzeFinalReport` (src/core/report/analyze.ts) against the hand-labelled final replies in",
    `\`fixtures/final-replies/\`: ${replies.length} replies, ${real.length} of them real final messages of recorded Codex,`,
    "Claude Code and pi sessions, the rest written to cover each field's edge cases (sources in that",
    "folder's SOURCES.md, labelling rules in docs/decisions/0013-final-report-fields.md).",
    "`firstLine`, `firstLineRaw`, `headings`, `chars` and `tokens` match their labels on every reply.",
    "For the boolean fields, every disagreement is listed with its reason under `knownMiss` in",
    "`labels.yaml`; the test fails if a known miss is fixed or a new one appears.",
    "",
    "Real replies only:",
    "",
    table(realScores),
    "",
    `Some fields have few real positives (${fewest.map((s) => `${s.positives} for \`${s.field}\``).join(", ")}), so read those`,
    "rows as rough. All labelled replies (the written ones were composed alongside the pattern table,",
    "so this table flatters the analyzer):",
    "",
    table(score(replies)),
    "",
    "Regenerate after changing the table or the labels: `UPDATE_METRICS=1 npx vitest run test/core/report`.",
    "",
  ].join("\n");
}
