/**
 * The decision-ledger lint (`--check-ledger`): (a) every attested dimension has a ledger entry,
 * (b) each entry carries all six fields, non-empty (with the `evidence_file: null` rule), and
 * (c) `on_new_decision` is `block | flag | absorb`. A plan-owned decision without an evidence file
 * is a WARN, not an error. Errors route the envelope to `malformed`.
 */
import { type Finding, type Warning, formatPath, hasOwn, isRecord, issuesToFindings } from "./findings.ts";
import { LedgerEntry } from "./schema.ts";

export interface LedgerLint {
  errors: Finding[];
  warnings: Warning[];
}

const FIELD_HINTS: Record<string, string> = {
  dimension: "name the synthesis_attestation key this entry explains",
  owner: 'write "plan" (the plan prescribed the value) or "implementer" (chosen during execution)',
  locked_value: "write the concrete value chosen",
  alternatives_rejected: 'list the alternatives considered, or ["none considered"]',
  evidence_file: "give the repo-relative file where the decision shows in code, or null for an implementer-owned non-code decision",
  on_new_decision: 'write "block", "flag" or "absorb" ("flag" unless the chunk is tagged risk_reason)',
};

export function lintDecisionLedger(ledger: readonly unknown[], attestation: Readonly<Record<string, unknown>>): LedgerLint {
  const errors: Finding[] = [];
  const warnings: Warning[] = [];
  const attested = Object.keys(attestation);
  const byDimension = new Map<string, number>();

  ledger.forEach((entry, index) => {
    const base = ["decision_ledger", index];
    if (!isRecord(entry)) {
      errors.push({ rule: "LEDGER", route: "malformed", path: formatPath(base), message: "each decision_ledger entry must be a mapping with the six ledger fields" });
      return;
    }
    const parsed = LedgerEntry.safeParse(entry);
    if (!parsed.success) {
      errors.push(
        ...issuesToFindings(parsed.error, entry, {
          rule: "LEDGER",
          route: "malformed",
          base,
          missingHint: (field) => `all six ledger fields are required — ${FIELD_HINTS[field] ?? "add it"}`,
        }),
      );
    }
    const dimension = typeof entry.dimension === "string" ? entry.dimension.trim() : "";
    if (dimension !== "") {
      if (!hasOwn(attestation, dimension)) {
        errors.push({
          rule: "LEDGER",
          route: "malformed",
          path: formatPath([...base, "dimension"]),
          message: `"${dimension}" is not a key of synthesis_attestation (attested: ${attested.length === 0 ? "none" : attested.join(", ")}); a ledger entry explains an attested dimension`,
        });
      }
      const previous = byDimension.get(dimension);
      if (previous !== undefined) {
        warnings.push({ rule: "LEDGER", path: formatPath([...base, "dimension"]), message: `"${dimension}" already has a ledger entry at decision_ledger[${previous}]; keep one entry per dimension` });
      } else {
        byDimension.set(dimension, index);
      }
    }
    if (hasOwn(entry, "evidence_file") && entry.evidence_file === null && entry.owner === "plan") {
      warnings.push({
        rule: "LEDGER",
        path: formatPath([...base, "evidence_file"]),
        message: `WARN: owner is "plan" but evidence_file is null; a plan-prescribed decision should point at the file where it shows in code (null is meant for implementer-owned non-code decisions)`,
      });
    }
  });

  for (const dimension of attested) {
    if (!byDimension.has(dimension)) {
      errors.push({
        rule: "LEDGER",
        route: "malformed",
        path: "decision_ledger",
        message: `attested dimension "${dimension}" has no ledger entry; add one with dimension: "${dimension}" and the five other fields`,
      });
    }
  }
  return { errors, warnings };
}
