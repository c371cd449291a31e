import { describe, expect, it } from "vitest";
import { lintDecisionLedger } from "../../../src/core/envelope/ledger-lint.ts";

const entry = (dimension: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  dimension,
  owner: "plan",
  locked_value: "secondary",
  alternatives_rejected: ["primary"],
  evidence_file: "src/a.ts",
  on_new_decision: "flag",
  ...overrides,
});

describe("lintDecisionLedger", () => {
  it("passes a ledger with one complete entry per attested dimension", () => {
    expect(lintDecisionLedger([entry("a"), entry("b", { owner: "implementer", evidence_file: null, on_new_decision: "absorb" })], { a: "applied", b: "n/a" })).toEqual({ errors: [], warnings: [] });
  });

  it("(a) needs an entry for every attested dimension, and each entry to name an attested one", () => {
    expect(lintDecisionLedger([entry("a"), entry("ghost")], { a: "applied", b: "applied" })).toEqual({
      errors: [
        { rule: "LEDGER", route: "malformed", path: "decision_ledger[1].dimension", message: '"ghost" is not a key of synthesis_attestation (attested: a, b); a ledger entry explains an attested dimension' },
        { rule: "LEDGER", route: "malformed", path: "decision_ledger", message: 'attested dimension "b" has no ledger entry; add one with dimension: "b" and the five other fields' },
      ],
      warnings: [],
    });
  });

  it("(b) needs all six fields, non-empty", () => {
    const { on_new_decision: _gone, ...five } = entry("a");
    const { errors } = lintDecisionLedger([{ ...five, locked_value: "", alternatives_rejected: [], evidence_file: "" }], { a: "applied" });
    expect(errors.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: "decision_ledger[0].locked_value", message: 'must not be empty; got ""' },
      { path: "decision_ledger[0].alternatives_rejected", message: 'needs at least one alternative; use ["none considered"] when there was a single viable option' },
      { path: "decision_ledger[0].evidence_file", message: 'must not be empty; got ""' },
      {
        path: "decision_ledger[0].on_new_decision",
        message: 'missing required field; all six ledger fields are required — write "block", "flag" or "absorb" ("flag" unless the chunk is tagged risk_reason)',
      },
    ]);
  });

  it("(b) rejects a status word as the locked value and a non-mapping entry", () => {
    const { errors } = lintDecisionLedger([entry("a", { locked_value: "Applied" }), "a"], { a: "applied" });
    expect(errors.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: "decision_ledger[0].locked_value", message: 'is a status word; write the concrete value chosen (e.g. "secondary", "after <SummaryRow> in path/to/file")' },
      { path: "decision_ledger[1]", message: "each decision_ledger entry must be a mapping with the six ledger fields" },
    ]);
  });

  it("(c) checks the on_new_decision and owner enums", () => {
    const { errors } = lintDecisionLedger([entry("a", { on_new_decision: "warn", owner: "orchestrator" })], { a: "applied" });
    expect(errors.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: "decision_ledger[0].owner", message: 'must be one of "plan", "implementer"; got "orchestrator"' },
      { path: "decision_ledger[0].on_new_decision", message: 'must be one of "block", "flag", "absorb"; got "warn"' },
    ]);
  });

  it("WARNs (without failing) on a plan-owned entry with a null evidence file, and on duplicates", () => {
    expect(lintDecisionLedger([entry("a", { evidence_file: null }), entry("a")], { a: "applied" })).toEqual({
      errors: [],
      warnings: [
        {
          rule: "LEDGER",
          path: "decision_ledger[0].evidence_file",
          message:
            'WARN: owner is "plan" but evidence_file is null; a plan-prescribed decision should point at the file where it shows in code (null is meant for implementer-owned non-code decisions)',
        },
        { rule: "LEDGER", path: "decision_ledger[1].dimension", message: '"a" already has a ledger entry at decision_ledger[0]; keep one entry per dimension' },
      ],
    });
  });
});
