/**
 * Section files: markdown with a YAML front matter block.
 *
 *     ---
 *     id: autonomy
 *     order: 30
 *     stable: true      # optional, default true
 *     cut: never        # optional, never | tail, default never
 *     title: Autonomy   # optional, for people reading the file
 *     ---
 *     ## Autonomy and persistence
 *     ...
 *
 * Parsing works on strings (no file system): the caller reads the file and passes its name, which
 * every error names together with the field at fault.
 */
import { z } from "zod";
import { PackError, packErrorFromIssues } from "./errors.ts";
import { parseYaml } from "./yaml.ts";
import type { CutRule } from "./types.ts";
import { type LineOf, lazyYamlLines } from "../yaml-lines.ts";

export const SECTION_ID = /^[a-z][a-z0-9-]*$/;
const SECTION_ID_RULE = "must be lower-case letters, digits and dashes, starting with a letter (e.g. work-slice)";

export const sectionFrontMatterSchema = z.strictObject({
  id: z.string().regex(SECTION_ID, SECTION_ID_RULE),
  order: z.number().finite(),
  stable: z.boolean().default(true),
  cut: z.enum(["never", "tail"]).default("never"),
  title: z.string().optional(),
});

const FRONT_MATTER_FIELDS = Object.keys(sectionFrontMatterSchema.shape);

export interface ParsedSectionFile {
  id: string;
  order: number;
  stable: boolean;
  cut: CutRule;
  title?: string;
  /** The markdown after the front matter, line endings normalised to \n, trimmed. */
  body: string;
}

const FENCE = /^---[ \t]*$/;

/** Lines of the front matter's YAML as lines of the file: the opening `---` is line 1. */
function fileLines(yaml: string): LineOf {
  const lineOf = lazyYamlLines(yaml);
  return (path, key) => {
    const line = lineOf(path, key);
    return line === undefined ? undefined : line + 1;
  };
}

function splitLines(text: string): string[] {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n");
}

function closingFence(lines: readonly string[]): number {
  return lines.findIndex((line, index) => index > 0 && FENCE.test(line));
}

/**
 * Where a field a later check names (`front matter.id`, `front matter.cut`) sits in a section
 * file's text, so a duplicate id or a cut reporting section names its line as a schema error does.
 */
export function sectionFileLines(text: string): LineOf {
  const lines = splitLines(text);
  const close = FENCE.test(lines[0] ?? "") ? closingFence(lines) : -1;
  if (close === -1) return () => undefined;
  const lineOf = fileLines(lines.slice(1, close).join("\n"));
  return (path, key) => (path[0] === "front matter" ? lineOf(path.slice(1), key) : undefined);
}

/** Parses a section file's text. Throws PackError naming `file` and the field at fault. */
export function parseSectionFile(text: string, file: string): ParsedSectionFile {
  const lines = splitLines(text);
  if (!FENCE.test(lines[0] ?? "")) {
    throw new PackError(
      "FRONT_MATTER",
      file,
      "front matter",
      "missing: the file must start with a line `---`, then the fields `id:` and `order:`, then a closing `---` line.",
    );
  }
  const close = closingFence(lines);
  if (close === -1) {
    throw new PackError("FRONT_MATTER", file, "front matter", "not closed: add a line `---` after the last front-matter field.");
  }
  const yaml = lines.slice(1, close).join("\n");
  const data = parseYaml(yaml, file, { lineOffset: 1, field: "front matter" }) ?? {};
  const parsed = sectionFrontMatterSchema.safeParse(data);
  if (!parsed.success) {
    throw packErrorFromIssues(parsed.error.issues, file, { fieldPrefix: "front matter", known: () => FRONT_MATTER_FIELDS, lineOf: fileLines(yaml) });
  }
  const body = lines.slice(close + 1).join("\n").trim();
  const { title, ...fields } = parsed.data;
  return title === undefined ? { ...fields, body } : { ...fields, title, body };
}

