/**
 * Envelope text → the envelope value. Accepts YAML with the contract's `envelope:` wrapper, JSON
 * (wrapped or bare), and an implementer's reply in markdown whose fenced yaml/json block holds the
 * `envelope:` wrapper. Pure: the caller reads the file.
 */
import { parseDocument } from "yaml";
import { formatPath, hasOwn, isRecord, type Warning } from "./findings.ts";

export type EnvelopeSource = "yaml" | "json" | "fenced-block";

export interface EnvelopeDocument {
  /** What sits under `envelope:` (or the whole mapping when there is no wrapper); not yet checked. */
  envelope: unknown;
  wrapped: boolean;
  source: EnvelopeSource;
  warnings: Warning[];
}

/** The text holds no envelope we can read: a syntax error, or no mapping at all. CLI exit 2. */
export class EnvelopeTextError extends Error {
  readonly code = "ENVELOPE_UNREADABLE";
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

function lineOfOffset(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

function parseJson(text: string): { value: unknown } | { error: EnvelopeTextError } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const line = position?.[1] === undefined ? null : lineOfOffset(text, Number(position[1]));
    return { error: new EnvelopeTextError(`does not parse as JSON${line === null ? "" : ` (line ${line})`}: ${message}`, line) };
  }
}

function parseYaml(text: string, firstLine = 1): { value: unknown } | { error: EnvelopeTextError } {
  const doc = parseDocument(text, { uniqueKeys: true });
  const problem = doc.errors[0];
  if (problem !== undefined) {
    const at = problem.linePos?.[0]?.line;
    const line = at === undefined ? null : firstLine + at - 1;
    return { error: new EnvelopeTextError(`does not parse as YAML${line === null ? "" : ` (line ${line})`}: ${problem.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "")}`, line) };
  }
  try {
    return { value: doc.toJS({ maxAliasCount: 100 }) as unknown };
  } catch (error) {
    return { error: new EnvelopeTextError(`does not convert from YAML: ${error instanceof Error ? error.message : String(error)}`, null) };
  }
}

/** Fenced ```yaml / ```yml / ```json blocks whose top level has an `envelope` key. */
function fencedEnvelopes(text: string): unknown[] {
  const lines = text.split(/\r?\n/);
  const found: unknown[] = [];
  let index = 0;
  while (index < lines.length) {
    const open = /^\s{0,3}(`{3,}|~{3,})\s*(yaml|yml|json)\s*$/i.exec(lines[index] ?? "");
    if (open === null) {
      index++;
      continue;
    }
    const fence = open[1] ?? "```";
    let end = index + 1;
    while (end < lines.length && (lines[end] ?? "").trim() !== fence) end++;
    const body = lines.slice(index + 1, end).join("\n");
    const parsed = (open[2] ?? "").toLowerCase() === "json" ? parseJson(body) : parseYaml(body, index + 2);
    if ("value" in parsed && isRecord(parsed.value) && hasOwn(parsed.value, "envelope")) found.push(parsed.value);
    index = end + 1;
  }
  return found;
}

function unwrap(document: Record<string, unknown>, source: EnvelopeSource, warnings: Warning[]): EnvelopeDocument {
  if (!hasOwn(document, "envelope")) return { envelope: document, wrapped: false, source, warnings };
  const siblings = Object.keys(document).filter((key) => key !== "envelope");
  if (siblings.length > 0) {
    warnings.push({ rule: "NOTE", path: "", message: `top-level key(s) beside envelope: are ignored: ${siblings.map((key) => formatPath([key])).join(", ")}` });
  }
  return { envelope: document.envelope, wrapped: true, source, warnings };
}

export function parseEnvelopeText(text: string): EnvelopeDocument {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") throw new EnvelopeTextError("is empty: expected an envelope (YAML with an envelope: wrapper, or JSON)", null);

  let firstError: EnvelopeTextError | null = null;
  if (/^\s*[[{]/.test(body)) {
    const json = parseJson(body);
    if ("value" in json) {
      if (isRecord(json.value)) return unwrap(json.value, "json", []);
    } else {
      firstError = json.error;
    }
  }
  const yaml = parseYaml(body);
  if ("value" in yaml && isRecord(yaml.value)) return unwrap(yaml.value, "yaml", []);
  if ("error" in yaml) firstError ??= yaml.error;

  const fenced = fencedEnvelopes(body);
  const last = fenced[fenced.length - 1];
  if (isRecord(last)) {
    const warnings: Warning[] =
      fenced.length > 1 ? [{ rule: "NOTE", path: "", message: `the text has ${fenced.length} fenced blocks with an envelope: key; the last one was read` }] : [];
    return unwrap(last, "fenced-block", warnings);
  }
  if (firstError !== null) throw firstError;
  throw new EnvelopeTextError(
    "holds no envelope: expected a mapping — YAML with an envelope: wrapper, JSON, or a reply with a fenced yaml block holding envelope:",
    null,
  );
}
