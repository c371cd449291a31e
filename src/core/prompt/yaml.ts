/** YAML text → plain value, with errors that name the file and the line. Pure: strings in. */
import { LineCounter, parseDocument } from "yaml";
import { PackError } from "./errors.ts";

/**
 * Parses `text` (read from `file`). `lineOffset` is added to reported lines, for YAML that starts
 * part-way into a file (front matter starts on line 2). `field` labels where the YAML sits.
 */
export function parseYaml(text: string, file: string, options: { lineOffset?: number; field?: string } = {}): unknown {
  const fail = (line: number, reason: string): PackError => {
    const at = line + (options.lineOffset ?? 0);
    const where = options.field === undefined ? `line ${at}` : `${options.field} (line ${at})`;
    return new PackError("YAML", file, where, `is not valid YAML: ${reason}. Fix the syntax (fields are \`name: value\`, indented with spaces).`);
  };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter });
  const error = doc.errors[0];
  if (error !== undefined) throw fail(lineCounter.linePos(error.pos[0]).line, firstLine(error.message));
  try {
    return doc.toJS({ maxAliasCount: 100 }) ?? null;
  } catch (cause) {
    // Aliases are resolved here, not while parsing: an alias without its anchor, or an alias bomb.
    throw fail(1, firstLine((cause as Error).message));
  }
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/[.:]\s*$/, "");
}
