import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOOLEAN_FIELDS, type BooleanField, analyzeReply, loadLabelledReplies, portions, renderAccuracyModule, renderMetricsSection, replyFiles, score } from "./labelled.ts";
import { committedTestSplit } from "./split.ts";

const replies = loadLabelledReplies();
const testFiles = new Set(committedTestSplit());
const { dev, test } = portions(replies, testFiles);
const MECHANICAL = ["firstLine", "firstLineRaw", "headings", "chars", "tokens"] as const;

describe("labelled final replies", () => {
  it("has a label for every reply file and a file for every label", () => {
    expect(replies.map((reply) => reply.file).sort()).toEqual(replyFiles());
  });

  it("holds at least 300 replies, 150 of them real, and every boolean field is labelled both ways", () => {
    expect(replies.length).toBeGreaterThanOrEqual(300);
    expect(replies.filter((reply) => reply.origin === "real").length).toBeGreaterThanOrEqual(150);
    const coverage = Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, [...new Set(replies.map((reply) => reply.expected[field]))].sort()]));
    expect(coverage).toEqual(Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, [false, true]])));
  });

  // Known misses are asserted as misses, so fixing one (or breaking another) fails here. The
  // mechanical fields are asserted where they were labelled (the 98 replies from before issue 12).
  it.each(replies.map((reply) => [reply.file, reply] as const))("%s", (_file, reply) => {
    const got = analyzeReply(reply);
    const expected: Record<string, unknown> = {};
    for (const field of BOOLEAN_FIELDS) expected[field] = field in reply.knownMiss ? !reply.expected[field] : reply.expected[field];
    const actual: Record<string, unknown> = Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, got[field]]));
    for (const field of MECHANICAL) {
      if (field in reply.expected) {
        expected[field] = reply.expected[field];
        actual[field] = got[field];
      }
    }
    expect(actual).toEqual(expected);
  });

  it("prints and pins precision and recall on both portions", () => {
    for (const [name, part] of [["test split", test], ["dev portion", dev]] as const) {
      const lines = score(part).map((s) => `  ${s.field.padEnd(20)} positives ${String(s.positives).padStart(3)}  P ${s.precision?.toFixed(3) ?? "–"}  R ${s.recall?.toFixed(3) ?? "–"}`);
      console.log(`final-report analyzer, ${name} (${part.length} replies):\n${lines.join("\n")}`);
    }
    const figures = (part: typeof test) => Object.fromEntries(score(part).map((s) => [s.field, [s.tp, s.fp, s.fn]]));
    // [TP, FP, FN] per field: a change to the analyzer or the labels that moves any figure fails here.
    expect({ test: figures(test), dev: figures(dev) }).toEqual({
      test: { claimsComplete: [46, 3, 1], statesUnfinished: [28, 5, 1], givesReasonAndNext: [9, 4, 0], asksPermission: [20, 0, 0], fillerEnding: [5, 0, 0] },
      dev: { claimsComplete: [104, 2, 1], statesUnfinished: [42, 2, 0], givesReasonAndNext: [16, 0, 0], asksPermission: [44, 0, 1], fillerEnding: [10, 0, 0] },
    });
  });
});

describe("generated from the labels", () => {
  const update = process.env.UPDATE_METRICS === "1";
  const write = (path: string, text: string): void => {
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  };

  const metricsPath = join(import.meta.dirname, "../../../docs/metrics.md");
  const section = renderMetricsSection(replies, testFiles);
  /** This section's text in the document: from its heading to the next `## ` heading. */
  const currentSection = (doc: string): string | null => {
    const start = doc.indexOf("## Final-report analysis\n");
    if (start === -1) return null;
    const next = doc.indexOf("\n## ", start + 1);
    return doc.slice(start, next === -1 ? doc.length : next + 1);
  };
  if (update) {
    const doc = existsSync(metricsPath) ? readFileSync(metricsPath, "utf8") : "# Metrics\n\n";
    const current = currentSection(doc);
    write(metricsPath, current === null ? `${doc.trimEnd()}\n\n${section}` : doc.replace(current, section));
  }

  it("docs/metrics.md holds the precision and recall the labels give today, on both portions", () => {
    const doc = existsSync(metricsPath) ? readFileSync(metricsPath, "utf8") : "";
    expect(currentSection(doc)).toBe(section);
  });

  const accuracyPath = join(import.meta.dirname, "../../../src/core/report/accuracy.ts");
  const accuracy = renderAccuracyModule(test, dev);
  if (update) write(accuracyPath, accuracy);

  it("src/core/report/accuracy.ts (printed in the study report) matches the labels", () => {
    expect(existsSync(accuracyPath) ? readFileSync(accuracyPath, "utf8") : "").toBe(accuracy);
  });
});

export type { BooleanField };
