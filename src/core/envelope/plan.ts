/**
 * Reads a plan's `synthesis_dimensions` block from the plan's text. The block lives in the plan's
 * YAML front matter, in a fenced YAML code block, or (for a plan written as a YAML document) at
 * the top level. Accepted shapes of the block, all giving the list of dimension names:
 *
 *   synthesis_dimensions: [error_state_pattern, form_field_layout]       # names
 *   synthesis_dimensions: { placement_MetricCard: "after <SummaryRow>" }   # name → prescribed value
 *   synthesis_dimensions:                                                  # entries naming themselves
 *     - dimension: placement_MetricCard   (or `name:` / `id:`)
 *     - cta_tier_export_button: secondary                                   (one-key mapping)
 *
 * An empty block (`[]`, `{}`, `null`) counts as "no dimensions". Pure: text in, names out.
 */
import { parseDocument } from "yaml";
import { isRecord, hasOwn } from "./findings.ts";

export type PlanSource = "front-matter" | "fenced-block" | "document";

export interface PlanDimensions {
  /** Dimension names, in plan order, without duplicates. Empty when the plan names none. */
  dimensions: string[];
  /** Where the block was found; `null` when the plan has no `synthesis_dimensions` block. */
  source: PlanSource | null;
  /** 1-based line of the block's container (front matter, fence or document start). */
  line: number | null;
}

export class PlanFormatError extends Error {
  readonly code = "PLAN_FORMAT";
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

interface Candidate {
  source: PlanSource;
  /** 1-based line where the YAML text starts. */
  line: number;
  yaml: string;
}

const KEY = "synthesis_dimensions";
/** A line that starts the block, in YAML or in prose that should have been YAML. */
const KEY_LINE = /^\s*(?:-\s+)?synthesis_dimensions\s*:/;

/** The front matter and the index of the first line after it. */
function frontMatter(lines: string[]): { candidate: Candidate; next: number } | null {
  if (lines[0]?.replace(/^\uFEFF/, "").trimEnd() !== "---") return null;
  for (let index = 1; index < lines.length; index++) {
    const line = (lines[index] ?? "").trimEnd();
    if (line === "---" || line === "...") return { candidate: { source: "front-matter", line: 2, yaml: lines.slice(1, index).join("\n") }, next: index + 1 };
  }
  throw new PlanFormatError("the front matter opened on line 1 is never closed: add a line with --- after it", 1);
}

function fencedBlocks(lines: string[], from: number): { candidates: Candidate[] } {
  const candidates: Candidate[] = [];
  let index = from;
  while (index < lines.length) {
    const open = /^(\s{0,3})(`{3,}|~{3,})\s*([A-Za-z0-9_-]*)/.exec(lines[index] ?? "");
    if (open === null) {
      index++;
      continue;
    }
    const fence = open[2] ?? "```";
    const lang = (open[3] ?? "").toLowerCase();
    let end = index + 1;
    while (end < lines.length && !(lines[end] ?? "").trim().startsWith(fence)) end++;
    if (lang === "yaml" || lang === "yml") candidates.push({ source: "fenced-block", line: index + 2, yaml: lines.slice(index + 1, end).join("\n") });
    index = end + 1;
  }
  return { candidates };
}

function parseYaml(candidate: Candidate): unknown {
  const doc = parseDocument(candidate.yaml, { uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const where = error.linePos?.[0]?.line;
    const line = where === undefined ? candidate.line : candidate.line + where - 1;
    throw new PlanFormatError(`the ${candidate.source} YAML starting on line ${candidate.line} does not parse (line ${line}): ${error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "")}`, line);
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (problem) {
    // An alias to nothing, or an alias bomb past the limit.
    throw new PlanFormatError(`the ${candidate.source} YAML starting on line ${candidate.line} does not convert: ${problem instanceof Error ? problem.message : String(problem)}`, candidate.line);
  }
}

function entryName(entry: unknown, index: number, line: number): string {
  if (typeof entry === "string" && entry.trim() !== "") return entry.trim();
  if (isRecord(entry)) {
    for (const key of ["dimension", "name", "id"]) {
      const value = entry[key];
      if (hasOwn(entry, key) && typeof value === "string" && value.trim() !== "") return value.trim();
    }
    const keys = Object.keys(entry);
    if (keys.length === 1 && keys[0] !== undefined) return keys[0];
  }
  throw new PlanFormatError(
    `synthesis_dimensions entry ${index + 1} (block near line ${line}) names no dimension: use a string, or a mapping with dimension:, name: or id:`,
    line,
  );
}

function dimensionNames(block: unknown, line: number): string[] {
  let names: string[];
  if (block === null || block === undefined) names = [];
  else if (Array.isArray(block)) names = block.map((entry, index) => entryName(entry, index, line));
  else if (isRecord(block)) names = Object.keys(block);
  else throw new PlanFormatError(`synthesis_dimensions (near line ${line}) must be a list or a mapping of dimension names; got ${typeof block}`, line);
  return [...new Set(names)];
}

/**
 * The plan's synthesis dimensions. Throws `PlanFormatError` when the plan's YAML does not parse,
 * when two blocks disagree, or when a `synthesis_dimensions:` line sits outside any YAML the reader
 * understands (silently ignoring it would change the envelope's verdict).
 */
export function extractSynthesisDimensions(text: string): PlanDimensions {
  const lines = text.split(/\r?\n/);
  const front = frontMatter(lines);
  const afterFront = front === null ? 0 : front.next;
  const { candidates: fenced } = fencedBlocks(lines, afterFront);
  const candidates = front === null ? fenced : [front.candidate, ...fenced];

  const found: { candidate: Candidate; names: string[] }[] = [];
  for (const candidate of candidates) {
    const value = parseYaml(candidate);
    if (isRecord(value) && hasOwn(value, KEY)) found.push({ candidate, names: dimensionNames(value[KEY], candidate.line) });
  }

  if (found.length === 0 && candidates.length === 0) {
    // A plan written as a YAML document (plan.yaml) rather than markdown.
    const whole: Candidate = { source: "document", line: 1, yaml: text };
    let value: unknown;
    try {
      value = parseYaml(whole);
    } catch {
      value = undefined;
    }
    if (isRecord(value) && hasOwn(value, KEY)) return { dimensions: dimensionNames(value[KEY], 1), source: "document", line: 1 };
  }

  if (found.length === 0) {
    const stray = lines.findIndex((line) => KEY_LINE.test(line));
    if (stray >= 0) {
      throw new PlanFormatError(
        `line ${stray + 1} has a synthesis_dimensions key that is not a top-level key of the front matter or of a fenced yaml block; move it to the top level of one so it can be read`,
        stray + 1,
      );
    }
    return { dimensions: [], source: null, line: null };
  }

  const [first, ...rest] = found;
  if (first === undefined) return { dimensions: [], source: null, line: null };
  for (const other of rest) {
    if (JSON.stringify(other.names) !== JSON.stringify(first.names)) {
      throw new PlanFormatError(
        `the plan has two different synthesis_dimensions blocks (lines ${first.candidate.line} and ${other.candidate.line}); keep one`,
        other.candidate.line,
      );
    }
  }
  return { dimensions: first.names, source: first.candidate.source, line: first.candidate.line };
}
