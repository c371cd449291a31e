/** The fixture envelopes give the verdicts in their `.expected.json` files (library side). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkEnvelope } from "../../../src/core/envelope/check.ts";
import { EnvelopeTextError, parseEnvelopeText } from "../../../src/core/envelope/document.ts";
import { extractSynthesisDimensions } from "../../../src/core/envelope/plan.ts";
import { ENVELOPE_FIXTURES as DIR, envelopeFixtureCases } from "../../support/envelope-fixtures.ts";

const cases = envelopeFixtureCases();

describe("envelope fixtures (library)", () => {
  it("has the three worked examples and a negative fixture for each parser rule", () => {
    const names = cases.map((entry) => entry.file);
    for (const needed of ["example-1-minimal.yaml", "example-2-rich.yaml", "example-3-ledger.yaml"]) expect(names).toContain(needed);
    for (const rule of [1, 2, 3, 4, 5, 6, 7]) expect(names.filter((name) => name.startsWith(`rule-${rule}-`)).length).toBeGreaterThan(0);
  });

  it.each(cases)("$file: $expected.description", ({ file, expected }) => {
    const text = readFileSync(join(DIR, file), "utf8");
    if (expected.exit === 2) {
      expect(() => parseEnvelopeText(text)).toThrow(EnvelopeTextError);
      return;
    }
    const document = parseEnvelopeText(text);
    const plan = expected.plan === null ? undefined : extractSynthesisDimensions(readFileSync(join(DIR, expected.plan), "utf8"));
    const { verdict } = checkEnvelope(document.envelope, { ...(plan === undefined ? {} : { plan }), checkLedger: expected.checkLedger });
    expect({ ...verdict, warnings: [...document.warnings, ...verdict.warnings] }).toEqual(expected.verdict);
    expect(verdict.route === "malformed" ? 1 : 0).toBe(expected.exit);
  });
});
