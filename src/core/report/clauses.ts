/**
 * Clauses and step ids: the units the final-report analyzer decides on (docs/decisions/0091).
 *
 * A clause is a sentence, or a part of one after `;`, ` but `, ` except `, ` apart from `,
 * ` although `, ` though `, ` however ` or a dash; a list item, table row and heading are each a
 * statement of their own. Splitting is one pass per line, so the whole reply is read in linear time.
 */

const SENTENCE_END = /(?<=[.!?])\s+(?=\S)/;
// Kept at the start of the clause they open, so a row can say "a clause that opens with except".
const CLAUSE_BREAK = /\s*;\s*|,?\s+(?=(?:but|except|apart from|although|though|however|save for|other than)\b)|\s+[—–]\s+|\s+-\s+(?=[a-z])/i;

const HAS_SENTENCE_END = /[.!?]\s+\S/;
// A cheap test for CLAUSE_BREAK, so most sentences skip the split.
const MAY_BREAK = /;|\s[—–-]\s|\s(?:but|except|apart|although|though|however|save|other)\b/i;

/**
 * Cheap tests before HAS_SENTENCE_END and MAY_BREAK (docs/decisions/0187): the first needs a `.`, `!` or `?` before
 * the last character, the second a `;` or a space of some kind (any character from U+00A0 on is taken for one).
 */
function markBeforeEnd(line: string): boolean {
  const last = line.length - 1;
  // A short line is read character by character: three searches cost more (docs/decisions/0193).
  if (last < 64) {
    for (let i = 0; i < last; i += 1) {
      const c = line.charCodeAt(i);
      if (c === 46 || c === 33 || c === 63) return true;
    }
    return false;
  }
  const dot = line.indexOf(".");
  if (dot !== -1 && dot < last) return true;
  const bang = line.indexOf("!");
  if (bang !== -1 && bang < last) return true;
  const ask = line.indexOf("?");
  return ask !== -1 && ask < last;
}
function semicolonOrSpace(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 59) return true;
    // After a space MAY_BREAK reads a dash or a word: but, except, apart, although, though, however, save, other.
    if ((c === 32 || (c >= 9 && c <= 13) || c >= 0xa0) && BREAK_START.has(text.charCodeAt(i + 1))) return true;
  }
  return false;
}
/** The characters MAY_BREAK's forms open with after their space, either case. */
export const BREAK_START: ReadonlySet<number> = new Set([..."—–-bBeEaAtThHsSoO"].map((ch) => ch.charCodeAt(0)));

/** Whether the code unit `c` is one \s matches (JavaScript's white space and line terminators), as trim() removes them. */
export function isSpaceCode(c: number): boolean {
  if (c < 0x80) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** `text.trim()`, without the call when neither end is white space (most statements are trimmed already). */
export function trimmed(text: string): string {
  return text.length === 0 || isSpaceCode(text.charCodeAt(0)) || isSpaceCode(text.charCodeAt(text.length - 1)) ? text.trim() : text;
}

/** The sentences of one statement (line), split after `.`, `!` or `?` followed by a space. */
export function sentencesOf(line: string): string[] {
  if (!markBeforeEnd(line) || !HAS_SENTENCE_END.test(line)) return line.trim() === "" ? [] : [line];
  return line.split(SENTENCE_END).filter((s) => s.trim() !== "");
}

/**
 * A sentence split at CLAUSE_BREAK, except inside parentheses: "1 fails (needs network; it failed
 * the same way before)" is one clause, so the aside qualifies what it sits in.
 */
function splitOutsideParentheses(sentence: string): string[] {
  if (!sentence.includes("(")) return sentence.split(CLAUSE_BREAK);
  // Mask bracketed text with a letter CLAUSE_BREAK cannot match, split, then cut the original at the same offsets.
  let depth = 0;
  let masked = "";
  for (const ch of sentence) {
    if (ch === "(") depth += 1;
    else if (ch === ")" && depth > 0) depth -= 1;
    masked += depth > 0 && ch !== "(" ? "x".repeat(ch.length) : ch;
  }
  const out: string[] = [];
  const breaks = new RegExp(CLAUSE_BREAK.source, "gi");
  let cursor = 0;
  for (let match = breaks.exec(masked); match !== null; match = breaks.exec(masked)) {
    if (match[0] === "") {
      breaks.lastIndex += 1;
      continue;
    }
    out.push(sentence.slice(cursor, match.index));
    cursor = match.index + match[0].length;
  }
  out.push(sentence.slice(cursor));
  return out;
}

/**
 * The one clause of a statement that holds a single one (no sentence end, no clause break), as clausesOf finds it ("" for
 * a blank statement); undefined when clausesOf would split it. Spares most short statements clausesOf's arrays.
 */
export function singleClause(line: string): string | undefined {
  const text = line.length > 20_000 ? line.slice(0, 20_000) : line;
  if (markBeforeEnd(text) && HAS_SENTENCE_END.test(text)) return undefined;
  if (semicolonOrSpace(text) && MAY_BREAK.test(text)) return undefined;
  return trimmed(text);
}

/** The clauses of one statement. */
export function clausesOf(line: string): string[] {
  const out: string[] = [];
  for (const sentence of sentencesOf(line.length > 20_000 ? line.slice(0, 20_000) : line)) {
    if (!semicolonOrSpace(sentence) || !MAY_BREAK.test(sentence)) {
      out.push(sentence.trim());
      continue;
    }
    for (const part of splitOutsideParentheses(sentence)) if (part.trim() !== "") out.push(part.trim());
  }
  return out;
}

/** True for a clause that narrates an action under way ("Let me run the tests:") or asks a question. */
export function isNarrationOrQuestion(clause: string): boolean {
  return /\?\s*$/.test(clause) || /^\W*(?:(?:now|ok|okay|good|great|perfect|so|first|next|then|alright)\W+)?(?:let me|let's|let us|I'll|I will|I'm going to|I need to|I am going to|we need to|now I need|time to)\b/i.test(clause);
}

const STEP_TOKEN = /\b([A-Za-z]{1,4})[ -]?(\d{1,3})(?:\s*(?:–|—|-|to|through|thru|\.\.)\s*(?:\1[ -]?)?(\d{1,3}))?\b/g;

/**
 * The handoff step ids a clause names, ranges expanded ("B1–B3" → B1, B2, B3; "B1 through B4").
 * Only ids in `steps` are returned; the match is case-insensitive on the prefix.
 */
export function stepsNamed(clause: string, steps: ReadonlySet<string>): string[] {
  if (steps.size === 0) return [];
  const found: string[] = [];
  for (const match of clause.matchAll(STEP_TOKEN)) {
    const prefix = match[1] as string;
    const from = Number(match[2]);
    const to = match[3] === undefined ? from : Number(match[3]);
    if (to < from || to - from > 50) continue;
    for (let n = from; n <= to; n += 1) {
      const id = canonicalStep(`${prefix}${n}`, steps);
      if (id !== null) found.push(id);
    }
  }
  return found;
}

function canonicalStep(candidate: string, steps: ReadonlySet<string>): string | null {
  if (steps.has(candidate)) return candidate;
  const upper = candidate.toUpperCase();
  for (const step of steps) if (step.toUpperCase() === upper) return step;
  return null;
}

/** A line that labels what follows as done: "Done:", "**Completed:**", "## Done". */
export function isDoneLabel(line: string): boolean {
  return /^\W*(?:done|completed?|finished|fixed)\W*:?\W*$/i.test(line);
}

/** Whether `text` has an ASCII digit: DEFECT_LABEL's first form needs one, and STEP_TOKEN's every id (a cheap test first). */
export function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

/**
 * The first word character of `text` (A–Z, a–z, 0–9, _, as `\w` reads without the u flag), or "" when none: an
 * expression that opens `^\W*word` needs that word's first letter there (a cheap test first).
 */
export function firstWordChar(text: string): string {
  const at = firstWordAt(text);
  return at === -1 ? "" : (text[at] as string);
}

/** The offset of firstWordChar, or -1. */
export function firstWordAt(text: string): number {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) return i;
  }
  return -1;
}

/** A list item line: `- x`, `* x`, `1. x`, `- [x] x`. */
export function isListItem(line: string): boolean {
  return /^\s*(?:[-*+]|\d{1,9}[.)])\s/.test(line);
}
