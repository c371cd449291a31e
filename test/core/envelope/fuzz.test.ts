/** Property tests: the parsers never crash; arbitrary input is malformed (with reasons) or unreadable. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkEnvelope } from "../../../src/core/envelope/check.ts";
import { summarizeCostLedger } from "../../../src/core/envelope/cost-ledger.ts";
import { EnvelopeTextError, parseEnvelopeText } from "../../../src/core/envelope/document.ts";
import { ROUTES } from "../../../src/core/envelope/findings.ts";
import { extractSynthesisDimensions, PlanFormatError } from "../../../src/core/envelope/plan.ts";
import { REQUIRED_FIELDS } from "../../../src/core/envelope/schema.ts";

const valid = {
  branch: "b",
  commit_sha: "pending",
  files_changed: ["a.ts"],
  loc_added: 1,
  loc_removed: 0,
  f_criteria: { F1: "pass" },
  synthesis_attestation: {},
  novel_decisions: [],
  notes: "",
  wall_clock_seconds: 1,
  task_id: "t-00000000",
};

/** A well-formed verdict has a route, and a malformed one has at least one reason with a message. */
function wellFormedVerdict(raw: unknown, checkLedger: boolean): void {
  const { verdict, envelope } = checkEnvelope(raw, { checkLedger });
  expect(ROUTES).toContain(verdict.route);
  if (verdict.route === "malformed") {
    expect(envelope).toBeNull();
    expect(verdict.reasons.length).toBeGreaterThan(0);
    for (const reason of verdict.reasons) expect(reason.message.length).toBeGreaterThan(0);
  } else {
    expect(envelope).not.toBeNull();
  }
  expect(() => JSON.stringify(verdict)).not.toThrow();
}

describe("checkEnvelope fuzz", () => {
  it("never throws on arbitrary values, and anything that is not a mapping is malformed", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), fc.boolean(), (raw, ledger) => {
        wellFormedVerdict(raw, ledger);
        if (typeof raw !== "object" || raw === null || Array.isArray(raw)) expect(checkEnvelope(raw).verdict.route).toBe("malformed");
      }),
      { numRuns: 500 },
    );
  });

  it("arbitrary objects with the envelope's keys never throw and miss nothing silently", () => {
    const key = fc.constantFrom(...REQUIRED_FIELDS, "status", "decision_ledger", "merge_plan", "__proto__", "constructor");
    fc.assert(
      fc.property(fc.dictionary(key, fc.anything()), fc.boolean(), (raw, ledger) => {
        wellFormedVerdict(raw, ledger);
        const missing = REQUIRED_FIELDS.filter((field) => !Object.prototype.hasOwnProperty.call(raw, field));
        if (missing.length > 0) {
          const { verdict } = checkEnvelope(raw);
          expect(verdict.route).toBe("malformed");
          for (const field of missing) expect(verdict.reasons.map((reason) => reason.path)).toContain(field);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("one field of a valid envelope replaced by anything gives a verdict, never a crash", () => {
    fc.assert(
      fc.property(fc.constantFrom(...REQUIRED_FIELDS, "novel_decisions", "status"), fc.anything(), (field, value) => {
        wellFormedVerdict({ ...valid, [field]: value }, true);
      }),
      { numRuns: 400 },
    );
  });

  it("arbitrary novel_decisions entries route to iterate or beyond, never crash", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.anything(), fc.record({ decision_id: fc.string(), options: fc.array(fc.dictionary(fc.string(), fc.string())), recommended_default: fc.string(), confidence: fc.constantFrom("high", "med", "low", "x") }))), (entries) => {
        // Blocked: rule 5 when empty; otherwise repair (7), escalate (7) or resolve (4) — never a commit.
        const blocked = checkEnvelope({ ...valid, novel_decisions: entries, status: "blocked" }).verdict.route;
        expect(entries.length === 0 ? ["malformed"] : ["iterate", "escalate", "resolve_decisions"]).toContain(blocked);
        // Not blocked, plan without dimensions: repair, escalate, or commit (rule 3 needs dimensions).
        const routine = checkEnvelope({ ...valid, novel_decisions: entries }, { plan: { dimensions: [], source: null, line: null } }).verdict.route;
        expect(["iterate", "escalate", "commit"]).toContain(routine);
        wellFormedVerdict({ ...valid, novel_decisions: entries }, false);
      }),
      { numRuns: 300 },
    );
  });
});

describe("text parsers fuzz", () => {
  it("parseEnvelopeText returns a document or throws EnvelopeTextError, nothing else", () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.jsonValue().map((value) => JSON.stringify(value)), fc.constantFrom("envelope:\n  a: [", "```yaml\nenvelope: {\n```", "--- a\n---\n"));
    fc.assert(
      fc.property(text, (input) => {
        try {
          const document = parseEnvelopeText(input);
          wellFormedVerdict(document.envelope, true);
        } catch (error) {
          expect(error).toBeInstanceOf(EnvelopeTextError);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("extractSynthesisDimensions returns names or throws PlanFormatError, nothing else", () => {
    const line = fc.oneof(fc.string(), fc.constantFrom("---", "```yaml", "```", "synthesis_dimensions:", "  - a", "synthesis_dimensions: [a, b]", "  x: 1", "- {a: 1}"));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        try {
          const plan = extractSynthesisDimensions(lines.join("\n"));
          expect(new Set(plan.dimensions).size).toBe(plan.dimensions.length);
        } catch (error) {
          expect(error).toBeInstanceOf(PlanFormatError);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("summarizeCostLedger never throws and counts every non-blank line once", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.jsonValue().map((value) => JSON.stringify(value))), { maxLength: 20 }), (lines) => {
        const summary = summarizeCostLedger(lines.join("\n"));
        const nonBlank = lines.join("\n").split("\n").filter((line) => line.trim() !== "").length;
        expect(summary.rows + summary.problems.filter((problem) => problem.line !== null && /^not /.test(problem.message)).length).toBe(nonBlank);
      }),
      { numRuns: 300 },
    );
  });
});
