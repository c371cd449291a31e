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

/** Parses a section file's text. Throws PackError naming `file` and the field at fault. */
export function parseSectionFile(text: string, file: string): ParsedSectionFile {
  const lines = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n");
  if (!FENCE.test(lines[0] ?? "")) {
    throw new PackError(
      "FRONT_MATTER",
      file,
      "front matter",
      "missing: the file must start with a line `---`, then the fields `id:` and `order:`, then a closing `---` line.",
    );
  }
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close === -1) {
    throw new PackError("FRONT_MATTER", file, "front matter", "not closed: add a line `---` after the last front-matter field.");
  }
  const data = parseYaml(lines.slice(1, close).join("\n"), file, { lineOffset: 1, field: "front matter" }) ?? {};
  const parsed = sectionFrontMatterSchema.safeParse(data);
  if (!parsed.success) {
    throw packErrorFromIssues(parsed.error.issues, file, { fieldPrefix: "front matter", known: () => FRONT_MATTER_FIELDS });
  }
  const body = lines.slice(close + 1).join("\n").trim();
  const { title, ...fields } = parsed.data;
  return title === undefined ? { ...fields, body } : { ...fields, title, body };
}

