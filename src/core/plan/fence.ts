/**
 * Fenced code lines, as CommonMark defines them for a top-level block: a run of three or more
 * backticks or tildes after at most three spaces opens a fence; a run of the same character, at
 * least as long, followed by nothing but whitespace, closes it. A fence that is never closed runs
 * to the end of the text. Both the plan classifier and the final-report analyzer use these, so a
 * quoted tag or a quoted heading means the same thing to both.
 *
 * Not handled on purpose: fences inside list items or block quotes, and indented code blocks.
 * A reply's plan steps are often indented by four spaces, and treating them as code would hide
 * real text.
 *
 * The `…At` forms read the line [start, end) of a larger text without slicing it, for the
 * classifier's single pass; the plain forms take one line.
 */

/** An open fence: which character it uses and how long its opening run was. */
export interface Fence {
  char: "`" | "~";
  length: number;
}

const SPACE = 32;
const TAB = 9;
const CR = 13;
const BACKTICK = 96;
const TILDE = 126;

/** Offset of the first character after at most three leading spaces, or -1 when indented further. */
function afterIndent(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === SPACE) i += 1;
  return i - start <= 3 ? i : -1;
}

/** True when [from, end) holds only spaces, tabs or a carriage return. */
function onlyWhitespace(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}

const TICK_RUN = /`*/y;
const TILDE_RUN = /~*/y;

/**
 * The end of the run of `code` (a backtick or a tilde) that starts at `from`, at most `end`. Most runs are three or
 * four characters, read by a loop; a longer one (a line of backticks as long as the reply) by a sticky expression, which
 * reads a long run several times faster (docs/decisions/0187).
 */
function runEnd(text: string, from: number, end: number, code: number): number {
  let i = from;
  const loopEnd = from + 16 < end ? from + 16 : end; // not Math.min: once per fence-like line, it showed in profiles
  while (i < loopEnd && text.charCodeAt(i) === code) i += 1;
  if (i < loopEnd || i >= end) return i;
  const run = code === BACKTICK ? TICK_RUN : TILDE_RUN;
  run.lastIndex = i;
  run.test(text);
  return Math.min(run.lastIndex, end);
}

/** How many characters of an info string are read in JS before a native search takes over: about one call's cost. */
const NEAR = 8;

/**
 * True when [from, end) holds a backtick. Its first NEAR characters are read in JS: an info string is short as a rule,
 * and on a paragraph of ```x``` lines the search called for each line (it finds the backtick at once) was a fifth of the
 * classifier's time (docs/decisions/0188).
 */
function holdsBacktick(text: string, from: number, end: number): boolean {
  const stop = from + NEAR < end ? from + NEAR : end;
  for (let i = from; i < stop; i += 1) if (text.charCodeAt(i) === BACKTICK) return true;
  if (stop === end) return false;
  const tick = text.indexOf("`", stop);
  return tick !== -1 && tick < end;
}

/** The fence the line [start, end) of `text` opens, or null. */
export function fenceOpeningAt(text: string, start: number, end: number): Fence | null {
  const first = afterIndent(text, start, end);
  if (first < 0 || first >= end) return null;
  const code = text.charCodeAt(first);
  if (code !== BACKTICK && code !== TILDE) return null;
  const i = runEnd(text, first, end, code);
  const length = i - first;
  if (length < 3) return null;
  // A backtick fence's info string may not contain a backtick (```x``` is inline code, not a fence).
  if (code === BACKTICK && holdsBacktick(text, i, end)) return null;
  return { char: code === BACKTICK ? "`" : "~", length };
}

/**
 * `fenceOpeningAt(text, start, end) !== null`, for a line whose first character after spaces and tabs, at `first`, and
 * the two after it are `code` (a backtick or a tilde), as the caller has read: the run is read on from its fourth
 * character. On a paragraph of ```x``` lines, reading each line's first characters again was a third of the
 * classifier's time (docs/decisions/0188).
 */
export function opensFenceAt(text: string, start: number, first: number, end: number, code: number): boolean {
  if (first - start > 3) return false;
  for (let i = start; i < first; i += 1) if (text.charCodeAt(i) !== SPACE) return false; // a tab: indented too far
  if (code === TILDE) return true;
  const i = runEnd(text, first + 3, end, BACKTICK);
  // The character that ended the run is no backtick: the info string is read from the next on.
  return i >= end || !holdsBacktick(text, i + 1, end);
}

/** True when the line [start, end) of `text` closes `fence`. */
export function closesFenceAt(text: string, start: number, end: number, fence: Fence): boolean {
  const first = afterIndent(text, start, end);
  if (first < 0) return false;
  const i = runEnd(text, first, end, fence.char === "`" ? BACKTICK : TILDE);
  return i - first >= fence.length && onlyWhitespace(text, i, end);
}

/** True when the line [start, end) of `text` is blank. */
export function isBlankAt(text: string, start: number, end: number): boolean {
  return onlyWhitespace(text, start, end);
}

/** The fence `line` opens, or null when it is not an opening fence line. */
export function fenceOpening(line: string): Fence | null {
  return fenceOpeningAt(line, 0, line.length);
}

/** True when `line` closes `fence`. */
export function closesFence(line: string, fence: Fence): boolean {
  return closesFenceAt(line, 0, line.length, fence);
}

/** True when `line` holds only spaces, tabs or a carriage return. */
export function isBlankLine(line: string): boolean {
  return onlyWhitespace(line, 0, line.length);
}
