/**
 * The analyzer's cheap gates (docs/decisions/0187): for some clause rows of the table (patterns.ts), a short expression
 * that every match of the row's pattern contains — a word or a mark each alternative of the row spells out. A joined
 * text the gate does not match cannot fire the row, so the row's own scan (long alternations, look-behinds tried at
 * every position) is skipped; where the gate matches, the row runs exactly as before. A gate never decides a row fires.
 *
 * Every gate is written from its row's alternatives, as they stand, case-folded as the row is (all rows here are /i).
 * test/core/report/gates.test.ts pins each gated row's pattern: a row whose pattern changes fails there until its gate
 * is read again.
 */
export const ROW_GATES: ReadonlyMap<string, RegExp> = new Map([
  // "N of M", "N out of M" (a space on each side of "of"), or "N/M tasks".
  ["unfinished.count-of", / of |\//i],
  // "remaining", "remain(s)", "left", "leftover", "still/yet to do|go|be done|run|come", "N to go", "the other N".
  ["unfinished.remaining", /remain|left|to (?:do|go|be done|run|come)|the other /i],
  // "is next", "next is", "next, I'll", "next we need to", "… next session"; the rest have "I'll ", "I will ", "I am going
  // to ", "working on" or "starting".
  ["unfinished.next", /(?:is|are) next|next(?: is|,? I|,? we)|'ll | will | am going to |working on|starting|next session/i],
  // "half of", "some of", "the first …", "initial …", "100 %".
  ["unfinished.count", /half|some of|first|initial|100/i],
  // "there are … errors", or errors that "remain" or "persist".
  ["unfinished.errors-left", /there|remain|persist/i],
  // "fails", "fail", "failing", "failures in".
  ["unfinished.fails", /fail/i],
  // The words, "in progress" and "work in progress".
  ["unfinished.word", /incomplete|unfinished|partially|partly|half-done|mostly done|in progress/i],
  // "not …", "n't …" ("doesn't work", "haven't … yet").
  ["unfinished.not", /not|n't/i],
  ["unfinished.blocked", /blocked|stopped|paused|halted| from |preventing|prevented|waiting/i],
  ["unfinished.pending", /pending/i],
  ["unfinished.deferred", /later|left|deferred|postponed|parked/i],
  // A clause that opens "except", "apart from", "save for", "other than", or "… but one".
  ["unfinished.except", /except|apart from|save for|other than| but /i],
  ["unfinished.handed-back", /you|leav|left/i],
  // ❌ ⏳ 🚧, an unchecked box, "not started".
  ["mark.progress", /[❌⏳🚧]|\[ \]|not started/iu],
  // WAITS_ON_PERSON (three rows): "I'll" or "I will" after the person's step, or "still running".
  ["unfinished.waits-on-person", /I'll|I will|still running/i],
  ["reason.waits-on-person", /I'll|I will|still running/i],
  ["next.waits-on-person", /I'll|I will|still running/i],
  // "returns 401", "responded with 503", "(403)", "exit code 1".
  ["reason.status", /return|respond|answer|\([45]|exit/i],
]);
