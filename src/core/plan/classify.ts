/**
 * The plan-outcome classifier (ADR-0077): what a plan run concluded, read from its reply text.
 *
 * | Reply                                                              | Outcome      |
 * |--------------------------------------------------------------------|--------------|
 * | one complete, nonempty `<proposed_plan>` block outside code        | `plan_ready` |
 * | one complete, nonempty `<plan_blocked>` block outside code         | `blocked`    |
 * | no outcome tag outside code, nonempty text                         | `no_plan`    |
 * | unbalanced, empty, duplicated or conflicting tags; the legacy      | `invalid`    |
 * | `<plan_clarification>`; an empty reply                             |              |
 *
 * Only tags outside code declare an outcome. Code is a fenced block (see fence.ts; an unclosed
 * fence runs to the end) or an inline code span (a backtick run closed by the next run of the same
 * length within one paragraph). A line that holds only an outcome tag ends a paragraph, so a stray
 * backtick in a plan step can never swallow the closing tag. Tags are recognised anywhere in a
 * line of prose, not only on their own line: "wrap it in <proposed_plan>" outside backticks is an
 * outcome tag, as ADR-0077 says.
 *
 * Deliberate difference from Codex (its `ProposedPlanParser`): Codex honours a tag line inside a
 * ``` fence and ignores a tag that shares its line with other text; it also closes an unterminated
 * block at the end of the stream. Here a fenced tag is text, an inline tag counts, and an
 * unterminated block is `invalid` (the repair turn asks the model to finish it).
 *
 * Linear time, and fast where nothing happens: the pass jumps from one line that can matter (it
 * holds a tag, or a run of three backticks or tildes) to the next with native searches, and reads
 * the lines between only to find the paragraph that runs into the next one. Each paragraph's
 * backtick runs are paired as found when a run is followed by one of its length, else through a
 * precomputed "next run of the same length" table, so no character is scanned more than a fixed
 * number of times, whatever the input. A long reply whose tags already decide the outcome (two
 * names, or a nested tag) is read no further (ADR 0136). Lines of a few characters are read in JS,
 * where a native search would cost more than reading them, and a crowd of stray `<` is skipped by
 * searching for the tags' names, both by the line pass and the paragraph scan (ADR 0159, 0188). A run
 * of lines alike whose outcome their shape decides (```x``` lines, tag lines, one code span a line) is
 * matched by a bounded sticky expression, not read line by line (ADR 0189).
 */
import { type Fence, closesFenceAt, fenceOpeningAt, isBlankAt, opensFenceAt } from "./fence.ts";

export type PlanOutcome = "plan_ready" | "blocked" | "no_plan" | "invalid";

/** Why a reply is `invalid`: each value names one rule of ADR-0077. */
export type PlanInvalidReason =
  | "empty_reply"
  | "legacy_clarification"
  | "conflicting_blocks"
  | "unopened_close"
  | "nested_block"
  | "unclosed_block"
  | "duplicate_block"
  | "empty_block";

export interface PlanResult {
  outcome: PlanOutcome;
  /** The `<proposed_plan>` body, trimmed, when the outcome is `plan_ready`. */
  plan?: string;
  /** The `<plan_blocked>` body, trimmed, when the outcome is `blocked`. */
  blocked?: string;
  /** The rule that made the reply `invalid`. */
  reason?: PlanInvalidReason;
}

/**
 * One sentence per rule, for people reading a result. The order is the order the rules are
 * checked in: the first rule that applies names the reason.
 */
export const PLAN_RULES: Readonly<Record<PlanInvalidReason, string>> = {
  empty_reply: "the reply is empty or only whitespace",
  legacy_clarification: "the reply uses <plan_clarification>, which is no longer an outcome (ask_user is the clarification channel)",
  conflicting_blocks: "the reply mixes <proposed_plan> and <plan_blocked> tags",
  unopened_close: "a closing tag appears before any opening tag",
  nested_block: "an outcome block is opened again before it was closed",
  unclosed_block: "an outcome block is opened and never closed",
  duplicate_block: "the reply has more than one outcome block",
  empty_block: "the outcome block has nothing in it",
};

export type OutcomeTagName = "proposed_plan" | "plan_blocked" | "plan_clarification";

/** Each tag text, its name and whether it closes; a tag's kind is its index here, its name number the kind halved. */
const TAGS: ReadonlyArray<{ text: string; name: OutcomeTagName; closing: boolean }> = [
  { text: "<proposed_plan>", name: "proposed_plan", closing: false },
  { text: "</proposed_plan>", name: "proposed_plan", closing: true },
  { text: "<plan_blocked>", name: "plan_blocked", closing: false },
  { text: "</plan_blocked>", name: "plan_blocked", closing: true },
  { text: "<plan_clarification>", name: "plan_clarification", closing: false },
  { text: "</plan_clarification>", name: "plan_clarification", closing: true },
];
const TAG_TEXT = TAGS.map((tag) => tag.text);
const SHORTEST_TAG = Math.min(...TAG_TEXT.map((tag) => tag.length));
const LONGEST_TAG = Math.max(...TAG_TEXT.map((tag) => tag.length));
/** The name number of plan_clarification (0 proposed_plan, 1 plan_blocked). */
const CLARIFICATION = 2;
/** What follows `<` or `</` in each name's two tags, by name number: one search finds both. */
const NAME_TEXT = ["proposed_plan>", "plan_blocked>", "plan_clarification>"];
/** Each name split before its `_` (see TagMatcher.nameFrom). */
const NAME_HEAD = NAME_TEXT.map((name) => name.slice(0, name.indexOf("_")));
const NAME_TAIL = NAME_TEXT.map((name) => name.slice(name.indexOf("_")));

const NONE = -1;
const LT = 60;
const GT = 62;
const SLASH = 47;
const P = 112;
const R = 114;
const B = 98;

/**
 * The kind of the only outcome tag that can start at `i` (a `<`), or NONE: two characters pick
 * the candidate; a TagMatcher matches it in full.
 */
function candidateAt(text: string, i: number): number {
  // Each character read once: the one after `<` is `p` or `/`.
  let at = i + 1;
  let c = text.charCodeAt(at);
  const closing = c === SLASH;
  if (closing) c = text.charCodeAt((at += 1));
  if (c !== P) return NONE;
  // proposed_plan, plan_blocked, plan_clarification: the second letter, then the sixth.
  return (text.charCodeAt(at + 1) === R ? 0 : text.charCodeAt(at + 5) === B ? 2 : 4) + (closing ? 1 : 0);
}

/** True when the `<` at `i` is followed by `p` or `/p`: the first letters of every outcome tag. */
function mayBeTag(text: string, i: number): boolean {
  const c = text.charCodeAt(i + 1);
  return c === P || (c === SLASH && text.charCodeAt(i + 2) === P);
}

/**
 * Which outcome tag starts where, asked about increasing offsets only. Per name, it keeps the next
 * place its text (`proposed_plan>`, …) occurs that may still end a tag, found by a native search
 * from past the last one: so each name's text is read at most once whatever is asked. On a reply
 * with a tag on every line, comparing a tag's characters in JS (or `startsWith`) cost twice a
 * search that finds it where it starts (docs/decisions/0138); one search per name, not per tag
 * text, halves what nextFrom reads (docs/decisions/0159).
 */
class TagMatcher {
  // Per name number: the offset found (text.length when none); NONE before the first search.
  private readonly next = new Int32Array(NAME_TEXT.length).fill(NONE);

  constructor(private readonly text: string) {}

  /** The kind of the tag that starts at `i` (a `<`, at or after the last offset asked about), or NONE. */
  at(i: number): number {
    const kind = candidateAt(this.text, i);
    return kind !== NONE && this.is(i, kind) ? kind : NONE;
  }

  /** True when the tag of kind `kind` (its candidate there, see candidateAt) starts at `i`, asked as `at` is. */
  is(i: number, kind: number): boolean {
    const nameAt = i + 1 + (kind & 1); // past `<` or `</`
    const name = kind >> 1;
    // Where the tag's `>` would be, first: a `<p` or a `<proposed_plan ` in prose is then no
    // search, which would read ahead to the name's next place for nothing (on `<p` lines a whole
    // MiB); a tag is confirmed by the search, which finds it at once (cheaper than comparing it).
    return this.text.charCodeAt(nameAt + (NAME_TEXT[name] as string).length - 1) === GT && this.nameFrom(name, nameAt) === nameAt;
  }

  /**
   * Where the first tag at or after `i` (at or after the last offset asked about) starts,
   * text.length when none: each name's next occurrences are looked at, in order, until one is
   * preceded by `<` or `</` or lies past the first tag found so far. An occurrence passed over
   * is not a tag that starts at or after `i`, so no later question can be about it.
   */
  nextFrom(i: number): number {
    const text = this.text;
    let first = text.length;
    for (let name = 0; name < NAME_TEXT.length; name += 1) {
      for (let at = this.nameFrom(name, i + 1, true); at < first; at = this.nameFrom(name, at + 1, true)) {
        const start = text.charCodeAt(at - 1) === LT ? at - 1 : text.charCodeAt(at - 1) === SLASH && text.charCodeAt(at - 2) === LT ? at - 2 : NONE;
        if (start >= i) {
          first = start;
          break;
        }
      }
    }
    return first;
  }

  /**
   * The next occurrence of the name's text at or after `from` (text.length when none). `indexOf`
   * reads a text for its pattern's first character and compares at each: a name's `p` is on
   * every line of `<p` lines, where three name searches cost ~0.9 ms per MiB and three searches
   * for their parts from `_` on almost nothing. So a search that may read far (nextFrom's) looks
   * for that part and checks the characters before it; one expected right here (`at`'s) looks
   * for the whole name, which finds it at once.
   */
  private nameFrom(name: number, from: number, far = false): number {
    let next = this.next[name] as number;
    if (next < from) {
      const text = this.text;
      if (far) {
        const head = NAME_HEAD[name] as string;
        next = text.length;
        for (let at = text.indexOf(NAME_TAIL[name] as string, from + head.length); at !== -1; at = text.indexOf(NAME_TAIL[name] as string, at + 1)) {
          if (text.startsWith(head, at - head.length)) {
            next = at - head.length;
            break;
          }
        }
      } else {
        next = text.indexOf(NAME_TEXT[name] as string, from);
        if (next === -1) next = text.length;
      }
      this.next[name] = next;
    }
    return next;
  }
}

/** One outcome tag found outside code: its name, whether it closes, and where it sits. */
export interface OutcomeTag {
  name: OutcomeTagName;
  closing: boolean;
  /** Offset of `<` in the text. */
  start: number;
  /** Offset just after `>`. */
  end: number;
}

/** A line end not searched for yet (indexOf gives -1 for none). */
const UNSEARCHED = -2;
const BACKTICK = 96;
const SPACE = 32;
const TAB = 9;
const CR = 13;
const TILDE = 126;

/** The arrays of a scanner that has read no backtick run or tag yet (never written: the first one grows them). */
const NO_RUNS = new Int32Array(0);
const NO_KINDS = new Uint8Array(0);

/**
 * How many characters are read in JS before a native search takes over (see indexOfNear): about
 * one call's cost. `indexOf` costs a call, ~6 ns however close the answer, while reading a
 * character in JS costs ~1.4 ns: on a reply of lines a few characters long, each line end or `<`
 * is found faster by reading the next few characters (docs/decisions/0159).
 */
const NEAR = 4;

/**
 * The offset of the first `char` (whose code is `code`) at or after `from`, or -1, as
 * `text.indexOf(char, from)`: the next NEAR characters read in JS, then a native search. Kept in
 * this module: imported from another, it was not inlined (`<p` lines 3.6 → 8.7 ms per MiB).
 */
function indexOfNear(text: string, code: number, char: string, from: number): number {
  const stop = from + NEAR < text.length ? from + NEAR : text.length;
  for (let i = from; i < stop; i += 1) if (text.charCodeAt(i) === code) return i;
  return stop === text.length ? -1 : text.indexOf(char, stop);
}

/**
 * The start of the line holding offset `at`, not before `floor` (a line start at or before it):
 * read back in JS over the last SHORT_LINE characters, then by `lastIndexOf`. That is a call into
 * the runtime, which costs about as much as reading 15 characters in JS: on a reply with
 * something to read on every short line it was a fifth to a third of the pass; on a long line
 * the loop would cost more.
 */
function lineStartOf(text: string, at: number, floor: number): number {
  const stop = Math.max(floor, at - SHORT_LINE);
  let i = at;
  while (i > stop && text.charCodeAt(i - 1) !== LF) i -= 1;
  if (i === stop && i > floor && text.charCodeAt(i - 1) !== LF) i = Math.max(floor, text.lastIndexOf("\n", i - 1) + 1);
  return i;
}
const SHORT_LINE = 16;
const LF = 10;

/** The end of the run of backticks at `i`, at most `limit`. */
function backtickRunEnd(text: string, i: number, limit: number): number {
  let j = i + 1;
  while (j < limit && text.charCodeAt(j) === BACKTICK) j += 1;
  return j;
}

/** True when the line's first character after spaces and tabs, `c` at `first`, starts a run of three backticks or tildes: only then can the line open a fence. */
function mayOpenFence(text: string, first: number, c: number): boolean {
  return (c === BACKTICK || c === TILDE) && text.charCodeAt(first + 1) === c && text.charCodeAt(first + 2) === c;
}

/**
 * Whole lines that start with a backtick and cannot end a paragraph: a run of one or two backticks
 * followed by another character, or a run of exactly three followed by an info string that holds a
 * backtick (```x``` is inline code, not a fence: fence.ts). Such a line is neither blank, nor a tag
 * line, nor a fence line, so followParagraph would only add it to the paragraph. Matched a few
 * hundred lines per call: one unbounded repetition keeps a backtracking entry per line.
 */
const BACKTICK_LINES = /(?:(?:``?[^`\n]|```[^`\n]+`)[^\n]*\n){1,256}/y;

/**
 * Whole lines that start with `<` and are shorter than any tag (with a CR, as followParagraph counts them): neither
 * blank, nor a tag line, nor a fence line. Matched as BACKTICK_LINES.
 */
const SHORT_LT_LINES = new RegExp(`(?:<[^\\n]{0,${SHORTEST_TAG - 2}}\\n){1,256}`, "y");

/** The offset past the lines from `at` (a line start) that `lines` (BACKTICK_LINES or SHORT_LT_LINES) matches; `at` when none. */
function linesLikeEnd(text: string, at: number, lines: RegExp): number {
  let past = at;
  lines.lastIndex = at;
  while (lines.test(text)) past = lines.lastIndex;
  return past;
}

/**
 * Lines that end a paragraph and leave nothing open: an empty line, or a line that is one outcome
 * tag at its start and LF or CRLF; each may follow a line that is one code span (`…`, no other
 * backtick) and LF. Matched a few hundred at a time, as BACKTICK_LINES (see TagScanner.takeTagLines).
 */
const TAG_LINES = /(?:(?:`[^`\n]*`\n)?(?:<\/?(?:proposed_plan|plan_blocked|plan_clarification)>\r?\n|\n)){1,256}/y;

/**
 * Whole lines that are one code span of single backticks (`…`, no other backtick) and LF. After a
 * span that ends its line, each is a run followed by a run of its length, which scanParagraph pairs
 * as found, and the newline between two is too short to hold a tag. Matched as BACKTICK_LINES.
 */
const SPAN_LINES = /(?:`[^`\n]+`\n){1,256}/y;

/**
 * Where the last of the SPAN_LINES lines after the newline at `newline` ends (its newline, at most `to`, the
 * paragraph's end): the end of its closing backtick, as far as the paragraph scan is concerned; `newline` when none.
 * (A paragraph ends before a blank, tag or fence line, none of which matches: the bound is never met, and keeps the
 * pairing inside the paragraph should that change.)
 */
function spanLinesEnd(text: string, newline: number, to: number): number {
  let last = newline;
  SPAN_LINES.lastIndex = newline + 1;
  while (SPAN_LINES.test(text) && SPAN_LINES.lastIndex - 1 <= to) last = SPAN_LINES.lastIndex - 1;
  return last;
}

/** Every outcome tag outside fenced code and inline code spans, in order. */
export function findOutcomeTags(text: string): OutcomeTag[] {
  const scanner = new TagScanner(text, false);
  scanner.scan();
  const tags: OutcomeTag[] = [];
  for (let k = 0; k < scanner.count; k += 1) {
    const start = scanner.tagStart[k] as number;
    const tag = TAGS[scanner.tagKind[k] as number] as (typeof TAGS)[number];
    tags.push({ name: tag.name, closing: tag.closing, start, end: start + tag.text.length });
  }
  return tags;
}

/** After this many `<` in a row that open no tag, each within CLOSE characters of the last, the paragraph scan finds tags by their texts (see TagScanner.nextLt). */
const MISSES = 64;
const CLOSE = 64;

/** Up to this many backtick runs in a paragraph are paired by a scan (at most 28 compares). */
const SMALL_RUNS = 8;
/** A paragraph longer than this collects its backtick runs up to its last possible tag first (see TagScanner.scanParagraph). */
const LONG_PARAGRAPH = 512;
/** How many `<` that may open a tag afterLastCandidate looks for forwards before it reads backwards. */
const FORWARD_CANDIDATES = 2;
/** Backtick runs up to this long are paired through a typed array; longer ones through a map. */
const SHORT_RUN = 64;

/**
 * One pass over a reply, line by line, tracking: the open fence, the open paragraph (and whether
 * a line of it holds a `<` that may open a tag), and the tags found, as numbers. Lines that cannot
 * matter are jumped over: forward-only cursors find the next `<` that may open a tag (its `>` where
 * the tag's would be; past many that have none, the next tag text) and the next
 * three-backtick and three-tilde runs (searched only when the line being read holds no tag); a
 * paragraph that holds a tag is followed line by line to the one that may end it; when it ends,
 * its backtick runs (a cursor for the next backtick) are paired into code spans and the gaps
 * between them are read for tags (a cursor for the next `<`, or, where stray `<` crowd, the next
 * place of a tag's name; a TagMatcher for the full match). Each cursor is asked about increasing
 * positions only, so each search reads every character a bounded number of times. Native searches
 * read the text where lines are long: on these strings a search costs ~6 ns, a character read in
 * JS ~1.4; a line of a few characters is read in JS (docs/decisions/0136, 0138, 0159). A class
 * rather than closures: its state lives in fields V8 can keep fast.
 */
class TagScanner {
  // The tags found, in order, as numbers: where each starts and its index in TAGS (no object per
  // tag: a reply with a tag on every line has tens of thousands). Made on the first tag.
  tagStart = NO_RUNS;
  tagKind: Uint8Array<ArrayBuffer> = NO_KINDS;
  count = 0;
  /** The names found, one bit each (1 << name). */
  names = 0;
  private readonly end: number;
  // Forward-only cursors over the tags, each holding what it found at or after the position it was
  // last asked about (text.length when none), so each `<` is read a bounded number of times: the
  // next `<` that may open a tag, for the line pass looking ahead; and the next `<`, not yet read,
  // for the scan of paragraphs behind the line pass.
  private aheadAt = NONE;
  // The ahead cursor's `<` that had no `>` where their tag's would be, as the paragraph scan's
  // misses below (see nextTag), and the matcher it then finds tags with.
  private aheadMisses = 0;
  private aheadLastMiss = NONE;
  private aheadTags: TagMatcher | null = null;
  private behindLt = NONE;
  // The line last tested for being a tag line, by the offset of its `<`, and the answer (see tagLineKind).
  private testedLineAt = NONE;
  private testedLineKind = NONE;
  // The end of the line followParagraph stopped at, as indexOf gave it (UNSEARCHED at the end).
  private followedNewline = UNSEARCHED;
  // Whether that line is a tag line (tagLineKind's answer kept for it).
  private followedToTag = false;
  // Whether the last line followParagraph read was short: then the next one's end is looked for
  // in JS first (see indexOfNear), else by indexOf at once (a long line would waste the reads).
  private shortLine = true;
  // Tags matched in full, one matcher for the line pass and one for the paragraph scan behind it
  // (each is asked about increasing offsets); made on the first candidate.
  private lineTags: TagMatcher | null = null;
  private gapTags: TagMatcher | null = null;
  // The paragraph scan's `<` that open no tag: how many came in a row each within CLOSE of the last,
  // and where the last was; past MISSES in a row it finds tags by their texts from then on (see nextLt).
  private misses = 0;
  private lastMiss = NONE;
  private byTagText = false;
  // Cursors: the offset found (text.length when none).
  private tick = NONE;
  private ticks3 = NONE;
  private tildes3 = NONE;
  // Line-pass state.
  private fence: Fence | null = null;
  private paragraphStart = NONE;
  private paragraphEnd = NONE;
  // A paragraph with no line holding a tag yields nothing, so only these are scanned.
  private paragraphHasTag = false;
  // Backtick runs of the paragraph being scanned, reused from one paragraph to the next: typed
  // arrays grown by doubling (a reply with a code span on every line has a run every few
  // characters), empty until a paragraph has runs (a scanner is made for every reply).
  private runStart = NO_RUNS;
  private runLength = NO_RUNS;
  private nextSame = NO_RUNS;
  // The last run seen of each short length, for pairing a paragraph with many runs (see scanParagraph).
  private lastOfLength: Int32Array<ArrayBuffer> | null = null;
  // The early decision (see decided): the first tag's name, whether a block is open, and the
  // whole-text searches, each run once when first needed (undefined before).
  private firstName = NONE;
  private blockOpen = false;
  private clarification: boolean | undefined;
  private oneName: boolean | undefined;
  // Set once the tags found so far decide the outcome (see decided): every loop stops.
  private stopped = false;

  constructor(
    private readonly text: string,
    /** True when the scan may stop once its tags decide the outcome (see decided). */
    private readonly early: boolean,
  ) {
    this.end = text.length;
  }

  scan(): void {
    const { text, end } = this;
    let lineStart = 0;
    // The next offset that can matter, for the fence state it was found in; still right while it
    // is at or after lineStart, since every cursor it came from is forward-only.
    let next = NONE;
    let nextFor: Fence | null | undefined;
    for (;;) {
      const fence = this.fence;
      let newline = UNSEARCHED;
      // The line's first character, outside a fence (read once: tagLineEnd is not always inlined).
      const lineFirst = fence === null ? text.charCodeAt(lineStart) : NONE;
      if (fence === null && this.paragraphHasTag) {
        // In a paragraph already known to hold a tag, a tag inside a line changes nothing (the
        // paragraph is scanned when it ends): its lines are followed to one that may end it.
        lineStart = this.followParagraph(lineStart);
        newline = this.followedNewline;
        if (this.followedToTag) {
          // It stopped at a tag line, matched already: the line is not read again.
          this.tagLine(this.testedLineAt, this.testedLineKind);
          if (newline === -1 || this.stopped) break;
          lineStart = this.takeTagLines(newline + 1);
          if (this.stopped) break;
          continue;
        }
      } else if (lineFirst === LF) {
        // An empty line ends the paragraph: taken at once, not jumped over nor read as a line (blank
        // lines between tag lines).
        this.flush();
        if (this.stopped) break;
        lineStart += 1;
        continue;
      } else if (lineFirst === LT && (newline = this.tagLineEnd(lineStart)) !== UNSEARCHED) {
        // A line that is one tag, matched to its end by tagLineEnd, is taken at once, not jumped to
        // (the jump would search for the tag it starts with) nor read again: tags separated by
        // blank lines are nothing else (docs/decisions/0188).
        this.tagLine(lineStart, this.testedLineKind);
        if (this.stopped) break;
        lineStart = this.takeTagLines(newline + 1);
        if (this.stopped) break;
        continue;
      } else {
        // Jump to the line holding the next thing that can matter.
        if (next < lineStart || nextFor !== fence) {
          if (fence === null) {
            const tag = this.aheadFrom(lineStart);
            // When a fence cursor would have to search: not if the tag is on this line (not the
            // last), which is read whatever follows (on a reply with a tag on every line, and no
            // fence, each search would read the whole text for nothing).
            // (tagLineEnd found no tag line here: the branch above took those it matches.)
            if (this.ticks3 < lineStart || this.tildes3 < lineStart) newline = text.indexOf("\n", lineStart);
            next = newline >= 0 && tag < newline ? tag : Math.min(tag, this.ticks3From(lineStart), this.tildes3From(lineStart));
          } else next = fence.char === "`" ? this.ticks3From(lineStart) : this.tildes3From(lineStart);
          nextFor = fence;
        }
        const target = next >= end ? end : lineStartOf(text, next, lineStart);
        if (target > lineStart) {
          if (fence === null) this.skipProse(lineStart, target);
          lineStart = target;
          newline = fence === null ? this.tagLineEnd(lineStart) : UNSEARCHED;
        }
      }
      if (newline === UNSEARCHED) newline = text.indexOf("\n", lineStart);
      const lineEnd = newline === -1 ? end : newline;
      if (this.fence !== null) {
        if (closesFenceAt(text, lineStart, lineEnd, this.fence)) this.fence = null;
      } else {
        // The first character after spaces and tabs says which kind of line this can be.
        let first = lineStart;
        while (first < lineEnd && (text.charCodeAt(first) === SPACE || text.charCodeAt(first) === TAB)) first += 1;
        const c = first < lineEnd ? text.charCodeAt(first) : LF;
        const opening = mayOpenFence(text, first, c) ? fenceOpeningAt(text, lineStart, lineEnd) : null;
        if (opening !== null) {
          this.flush();
          this.fence = opening;
        } else if (c === LF || (c === CR && isBlankAt(text, first, lineEnd))) {
          this.flush();
        } else {
          const kind = c === LT ? this.tagLineKind(first, lineEnd) : NONE;
          if (kind !== NONE) this.tagLine(first, kind);
          else {
            if (this.paragraphStart < 0) this.paragraphStart = lineStart;
            this.paragraphEnd = lineEnd;
            if (this.aheadFrom(lineStart) < lineEnd) this.paragraphHasTag = true;
          }
        }
      }
      if (newline === -1 || this.stopped) break;
      lineStart = newline + 1;
    }
    this.flush();
  }

  /**
   * The end of the line at `at` when it is one tag and its line end (LF or CRLF), found by matching
   * the tag rather than by a search for the newline, and the tag-line answer kept for tagLineKind;
   * else UNSEARCHED. Tags separated by blank lines are nothing but such lines (docs/decisions/0159).
   */
  private tagLineEnd(at: number): number {
    const text = this.text;
    if (text.charCodeAt(at) !== LT) return UNSEARCHED;
    const kind = candidateAt(text, at);
    if (kind === NONE) return UNSEARCHED;
    let after = at + (TAG_TEXT[kind] as string).length;
    let c = text.charCodeAt(after);
    if (c === CR) c = text.charCodeAt((after += 1));
    if (c !== LF || !(this.lineTags ??= new TagMatcher(text)).is(at, kind)) return UNSEARCHED;
    this.testedLineAt = at;
    this.testedLineKind = kind;
    return after;
  }

  /**
   * After a tag line, with no paragraph open and no fence: the lines from `at` (a line start) that
   * TAG_LINES matches, their tags recorded in order; returns the line start past them (or past the
   * tag that stopped the scan). Each empty line or tag line would end an open paragraph, and a code
   * span line before one is a paragraph of its own whose one span hides all it holds, so nothing
   * but the tags can come of them. On a reply with a tag on every line, each tag line cost a line
   * pass and a name search, and each code span line a paragraph scan (docs/decisions/0189).
   */
  private takeTagLines(at: number): number {
    const text = this.text;
    let line = at;
    TAG_LINES.lastIndex = at;
    while (TAG_LINES.test(text)) {
      const past = TAG_LINES.lastIndex;
      while (line < past) {
        // The expression matched: a code span line is `…` and LF, a tag line its tag, CR or not, and LF.
        if (text.charCodeAt(line) === BACKTICK) line = text.indexOf("`", line + 1) + 2;
        if (text.charCodeAt(line) === LF) {
          line += 1;
          continue;
        }
        const kind = candidateAt(text, line);
        this.record(line, kind);
        line += (TAG_TEXT[kind] as string).length;
        line += text.charCodeAt(line) === CR ? 2 : 1;
        if (this.stopped) return line;
      }
      TAG_LINES.lastIndex = past;
    }
    return line;
  }

  /** The next `<` that may open a tag at or after `position`, for the line pass (text.length when none). */
  private aheadFrom(position: number): number {
    if (this.aheadAt < position) this.aheadAt = this.nextTag(position);
    return this.aheadAt;
  }

  /**
   * When the line ending at `end`, whose first character after spaces and tabs is the `<` at
   * `from`, is one outcome tag and nothing else but whitespace, the tag's index in TAGS; else
   * NONE. The length is compared before the characters: a paragraph line that starts with a tag
   * is then mostly not matched at all. The last answer is kept: followParagraph asks about the
   * line it stops at, and the line pass then asks again.
   */
  private tagLineKind(from: number, end: number): number {
    if (from === this.testedLineAt) return this.testedLineKind;
    const text = this.text;
    let to = end;
    for (let c = text.charCodeAt(to - 1); to > from && (c === SPACE || c === TAB || c === CR); c = text.charCodeAt(to - 1)) to -= 1;
    // A line too short or too long for any tag (a line of `<p`, say) is answered before a character of it is compared.
    let kind = to - from < SHORTEST_TAG || to - from > LONGEST_TAG ? NONE : candidateAt(text, from);
    if (kind !== NONE && ((TAG_TEXT[kind] as string).length !== to - from || !(this.lineTags ??= new TagMatcher(text)).is(from, kind))) kind = NONE;
    this.testedLineAt = from;
    this.testedLineKind = kind;
    return kind;
  }

  /** A tag line, the tag at `start` of index `kind` in TAGS: it ends the open paragraph, and its tag is recorded. */
  private tagLine(start: number, kind: number): void {
    this.flush();
    if (!this.stopped) this.record(start, kind);
  }

  /** Adds the tag at `start` (its index in TAGS `kind`) to those found, and stops the scan if that decides the outcome. */
  private record(start: number, kind: number): void {
    if (this.count === this.tagStart.length) {
      const size = Math.max(16, this.count * 2);
      const starts = new Int32Array(size);
      starts.set(this.tagStart);
      const kinds = new Uint8Array(size);
      kinds.set(this.tagKind);
      this.tagStart = starts;
      this.tagKind = kinds;
    }
    this.tagStart[this.count] = start;
    this.tagKind[this.count] = kind;
    this.count += 1;
    this.names |= 1 << (kind >> 1);
    if (this.early && this.decided(kind)) this.stopped = true;
  }

  /**
   * True when the tags found so far, the last of index `kind` in TAGS, decide the outcome whatever
   * follows (docs/decisions/0136): with no `plan_clarification` anywhere in the text (that rule
   * outranks every other, so its absence must be certain), a second tag name decides
   * `conflicting_blocks`; and when only one name's tags occur in the text at all, the first opening
   * tag while a block is open, or closing tag while none is, decides `nested_block` or
   * `unopened_close`. classifyPlanReply then reads the tags up to that one and returns what it
   * would have returned for all of them. The whole-text searches run only when a tag would decide,
   * so a well-formed plan pays none.
   */
  private decided(kind: number): boolean {
    const name = kind >> 1;
    const closing = (kind & 1) === 1;
    if (this.firstName === NONE) this.firstName = name;
    else if (name !== this.firstName) return this.noClarification();
    const breaks = closing ? !this.blockOpen : this.blockOpen;
    this.blockOpen = !closing;
    // Both names present is the quicker search to settle (each is found near the first tags), so it goes first.
    return breaks && (this.oneName ??= !(this.text.includes("proposed_plan>") && this.text.includes("plan_blocked>"))) && this.noClarification();
  }

  private noClarification(): boolean {
    return !(this.clarification ??= this.text.includes("plan_clarification"));
  }

  /**
   * The offset of the first `<` at or after `from` that may open a tag and has a `>` where that tag's
   * would be (text.length when none). The line pass only needs to stop at every line that holds a
   * tag: stopping at one more line is harmless (the line is read as any other, and the paragraph
   * scan matches tags in full), and matching each `<` in full here was a third of a reply with a
   * tag on every line. A `<` without its `>` (a `<p` line) is a miss: after MISSES in a row, each
   * within CLOSE of the last, the next tag is found by its name's text (a TagMatcher of its own),
   * which skips them all, and then by `<` again. On a reply of `<p` lines every line was a stop,
   * and every paragraph one to follow line by line (docs/decisions/0188).
   */
  private nextTag(from: number): number {
    const text = this.text;
    for (let i = text.indexOf("<", from); i !== -1; i = text.indexOf("<", i + 1)) {
      const kind = candidateAt(text, i);
      if (kind === NONE) continue;
      if (text.charCodeAt(i + (TAG_TEXT[kind] as string).length - 1) === GT) {
        this.aheadMisses = 0;
        return i;
      }
      this.aheadMisses = this.aheadLastMiss !== NONE && i - this.aheadLastMiss <= CLOSE ? this.aheadMisses + 1 : 0;
      this.aheadLastMiss = i;
      if (this.aheadMisses > MISSES) {
        this.aheadMisses = 0;
        return (this.aheadTags ??= new TagMatcher(text)).nextFrom(i + 1);
      }
    }
    return this.end;
  }

  /**
   * The lines from `from` on of an open paragraph that holds a tag, added to it up to the first
   * that ends it, whose start is returned for the line pass to read: a blank line, a fence line
   * or a tag line; text.length at the end. Each line is read here, where its first character
   * decides, so no cursor searches ahead for tags that open a line or for fences.
   */
  private followParagraph(from: number): number {
    const text = this.text;
    // The first line, when it is one tag (as after a one-line paragraph on tag-dense replies):
    // matched to its end by tagLineEnd, with no search for that end. Only the first: on every line
    // of a paragraph of `<pz` lines the match cost more than the searches it saved.
    const tagLineEnd = this.tagLineEnd(from);
    if (tagLineEnd !== UNSEARCHED) {
      this.followedNewline = tagLineEnd;
      this.followedToTag = true;
      this.shortLine = false;
      return from;
    }
    // The text's end and the paragraph's end so far in locals: written to fields once, on the way out.
    const textEnd = this.end;
    let paragraphEnd = this.paragraphEnd;
    let at = from;
    let short = this.shortLine;
    while (at < textEnd) {
      // Each character is read once on a line of a few (a reply of `<p` lines is nothing else):
      // the first after spaces and tabs, then the line end searched for from the next one on.
      let first = at;
      let c = text.charCodeAt(first);
      while (c === SPACE || c === TAB) c = text.charCodeAt((first += 1));
      const newline: number = c === LF ? first : short ? indexOfNear(text, LF, "\n", first + 1) : text.indexOf("\n", first + 1);
      const end: number = newline === -1 ? textEnd : newline;
      short = end - at <= NEAR;
      if (first >= end || (c === LT && end - first >= SHORTEST_TAG && this.tagLineKind(first, end) !== NONE) || (c === CR && isBlankAt(text, first, end)) || (mayOpenFence(text, first, c) && opensFenceAt(text, at, first, end, c))) {
        this.paragraphEnd = paragraphEnd;
        this.followedNewline = newline;
        // A tag line when tagLineKind said so of this line's `<` (it is asked of no other here).
        this.followedToTag = this.testedLineAt === first && this.testedLineKind !== NONE;
        this.shortLine = short;
        return at;
      }
      paragraphEnd = end;
      // A line that starts with a backtick or `<` and ends nothing is, as a rule, one of many alike
      // (a paragraph of code spans, ```x``` lines or `<pz` lines): those like it that follow are skipped at once.
      if ((c === BACKTICK || (c === LT && end - first < SHORTEST_TAG)) && first === at && end < textEnd) {
        const past = linesLikeEnd(text, end + 1, c === BACKTICK ? BACKTICK_LINES : SHORT_LT_LINES);
        if (past > end + 1) paragraphEnd = past - 1;
        at = past;
      } else at = end + 1;
    }
    this.paragraphEnd = paragraphEnd;
    this.followedNewline = UNSEARCHED;
    this.followedToTag = false;
    this.shortLine = short;
    return textEnd;
  }

  /** The behind cursor moved to the first `<` at or after `from`. */
  private ltFrom(from: number): number {
    const at = this.text.indexOf("<", from);
    this.behindLt = at === -1 ? this.end : at;
    return this.behindLt;
  }

  private ticks3From(position: number): number {
    if (this.ticks3 < position) {
      const at = this.text.indexOf("```", position);
      this.ticks3 = at === -1 ? this.end : at;
    }
    return this.ticks3;
  }

  private tildes3From(position: number): number {
    if (this.tildes3 < position) {
      const at = this.text.indexOf("~~~", position);
      this.tildes3 = at === -1 ? this.end : at;
    }
    return this.tildes3;
  }

  private tickFrom(position: number): number {
    if (this.tick < position) {
      const at = this.text.indexOf("`", position);
      this.tick = at === -1 ? this.end : at;
    }
    return this.tick;
  }

  /** Tags in [from, to), which holds no code. */
  private scanTags(from: number, to: number): void {
    // A gap too short for a tag (the newline between two code spans, say) is common on tag-dense lines.
    if (this.stopped || to - from < SHORTEST_TAG) return;
    const text = this.text;
    const tags = (this.gapTags ??= new TagMatcher(text));
    let i = this.behindLt < from ? this.nextLt(from) : this.behindLt;
    while (i < to) {
      const kind = tags.at(i);
      if (kind === NONE) {
        this.misses = this.lastMiss !== NONE && i - this.lastMiss <= CLOSE ? this.misses + 1 : 0;
        this.lastMiss = i;
        if (this.misses > MISSES) this.byTagText = true;
        i = this.nextLt(i + 1);
        continue;
      }
      const end = i + (TAG_TEXT[kind] as string).length;
      if (end > to) break; // runs into code: no tag starts inside it, the next region moves past it
      this.record(i, kind);
      if (this.stopped) break;
      i = this.nextLt(end);
    }
  }

  /**
   * The behind cursor moved to the first place at or after `from` where a tag may start: the next
   * `<`, or, once MISSES `<` in a row have opened no tag each within CLOSE of the last, the next
   * place any tag text occurs (and from then on). A `<` that opens no tag costs a search and a
   * look; on a reply of `<p` lines that is every line, while the three names' searches skip
   * them all. Those searches cost up to three reads of the rest of the text, so a reply with a stray
   * `<` here and there never switches (ADR 0138 found them 1.8 times slower on a realistic
   * reply; the bench's tag noise, a miss every 1.5 KB, 1.7 times; docs/decisions/0159).
   */
  private nextLt(from: number): number {
    if (!this.byTagText) return this.ltFrom(from);
    this.behindLt = (this.gapTags as TagMatcher).nextFrom(from);
    return this.behindLt;
  }

  /**
   * A paragraph [from, to): pair its backtick runs into code spans, scan the text between them.
   * Runs after the paragraph's last `<` that may open a tag can hide no tag, so a long
   * paragraph's runs are collected up to the end of that `<`'s line only (its closing backtick,
   * when the tag is quoted, is on it as a rule), and the rest only when a run before it finds no
   * closer among them (that run's closer may lie past it): a tag line followed by a paragraph of
   * code spans then reads none of them (docs/decisions/0159). Reading back for that `<` costs a
   * call, which a short paragraph is not worth.
   */
  private scanParagraph(from: number, to: number): void {
    const text = this.text;
    let limit = to - from > LONG_PARAGRAPH ? this.afterLastCandidate(from, to) : to;
    let cursor = from;
    // A run followed by a run of its length (a code span, as nearly all are) is paired as found:
    // no table, no pairing pass. The first run that is not starts the collection below, which
    // pairs the rest as before (each pair is a run and the next of its length, so those before it
    // are the same). A paragraph of code spans, one per line, read 1.3 times faster (docs/decisions/0188).
    let collectFrom = this.tickFrom(from);
    while (collectFrom < limit) {
      const end = backtickRunEnd(text, collectFrom, limit);
      const closer = this.tickFrom(end);
      if (closer >= limit) break;
      const closerEnd = backtickRunEnd(text, closer, limit);
      if (closerEnd - closer !== end - collectFrom) break;
      this.scanTags(cursor, collectFrom);
      // A span that ends its line is, as a rule, one of many lines alike (a tag in code on every
      // line): the lines after it that are one such span each are paired at once.
      cursor = text.charCodeAt(closerEnd) === LF ? spanLinesEnd(text, closerEnd, to) : closerEnd;
      collectFrom = this.tickFrom(cursor);
    }
    let runs = 0;
    let k = 0;
    // Collected here, not by a method of its own: with one, V8 sometimes compiled the collection for
    // the one long paragraph of a reply seen first, and later replies of short paragraphs read 1.6
    // times slower in 5 runs of 13 (docs/decisions/0159).
    for (;;) {
      // collectFrom is a run's start (the backtick cursor may be past it) or past limit.
      for (let i = collectFrom; i < limit; i = this.tickFrom(i)) {
        let j = i + 1;
        while (j < limit && text.charCodeAt(j) === BACKTICK) j += 1;
        if (runs === this.runStart.length) this.growRuns();
        (this.runStart as Int32Array)[runs] = i;
        (this.runLength as Int32Array)[runs] = j - i;
        runs += 1;
        i = j;
      }
      if (runs < 2 && limit === to) break; // fewer than two runs make no span: the whole paragraph is read for tags
      this.pairRuns(runs);
      const { runStart, runLength, nextSame } = this;
      let rest = false;
      while (k < runs) {
        const closer = nextSame[k] as number;
        if (closer === -1 && limit < to) {
          // This run's closer may lie past the runs collected: collect the rest and pair them all,
          // then go on from this run (the pairs before it are the same: each is a run's first of its length).
          rest = true;
          break;
        }
        if (closer === -1) {
          k += 1; // an unmatched run is literal backticks
          continue;
        }
        this.scanTags(cursor, runStart[k] as number);
        cursor = (runStart[closer] as number) + (runLength[closer] as number);
        k = closer + 1;
      }
      if (!rest) break;
      collectFrom = this.tickFrom(limit);
      limit = to;
    }
    this.scanTags(cursor, to);
  }

  /**
   * The end of the line (before `to`) that holds the last `<` in [from, to) that may open a tag; `from` when there is none.
   * The line pass's ahead cursor holds the paragraph's first such `<` (it found the paragraph to hold one): the next are
   * looked for forwards from it, a few at most, since a forward search reads several times faster than a backward one
   * and the line pass reuses what it finds past `to` (a tag line followed by a MiB of ```x``` lines read it all
   * backwards, docs/decisions/0188); when more lie in the paragraph, the last is looked for backwards from `to`.
   */
  private afterLastCandidate(from: number, to: number): number {
    const text = this.text;
    let last = this.aheadAt;
    if (last >= from && last < to) {
      for (let n = 0; n < FORWARD_CANDIDATES; n += 1) {
        const next = this.aheadFrom(last + 1);
        if (next >= to) return this.lineEndWithin(last, to);
        last = next;
      }
    }
    for (let i = text.lastIndexOf("<", to - 1); i >= from; i = i > 0 ? text.lastIndexOf("<", i - 1) : -1) {
      if (mayBeTag(text, i)) return this.lineEndWithin(i, to);
    }
    return from;
  }

  /** The end of the line holding `at`, at most `to`. */
  private lineEndWithin(at: number, to: number): number {
    const newline = this.text.indexOf("\n", at);
    return newline === -1 || newline > to ? to : newline;
  }

  /**
   * nextSame[k]: the index of the next run with the same length as run k, or -1. A paragraph has
   * few runs as a rule: pairing them by a scan allocates nothing; many go through a map.
   */
  private pairRuns(runs: number): void {
    const { runLength, nextSame } = this;
    if (runs <= SMALL_RUNS) {
      for (let k = 0; k < runs; k += 1) {
        const length = runLength[k] as number;
        let next = -1;
        for (let m = k + 1; m < runs; m += 1) {
          if (runLength[m] === length) {
            next = m;
            break;
          }
        }
        nextSame[k] = next;
      }
      return;
    }
    // Short runs (nearly all) through a typed array indexed by length, longer ones through a map.
    const lastOfLength = (this.lastOfLength ??= new Int32Array(SHORT_RUN + 1)).fill(-1);
    const lastSeen = new Map<number, number>();
    for (let k = runs - 1; k >= 0; k -= 1) {
      const length = runLength[k] as number;
      if (length <= SHORT_RUN) {
        nextSame[k] = lastOfLength[length] as number;
        lastOfLength[length] = k;
      } else {
        nextSame[k] = lastSeen.get(length) ?? -1;
        lastSeen.set(length, k);
      }
    }
  }

  private growRuns(): void {
    const grown = (from: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const to = new Int32Array(Math.max(16, from.length * 2));
      to.set(from);
      return to;
    };
    this.runStart = grown(this.runStart);
    this.runLength = grown(this.runLength);
    this.nextSame = grown(this.nextSame);
  }

  private flush(): void {
    if (this.paragraphStart >= 0 && this.paragraphHasTag) this.scanParagraph(this.paragraphStart, this.paragraphEnd);
    this.paragraphStart = NONE;
    this.paragraphHasTag = false;
  }

  /**
   * Lines [from, to) hold no tag and no run of three backticks or tildes, so each is blank or
   * prose, and the open paragraph (if any) holds no tag (else followParagraph reads it): only
   * the paragraph running into `to` matters, found backwards.
   */
  private skipProse(from: number, to: number): void {
    const text = this.text;
    const at = from;
    if (to >= this.end) return; // nothing after this can hold a tag
    // to - 1 is the newline that ends the last skipped line, often a blank line before a tag.
    let lineStart = lineStartOf(text, to - 1, at);
    if (isBlankAt(text, lineStart, to - 1)) {
      this.paragraphStart = NONE;
      this.paragraphHasTag = false;
      return;
    }
    this.paragraphEnd = to - 1;
    while (lineStart > at) {
      // By lastIndexOf alone: reading back a line of prose in JS costs more than the call.
      const previous = text.lastIndexOf("\n", lineStart - 2) + 1;
      if (isBlankAt(text, previous, lineStart - 1)) {
        this.paragraphStart = lineStart;
        this.paragraphHasTag = false;
        return;
      }
      lineStart = previous;
    }
    // No blank line back to `at`: the paragraph open there (if any) runs on.
    if (this.paragraphStart < 0) this.paragraphStart = lineStart;
  }
}

const invalid = (reason: PlanInvalidReason): PlanResult => ({ outcome: "invalid", reason });

/** Replies shorter than this are read whole, with no early decision (see TagScanner.decided): that is quick. */
const EARLY_FROM = 4096;

/** Classifies a plan run's reply per ADR-0077. Pure, total and linear in the length of `text`. */
export function classifyPlanReply(text: string): PlanResult {
  if (text.trim() === "") return invalid("empty_reply");
  const scanner = new TagScanner(text, text.length >= EARLY_FROM);
  scanner.scan();
  const { count, tagStart, tagKind } = scanner;
  if (count === 0) return { outcome: "no_plan" };
  // The rules in ADR-0077's order, over the tags as numbers (see TagScanner): a name is kind >> 1.
  if ((scanner.names & (1 << CLARIFICATION)) !== 0) return invalid("legacy_clarification");
  if ((scanner.names & (scanner.names - 1)) !== 0) return invalid("conflicting_blocks"); // more than one bit
  const firstName = (tagKind[0] as number) >> 1;

  let bodies = 0;
  let bodyStart = NONE;
  let bodyEnd = NONE;
  let openEnd = NONE; // where the open block's opening tag ends, NONE when no block is open
  for (let k = 0; k < count; k += 1) {
    const kind = tagKind[k] as number;
    const start = tagStart[k] as number;
    if ((kind & 1) === 0) {
      if (openEnd !== NONE) return invalid("nested_block");
      openEnd = start + (TAG_TEXT[kind] as string).length;
    } else {
      if (openEnd === NONE) return invalid("unopened_close");
      if (bodies === 0) {
        bodyStart = openEnd;
        bodyEnd = start;
      }
      bodies += 1;
      openEnd = NONE;
    }
  }
  if (openEnd !== NONE) return invalid("unclosed_block");
  if (bodies > 1) return invalid("duplicate_block");
  const body = text.slice(bodyStart, bodyEnd).trim();
  if (body === "") return invalid("empty_block");
  return firstName === 0 ? { outcome: "plan_ready", plan: body } : { outcome: "blocked", blocked: body };
}
