/**
 * A statement's cheap facts, read in one pass over its characters (docs/decisions/0193). The analyzer's passes over the
 * statements (content blocks, clause split, defect labels, hypothesis lists, the act hint) each open with a cheap test
 * of a statement's characters before the expression it guards (docs/decisions/0187); on a reply of short lines those
 * tests, a builtin call or a loop each, are most of the cost. Here they are read together, once per statement, into a
 * bit set; a pass whose bit is clear skips what the test would have skipped, and a set bit runs the pass as before.
 *
 * Only a statement up to SHORT characters is read: a longer one gets every bit (each pass runs its own test, and a
 * search such as indexOf reads a long line faster than a loop).
 */
import { BREAK_START, isSpaceCode } from "./clauses.ts";

/** A `.`, `!` or `?` before the last character (clauses.ts's markBeforeEnd). */
export const SENTENCE_MARK = 1;
/** A `;`, or white space before a character that MAY_BREAK's forms open with (clauses.ts's semicolonOrSpace). */
export const BREAK_MARK = 2;
/** A colon anywhere. */
export const COLON = 4;
/** A bar anywhere (a table row needs one). */
export const BAR = 8;
/** An l or a g, either case (every form of analyze.ts's ACT_HINT has one). */
export const L_OR_G = 16;
/** An ASCII digit. */
export const DIGIT = 32;
/** A `>` among the first four characters (content.ts's quote test). */
export const QUOTE_MARK = 64;
/** The last character but spaces and tabs is a colon (analyze.ts's endsWithColon). */
export const ENDS_COLON = 128;
/** The last character but white space is a colon (`trimEnd().endsWith(":")`). */
export const TRIMMED_ENDS_COLON = 256;
/** The last word character is an s, either case (content.ts's endsInS). */
export const ENDS_IN_S = 512;
/** The first word character is a b or an o, either case (BEFORE_HEADING's forms). */
export const OPENS_B_OR_O = 1024;
/** The first word's first two letters are bu, is or pr, either case (DEFECT_LABEL's forms without a colon). */
export const OPENS_DEFECT_WORD = 2048;
/** Every bit: what a statement longer than SHORT gets. */
export const EVERY_MARK = 4095;

/** Statements up to this many characters are read here (a reply's list items and prose lines are mostly longer). */
const SHORT = 32;

// What each ASCII character tells, as bits: the marks it sets wherever it stands, and four facts read with its position
// or its neighbour (a sentence end, white space, a character MAY_BREAK opens with after a space, a word character).
const SENTENCE_END = 1 << 12;
const SPACE = 1 << 13;
const BREAK_OPENER = 1 << 14;
const WORD = 1 << 15;
const ANYWHERE = BREAK_MARK | COLON | BAR | L_OR_G | DIGIT;
const ASCII = (() => {
  const table = new Uint16Array(128);
  const set = (chars: string, bits: number): void => {
    for (const ch of chars) table[ch.charCodeAt(0)] = (table[ch.charCodeAt(0)] as number) | bits;
  };
  set(".!?", SENTENCE_END);
  set(";", BREAK_MARK);
  set(":", COLON);
  set("|", BAR);
  set("lLgG", L_OR_G);
  set("0123456789", DIGIT | WORD);
  set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_", WORD);
  set(" \t\n\v\f\r", SPACE);
  for (const code of BREAK_START) if (code < 128) table[code] = (table[code] as number) | BREAK_OPENER;
  return table;
})();

/** Whether semicolonOrSpace's space may be followed by `code` (one of BREAK_START). */
const opensBreak = (code: number): boolean => (code < 128 ? ((ASCII[code] as number) & BREAK_OPENER) !== 0 : BREAK_START.has(code));
const isWordCode = (c: number): boolean => c < 128 && ((ASCII[c] as number) & WORD) !== 0;

/** The bits of one statement (see above). */
export function statementMarks(line: string): number {
  const n = line.length;
  if (n > SHORT) return EVERY_MARK;
  let marks = 0;
  let firstWord = -1;
  for (let i = 0; i < n; i += 1) {
    const c = line.charCodeAt(i);
    // semicolonOrSpace's space: ASCII white space, or any character from U+00A0 on.
    if (c >= 128) {
      if (c >= 0xa0 && i + 1 < n && opensBreak(line.charCodeAt(i + 1))) marks |= BREAK_MARK;
      continue;
    }
    const bits = ASCII[c] as number;
    marks |= bits & ANYWHERE;
    if ((bits & SENTENCE_END) !== 0 && i < n - 1) marks |= SENTENCE_MARK;
    else if ((bits & SPACE) !== 0 && i + 1 < n && opensBreak(line.charCodeAt(i + 1))) marks |= BREAK_MARK;
    else if (c === 62 && i < 4) marks |= QUOTE_MARK;
    if (firstWord === -1 && (bits & WORD) !== 0) firstWord = i;
  }
  if (firstWord !== -1) {
    const c0 = line.charCodeAt(firstWord) | 32;
    // Read in bounds (a read past the end deoptimizes the pass): past it, what NaN | 32 would give.
    const c1 = firstWord + 1 < n ? line.charCodeAt(firstWord + 1) | 32 : 32;
    if (c0 === 98 || c0 === 111) marks |= OPENS_B_OR_O;
    if ((c0 === 98 && c1 === 117) || (c0 === 105 && c1 === 115) || (c0 === 112 && c1 === 114)) marks |= OPENS_DEFECT_WORD;
  }
  let k = n - 1;
  while (k >= 0 && (line.charCodeAt(k) === 32 || line.charCodeAt(k) === 9)) k -= 1;
  if (k >= 0 && line.charCodeAt(k) === 58) marks |= ENDS_COLON;
  k = n - 1;
  while (k >= 0 && isSpaceCode(line.charCodeAt(k))) k -= 1;
  if (k >= 0 && line.charCodeAt(k) === 58) marks |= TRIMMED_ENDS_COLON;
  k = n - 1;
  while (k >= 0 && !isWordCode(line.charCodeAt(k))) k -= 1;
  if (k >= 0 && (line.charCodeAt(k) | 32) === 115) marks |= ENDS_IN_S;
  return marks;
}

/** The marks of every statement. */
export function marksOf(statements: readonly string[]): Uint16Array {
  const out = new Uint16Array(statements.length);
  for (let i = 0; i < statements.length; i += 1) out[i] = statementMarks(statements[i] as string);
  return out;
}
