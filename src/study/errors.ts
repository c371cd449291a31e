/**
 * Errors of the study layer. Each has a stable `code`; the message names the file, field or run
 * that is wrong and what to do about it. The CLI turns `StudyInputError` into exit code 2.
 */
import type { z } from "zod";
import { likelyMeant } from "../core/nearest-name.ts";
import { type LineOf, linePrefix } from "../core/yaml-lines.ts";
import { fieldsAt } from "./schema-fields.ts";

export type StudyErrorCode =
  | "STUDY_FILE" // a study file that does not parse or validate
  | "STUDY_CHECKS" // an acceptance-checks file that does not parse or validate
  | "STUDY_TASK" // a task folder (task.yaml) that does not parse or validate
  | "STUDY_REPO" // the fixture folder or repository/ref cannot be used
  | "STUDY_RESUME" // --resume found nothing to resume, or a folder of another study
  | "STUDY_SHARD" // a bad --shard value
  | "STUDY_MERGE" // shard folders that do not belong together
  | "STUDY_OUT" // an --out that cannot hold a results folder
  | "STUDY_LOCKED" // a results folder another running study is writing
  | "STUDY_RESULTS" // a results folder that cannot be read
  | "STUDY_SANDBOX"; // a model that must run sandboxed, on a machine with no sandbox

export class StudyInputError extends Error {
  constructor(
    readonly code: StudyErrorCode,
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = "StudyInputError";
  }
}

/**
 * Formats zod issues as `<file>: field a.b: message` (with `line N: ` first when `lineOf` can place
 * it), one per line, so every problem names its place. Given the schema, an unknown key also
 * says which field was meant, or lists the fields that place takes.
 */
export function describeZodIssues(
  file: string,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string; keys?: readonly string[] }>,
  lineOf?: LineOf,
  schema?: z.ZodType,
): string {
  return issues
    .slice(0, 8)
    .map((issue) => {
      // An unknown key is found at the key itself; any other issue at its value.
      const line = lineOf?.(issue.path, issue.code === "unrecognized_keys" ? issue.keys?.[0] : undefined);
      const where = issue.path.length > 0 ? `field ${issue.path.map(String).join(".")}` : "top level";
      const hint = issue.code === "unrecognized_keys" && schema !== undefined ? knownFieldsHint(issue.keys ?? [], fieldsAt(schema, issue.path)) : "";
      return `${file}: ${linePrefix(line)}${where}: ${issue.message}${hint}`;
    })
    .join("\n");
}

/** "; did you mean "runs"?" for keys a near miss of a field, else the fields the place takes. */
function knownFieldsHint(keys: readonly string[], fields: readonly string[]): string {
  if (fields.length === 0) return "";
  const meant = keys.flatMap((key) => {
    const near = likelyMeant(key, fields);
    return near === null ? [] : [`"${near}"`];
  });
  return meant.length > 0 ? `; did you mean ${meant.join(", ")}?` : `; the fields here are ${fields.join(", ")}`;
}
