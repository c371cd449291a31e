/**
 * The analyzer's cheap gates (docs/decisions/0187): for some clause rows of the table (patterns.ts), words that every
 * match of the row's pattern contains — a word or a mark each alternative of the row spells out. A joined text that
 * holds none of them cannot fire the row, so the row's own scan (long alternations, look-behinds tried at every
 * position) is skipped; where the gate admits the text, the row runs exactly as before. A gate never decides a row fires.
 *
 * Most gates are lists of lower-case ASCII words, looked up with indexOf in the text lower-cased once (a row read with
 * /i and no u flag folds only ASCII letters, so its match lower-cases to a text that holds the word). A row read with
 * /iu (Unicode folding: "ſ" matches "s") keeps an expression with its own flags.
 *
 * indexOf stops at every occurrence of a word's first character: for a gate whose words open with characters prose is
 * full of (a space, n, t, e, s, a), one alternation of its words over the lower-cased text reads it faster (measured on
 * the bench's short lines, where every gate reads the whole text); those gates are marked `ONE_PASS`.
 *
 * Every gate is written from its row's alternatives, as they stand. test/core/report/gates.test.ts pins each gated
 * row's pattern: a row whose pattern changes fails there until its gate is read again.
 */
import { DERIVED_GATES } from "./derived-gates.ts";
import { REPORT_PATTERNS, type ReportPattern } from "./patterns.ts";

export type Gate = RegExp | readonly string[];

/** The gates read by one alternation of their words (see above), each compiled once. */
const ONE_PASS = new Set(["unfinished.remaining", "unfinished.next", "unfinished.not", "unfinished.except", "unfinished.deferred", "unfinished.errors-left", "reason.cause"]);
const alternation = (words: readonly string[]): RegExp => new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"));

export const ROW_GATES: ReadonlyMap<string, Gate> = new Map<string, Gate>([
  // "N of M", "N out of M" (a space on each side of "of"), or "N/M tasks" (a digit before the slash: a closing tag or a
  // path holds a slash, docs/decisions/0194).
  ["unfinished.count-of", [" of ", "0/", "1/", "2/", "3/", "4/", "5/", "6/", "7/", "8/", "9/"]],
  // "remaining", "remain(s)", "left", "leftover", "still/yet to do|go|be done|run|come", "N to go", "the other N".
  ["unfinished.remaining", ["remain", "left", "to do", "to go", "to be done", "to run", "to come", "the other "]],
  // "is next", "next is", "next, I'll", "next we need to", "… next session"; the rest have "I'll ", "I will ", "I am going
  // to ", "working on" or "starting".
  ["unfinished.next", ["is next", "are next", "next is", "next i", "next, i", "next we", "next, we", "'ll ", " will ", " am going to ", "working on", "starting", "next session"]],
  // "half of", "some of", "the first …", "initial …", "100 %".
  ["unfinished.count", ["half", "some of", "first", "initial", "100"]],
  // "there are … errors", or errors that "remain" or "persist".
  ["unfinished.errors-left", ["there", "remain", "persist"]],
  // "fails", "fail", "failing", "failures in".
  ["unfinished.fails", ["fail"]],
  // The words, "in progress" and "work in progress".
  ["unfinished.word", ["incomplete", "unfinished", "partially", "partly", "half-done", "mostly done", "in progress"]],
  // "not …", "n't …" ("doesn't work", "haven't … yet").
  ["unfinished.not", ["not", "n't"]],
  ["unfinished.blocked", ["blocked", "stopped", "paused", "halted", " from ", "preventing", "prevented", "waiting"]],
  ["unfinished.pending", ["pending"]],
  // Every form opens "still ".
  ["unfinished.still", ["still "]],
  // … or "be addressed during Phase 6", "in a later pass" (docs/decisions/0222).
  ["unfinished.deferred", ["later", "left", "deferred", "postponed", "parked", "during", "in phase", "in step", "in stage", "in milestone", "in sprint", "in a follow-up", "in a separate", "in a future", "in the next"]],
  // A clause that opens "except", "apart from", "save for", "other than", or "… but one".
  ["unfinished.except", ["except", "apart from", "save for", "other than", " but "]],
  ["unfinished.handed-back", ["you", "leav", "left"]],
  // ❌ ⏳ 🚧, an unchecked box, "not started" (the row is /iu).
  ["mark.progress", /[❌⏳🚧]|\[ \]|not started/iu],
  // WAITS_ON_PERSON (three rows): "I'll" or "I will" after the person's step, or "still running".
  ["unfinished.waits-on-person", ["i'll", "i will", "still running"]],
  ["reason.waits-on-person", ["i'll", "i will", "still running"]],
  ["next.waits-on-person", ["i'll", "i will", "still running"]],
  // A cause word: each of the row's words, or a part of it ("fail" for fails/failed/failing, "cap" for caps).
  // WAITS_ON_REPORT (three rows, docs/decisions/0221): "let me know when/once …", "once/when they …", "standing by for …".
  ["unfinished.waits-on-report", ["let me know", "once", "when", "standing by"]],
  ["reason.waits-on-report", ["let me know", "once", "when", "standing by"]],
  ["next.waits-on-report", ["let me know", "once", "when", "standing by"]],
  // "help/tell/show/give us …" or "pinpoint …" (0221).
  ["unfinished.awaits-result", ["help us", "tell us", "show us", "give us", "pinpoint"]],
  // Every match ends on its target word (0222).
  ["unfinished.target", ["target", "goal", "budget", "limit", "cap", "threshold", "requirement"]],
  ["reason.cause", ["wait", "pause", "because", "since", "due to", "caused by", "blocked", "require", "need", "missing", "fail", "error", "denied", "refuse", "expired", "offline", "without", "ran out", "timed out", "times out", "limit", "cap", "policy", "given the", "couldn't", "could not", "can't", "cannot", "unable", "don't have", "do not have", "would lock", "is down", "isn't", "is not", "aren't", "are not", "not yet"]],
  // "returns 401", "responded with 503", "(403)", "exit code 1".
  ["reason.status", ["return", "respond", "answer", "(4", "(5", "exit"]],
  // Gates of docs/decisions/0194. BLOCKER_NAMED (two rows): "the … blocker is", "hit a snag", "ran into a wall", "prevented
  // the merge", "blocked pushing".
  ["unfinished.blocker", ["blocker ", "hit a ", "ran into a ", "prevented ", "blocked "]],
  ["reason.blocker", ["blocker ", "hit a ", "ran into a ", "prevented ", "blocked "]],
  // The next step: each alternative's words ("re-?run" as both spellings; "please" is optional, the verb and its space are not).
  ["next.step", ["next", "to continue", "to finish", "to complete", "to unblock", "to resume", "once", "rerun", "re-run", "retry", "run ", "share ", "send ", "paste ", "provide ", "set ", "install ", "raise ", "add me ", "grant ", "i'll ", "i will ", "you ", "they ", "someone ", "'d need ", "would need ", "when ready", "when you're ready", "should i continue", "continue with", "tell me to", "need a decision", "a decision from you", "in the maintenance window"]],
]);

/**
 * Each row's gate: the one written above, else the one derived from its expression (literals.ts, written to
 * derived-gates.ts by scripts/derived-gates.ts, docs/decisions/0237). A row whose expression changed since derived-gates.ts
 * was written finds no derived gate (the table is keyed by the expression's text) and runs on every text until it is
 * rewritten. A row with neither runs on every text.
 */
export const GATE_OF: ReadonlyMap<ReportPattern, Gate> = new Map(
  REPORT_PATTERNS.flatMap((row): [ReportPattern, Gate][] => {
    const gate = ROW_GATES.get(row.id) ?? DERIVED_GATES.get(String(row.pattern));
    return gate === undefined ? [] : [[row, gate]];
  }),
);

const ONE_PASS_GATES: ReadonlyMap<Gate, RegExp> = new Map([...ROW_GATES].filter(([id]) => ONE_PASS.has(id)).map(([, gate]) => [gate, alternation(gate as readonly string[])]));

/** Whether `gate` admits `text` (a list reads `lowered()`, the text lower-cased, computed once by the caller). */
export function admits(gate: Gate, text: string, lowered: () => string): boolean {
  if (gate instanceof RegExp) return gate.test(text);
  const lower = lowered();
  const one = ONE_PASS_GATES.get(gate);
  return one !== undefined ? one.test(lower) : gate.some((word) => lower.includes(word));
}

/**
 * Every list gate's words, found in one pass over a lower-cased text (docs/decisions/0194): an Aho–Corasick automaton
 * over all of them, built once, so a text is read once for the twenty gates rather than once per gate and word (each
 * indexOf stops at every occurrence of its word's first character). Which words the text holds is exactly what
 * indexOf would find; a gate admits the text when it holds one of the gate's words.
 */
const LIST_GATES: readonly (readonly string[])[] = [...new Set([...ROW_GATES.values(), ...GATE_OF.values()])].filter((gate): gate is readonly string[] => !(gate instanceof RegExp));
const GATE_WORDS: readonly string[] = [...new Set(LIST_GATES.flat())];
const WORD_INDEX: ReadonlyMap<string, number> = new Map(GATE_WORDS.map((word, index) => [word, index]));
const WORD_IDS: ReadonlyMap<Gate, readonly number[]> = new Map(LIST_GATES.map((gate) => [gate, gate.map((word) => WORD_INDEX.get(word) as number)]));

/** The automaton: symbols are the words' characters (all ASCII; 0 is any other, which no word holds), states a trie's nodes. */
interface Automaton {
  symbolOf: Uint8Array;
  symbols: number;
  delta: Int32Array;
  ends: number[][];
  endStates: number[];
}

/**
 * Built on first use (docs/decisions/0237): with every row's words it takes ~15 ms, more than a few short replies'
 * gates cost read word by word (GateText), so a process that reads one small reply never builds it.
 */
let automaton: Automaton | undefined;
const theAutomaton = (): Automaton => (automaton ??= buildAutomaton());

function buildAutomaton(): Automaton {
  const symbolOf = new Uint8Array(128);
  let symbols = 1;
  for (const word of GATE_WORDS) {
    for (const ch of word) {
      const code = ch.charCodeAt(0);
      if (code >= 128) throw new Error(`a gate word must be ASCII: ${word}`);
      if (symbolOf[code] === 0) symbolOf[code] = symbols++;
    }
  }
  // The trie: next[state * symbols + symbol], -1 for no edge; outputs: the words ending at each state.
  const edges: number[] = new Array<number>(symbols).fill(-1);
  const ends: number[][] = [[]];
  for (let w = 0; w < GATE_WORDS.length; w += 1) {
    let state = 0;
    for (const ch of GATE_WORDS[w] as string) {
      const at = state * symbols + (symbolOf[ch.charCodeAt(0)] as number);
      if (edges[at] === -1) {
        edges[at] = ends.length;
        ends.push([]);
        for (let s = 0; s < symbols; s += 1) edges.push(-1);
      }
      state = edges[at] as number;
    }
    (ends[state] as number[]).push(w);
  }
  // Failure links in breadth-first order complete the edges into a transition for every state and symbol.
  const states = ends.length;
  const delta = new Int32Array(states * symbols);
  const fail = new Int32Array(states);
  const queue: number[] = [];
  for (let a = 0; a < symbols; a += 1) {
    const to = edges[a] as number;
    delta[a] = to === -1 ? 0 : to;
    if (to > 0) queue.push(to);
  }
  for (let head = 0; head < queue.length; head += 1) {
    const state = queue[head] as number;
    (ends[state] as number[]).push(...(ends[fail[state] as number] as number[]));
    for (let a = 0; a < symbols; a += 1) {
      const to = edges[state * symbols + a] as number;
      const fallback = delta[(fail[state] as number) * symbols + a] as number;
      if (to === -1) delta[state * symbols + a] = fallback;
      else {
        delta[state * symbols + a] = to;
        fail[to] = fallback;
        queue.push(to);
      }
    }
  }
  const endStates = ends.flatMap((words, state) => (words.length > 0 ? [state] : []));
  return { symbolOf, symbols, delta, ends: ends.map((words) => [...new Set(words)]), endStates };
}

/** Which of GATE_WORDS `lower` holds (1 at a word's index), in one pass. */
export function gateWordsIn(lower: string): Uint8Array {
  const reached = statesReached(lower);
  const { ends, endStates } = theAutomaton();
  const held = new Uint8Array(GATE_WORDS.length);
  for (const end of endStates) if (reached[end] === 1) for (const w of ends[end] as number[]) held[w] = 1;
  return held;
}

/**
 * The automaton's states `lower` reaches, marked as it is read (a store per character, no branch). The loop is a
 * function of its own: optimized mid-call on a long text, it was deoptimized on every call at the code after it, which
 * had never run (seen with --trace-deopt, as 0187 saw in content.ts).
 */
function statesReached(lower: string): Uint8Array {
  const { symbolOf, symbols, delta } = theAutomaton();
  const reached = new Uint8Array(delta.length / symbols);
  let state = 0;
  for (let i = 0; i < lower.length; i += 1) {
    const code = lower.charCodeAt(i);
    const symbol = code < 128 ? (symbolOf[code] as number) : 0;
    // A character no word holds ends every partial match.
    state = symbol === 0 ? 0 : (delta[state * symbols + symbol] as number);
    reached[state] = 1;
  }
  return reached;
}

/**
 * Characters of text a process reads word by word before it builds the automaton: each gate's words searched in a
 * short text cost less than the automaton's building until about this much text has been read (docs/decisions/0237).
 */
const WORD_BY_WORD_BUDGET = 16 * 1024;
let readWordByWord = 0;

/** Whether a new text's gates read the automaton's one pass (once the budget is spent, or the automaton is built). */
function byAutomaton(text: string): boolean {
  if (automaton !== undefined) return true;
  readWordByWord += text.length;
  return readWordByWord > WORD_BY_WORD_BUDGET;
}

/**
 * What the gates read of one text, each worked out once and only when a gate asks: the text lower-cased, and either the
 * gate words it holds (the automaton's one pass) or, for the process's first short texts, each asking gate's words
 * searched in it. Both give a gate the same answer (gates.test.ts, derived-gates.test.ts).
 */
export class GateText {
  private lower: string | undefined;
  private held: Uint8Array | undefined;
  constructor(
    readonly text: string,
    readonly onePass: boolean = byAutomaton(text),
  ) {}
  lowered(): string {
    this.lower ??= this.text.toLowerCase();
    return this.lower;
  }
  words(): Uint8Array {
    this.held ??= gateWordsIn(this.lowered());
    return this.held;
  }
}

/** admits, on a GateText: a list gate reads the words found in the one pass, or searches its own (the same answer; gates.test.ts holds them equal). */
export function admitsText(gate: Gate, text: GateText): boolean {
  if (gate instanceof RegExp) return gate.test(text.text);
  if (!text.onePass) {
    const lower = text.lowered();
    for (const word of gate) if (lower.includes(word)) return true;
    return false;
  }
  const held = text.words();
  for (const w of WORD_IDS.get(gate) as readonly number[]) if (held[w] === 1) return true;
  return false;
}
