/**
 * Reading a final reply once: fenced code skipped, headings found (ATX and setext), prose lines
 * cleaned (curly quotes straightened, inline code replaced by the word `CODE`, emphasis removed),
 * paragraphs marked. The analyzer (analyze.ts) only ever sees what this returns.
 */
import { type Fence, closesFence, fenceOpening, isBlankLine } from "../plan/fence.ts";
import { isSpaceCode } from "./clauses.ts";

/** The parts of a reply the table reads. */
export interface Prose {
  firstLineRaw: string;
  headings: string[];
  /** Prose lines outside fenced code, inline code replaced, quotes straightened; headings excluded. */
  lines: string[];
  /** Indices into `lines` where a paragraph starts. */
  paragraphStarts: number[];
  /** Prose lines and heading texts in document order: a heading such as "Not finished" is a statement. */
  statements: string[];
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t\r]*$/;
// A line that opens with none of the characters a fence, heading, setext underline, list item, quote
// or table starts with, and holds no code, emphasis or quote mark: it is prose as written.
const PLAIN = /^[^\s`~#>|=\-*+_\d\u2018\u2019\u02BC\u201C\u201D"][^`*_~\r\u2018\u2019\u02BC\u201C\u201D"]*$/;

/**
 * Whether a line opens a list item, a quote or a table row, so it cannot be a setext heading's text: the expression
 * /^ {0,3}(?:[-*+>|]|\d{1,9}[.)])(?:\s|$)/, read character by character (a call costs more than the few characters it
 * reads; docs/decisions/0193): after at most three spaces, one of - * + > | or one to nine digits and . or ), then white
 * space or the end. Exported for the test that holds it to that expression.
 */
export function opensBlock(line: string): boolean {
  let i = 0;
  const n = line.length;
  while (i < 3 && i < n && line.charCodeAt(i) === 32) i += 1;
  // Characters are read in bounds only (a read past the end deoptimizes the reader's loop).
  const c = i < n ? line.charCodeAt(i) : -1;
  let next: number;
  if (c === 45 || c === 42 || c === 43 || c === 62 || c === 124) next = i + 1;
  else {
    let j = i;
    while (j < n && j - i <= 9 && line.charCodeAt(j) >= 48 && line.charCodeAt(j) <= 57) j += 1;
    const digits = j - i;
    const mark = j < n ? line.charCodeAt(j) : -1;
    if (digits === 0 || digits > 9 || (mark !== 46 && mark !== 41)) return false;
    next = j + 1;
  }
  return next >= line.length || isSpaceCode(line.charCodeAt(next));
}

/** Whether the first character after at most three spaces is one opensBlock opens with: - * + > | or a digit. */
function mayOpenBlock(line: string): boolean {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 32) i += 1;
  const c = line.charCodeAt(i);
  return c === 45 || c === 42 || c === 43 || c === 62 || c === 124 || (c >= 48 && c <= 57);
}

/**
 * PLAIN, read character by character for a short line (most lines of a reply of short lines; an expression call costs
 * more than reading a few characters; docs/decisions/0187). Exported for the test that holds it to PLAIN.
 */
export function isPlainLine(line: string): boolean {
  if (line.length > 48) return PLAIN.test(line);
  if (line.length === 0) return false;
  const first = line.charCodeAt(0);
  if (first >= 0x80) return PLAIN.test(line);
  // The first character: not white space, `~#>|=-*+_", nor a digit.
  if ((first >= 9 && first <= 13) || first === 32 || (first >= 48 && first <= 57) || NOT_FIRST.has(first)) return false;
  for (let i = 1; i < line.length; i += 1) {
    const c = line.charCodeAt(i);
    // The rest: no `*_~, CR or quote, straight or curly.
    if (c === 96 || c === 42 || c === 95 || c === 126 || c === 13 || c === 34 || c === 0x2018 || c === 0x2019 || c === 0x02bc || c === 0x201c || c === 0x201d) return false;
  }
  return true;
}
const NOT_FIRST: ReadonlySet<number> = new Set([..."`~#>|=-*+_\""].map((ch) => ch.charCodeAt(0)));

/** Whether the line's last character other than a space, tab or CR is = or -: SETEXT needs it (a cheap test first, docs/decisions/0187). */
function endsInRule(line: string): boolean {
  let k = line.length - 1;
  while (k >= 0 && (line[k] === " " || line[k] === "\t" || line[k] === "\r")) k -= 1;
  return line[k] === "=" || line[k] === "-";
}

/** Straightens curly quotes so patterns need only one apostrophe. */
const CURLY = /[\u2018\u2019\u02BC\u201C\u201D]/;

function straighten(text: string): string {
  if (!CURLY.test(text)) return text;
  return text.replace(/[\u2018\u2019\u02BC]/g, "'").replace(/[\u201C\u201D]/g, '"');
}

/** Splits a line into code spans and text, CommonMark style within the line. */
function splitCode(line: string): Array<{ code: boolean; text: string }> {
  let i = line.indexOf("`");
  if (i === -1) return [{ code: false, text: line }];
  // The backtick runs, as offsets and lengths, found from one backtick to the next.
  const at: number[] = [];
  const length: number[] = [];
  while (i !== -1) {
    let j = i + 1;
    while (j < line.length && line.charCodeAt(j) === 96) j += 1;
    // A single run has nothing to close it: the line is text (most lines with a backtick have two or four).
    if (at.length === 0 && line.indexOf("`", j) === -1) return [{ code: false, text: line }];
    at.push(i);
    length.push(j - i);
    i = line.indexOf("`", j);
  }
  // A single run has nothing to close it: the line is text (most lines with a backtick have two or four).
  if (at.length < 2) return [{ code: false, text: line }];
  const nextSame = new Array<number>(at.length).fill(-1);
  if (at.length <= FEW_RUNS) {
    for (let k = 0; k < at.length; k += 1) {
      for (let m = k + 1; m < at.length; m += 1) {
        if (length[m] === length[k]) {
          nextSame[k] = m;
          break;
        }
      }
    }
  } else {
    const lastSeen = new Map<number, number>();
    for (let k = at.length - 1; k >= 0; k -= 1) {
      nextSame[k] = lastSeen.get(length[k] as number) ?? -1;
      lastSeen.set(length[k] as number, k);
    }
  }
  const parts: Array<{ code: boolean; text: string }> = [];
  let cursor = 0;
  for (let k = 0; k < at.length; k += 1) {
    const closer = nextSame[k] as number;
    if (closer === -1) continue;
    const open = at[k] as number;
    const close = (at[closer] as number) + (length[closer] as number);
    if (open > cursor) parts.push({ code: false, text: line.slice(cursor, open) });
    parts.push({ code: true, text: line.slice(open, close) });
    cursor = close;
    k = closer;
  }
  if (cursor < line.length) parts.push({ code: false, text: line.slice(cursor) });
  return parts;
}
/** Up to this many backtick runs in a line are paired by a scan rather than through a map. */
const FEW_RUNS = 8;

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Removes emphasis delimiters (`*`, `_`, `~~` at word edges) from text that holds no code. */
function stripEmphasisText(text: string): string {
  if (!/[*_~]/.test(text)) return text;
  const delimiter = /\*+|_+|~~+/g;
  let out = "";
  let cursor = 0;
  for (let match = delimiter.exec(text); match !== null; match = delimiter.exec(text)) {
    const before = text[match.index - 1];
    const after = text[match.index + match[0].length];
    const opens = after !== undefined && !/\s/.test(after);
    const closes = before !== undefined && !/\s/.test(before);
    // `_` inside a word (snake_case) is a letter, not emphasis; a lone `*` between spaces is text.
    const intraword = match[0][0] === "_" && isWordChar(before) && isWordChar(after);
    if ((opens || closes) && !intraword) {
      out += text.slice(cursor, match.index);
      cursor = match.index + match[0].length;
    }
  }
  return out + text.slice(cursor);
}

/** An ATX heading's optional closing sequence: `## Title ##` → `Title` (`C#` stays). */
function stripClosingHashes(text: string): string {
  let end = text.trimEnd().length;
  let hashes = end;
  while (hashes > 0 && text[hashes - 1] === "#") hashes -= 1;
  if (hashes === end) return text;
  if (hashes === 0) return "";
  if (text[hashes - 1] !== " " && text[hashes - 1] !== "\t") return text;
  end = hashes;
  return text.slice(0, end).trimEnd();
}

/** Heading markers and emphasis removed; code spans kept as written. */
export function plainLine(line: string): string {
  let text = line.trim();
  const atx = ATX.exec(text);
  if (atx) {
    text = stripClosingHashes(text.slice(atx[0].length));
  }
  return splitCode(text)
    .map((part) => (part.code ? part.text : stripEmphasisText(part.text)))
    .join("")
    .trim();
}

/**
 * A quotation of three words or more ("the remaining tests still fail on Windows") is someone's
 * words, not a statement about the work (ADR 0089, as for inline code): it reads as `QUOTE`.
 * Shorter quoted bits ("not found", "off") stay, since they are usually names.
 */
const QUOTATION = /"[^"\n]{0,400}?"/g;

function maskQuotations(text: string): string {
  if (!text.includes('"')) return text;
  return text.replace(QUOTATION, (quoted) => (/\S\s+\S+\s+\S/.test(quoted) ? "QUOTE" : quoted));
}

/** A character some step of `clean` rewrites: a backtick, an emphasis mark, a straight or curly quote. */
const TO_CLEAN = /[`*_~"\u2018\u2019\u02BC\u201C\u201D]/;

/** Whether the short `line` holds none of TO_CLEAN but at most one run of backticks. */
function onlyTrimmed(line: string): boolean {
  let runs = 0;
  for (let i = 0; i < line.length; i += 1) {
    const c = line.charCodeAt(i);
    if (c === 96) {
      if (i === 0 || line.charCodeAt(i - 1) !== 96) runs += 1;
      if (runs > 1) return false;
    } else if (c === 42 || c === 95 || c === 126 || c === 34 || c === 0x2018 || c === 0x2019 || c === 0x02bc || c === 0x201c || c === 0x201d) return false;
  }
  return true;
}

/** A prose line as the patterns read it: quotes straightened, code spans as `CODE`, quotations as `QUOTE`, emphasis gone. */
function clean(line: string): string {
  // A line with none of TO_CLEAN ("- ok", "| a | b |"), or whose only one is one run of backticks ("x```": nothing closes
  // it), is only trimmed by every step: skip the split (docs/decisions/0187). A short line is read character by character.
  if (line.length <= 48 ? onlyTrimmed(line) : !TO_CLEAN.test(line)) return line.trim();
  const parts = splitCode(straighten(line));
  if (parts.length === 1 && !(parts[0] as { code: boolean }).code) return maskQuotations(stripEmphasisText((parts[0] as { text: string }).text)).trim();
  return parts
    .map((part) => (part.code ? "CODE" : maskQuotations(stripEmphasisText(part.text))))
    .join("")
    .trim();
}

/** Reads the reply once: fences, headings, prose lines and paragraphs. */
export function readProse(text: string): Prose {
  const prose: Prose = { firstLineRaw: "", headings: [], lines: [], paragraphStarts: [], statements: [] };
  let fence: Fence | null = null;
  // The lines a setext underline would make a heading: the last `paragraph` lines before it, consecutive in `raw` (every
  // line that ends or resets the run is a line of its own), counted rather than copied (docs/decisions/0187).
  let paragraph = 0;
  let paragraphOpen = false;
  const endParagraph = (): void => {
    paragraph = 0;
    paragraphOpen = false;
  };
  const raw = text.split("\n");
  // A raw line gives at most one line and one statement: both arrays are made that long and cut to their counts at the
  // end, so a reply of thousands of short lines does not grow them copy by copy (garbage a collection then pays for
  // inside the call; docs/decisions/0193).
  const lines = new Array<string>(raw.length);
  const statements = new Array<string>(raw.length);
  let lineCount = 0;
  let statementCount = 0;
  const withoutCR = (rawLine: string): string => (rawLine.charCodeAt(rawLine.length - 1) === 13 ? rawLine.slice(0, -1) : rawLine);
  for (let at = 0; at < raw.length; at += 1) {
    const line = withoutCR(raw[at] as string);
    if (prose.firstLineRaw === "" && !isBlankLine(line)) prose.firstLineRaw = line.trim();
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (isPlainLine(line)) {
      // Most lines: no marker at the start and nothing to clean, so none of the checks below apply.
      if (!paragraphOpen) {
        prose.paragraphStarts.push(lineCount);
        paragraphOpen = true;
      }
      paragraph += 1;
      const cleaned = line.trim();
      lines[lineCount++] = cleaned;
      statements[statementCount++] = cleaned;
      continue;
    }
    const opening = fenceOpening(line);
    if (opening !== null) {
      fence = opening;
      endParagraph();
      continue;
    }
    if (isBlankLine(line)) {
      endParagraph();
      continue;
    }
    if (line.includes("#") && ATX.test(line)) {
      const heading = plainLine(line);
      if (heading !== "") prose.headings.push(heading);
      if (heading !== "") {
        statements[statementCount++] = clean(heading);
      }
      endParagraph();
      continue;
    }
    if (paragraphOpen && paragraph > 0 && endsInRule(line) && SETEXT.test(line)) {
      // The paragraph above was a setext heading: move it from prose to headings.
      const heading = raw.slice(at - paragraph, at).map((rawLine) => plainLine(withoutCR(rawLine))).join(" ");
      lineCount -= paragraph;
      while (prose.paragraphStarts.length > 0 && (prose.paragraphStarts.at(-1) as number) >= lineCount) prose.paragraphStarts.pop();
      if (heading !== "") prose.headings.push(heading);
      // The heading's text is already among the statements, as the paragraph lines it came from.
      endParagraph();
      continue;
    }
    if (!paragraphOpen) {
      prose.paragraphStarts.push(lineCount);
      paragraphOpen = true;
    }
    // A list item or quote line cannot be a setext heading's text; mark it so.
    if (mayOpenBlock(line) && opensBlock(line)) paragraph = 0;
    else paragraph += 1;
    const cleaned = clean(line);
    lines[lineCount++] = cleaned;
    statements[statementCount++] = cleaned;
  }
  lines.length = lineCount;
  statements.length = statementCount;
  prose.lines = lines;
  prose.statements = statements;
  return prose;
}

