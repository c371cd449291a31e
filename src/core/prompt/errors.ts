/**
 * Bad prompt-pack input: a section file, an arm.yaml, a budgets file or a git ref that cannot be
 * used. Every error names the file and the field, says what is wrong and what to do. The CLI turns
 * it into exit code 2.
 */
import type { LineOf } from "../yaml-lines.ts";

export type PackErrorCode =
  | "FRONT_MATTER"
  | "FIELD"
  | "YAML"
  | "DUPLICATE_SECTION"
  | "UNKNOWN_BUILTIN"
  | "ARM_NOT_FOUND"
  | "EXTENDS_MISSING"
  | "EXTENDS_CYCLE"
  | "UNKNOWN_REF"
  | "BUDGET_UNKNOWN_SECTION"
  | "BUDGET_UNKNOWN_ARM"
  | "BASELINE"
  | "UNREADABLE"; // a folder where a file belongs (or the reverse), bytes that are not UTF-8, no permission

export class PackError extends Error {
  override readonly name = "PackError";
  constructor(
    readonly code: PackErrorCode,
    /** The file at fault, as the user would type it (relative where possible). */
    readonly file: string,
    /** The field at fault, as a dotted path (`sections.reporting.maxChars`), or "" for the file. */
    readonly field: string,
    /** What is wrong and what to do. */
    readonly problem: string,
    /** The 1-based line the field sits on, when known (ADR 0212). */
    readonly line?: number,
  ) {
    super(`${file}${line === undefined ? "" : `: line ${line}`}${field === "" ? "" : `: ${field}`}: ${problem}`);
  }
}

/** The parts of a zod issue this module reads (kept structural so callers need not import zod). */
interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
  input?: unknown;
}

/**
 * The first schema issue as a PackError naming the field. `known` lists the fields the object
 * accepts, so an unknown or misspelt field gets a useful fix.
 */
export function packErrorFromIssues(
  issues: readonly IssueLike[],
  file: string,
  options: { fieldPrefix?: string; known?: (path: string) => readonly string[] | undefined; lineOf?: LineOf } = {},
): PackError {
  const issue = issues[0];
  const join = (path: readonly PropertyKey[]): string =>
    [options.fieldPrefix ?? "", ...path.map(String)].filter((part) => part !== "").join(".");
  if (issue === undefined) return new PackError("FIELD", file, join([]), "is not valid.");
  if (issue.code === "unrecognized_keys" && issue.keys !== undefined && issue.keys.length > 0) {
    const known = options.known?.(join(issue.path)) ?? [];
    const hint = known.length > 0 ? ` Known fields here: ${known.join(", ")}.` : "";
    // An unknown key is found at the key itself; any other issue at its value (as study files, ADR 0212).
    return new PackError("FIELD", file, join([...issue.path, issue.keys[0] ?? ""]), `unknown field; remove it or fix its spelling.${hint}`, options.lineOf?.(issue.path, issue.keys[0]));
  }
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  const problem = missing ? "is required but missing; add it." : `${issue.message.replace(/^Invalid [a-z ]+: /, "")}; fix the value.`;
  return new PackError("FIELD", file, join(issue.path), problem, missing ? undefined : options.lineOf?.(issue.path));
}
