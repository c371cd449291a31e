/**
 * STOPGAP until `analyzeFinalReport` (src/core/report/analyze.ts, another engineer's) lands: the
 * first non-empty line of a final report, whether it claims the work is complete, and whether the
 * report ends by asking the person whether to go on. Kept apart so it can be replaced by the real
 * analysis in one place (metrics.ts imports only `reportFacts`).
 */

/** The first line with visible characters, trimmed; null when there is none. */
export function firstNonEmptyLine(text: string): string | null {
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed.length > 0) return trimmed;
  }
  return null;
}

/** Lines that claim the work is finished (checked after NOT_CLAIMS). One row per way of saying it. */
const CLAIMS: readonly RegExp[] = [
  /^[\W_]*(all )?(done|complete|completed|finished)\b/i, // "Done.", "Completed: …", "✅ All done"
  /\b(all|every) (of the )?(\w+ )?(steps?|tasks?|items?|work|changes) (are |is |have been |has been )?(now )?(done|complete|completed|finished|implemented)\b/i,
  /\b(task|work|implementation|handoff|job|everything) (is |has been )?(now )?(fully )?(complete|completed|done|finished)\b/i,
  /^[\W_]*(implemented|fixed|shipped) (all|everything)\b/i,
];

/** Lines that say the work is not finished, which outrank a claim on the same line. */
const NOT_CLAIMS: readonly RegExp[] = [
  /\bnot (yet )?(fully )?(done|complete|completed|finished)\b/i,
  /\b(blocked|incomplete|unfinished|partially|partial|remaining|still (failing|blocked|open))\b/i,
  /\b(could not|couldn't|cannot|can't|unable to)\b/i,
];

/** Words that make a closing question a request for permission to go on. */
const PERMISSION_QUESTION = /\b(shall I|should I|would you like|do you want|want me to|may I|can I|okay to|ok to|proceed|continue|go ahead|next step)\b/i;

export interface ReportFacts {
  firstLine: string | null;
  claimsComplete: boolean;
  asksPermission: boolean;
}

export function reportFacts(text: string | null): ReportFacts {
  if (text === null) return { firstLine: null, claimsComplete: false, asksPermission: false };
  const firstLine = firstNonEmptyLine(text);
  const claimsComplete = firstLine !== null && !NOT_CLAIMS.some((re) => re.test(firstLine)) && CLAIMS.some((re) => re.test(firstLine));
  const trimmed = text.trimEnd();
  const lastLine = trimmed.slice(trimmed.lastIndexOf("\n") + 1);
  const asksPermission = trimmed.endsWith("?") && PERMISSION_QUESTION.test(lastLine);
  return { firstLine, claimsComplete, asksPermission };
}
