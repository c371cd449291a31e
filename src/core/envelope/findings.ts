/**
 * Findings: what a check found, where, which rule, and where it routes the envelope. Also turns
 * zod issues into messages that name the field, the value found and the fix.
 */
import type { z } from "zod";

/** Where the orchestrator sends the envelope. */
export const ROUTES = ["malformed", "escalate", "iterate", "resolve_decisions", "scope_review", "commit"] as const;
export type Route = (typeof ROUTES)[number];

/**
 * R1–R7 are the contract's parser rules; LEDGER is the `--check-ledger` lint; STATUS is routing
 * by a non-routine `status` value; NOTE marks advice that never changes the route.
 */
export type RuleId = "R1" | "R2" | "R3" | "R4" | "R5" | "R6" | "R7" | "LEDGER" | "STATUS" | "NOTE";

export interface Finding {
  rule: RuleId;
  route: Route;
  /** Field path in the envelope, e.g. `novel_decisions[0].options[1].cost`; `""` for the whole envelope. */
  path: string;
  message: string;
}

/** Advice that does not change the route (e.g. the ledger WARN for `owner: plan` without evidence). */
export interface Warning {
  rule: RuleId;
  path: string;
  message: string;
}

type Key = string | number;

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function hasOwn(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** The value at `path` inside `root`, and whether its last key exists at all. */
function lookup(root: unknown, path: readonly Key[]): { value: unknown; present: boolean } {
  let current: unknown = root;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === "number") {
      if (key >= current.length) return { value: undefined, present: false };
      current = current[key];
    } else if (isRecord(current) && typeof key === "string") {
      if (!hasOwn(current, key)) return { value: undefined, present: false };
      current = current[key];
    } else {
      return { value: undefined, present: false };
    }
  }
  return { value: current, present: true };
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (isRecord(value)) return "a mapping";
  return typeof value;
}

const SENTINEL: Record<string, string> = { string: '""', array: "[]", record: "{}", object: "{}", number: "0", int: "0" };

function expectedWord(expected: string): string {
  switch (expected) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "int":
      return "a whole number";
    case "array":
      return "a list";
    case "record":
    case "object":
      return "a mapping";
    case "boolean":
      return "true or false";
    default:
      return expected;
  }
}

/** A targeted message for a `synthesis_attestation` value that matched none of its three forms. */
function attestationMessage(value: unknown): string {
  if (value === "deviated") return 'a deviation needs the object form {status: "deviated", deviation_reason: "<why>"}; a bare "deviated" carries no reason';
  if (isRecord(value) && value.status === "deviated") {
    const extra = Object.keys(value).filter((key) => key !== "status" && key !== "deviation_reason");
    if (extra.length > 0) return `unexpected key(s) ${extra.join(", ")} in the deviation object; it holds only status and deviation_reason`;
    return "deviation_reason must be a non-empty sentence saying why the plan's call was not followed";
  }
  if (isRecord(value)) return `must be "applied", "n/a", or {status: "deviated", deviation_reason: "<why>"}; an object's status must be "deviated" (got ${describeValue(value.status)})`;
  return `must be "applied", "n/a", or {status: "deviated", deviation_reason: "<why>"}; got ${describeValue(value)}`;
}

function issueMessage(issue: z.core.$ZodIssue, root: unknown, path: Key[], missingHint: string): string {
  const { value, present } = lookup(root, path);
  if (!present && path.length > 0 && lookup(root, path.slice(0, -1)).present) {
    return `missing required field; ${missingHint}`;
  }
  // An attestation value has three legal forms; say which one it missed, whatever zod reported.
  if (path[0] === "synthesis_attestation" && path.length === 2) return attestationMessage(value);
  switch (issue.code) {
    case "invalid_type": {
      const expected = String(issue.expected);
      if (value === null && SENTINEL[expected] !== undefined) return `is null; ${expectedWord(expected)} is required here — use the empty sentinel ${SENTINEL[expected]} for no data`;
      if (expected === "int" && typeof value === "number") return `must be a whole number ≥ 0; got ${describeValue(value)}`;
      if (expected === "string" && (typeof value === "number" || typeof value === "boolean")) return `must be a string; got ${describeValue(value)} (quote it in YAML so it stays text)`;
      if ((expected === "number" || expected === "int") && typeof value === "string") return `must be a number; got the string ${describeValue(value)}`;
      return `must be ${expectedWord(expected)}; got ${describeValue(value)}`;
    }
    case "invalid_value": {
      const allowed = issue.values.filter((option) => option !== "").map((option) => JSON.stringify(option)).join(", ") + (issue.values.includes("") ? `, or "" for none` : "");
      const hint = value === "medium" && issue.values.includes("med") ? ' (the contract spells it "med")' : "";
      return `must be one of ${allowed}; got ${describeValue(value)}${hint}`;
    }
    case "invalid_union":
      return `${issue.message}; got ${describeValue(value)}`;
    case "too_small":
      if (issue.origin === "string") return `must not be empty; got ${describeValue(value)}`;
      if (issue.origin === "array") return issue.message.startsWith("Too small") ? `needs at least ${String(issue.minimum)} entr${issue.minimum === 1 ? "y" : "ies"}` : issue.message;
      return `must be ≥ ${String(issue.minimum)}; got ${describeValue(value)}`;
    case "unrecognized_keys":
      return `unexpected key(s) ${issue.keys.join(", ")}`;
    default:
      return issue.message;
  }
}

/**
 * zod issues → findings, with paths relative to the envelope. `base` prefixes the paths (e.g.
 * `novel_decisions[2]` when an entry was parsed on its own) and `root` is the value that was parsed.
 */
export function issuesToFindings(
  error: z.ZodError,
  root: unknown,
  options: { rule: RuleId; route: Route; base?: Key[]; missingHint: (field: string) => string },
): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const issue of error.issues) {
    let path = issue.path.filter((key): key is Key => typeof key === "string" || typeof key === "number");
    // Problems inside one attestation value are reported once, on the value.
    if (path[0] === "synthesis_attestation" && path.length > 2) path = path.slice(0, 2);
    const field = String(path[path.length - 1] ?? "");
    const finding: Finding = {
      rule: options.rule,
      route: options.route,
      path: formatPath([...(options.base ?? []), ...path]),
      message: issueMessage(issue, root, path, options.missingHint(field)),
    };
    const key = `${finding.path}\u0000${finding.message}`;
    if (!seen.has(key)) findings.push(finding);
    seen.add(key);
  }
  return findings;
}
