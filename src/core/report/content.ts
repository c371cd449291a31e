/**
 * Content blocks: statements of a reply that are not statements about the work (ADR 0089: "example
 * content the person asked for … is content"; docs/decisions/0122). A status word inside them —
 * "Not started" in a plan's table, "fails" in a list of what a test expects, "In progress" in a
 * markdown sample — says nothing about whether the work is done, so the clause rows skip them.
 *
 * - a sample: after "Here's a markdown sample …:" / "Here is an example config:", every later
 *   statement (a sample runs to the end of the reply as often as not, and has headings of its own);
 * - findings: after "Key findings:" / "Here's what I found:", every later statement (ADR 0089: a
 *   review's findings are not a claim, and what they list as missing is not this turn's work);
 * - a plan or a set of options: the list or table right after "Two execution options:", "Here's the
 *   plan I'd follow:", "Proposed approach:", "Would you like me to:" (until a line that is neither);
 * - a description: the list or table right after a line that introduces expectations, cases,
 *   scenarios, risks or a set of states, modes or fields — "The test now expects:", "This helps
 *   diagnose scenarios like:", "X tests the flow:", "Risks I see:", "Added the three upload states:".
 *
 * - a design table: a table whose header names no status column (status, result, outcome,
 *   progress, done, pass/fail, verdict) and none of whose cells is a status mark (✅, "fail (2 of 31)",
 *   "blocked: …"); its cells describe options, states or risks, not this turn's work;
 * - a quotation: a block-quote line (`> …`), someone else's words or a program's output — but not a
 *   callout ("> Note: …"), which is the agent's own.
 *
 * One pass over the statements, each tested against a few bounded expressions: linear.
 */
import { isListItem, isSpaceCode } from "./clauses.ts";
import { BAR, ENDS_IN_S, EVERY_MARK, QUOTE_MARK, TRIMMED_ENDS_COLON } from "./marks.ts";

/**
 * A question put to the person whose options follow ("Would you like me to:", "Do you want to:",
 * "Would you like to commit this fix? I can suggest a message:"): its list holds the options, work
 * proposed, not done (as a plan's), and it is not a description, though "like …:" reads as one
 * (docs/decisions/0140).
 */
export const ASK_LEAD_IN = /^\W*(?:would you like|do you want|want)(?: me)? to\b[^:\n]{0,100}:\W*$|^\W*(?:should|shall) I\W*:\W*$/i;

/**
 * A question the reply reports something else putting — "The CLI prompts: Do you want to continue? (y/n)", "the modal shows
 * Would you like to save your changes?" — is a program's or another's words, not the reply's ask (0089: a quotation is
 * someone's words), so the ending reads it as QUOTE (docs/decisions/0231). Only a question that opens with a capital right
 * after the verb, within its sentence, and not the agent's own act ("Want me to show CODE in the footer?"): "The log shows
 * Phase 2 passes. Should I go on?" keeps its ask.
 */
const REPORTED_ASK = /(?<!\b(?:to|I|we|you|will|'ll|can|could|should|would|may|might|must) )\b(asks?|asked|prompts?|prompted|shows?|showed|displays?|displayed|prints?|printed|says|said|reads|(?:replies|replied|responds|responded) with|outputs|renders)(?: (?:the user|users|you|them))?(?:\s*:\s*|\s+)(?=[A-Z])(?!(?:I|CODE|QUOTE)\b)[^\n?.!]{1,200}\?(?:\s*\([^)\n]{0,20}\))?/g;

/** The ending with each reported question (REPORTED_ASK) read as QUOTE; an ending without a question mark is returned as it is. */
export function withoutReportedAsks(ending: string): string {
  return ending.includes("?") ? ending.replace(REPORTED_ASK, "$1 QUOTE") : ending;
}

/** Intro rows, each with the id `--explain` names when a block of its kind is skipped. */
export const CONTENT_INTROS: ReadonlyArray<{ id: string; reach: "rest" | "block"; pattern: RegExp }> = [
  { id: "content.ask", reach: "block", pattern: ASK_LEAD_IN },
  { id: "content.sample", reach: "rest", pattern: /^\W*here(?:'s| is| are)\b[^:\n]{0,120}\b(?:samples?|examples?|markdown|templates?|demos?|mock-?ups?)\b[^:\n]{0,80}:\s*$/i },
  // Findings of a review or an exploration: what the code has and lacks, not the state of this turn's work.
  { id: "content.findings", reach: "rest", pattern: /^\W*(?:(?:key|main|my|review) )?findings\W*:?\s*$|\bkey findings:\s*$|\bhere(?:'s| is) what I found\b[^:\n]{0,40}:\s*$/i },
  { id: "content.plan", reach: "block", pattern: /\b(?:plan|proposals?|propose[sd]?|outline|approach(?:es)?|options|alternatives)\b[^:\n]{0,100}:\s*$/i },
  {
    id: "content.description",
    reach: "block",
    pattern: /\b(?:expects?|expected|expectations?|verif(?:y|ies)|scenarios?|cases|such as|like|e\.g\.|for example|diagnose|behaviou?rs?|asserts?|tests (?:the|that|how|whether|for|each|all)|risks?|concerns?|caveats?|trade-?offs?|edge cases|states|statuses|modes|fields|values|levels|phases|kinds|columns|flags|events)\b[^:\n]{0,80}:\s*$/i,
  },
];

/** A block-quote line, and the callouts ("> **Note:** …", "> [!WARNING]") that are the agent's own words. */
const QUOTE_LINE = /^\s{0,3}>/;
const CALLOUT = /^\s{0,3}>\s*(?:\[!|(?:note|warning|important|caveat|heads up|caution)\b|⚠|ℹ)/i;

const FINDINGS_TAIL = /findings\W*$/i;

/**
 * Whether the last word character of `text` (A–Z, a–z, 0–9, _) is an s: a cheap test that FINDINGS_TAIL and
 * analyze.ts's LIMITS_LINE ("findings", "limits", "caveats", then only other characters) need, before either runs
 * (docs/decisions/0187). `within` bounds how far from the end that character may be.
 */
export function endsInS(text: string, within = text.length): boolean {
  for (let k = text.length - 1; k >= 0 && k >= text.length - within; k -= 1) {
    const c = text.charCodeAt(k);
    const word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (word) return c === 115 || c === 83;
  }
  return false;
}
const TABLE_ROW = /^\s*\|/;
/** TABLE_ROW, after the cheap test that the line has a bar at all (docs/decisions/0187). */
const isTableRow = (line: string): boolean => line.includes("|") && TABLE_ROW.test(line);
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const STATUS_HEADER = /\b(?:status|result|results|outcome|progress|done|pass|passed|fail|failed|verdict|checked)\b|[✅❌⏳🚧]/iu;
const STATUS_CELL = /^(?:✅|❌|⏳|🚧|✓|✗|✔|✘|pass(?:ed|ing)?|fail(?:ed|ing|s)?|done|ok|todo|to do|blocked|pending|not started|in progress|skipped|partial)(?:\s*[(:—–-].*)?$/iu;

/** Whether a table (its rows, header first) reports status: a status header, or a status mark in some cell. */
function isStatusTable(rows: readonly string[]): boolean {
  if (STATUS_HEADER.test(rows[0] ?? "")) return true;
  for (const row of rows) {
    if (TABLE_SEPARATOR.test(row)) continue;
    for (const cell of row.split("|")) if (STATUS_CELL.test(cell.trim())) return true;
  }
  return false;
}

/** Marks the rows of every design table (see above) as content. */
function markDesignTables(statements: readonly string[], content: boolean[], marks: Uint16Array | undefined): void {
  for (let i = 0; i < statements.length; ) {
    // A statement without a bar is no table row (marks.ts; docs/decisions/0193).
    const m = marks === undefined ? EVERY_MARK : (marks[i] as number);
    if ((m & BAR) === 0 || !isTableRow(statements[i] as string)) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < statements.length && isTableRow(statements[end] as string)) end += 1;
    // A table has a separator row under its header; a lone "| x |" line is left as it is.
    if (end - i >= 2 && TABLE_SEPARATOR.test(statements[i + 1] as string) && !isStatusTable(statements.slice(i, end) as string[])) {
      for (let k = i; k < end; k += 1) content[k] = true;
    }
    i = end;
  }
}

/** Whether one of the first four characters is ">" (QUOTE_LINE's mark must be there). */
function gtInFirstFour(line: string): boolean {
  const n = Math.min(line.length, 4);
  for (let i = 0; i < n; i += 1) if (line.charCodeAt(i) === 62) return true;
  return false;
}

/** The code of the last character of `line` that is not white space (`line.trimEnd().at(-1)`), or -1. */
function lastNonSpace(line: string): number {
  let k = line.length - 1;
  while (k >= 0 && isSpaceCode(line.charCodeAt(k))) k -= 1;
  return k < 0 ? -1 : line.charCodeAt(k);
}

/** A block is the list items and table rows after its intro (blank lines between them allowed). */
const isBlockLine = (line: string): boolean => isListItem(line) || isTableRow(line);

/** Which statements are content, and the intro that made each block (for `--explain`). */
export function contentStatements(statements: readonly string[], marks?: Uint16Array): { content: boolean[]; intros: Array<{ id: string; clause: string }> } {
  const content = new Array<boolean>(statements.length).fill(false);
  const intros: Array<{ id: string; clause: string }> = [];
  markBlocks(statements, content, intros, marks);
  markDesignTables(statements, content, marks);
  return { content, intros };
}

/**
 * The intro-led blocks and quotations, marked in `content`. Its own function: V8 optimizes the loop mid-call, and code
 * after the loop in the same function that had never run sent every call of a long reply back to the interpreter
 * (seen with --trace-deopt; docs/decisions/0187).
 */
function markBlocks(statements: readonly string[], content: boolean[], intros: Array<{ id: string; clause: string }>, marks: Uint16Array | undefined): void {
  let block = false;
  for (let i = 0; i < statements.length; i += 1) {
    const line = statements[i] as string;
    if (block && isBlockLine(line)) {
      content[i] = true;
      continue;
    }
    block = false;
    // QUOTE_LINE needs a ">" within the first four characters: a cheap test first (docs/decisions/0187), read as codes (0193).
    // A statement's marks (marks.ts) say which of the cheap tests below can pass (docs/decisions/0193).
    const m = marks === undefined ? EVERY_MARK : (marks[i] as number);
    if ((m & QUOTE_MARK) !== 0 && gtInFirstFour(line) && QUOTE_LINE.test(line) && !CALLOUT.test(line)) {
      content[i] = true;
      if (intros.at(-1)?.id !== "content.quote") intros.push({ id: "content.quote", clause: line.slice(0, 200) });
      continue;
    }
    // Every intro ends with a colon, or with "findings": most lines skip the rows. The last character but white space is
    // the trimmed line's last; trailing white space changes neither endsInS nor FINDINGS_TAIL (docs/decisions/0193).
    const intro = line.length > 400 || (m & (TRIMMED_ENDS_COLON | ENDS_IN_S)) === 0 || !(lastNonSpace(line) === 58 || (endsInS(line) && FINDINGS_TAIL.test(line))) ? undefined : CONTENT_INTROS.find((row) => row.pattern.test(line));
    if (intro === undefined) continue;
    intros.push({ id: intro.id, clause: line.slice(0, 200) });
    if (intro.reach === "rest") {
      for (let k = i + 1; k < statements.length; k += 1) content[k] = true;
      break;
    }
    block = true;
  }
}
