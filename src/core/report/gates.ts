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
export type Gate = RegExp | readonly string[];

/** The gates read by one alternation of their words (see above), each compiled once. */
const ONE_PASS = new Set(["unfinished.remaining", "unfinished.next", "unfinished.not", "unfinished.except", "unfinished.deferred", "unfinished.errors-left", "reason.cause"]);
const alternation = (words: readonly string[]): RegExp => new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"));

export const ROW_GATES: ReadonlyMap<string, Gate> = new Map<string, Gate>([
  // "N of M", "N out of M" (a space on each side of "of"), or "N/M tasks".
  ["unfinished.count-of", [" of ", "/"]],
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
]);

const ONE_PASS_GATES: ReadonlyMap<Gate, RegExp> = new Map([...ROW_GATES].filter(([id]) => ONE_PASS.has(id)).map(([, gate]) => [gate, alternation(gate as readonly string[])]));

/** Whether `gate` admits `text` (a list reads `lowered()`, the text lower-cased, computed once by the caller). */
export function admits(gate: Gate, text: string, lowered: () => string): boolean {
  if (gate instanceof RegExp) return gate.test(text);
  const lower = lowered();
  const one = ONE_PASS_GATES.get(gate);
  return one !== undefined ? one.test(lower) : gate.some((word) => lower.includes(word));
}
