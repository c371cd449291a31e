import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../src/core/tokens.ts";
import { renderReportingGuidance } from "../../../src/core/report/guidance.ts";

describe("renderReportingGuidance", () => {
  const text = renderReportingGuidance();

  it("is the reporting section, in our own words", () => {
    expect(text).toMatchInlineSnapshot(`
      "## Reporting

      Your last message is the report the person reads; make it stand on its own.
      - Start with the outcome in one line: what now works, what you found, or what you decided.
      - If any part of the request is not done, that first line says so, with why it stopped and the next step that would finish it (a command, a decision, an input).
      - Give the evidence briefly: what you ran or read and what it showed, and what it does not cover. Quote only the lines that matter.
      - Headings are optional; when a report needs them, name them after its content.
      - Let the length follow the work: a sentence for a small answer, short sections for a large change.
      - Stop after the last useful point. No sign-off, no "nothing needed" line, and no question asking whether to carry on with work you were already asked to do."
    `);
  });

  it("fits the compact reporting budget: 1,200 characters and 300 o200k tokens", () => {
    expect({ chars: text.length <= 1200, tokens: countTokens(text) <= 300 }).toEqual({ chars: true, tokens: true });
  });

  it("fits the reporting limits in arms/budgets.yaml when that file sets them", () => {
    const path = join(import.meta.dirname, "../../../arms/budgets.yaml");
    const limits = existsSync(path) ? (parse(readFileSync(path, "utf8"))?.sections?.reporting ?? {}) : {};
    expect({ chars: text.length <= (limits.maxChars ?? Infinity), tokens: countTokens(text) <= (limits.maxTokens ?? Infinity) }).toEqual({ chars: true, tokens: true });
  });

  it("is stable: the same text every call (a prefix that drifts breaks the provider cache)", () => {
    expect(renderReportingGuidance()).toBe(text);
  });
});
