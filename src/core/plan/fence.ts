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

/** Index of the first character after at most three leading spaces, or -1 when indented further. */
function afterIndent(line: string): number {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === SPACE) i += 1;
  return i <= 3 ? i : -1;
}

/** The fence `line` opens, or null when it is not an opening fence line. */
export function fenceOpening(line: string): Fence | null {
  const start = afterIndent(line);
  if (start < 0) return null;
  const code = line.charCodeAt(start);
  if (code !== BACKTICK && code !== TILDE) return null;
  let end = start;
  while (end < line.length && line.charCodeAt(end) === code) end += 1;
  const length = end - start;
  if (length < 3) return null;
  // A backtick fence's info string may not contain a backtick (```x``` is inline code, not a fence).
  if (code === BACKTICK && line.indexOf("`", end) !== -1) return null;
  return { char: code === BACKTICK ? "`" : "~", length };
}

/** True when `line` closes `fence`. */
export function closesFence(line: string, fence: Fence): boolean {
  const start = afterIndent(line);
  if (start < 0) return false;
  const code = fence.char === "`" ? BACKTICK : TILDE;
  let end = start;
  while (end < line.length && line.charCodeAt(end) === code) end += 1;
  if (end - start < fence.length) return false;
  for (let i = end; i < line.length; i += 1) {
    const c = line.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}

/** True when `line` holds only spaces, tabs or a carriage return. */
export function isBlankLine(line: string): boolean {
  for (let i = 0; i < line.length; i += 1) {
    const c = line.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}
