/**
 * The bounded read of a final reply (docs/decisions/0135). A reply longer than its head and tail
 * windows is analysed on its first and last `WINDOW_HEAD` / `WINDOW_TAIL` characters joined by a
 * paragraph break, and the analysis says how much of the middle went unread: what a final report
 * claims, leaves and asks sits in its first lines and its last paragraphs, and reading the whole of
 * a 1 MiB reply through ~100 rows costs 20–80 ms where the window costs a few.
 *
 * The cuts fall on a paragraph break when one lies in the window's outer half (else on a line
 * break, else anywhere but inside a surrogate pair), so the window is made of whole paragraphs of
 * the reply. Fenced code keeps its meaning across the cut: the fence state at each cut is found by
 * scanning only the lines that hold a fence run, and a head that ends inside a fence is closed, a
 * tail that starts inside one is reopened. Blank lines before the first text are skipped (they
 * change nothing the reader returns), so a reply that opens with 32 KiB of blank lines still has
 * its first line read.
 */
import { type Fence, closesFenceAt, fenceOpeningAt } from "../plan/fence.ts";

/** Characters read from the start and from the end of a long reply (see the ADR for why these sizes). */
export const WINDOW_HEAD = 24 * 1024;
export const WINDOW_TAIL = 24 * 1024;

/** The text the analyzer reads, and how many characters of the reply's middle it leaves out. */
export interface ReplyWindow {
  text: string;
  /** 0 when the reply is read whole. */
  unreadChars: number;
  /** Characters read from the start and the end of the reply (the whole reply's length, and 0, when read whole). */
  headChars: number;
  tailChars: number;
  /**
   * False when the middle held more than FENCE_RUNS_READ runs of three backticks or tildes, so whether the tail starts
   * inside fenced code was not worked out: the tail is then read as if it started outside code.
   */
  tailFenceKnown: boolean;
}

const SPACE = 32;
const LF = 10;

/** Offset of the first line that is not blank (only spaces, tabs, CR); the text's length when all are. */
function firstTextLine(text: string): number {
  // A regular expression finds the first other character faster than a loop over 1 MiB of blank lines.
  const first = text.search(NOT_BLANK);
  return first === -1 ? text.length : text.lastIndexOf("\n", first) + 1;
}
const NOT_BLANK = /[^ \t\r\n]/;

/** A cut at `at` moved off the low half of a surrogate pair: back for the head's end (`step` -1), on for the tail's start (+1). */
function safeCut(text: string, at: number, step: -1 | 1): number {
  const c = text.charCodeAt(at);
  return c >= 0xdc00 && c <= 0xdfff && at > 0 ? at + step : at;
}

/** Where the head ends: at a paragraph break in [start + half, start + size], else a line break, else the raw offset. */
function headEnd(text: string, start: number, size: number): number {
  const limit = start + size;
  const floor = start + Math.floor(size / 2);
  const paragraph = text.lastIndexOf("\n\n", limit - 2);
  if (paragraph >= floor) return paragraph;
  const line = text.lastIndexOf("\n", limit - 1);
  if (line >= floor) return line;
  return safeCut(text, limit, -1);
}

/** Where the tail starts: after a paragraph break in [end - size, end - half], else a line break, else the raw offset. */
function tailStart(text: string, size: number): number {
  const from = text.length - size;
  const ceiling = text.length - Math.floor(size / 2);
  const paragraph = text.indexOf("\n\n", from);
  if (paragraph !== -1 && paragraph + 2 <= ceiling) return paragraph + 2;
  const line = text.indexOf("\n", from);
  if (line !== -1 && line + 1 <= ceiling) return line + 1;
  return safeCut(text, from, 1);
}

/** True when [from, to) holds only spaces: a fence run may follow up to three of them. */
function onlySpaces(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if (text.charCodeAt(i) !== SPACE) return false;
  return true;
}

/** Runs of three backticks or tildes the scan of a reply's middle reads at most (~0.3 ms); a realistic 1 MiB reply has ~900. */
export const FENCE_RUNS_READ = 8192;

/**
 * The open fence (as the reader, read.ts, would have it) after the lines of `text` that start in
 * [from, to), a line that runs past `to` read as if the text ended there; `known` is false when
 * more than `budget` runs would have to be read. Only lines holding "```" or "~~~" can open
 * or close a fence, so only those are read, found with indexOf.
 */
function fenceAfter(text: string, from: number, to: number, budget: number): { fence: Fence | null; known: boolean } {
  let fence: Fence | null = null;
  let read = 0;
  // The searches read only the runs that start before `to` (a slice shares the text's characters and offsets): a reply
  // with no run of tildes (most) or none of backticks is not read to its end on each call (docs/decisions/0187).
  const upTo = to + 2 < text.length ? text.slice(0, to + 2) : text;
  let ticks = upTo.indexOf("```", from);
  let tildes = upTo.indexOf("~~~", from);
  for (;;) {
    const i = ticks === -1 ? tildes : tildes === -1 ? ticks : Math.min(ticks, tildes);
    if (i === -1 || i >= to) break;
    read += 1;
    if (read > budget) return { fence: null, known: false };
    const start = lineStartOf(text, i, from);
    // The line ends at `to` at the latest: its break is searched only that far (a line of backticks as long as the reply
    // is not read to its end twice, docs/decisions/0193).
    const newline = upTo.indexOf("\n", i);
    const end = newline === -1 || newline > to ? to : newline;
    if (i - start <= 3 && onlySpaces(text, start, i)) {
      // The reader drops one trailing CR before it tests a line; fenceOpeningAt and closesFenceAt read a CR the same way.
      if (fence === null) fence = fenceOpeningAt(text, start, end);
      else if (closesFenceAt(text, start, end, fence)) fence = null;
    }
    const next = end + 1;
    if (ticks !== -1 && ticks < next) ticks = upTo.indexOf("```", next);
    if (tildes !== -1 && tildes < next) tildes = upTo.indexOf("~~~", next);
  }
  return { fence, known: true };
}

/** The start of the line holding `at`, reading back at most to `floor` (a line start); a fence line's run follows at most three spaces. */
function lineStartOf(text: string, at: number, floor: number): number {
  let i = at;
  while (i > floor && i > at - 4 && text.charCodeAt(i - 1) !== LF) i -= 1;
  // More than three characters before the run on its line: not a fence line, whatever the line's start.
  return i > floor && text.charCodeAt(i - 1) !== LF ? at - 4 : i;
}

/** A line of the fence's character, as long as the fence's run but never longer than `most`. */
const fenceLine = (fence: Fence, most: number): string => fence.char.repeat(Math.min(fence.length, most));

/** The part of `text` the analyzer reads: the whole when it fits the windows, else head and tail. */
export function replyWindow(text: string, head = WINDOW_HEAD, tail = WINDOW_TAIL): ReplyWindow {
  if (!(head >= 0 && tail >= 0)) throw new RangeError(`a reply's window is a number of characters ≥ 0 at each end; got head ${head}, tail ${tail}`);
  if (text.length <= head + tail) return { text, unreadChars: 0, headChars: text.length, tailChars: 0, tailFenceKnown: true };
  const start = firstTextLine(text);
  if (text.length - start <= head + tail) {
    // Blank lines before the first text are no part of what the reader returns.
    return { text: text.slice(start), unreadChars: 0, headChars: text.length - start, tailChars: 0, tailFenceKnown: true };
  }
  const end = headEnd(text, start, head);
  const from = tailStart(text, tail);
  // The head as its own text reads it (its last line may be cut); the tail as the whole reply leaves it.
  const headFence = fenceAfter(text, start, end, Number.POSITIVE_INFINITY).fence;
  const tailFence = fenceAfter(text, 0, from, FENCE_RUNS_READ);
  const tailChars = text.length - from;
  // A tail that starts inside a fence is reopened, with a run no longer than the tail plus one: no
  // closer inside the tail is longer than the tail, so a longer run is closed by none either.
  const closer = headFence === null ? "" : `\n${fenceLine(headFence, end - start)}`;
  const opener = tailFence.fence === null ? "" : `${fenceLine(tailFence.fence, tailChars + 1)}\n`;
  const joined = `${text.slice(start, end)}${closer}\n\n${opener}${text.slice(from)}`;
  return { text: joined, unreadChars: from - end, headChars: end - start, tailChars, tailFenceKnown: tailFence.known };
}
