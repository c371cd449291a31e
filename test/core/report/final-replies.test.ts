import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeFinalReport } from "../../../src/core/report/analyze.ts";
import { BOOLEAN_FIELDS, type BooleanField, loadLabelledReplies, renderMetricsSection, replyFiles } from "./labelled.ts";

// Until the analyzer is reworked (ADR 0091), per-reply assertions cover the 98 replies labelled before issue 12.
const replies = loadLabelledReplies().filter((reply) => "firstLine" in reply.expected);

describe("labelled final replies", () => {
  it("has a label for every reply file and a file for every label", () => {
    expect(loadLabelledReplies().map((reply) => reply.file).sort()).toEqual(replyFiles());
  });

  it("holds at least 60 real replies, and every boolean field is labelled both ways", () => {
    expect(replies.filter((reply) => reply.origin === "real").length).toBeGreaterThanOrEqual(60);
    const coverage = Object.fromEntries(
      BOOLEAN_FIELDS.map((field) => [field, [...new Set(replies.map((reply) => reply.expected[field]))].sort()]),
    );
    expect(coverage).toEqual(Object.fromEntries(BOOLEAN_FIELDS.map((field) => [field, [false, true]])));
  });

  // Known misses are asserted as misses, so fixing one (or breaking another) fails here.
  it.each(replies.map((reply) => [reply.file, reply] as const))("%s", (_file, reply) => {
    const expected = { ...reply.expected };
    for (const field of Object.keys(reply.knownMiss) as BooleanField[]) expected[field] = !expected[field];
    expect(analyzeFinalReport(reply.text)).toEqual(expected);
  });
});

describe("docs/metrics.md", () => {
  const path = join(import.meta.dirname, "../../../docs/metrics.md");
  const section = renderMetricsSection(replies);

  /** This section's text in the document: from its heading to the next `## ` heading. */
  const currentSection = (doc: string): string | null => {
    const start = doc.indexOf("## Final-report analysis\n");
    if (start === -1) return null;
    const next = doc.indexOf("\n## ", start + 1);
    return doc.slice(start, next === -1 ? doc.length : next + 1);
  };

  if (process.env.UPDATE_METRICS === "1") {
    const doc = existsSync(path) ? readFileSync(path, "utf8") : "# Metrics\n\n";
    const current = currentSection(doc);
    const updated = current === null ? `${doc.trimEnd()}\n\n${section}` : doc.replace(current, section);
    writeFileSync(`${path}.tmp`, updated);
    renameSync(`${path}.tmp`, path);
  }

  it("holds the precision and recall the labels give today", () => {
    const doc = existsSync(path) ? readFileSync(path, "utf8") : "";
    expect(currentSection(doc)).toBe(section);
  });
});
