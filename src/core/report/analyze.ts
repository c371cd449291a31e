/**
 * The final-report analyzer: what the first line of a final reply says and how the reply ends.
 * Every run and every imported session passes through it, so it is pure, linear and explainable:
 * each boolean field comes from rows of one commented pattern table (REPORT_PATTERNS), and
 * `reportPatternHits` names the rows that fired.
 *
 * Where each field looks (all of them ignore fenced code; see ../plan/fence.ts):
 *
 * | field                | reads                                                                   |
 * |----------------------|-------------------------------------------------------------------------|
 * | `firstLine`          | the first non-empty line, heading and emphasis markers removed          |
 * | `firstLineRaw`       | the same line as written (trimmed)                                       |
 * | `claimsComplete`     | the opening (first two lines outside code, headings included) says the  |
 * |                      | work is done, and nothing in the reply says part of it is not           |
 * | `statesUnfinished`   | any sentence (prose or heading) says part of the work is not done,      |
 * |                      | remains, could not be done, or is blocked or waiting                    |
 * | `givesReasonAndNext` | statesUnfinished, and the prose names a reason and a next step          |
 * | `asksPermission`     | the ending asks the person whether (or how) to go on                    |
 * | `fillerEnding`       | the last sentence of the last prose line carries no information         |
 * | `headings`           | ATX (`## x`) and setext (`x` / `===`) headings, markers removed         |
 * | `chars`              | `text.length` (UTF-16 code units, as budgets count them)                |
 * | `tokens`             | o200k tokens of the whole text (src/core/tokens.ts)                      |
 *
 * "The ending" is the last prose paragraph; when that paragraph starts with "Or", it continues a
 * question, so the paragraph before it joins. Inline code spans (paired within a line here; a span
 * across lines is rare in replies and would only expose a few words) are replaced by the word
 * `CODE` before matching, so a quoted "`Should I continue?`" is not a question. Curly quotes are
 * straightened first. Whether the unfinished state is on the first line is
 * `analyzeFinalReport(result.firstLine).statesUnfinished`: the fields compose.
 */
import { TokenCounter, countTokens } from "../tokens.ts";
import { type Fence, closesFence, fenceOpening, isBlankLine } from "../plan/fence.ts";

export interface FinalReportAnalysis {
  firstLine: string;
  firstLineRaw: string;
  claimsComplete: boolean;
  statesUnfinished: boolean;
  givesReasonAndNext: boolean;
  asksPermission: boolean;
  fillerEnding: boolean;
  headings: string[];
  chars: number;
  tokens: number;
}

/** Which part of the reply a row is matched against. */
/**
 * - `opening`: each of the first two lines outside code (headings included);
 * - `body`: every prose line and heading outside code, one per line (patterns never cross a line);
 * - `ending`: the last paragraph, with the one before it when the last starts with "Or";
 * - `lastSentence`: the last sentence of the last prose line, trailing emoji removed.
 */
export type PatternScope = "opening" | "body" | "ending" | "lastSentence";
export type PatternGroup = "complete" | "unfinished" | "reason" | "next" | "permission" | "filler";

export interface ReportPattern {
  id: string;
  group: PatternGroup;
  scope: PatternScope;
  pattern: RegExp;
}

/**
 * The pattern table. Every row: an id, the group it feeds, where it is matched, and a comment that
 * says what it catches. Rows avoid nested or unbounded wildcards, so matching is linear in the
 * length of what they read; `[^?\n]{0,200}` style bounds keep a question's tail short.
 */
export const REPORT_PATTERNS: readonly ReportPattern[] = [
  // --- claimsComplete: the opening says the requested work is done --------------------------
  // A sentence that opens with a completion word: "Done.", "Fixed!", "All set", "All committed".
  { id: "complete.word", group: "complete", scope: "opening", pattern: /(?:^|[.!?:]\s+|^\W+)(?:done|fixed|updated|completed?|finished|resolved|all set|all done|all clean|all committed)\b/i },
  // A sentence that opens with a past-tense action verb summarising the change: "Implemented X", "Changed Y".
  { id: "complete.verb", group: "complete", scope: "opening", pattern: /(?:^|[.!?]\s+)(?:added|changed|created|implemented|updated|removed|deleted|moved|renamed|replaced|switched|restored|refactored|rewrote|wrote|ported|merged|committed|pushed|migrated|converted|simplified|installed|configured|set up|made the following changes)\b/i },
  // The speaker reports finished actions: "I've ported", "I have successfully completed", "We've added".
  { id: "complete.ive", group: "complete", scope: "opening", pattern: /\b(?:I|we)(?:'ve| have)(?: (?:now|just|also|successfully|properly|finally))? (?:[a-z]+ed|made|built|written|rewritten|done|set up|put|split|run)\b/i },
  // A thing is in a finished state: "everything is committed", "tests are passing", "should be working now".
  { id: "complete.state", group: "complete", scope: "opening", pattern: /\b(?:is|are|'s|should be|now)(?: now| all)? (?:done|complete|completed|finished|fixed|resolved|in place|working|passing|committed|merged|deployed)\b/i },
  // A noun followed by a sentence-final completion word: "Refactor complete.", "All six tasks done."
  { id: "complete.final", group: "complete", scope: "opening", pattern: /\b[a-z]+ (?:complete|completed|done|finished)(?:[.!:]|$)/i },
  // The checks pass: "All tests pass", "the build succeeds", "Everything is working".
  { id: "complete.checks", group: "complete", scope: "opening", pattern: /\b(?:all (?:tests|checks)|tests?|build|everything) (?:now )?(?:pass|passes|passed|succeeds|succeeded|works|worked)\b|\beverything (?:is )?working\b/i },
  // Something worked: "The refactor worked."
  { id: "complete.worked", group: "complete", scope: "opening", pattern: /\bthe [a-z]+ worked\b/i },

  // --- statesUnfinished: some of the work is not done --------------------------------------
  // Negated completion: "not finished", "isn't complete", "not yet implemented", "not done yet".
  { id: "unfinished.not", group: "unfinished", scope: "body", pattern: /\b(?:not|n't|never)(?: yet| been| all)? (?:done|finished|complete|completed|implemented|fixed|resolved|started|working|updated|run|tested)\b/i },
  // The plain words: "incomplete", "unfinished", "partially done", "partly".
  { id: "unfinished.word", group: "unfinished", scope: "body", pattern: /\b(?:incomplete|unfinished|partially|partly|half-done)\b/i },
  // A label or verb for leftover work: "Remaining:", "still to do", "left to do", "the UI part remains".
  { id: "unfinished.remaining", group: "unfinished", scope: "body", pattern: /\bremaining(?: work| steps?| items?| tasks?| parts?)?(?: from [^:\n]{1,60})?:|\b(?:still|yet) to (?:do|be done)\b|\bleft to do\b|\b(?:part|parts|step|steps|work|task|tasks|item|items|rest) (?:still )?remains?\b/i },
  // Still broken: "two tests still fail", "still failing", "still missing".
  { id: "unfinished.still", group: "unfinished", scope: "body", pattern: /\bstill (?:fails?|failing|broken|missing|pending|open|red)\b/i },
  // The speaker could not do it: "I couldn't inspect", "we were unable to", "I don't have a way to".
  { id: "unfinished.cannot", group: "unfinished", scope: "body", pattern: /\b(?:I|we) (?:couldn't|could not|can't|cannot|was unable to|were unable to|wasn't able to|weren't able to|didn't get to|did not get to|ran out of|don't have (?:a way|access)|do not have (?:a way|access))\b/i },
  // Stopped or blocked: "Blocked:", "blocked on", "stopped before step 4", "waiting for their replies".
  { id: "unfinished.blocked", group: "unfinished", scope: "body", pattern: /\bblocked\b|\bstopped (?:before|at|after|short)\b|\bwaiting (?:for|on)\b/i },

  // --- givesReasonAndNext: a reason ... -------------------------------------------------------
  // Why the work stopped: a cause word, a failure, a missing thing, a limit, or an inability.
  { id: "reason.cause", group: "reason", scope: "body", pattern: /\b(?:because|since|due to|caused by|blocked (?:by|on)|requires?|needs?|missing|fails?|failed|failing|errors?|denied|without|waiting (?:for|on)|ran out|timed out|limit|policy|given the|couldn't|could not|can't|cannot|unable|don't have|do not have)\b/i },
  // ... or a failing status: "returns 401", "answered with a 503", "exit code 1".
  { id: "reason.status", group: "reason", scope: "body", pattern: /\b(?:returns?|returned|responds?|responded|answers?|answered) (?:with )?(?:an? )?[45]\d\d\b|\bexit(?:ed)? (?:with )?(?:code|status) [1-9]/i },
  // ... and a next step: "Next:", "to continue, run", "once it's set", "I'll finish", "you need to".
  { id: "next.step", group: "next", scope: "body", pattern: /\bnext(?: step| steps)?\b|\bto (?:continue|finish|complete|unblock|resume)\b|\bonce\b|\b(?:re-?run|retry)\b|\b(?:please )?(?:run|share|send|paste|provide|set) (?:CODE|the|a|it|them|me)\b|\bI(?:'ll| will) (?:finish|continue|resume|turn|complete|pick)\b|\byou (?:need|can|could|should|must) (?:to )?(?:run|set|add|provide|share|paste|sign|log|install|approve|test|give)\b|\bwhen (?:ready|you're ready)\b|\bshould I continue\b|\bcontinue with\b/i },

  // --- asksPermission: the ending asks whether (or how) to go on -----------------------------
  // "Should I proceed?", "Shall I continue with the docs?", "Can we merge it?"
  { id: "permission.should", group: "permission", scope: "ending", pattern: /\b(?:should|shall|can|may) (?:I|we)\b[^?\n]{0,200}\?/i },
  // "Do you want me to…", "Would you like me to…"
  { id: "permission.want-me", group: "permission", scope: "ending", pattern: /\b(?:do|would) you (?:want|like) me to\b/i },
  // A clipped question: "Want me to begin?", "Want to test more or move on?"
  { id: "permission.clipped", group: "permission", scope: "ending", pattern: /(?:^|[.!?]\s+)(?:want|wanna) (?:me )?to\b[^?\n]{0,200}\?/i },
  // "Let me know if you'd like me to…", "let me know if I should…"
  { id: "permission.let-me-know", group: "permission", scope: "ending", pattern: /\blet me know if (?:you'd like|you would like|you want|you'd want) me to\b|\blet me know if I should\b/i },
  // "Ready to proceed with implementation?", "Ready for the next task?"
  { id: "permission.ready", group: "permission", scope: "ending", pattern: /\bready (?:for me )?to (?:proceed|start|begin|continue|implement|move on|go ahead)\b[^?\n]{0,200}\?|\bready for (?:the )?next\b[^?\n]{0,200}\?/i },
  // A choice about the next move: "Or would you prefer…", "Or do you want a patch release?"
  { id: "permission.prefer", group: "permission", scope: "ending", pattern: /\bwould you prefer\b|\bdo you want (?:a|an|the|to)\b[^?\n]{0,200}\?/i },
  // Approval of a proposed plan: "Does that sound good?", "Does this look right?"
  { id: "permission.sound-good", group: "permission", scope: "ending", pattern: /\b(?:does|do) (?:that|this|the plan) (?:sound|look) (?:good|ok|okay|right|fine)\b/i },
  // A bare go-ahead question: "OK to proceed?", "Proceed?"
  { id: "permission.proceed", group: "permission", scope: "ending", pattern: /\b(?:ok|okay) to (?:proceed|continue|go ahead)\b|(?:^|[.!?]\s+)proceed\?/i },

  // --- fillerEnding: the last sentence says nothing -------------------------------------------
  // "Nothing needed", "Nothing needed next", "Nothing else is required", "Nothing further to do".
  { id: "filler.nothing-needed", group: "filler", scope: "lastSentence", pattern: /^nothing (?:else |more |further )?(?:is )?(?:needed|required|to do)(?: next| from you| on your (?:side|end))?[.!]*$/i },
  // "No action required", "No further action needed", "No changes needed from you".
  { id: "filler.no-action", group: "filler", scope: "lastSentence", pattern: /^no (?:further |other |more )?(?:action|actions|changes|steps|follow-up)(?: is| are)? (?:needed|required|necessary)(?: next| from you| on your (?:side|end))?[.!]*$/i },
  // An empty next-step line: "Next steps: none", "Next: nothing".
  { id: "filler.next-none", group: "filler", scope: "lastSentence", pattern: /^(?:next steps?|next|what's next|to do next)\s*:\s*(?:none|nothing|n\/a)[.!]*$/i },
  // A generic sign-off: "Hope this helps!", "Happy coding!", "Let me know if you have any questions."
  { id: "filler.sign-off", group: "filler", scope: "lastSentence", pattern: /^(?:hope (?:this|that) helps|happy coding|let me know if you have (?:any )?(?:other |more |further )?questions|let me know if (?:you need|there's) anything else|feel free to (?:ask|reach out)\b[^.!?\n]{0,80})[.!]*$/i },
];

/** The parts of a reply the table reads. */
interface Prose {
  firstLineRaw: string;
  headings: string[];
  /** Prose lines outside fenced code, inline code replaced, quotes straightened; headings excluded. */
  lines: string[];
  /** Indices into `lines` where a paragraph starts. */
  paragraphStarts: number[];
  /** The first two lines outside code, headings included, cleaned like `lines`. */
  opening: string[];
  /** Prose lines and heading texts in document order: a heading such as "Not finished" is a statement. */
  statements: string[];
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t\r]*$/;
const NOT_SETEXT_TEXT = /^ {0,3}(?:[-*+>|]|\d{1,9}[.)])(?:\s|$)/;

/** Straightens curly quotes so patterns need only one apostrophe. */
function straighten(text: string): string {
  return text.replace(/[\u2018\u2019\u02BC]/g, "'").replace(/[\u201C\u201D]/g, '"');
}

/** Splits a line into code spans and text, CommonMark style within the line. */
function splitCode(line: string): Array<{ code: boolean; text: string }> {
  if (!line.includes("`")) return [{ code: false, text: line }];
  const runs: Array<{ at: number; length: number }> = [];
  for (let i = 0; i < line.length; i += 1) {
    if (line.charCodeAt(i) !== 96) continue;
    let j = i;
    while (j < line.length && line.charCodeAt(j) === 96) j += 1;
    runs.push({ at: i, length: j - i });
    i = j - 1;
  }
  const nextSame = new Array<number>(runs.length).fill(-1);
  const lastSeen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k -= 1) {
    const run = runs[k] as { at: number; length: number };
    nextSame[k] = lastSeen.get(run.length) ?? -1;
    lastSeen.set(run.length, k);
  }
  const parts: Array<{ code: boolean; text: string }> = [];
  let cursor = 0;
  for (let k = 0; k < runs.length; k += 1) {
    const closer = nextSame[k] as number;
    if (closer === -1) continue;
    const open = runs[k] as { at: number; length: number };
    const close = runs[closer] as { at: number; length: number };
    if (open.at > cursor) parts.push({ code: false, text: line.slice(cursor, open.at) });
    parts.push({ code: true, text: line.slice(open.at, close.at + close.length) });
    cursor = close.at + close.length;
    k = closer;
  }
  if (cursor < line.length) parts.push({ code: false, text: line.slice(cursor) });
  return parts;
}

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

/** A prose line as the patterns read it: quotes straightened, code spans as `CODE`, emphasis gone. */
function clean(line: string): string {
  return splitCode(straighten(line))
    .map((part) => (part.code ? "CODE" : stripEmphasisText(part.text)))
    .join("")
    .trim();
}

/** Reads the reply once: fences, headings, prose lines and paragraphs. */
function readProse(text: string): Prose {
  const prose: Prose = { firstLineRaw: "", headings: [], lines: [], paragraphStarts: [], opening: [], statements: [] };
  let fence: Fence | null = null;
  let paragraph: string[] = [];
  let paragraphOpen = false;
  const endParagraph = (): void => {
    paragraph = [];
    paragraphOpen = false;
  };
  for (const rawLine of text.split("\n")) {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    if (prose.firstLineRaw === "" && !isBlankLine(line)) prose.firstLineRaw = line.trim();
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
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
    if (ATX.test(line)) {
      const heading = plainLine(line);
      if (heading !== "") prose.headings.push(heading);
      if (heading !== "") {
        if (prose.opening.length < 2) prose.opening.push(clean(heading));
        prose.statements.push(clean(heading));
      }
      endParagraph();
      continue;
    }
    if (paragraphOpen && paragraph.length > 0 && SETEXT.test(line)) {
      // The paragraph above was a setext heading: move it from prose to headings.
      const heading = paragraph.map(plainLine).join(" ");
      prose.lines.splice(prose.lines.length - paragraph.length, paragraph.length);
      while (prose.paragraphStarts.length > 0 && (prose.paragraphStarts.at(-1) as number) >= prose.lines.length) prose.paragraphStarts.pop();
      if (heading !== "") prose.headings.push(heading);
      // The heading's text is already among the statements, as the paragraph lines it came from.
      endParagraph();
      continue;
    }
    if (!paragraphOpen) {
      prose.paragraphStarts.push(prose.lines.length);
      paragraphOpen = true;
    }
    // A list item or quote line cannot be a setext heading's text; mark it so.
    if (NOT_SETEXT_TEXT.test(line)) paragraph = [];
    else paragraph.push(line);
    const cleaned = clean(line);
    prose.lines.push(cleaned);
    prose.statements.push(cleaned);
    if (prose.opening.length < 2) prose.opening.push(cleaned);
  }
  return prose;
}

/** Sentences of one line: split after `.`, `!` or `?` followed by a space. */
function sentences(line: string): string[] {
  return line.split(/(?<=[.!?])\s+/).filter((s) => s !== "");
}

/** The parts each scope reads. */
function scopes(prose: Prose): Record<PatternScope, string[]> {
  const openingLines = prose.opening.map((line) => line.slice(0, 600));
  const paragraphs: string[] = prose.paragraphStarts.map((start, k) =>
    prose.lines.slice(start, prose.paragraphStarts[k + 1] ?? prose.lines.length).join("\n"),
  );
  let ending = paragraphs.at(-1) ?? "";
  if (/^or\b/i.test(ending) && paragraphs.length > 1) ending = `${paragraphs.at(-2) as string}\n${ending}`;
  const lastLine = prose.lines.at(-1) ?? "";
  // The last sentence, after trailing emoji ("Happy coding! 🚀"); capped, since fillers are short.
  const lastSentence = sentences(lastLine.slice(-400).replace(/[\p{Extended_Pictographic}\uFE0F\u200D\s]+$/u, "")).at(-1) ?? "";
  return {
    opening: openingLines,
    body: [prose.statements.join("\n")],
    ending: [ending.slice(-3000)],
    lastSentence: [lastSentence],
  };
}

function matchingRows(parts: Record<PatternScope, string[]>): ReportPattern[] {
  return REPORT_PATTERNS.filter((row) => parts[row.scope].some((part) => row.pattern.test(part)));
}

/** The ids of the table rows that match `text`, in table order: why a field came out as it did. */
export function reportPatternHits(text: string): string[] {
  return matchingRows(scopes(readProse(text))).map((row) => row.id);
}

/**
 * Analyzes a final reply. Pure apart from token counting; pass a TokenCounter to reuse counts
 * across many replies (an importer reading a long session, a study over many runs).
 */
export function analyzeFinalReport(text: string, counter?: TokenCounter): FinalReportAnalysis {
  const prose = readProse(text);
  const parts = scopes(prose);
  const fired = new Set(matchingRows(parts).map((row) => row.group));
  const statesUnfinished = fired.has("unfinished");
  return {
    firstLine: plainLine(prose.firstLineRaw),
    firstLineRaw: prose.firstLineRaw,
    claimsComplete: fired.has("complete") && !statesUnfinished,
    statesUnfinished,
    givesReasonAndNext: statesUnfinished && fired.has("reason") && fired.has("next"),
    asksPermission: fired.has("permission"),
    fillerEnding: fired.has("filler"),
    headings: prose.headings,
    chars: text.length,
    tokens: counter ? counter.count(text) : countTokens(text),
  };
}
