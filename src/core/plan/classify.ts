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
 * backtick runs are paired through a precomputed "next run of the same length" table, so no
 * character is scanned more than a fixed number of times, whatever the input.
 */
import { type Fence, closesFenceAt, fenceOpeningAt, isBlankAt } from "./fence.ts";

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

/** One outcome tag found outside code: its name, whether it closes, and where it sits. */
export interface OutcomeTag {
  name: OutcomeTagName;
  closing: boolean;
  /** Offset of `<` in the text. */
  start: number;
  /** Offset just after `>`. */
  end: number;
}

const TAGS: ReadonlyArray<{ text: string; name: OutcomeTagName; closing: boolean }> = [
  { text: "<proposed_plan>", name: "proposed_plan", closing: false },
  { text: "</proposed_plan>", name: "proposed_plan", closing: true },
  { text: "<plan_blocked>", name: "plan_blocked", closing: false },
  { text: "</plan_blocked>", name: "plan_blocked", closing: true },
  { text: "<plan_clarification>", name: "plan_clarification", closing: false },
  { text: "</plan_clarification>", name: "plan_clarification", closing: true },
];
const LT = 60;
const BACKTICK = 96;
const SPACE = 32;
const TAB = 9;
const CR = 13;

/** True when the line [start, end) is one outcome tag and nothing else but whitespace. */
function isTagLine(text: string, start: number, end: number): boolean {
  let from = start;
  while (from < end && (text.charCodeAt(from) === SPACE || text.charCodeAt(from) === TAB)) from += 1;
  if (text.charCodeAt(from) !== LT) return false;
  let to = end;
  for (let c = text.charCodeAt(to - 1); to > from && (c === SPACE || c === TAB || c === CR); c = text.charCodeAt(to - 1)) to -= 1;
  return TAGS.some((tag) => tag.text.length === to - from && text.startsWith(tag.text, from));
}

/** Every outcome tag, anywhere: the candidates the scan below decides about. */
const TAG_PATTERN = /<\/?(?:proposed_plan|plan_blocked|plan_clarification)>/g;
const TAG_BY_TEXT = new Map(TAGS.map((tag) => [tag.text, tag]));

/** Every outcome tag outside fenced code and inline code spans, in order. */
export function findOutcomeTags(text: string): OutcomeTag[] {
  const found: OutcomeTag[] = [];

  // Forward-only cursors: the next tag (one for the line pass looking ahead, one for the scan of
  // paragraphs behind it), the next backtick, the next three-backtick and three-tilde runs. Each
  // is asked about increasing positions only, so each native search reads every character once.
  const tagCursor = (): { from: (position: number) => number; text: () => string } => {
    const pattern = new RegExp(TAG_PATTERN.source, "g");
    let next = -1;
    let found = "";
    return {
      from(position) {
        if (next < position) {
          pattern.lastIndex = position;
          const match = pattern.exec(text);
          next = match === null ? text.length : match.index;
          found = match === null ? "" : match[0];
        }
        return next;
      },
      text: () => found,
    };
  };
  const scanCursor = tagCursor();
  const aheadCursor = tagCursor();
  const cursor = (needle: string): ((position: number) => number) => {
    let next = text.indexOf(needle);
    if (next === -1) next = text.length;
    return (position) => {
      if (next < position) {
        next = text.indexOf(needle, position);
        if (next === -1) next = text.length;
      }
      return next;
    };
  };
  const tickFrom = cursor("`");
  const ticks3From = cursor("```");
  const tildes3From = cursor("~~~");

  // Tags in [from, to), which holds no code.
  const scanTags = (from: number, to: number): void => {
    let i = scanCursor.from(from);
    while (i < to) {
      const tag = TAG_BY_TEXT.get(scanCursor.text()) as (typeof TAGS)[number];
      const end = i + tag.text.length;
      if (end > to) return; // runs into code: no tag starts inside it, the next region re-searches
      found.push({ name: tag.name, closing: tag.closing, start: i, end });
      i = scanCursor.from(end);
    }
  };

  // A paragraph [from, to): pair its backtick runs into code spans, scan the text between them.
  const scanParagraph = (from: number, to: number): void => {
    const runStart: number[] = [];
    const runLength: number[] = [];
    let i = tickFrom(from);
    while (i < to) {
      let j = i + 1;
      while (j < to && text.charCodeAt(j) === BACKTICK) j += 1;
      runStart.push(i);
      runLength.push(j - i);
      i = tickFrom(j);
    }
    if (runStart.length < 2) {
      scanTags(from, to);
      return;
    }
    // nextSame[k]: the index of the next run with the same length as run k, or -1.
    const nextSame = new Array<number>(runStart.length).fill(-1);
    const lastSeen = new Map<number, number>();
    for (let k = runStart.length - 1; k >= 0; k -= 1) {
      const length = runLength[k] as number;
      nextSame[k] = lastSeen.get(length) ?? -1;
      lastSeen.set(length, k);
    }
    let from2 = from;
    let k = 0;
    while (k < runStart.length) {
      const closer = nextSame[k] as number;
      if (closer === -1) {
        k += 1; // an unmatched run is literal backticks
        continue;
      }
      scanTags(from2, runStart[k] as number);
      from2 = (runStart[closer] as number) + (runLength[closer] as number);
      k = closer + 1;
    }
    scanTags(from2, to);
  };

  let fence: Fence | null = null;
  let paragraphStart = -1;
  let paragraphEnd = -1;
  // A paragraph with no line holding a tag yields nothing, so only these are scanned.
  let paragraphHasTag = false;
  const flush = (): void => {
    if (paragraphStart >= 0 && paragraphHasTag) scanParagraph(paragraphStart, paragraphEnd);
    paragraphStart = -1;
    paragraphHasTag = false;
  };
  const lineEndOf = (start: number): number => {
    const newline = text.indexOf("\n", start);
    return newline === -1 ? text.length : newline;
  };

  /**
   * Lines [from, to) hold no tag and no run of three backticks or tildes, so each is blank or
   * prose: only paragraph boundaries can change. An open paragraph that holds a tag is followed
   * to its end; after that only the paragraph running into `to` matters, found backwards.
   */
  const skipProse = (from: number, to: number): void => {
    let at = from;
    if (paragraphHasTag) {
      while (at < to) {
        const end = lineEndOf(at);
        if (isBlankAt(text, at, end)) {
          flush();
          break;
        }
        paragraphEnd = end;
        at = end + 1;
      }
      if (at >= to) return;
    }
    if (to >= text.length) return; // nothing after this can hold a tag
    // to - 1 is the newline that ends the last skipped line.
    let lineStart = text.lastIndexOf("\n", to - 2) + 1;
    if (isBlankAt(text, lineStart, to - 1)) {
      paragraphStart = -1;
      paragraphHasTag = false;
      return;
    }
    paragraphEnd = to - 1;
    while (lineStart > at) {
      const previous = text.lastIndexOf("\n", lineStart - 2) + 1;
      if (isBlankAt(text, previous, lineStart - 1)) {
        paragraphStart = lineStart;
        paragraphHasTag = false;
        return;
      }
      lineStart = previous;
    }
    // No blank line back to `at`: the paragraph open there (if any) runs on.
    if (paragraphStart < 0) paragraphStart = lineStart;
  };

  let lineStart = 0;
  for (;;) {
    // Jump to the line holding the next thing that can matter.
    const next =
      fence === null ? Math.min(aheadCursor.from(lineStart), ticks3From(lineStart), tildes3From(lineStart)) : fence.char === "`" ? ticks3From(lineStart) : tildes3From(lineStart);
    const target = next >= text.length ? text.length : text.lastIndexOf("\n", next - 1) + 1;
    if (target > lineStart) {
      if (fence === null) skipProse(lineStart, target);
      lineStart = target;
    }
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    if (fence !== null) {
      if (closesFenceAt(text, lineStart, lineEnd, fence)) fence = null;
    } else {
      const opening = fenceOpeningAt(text, lineStart, lineEnd);
      if (opening !== null) {
        flush();
        fence = opening;
      } else if (isBlankAt(text, lineStart, lineEnd)) {
        flush();
      } else if (isTagLine(text, lineStart, lineEnd)) {
        flush();
        scanTags(lineStart, lineEnd);
      } else {
        if (paragraphStart < 0) paragraphStart = lineStart;
        paragraphEnd = lineEnd;
        if (aheadCursor.from(lineStart) < lineEnd) paragraphHasTag = true;
      }
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  flush();
  return found;
}

const invalid = (reason: PlanInvalidReason): PlanResult => ({ outcome: "invalid", reason });

/** Classifies a plan run's reply per ADR-0077. Pure, total and linear in the length of `text`. */
export function classifyPlanReply(text: string): PlanResult {
  if (text.trim() === "") return invalid("empty_reply");
  const tags = findOutcomeTags(text);
  if (tags.length === 0) return { outcome: "no_plan" };
  if (tags.some((tag) => tag.name === "plan_clarification")) return invalid("legacy_clarification");
  const first = tags[0] as OutcomeTag;
  if (tags.some((tag) => tag.name !== first.name)) return invalid("conflicting_blocks");

  const bodies: string[] = [];
  let open: OutcomeTag | null = null;
  for (const tag of tags) {
    if (!tag.closing) {
      if (open !== null) return invalid("nested_block");
      open = tag;
    } else {
      if (open === null) return invalid("unopened_close");
      bodies.push(text.slice(open.end, tag.start));
      open = null;
    }
  }
  if (open !== null) return invalid("unclosed_block");
  if (bodies.length > 1) return invalid("duplicate_block");
  const body = (bodies[0] as string).trim();
  if (body === "") return invalid("empty_block");
  return first.name === "proposed_plan" ? { outcome: "plan_ready", plan: body } : { outcome: "blocked", blocked: body };
}
