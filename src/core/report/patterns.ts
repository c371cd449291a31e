/**
 * The final-report pattern table: every row an id, the group it feeds, where it is matched, and a
 * comment saying what it catches (labelling rules: docs/decisions/0089; how rows combine: 0091).
 *
 * Rows read one clause at a time (see clauses.ts), never the whole reply, so a completion word in
 * one clause cannot hide "S3 remains" in another. Rows avoid nested or unbounded wildcards:
 * `[^…]{0,n}` bounds keep each match linear in the clause it reads.
 */

/**
 * - `claim`: clauses of the claim zone (the first two statements and the last paragraph), minus
 *   questions and narration ("Let me run the tests:");
 * - `clause`: every clause of every statement (prose lines and headings) outside code;
 * - `ending`: the last paragraph, with the one before it when the last starts with "Or";
 * - `lastSentence`: the last sentence of the last prose line, trailing emoji removed;
 * - `label`: every statement of 80 characters or less outside content blocks (a reply cut off
 *   mid-task has none).
 */
export type PatternScope = "claim" | "clause" | "ending" | "lastSentence" | "label";
export type PatternGroup = "complete" | "unfinished" | "reason" | "next" | "permission" | "filler" | "continue" | "continueNext" | "mark";

export interface ReportPattern {
  id: string;
  group: PatternGroup;
  scope: PatternScope;
  pattern: RegExp;
  /** A further condition on the first match that a regular expression cannot state (numbers compared). */
  holds?: (match: RegExpMatchArray) => boolean;
}

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
function numberOf(word: string | undefined): number {
  if (word === undefined) return Number.NaN;
  const index = NUMBER_WORDS.indexOf(word.toLowerCase());
  if (index >= 0) return index;
  return word.toLowerCase() === "twenty" ? 20 : Number(word);
}

/**
 * Not inside a condition: "If that doesn't work, configure Git …" is a fallback in instructions, not the work's state
 * (docs/decisions/0152). Reads at most 60 characters before the match.
 */
function notInCondition(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const input = match.input ?? "";
  if (/\b(?:if|in case|unless)\b[^.;,:\n]{0,40}$/i.test(input.slice(Math.max(0, index - 60), index))) return false;
  // The left side of a rule line ("not yet registered locally → the button is disabled") is a case, not the work's
  // state (docs/decisions/0167). Reads at most 120 characters after the match.
  const end = index + match[0].length;
  return !/^[^\n]{0,120}(?:→|->|=>)/.test(input.slice(end, end + 121));
}

/**
 * Not said to be mended in the next 200 characters ("I made a mistake in the config. I've fixed it now."): an own
 * error that is put right is history, not work left (docs/decisions/0167). Reads at most 200 characters after the match.
 */
function notMendedAfter(match: RegExpMatchArray): boolean {
  const end = (match.index ?? 0) + match[0].length;
  return !/\b(?:fixed|corrected|resolved|reverted|undid|undone|mended|repaired)\b/i.test((match.input ?? "").slice(end, end + 200));
}

/**
 * Not a case the code meets: not inside a condition ("If the migration is incomplete, rerun it", "When a job is
 * pending, the worker retries it") and not the object of what a feature does with such cases ("The parser handles
 * incomplete lines", "The banner tells users their profile is incomplete", "the case where the upload fails"), which
 * describe the code rather than the work (docs/decisions/0167). Nor what a document the agent wrote records ("updated the
 * plan to reflect what's still pending", "a clear breakdown of missing work - 6 test files still need to be created",
 * "added tasks for the remaining work"): the document's content, not the work's state (docs/decisions/0177). Reads at
 * most 90 characters before the match.
 */
function notACase(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const before = (match.input ?? "").slice(Math.max(0, index - 100), index);
  if (/(?:\b(?:breakdown|roadmap|overview|checklist) of\b[^.;:\n]{0,70}|\bto (?:[a-z]+ly )?(?:reflect|show|track|list|record|document|capture|prioriti[sz]e)\b[^.;:\n]{0,80}|\b(?:and|then) prioriti[sz]e (?:the )?|\btasks for (?:the )?)$/i.test(before)) return false;
  return !/(?:\b(?:if|in case|unless|when|whenever|until)\b[^.;,:\n]{0,40}|\b(?:handles|handling|rejects|rejecting|detects|detecting|skips|skipping|ignores|ignoring|validates|parses|catches|accepts|warns (?:about|users|when|if)|tells (?:users|the user|you|them)|retries|buffers|cases? (?:where|when|of)|the case)\b[^.;:|\n]{0,40})$/i.test(before);
}

/** Both: not in a condition of the instructions (notInCondition) and not a case the code meets (notACase). */
function notInConditionOrCase(match: RegExpMatchArray): boolean {
  return notInCondition(match) && notACase(match);
}

/**
 * Not a thing kept: a bare "<the thing> remains." whose subject names no work, defect or count ("The sector-damage red
 * vignette remains.", "The old header remains") says an element stays as it was, not that work is left ("One issue
 * remains.", "Two tests remain.", "the migration step remains" still count) (docs/decisions/0176). Reads at most 60
 * characters before the match and one after.
 */
function notAThingKept(match: RegExpMatchArray): boolean {
  if (!/^remains?$/i.test(match[0])) return true;
  const index = match.index ?? 0;
  const input = match.input ?? "";
  if (!/^\s*(?:[.!]|$)/.test(input.slice(index + match[0].length, index + match[0].length + 2))) return true;
  const before = input.slice(Math.max(0, index - 60), index);
  const subject = /(?:^|[.;:!?\n]\s*|\b(?:and|but|while)\s+)(?:the|this|that|its|their|our|your)\s+((?:[\w-]+\s+){1,5})$/i.exec(before);
  return subject === null || /\b(?:issues?|problems?|bugs?|errors?|warnings?|failures?|tests?|steps?|tasks?|work|items?|todos?|questions?|gaps?|concerns?|parts?|pieces?|changes?|fix(?:es)?|conflicts?|risks?|caveats?|limitations?|things?|ones?|edge cases?|cases?|tickets?|stories|story|migrations?|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+$/i.test(subject[1] as string);
}

/** Both: not a case the code meets (notACase) and not a thing kept (notAThingKept). */
function notACaseOrKept(match: RegExpMatchArray): boolean {
  return notACase(match) && notAThingKept(match);
}

/**
 * Not an ability or a concession: "I can't open Word and edit like a human, but I can help you read and modify .docx
 * files" sets what the agent cannot do against what it can — a statement of ability, not work left; "While we can't see
 * the detailed output …, the successful execution indicates …" concedes a limit of what could be observed before the
 * result it states. Only the present "can't"/"cannot" ("I couldn't run the tests" reports this turn's outcome) and, for
 * the concession, only seeing (docs/decisions/0176). Reads at most 30 characters before and 160 after the match.
 */
function notAbilityOrConcession(match: RegExpMatchArray): boolean {
  const text = match[0];
  if (!/\b(?:can't|cannot)\b/i.test(text)) return true;
  const index = match.index ?? 0;
  const input = match.input ?? "";
  const end = index + text.length;
  // The contrast may open the next clause (clauses break before "but"): one newline may lie between.
  if (/^[^.;\n]{0,140}(?:\n\W{0,3})?\bbut (?:I|we) (?:can|could)\b(?! ?n't\b| not\b)/i.test(input.slice(end, end + 160))) return false;
  return !(/\b(?:see|view|display|read)$/i.test(text) && /\b(?:while|although|though|even though)\s+$/i.test(input.slice(Math.max(0, index - 30), index)));
}

/** "N of M" with N below M. */
function partOfWhole(match: RegExpMatchArray): boolean {
  return numberOf(match[1] ?? match[3]) < numberOf(match[2] ?? match[4]);
}

// --- Round 10 (docs/decisions/0233): unfinished work, 12u's guard -------------------------------------------------
/**
 * Not an untracked file left in the working tree (docs/decisions/0233): "Remaining: one untracked file (CODE)", "Working tree
 * is clean except the pre-existing untracked CODE" — what git status still shows beside the work's commits is files the work
 * did not make or was told to leave, not work left ("Remaining: the docs page" still counts). Reads the sentence around the
 * match: at most 80 characters before and 80 after.
 */
function notUntrackedLeftover(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const input = match.input ?? "";
  const sentence = /[^.!?\n]*$/.exec(input.slice(Math.max(0, index - 80), index))?.[0] ?? "";
  const end = index + match[0].length;
  const after = /^[^.!?\n]*/.exec(input.slice(end, end + 80))?.[0] ?? "";
  return !/\buntracked\b/i.test(`${sentence} ${after}`);
}

// --- Round 7, dev batch G (docs/decisions/0191): guards read from batch G's and dev's misses ---------------
/**
 * Not an instruction or a choice: "- Do not run the agent." specifies what a proposed command must not do, and "it was
 * intentionally not updated" records a decision; neither says work is left (docs/decisions/0191). Reads at most 40
 * characters before the match.
 */
function notInstructionOrChoice(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const before = (match.input ?? "").slice(Math.max(0, index - 40), index);
  return !/(?:(?:^|\n)\W{0,4}(?:do|does|should|must|will|never)\W{0,3}|\b(?:intentionally|deliberately|purposely|on purpose),?\s+)$/i.test(before);
}

/**
 * Not a failure mended or a case named: "Four assertions were failing on hardcoded coordinates …, so … I added a helper"
 * is history; "(… after a failing command)" and "terminal/countdown/fail machinery" name a case and a kind of code, not a
 * failure of the work, and "so the next chrome change fails them" a test's future use (docs/decisions/0191). Reads at most 40
 * characters before and 200 after the match.
 */
function notMendedOrNamed(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const input = match.input ?? "";
  const before = input.slice(Math.max(0, index - 40), index);
  if (/(?:\bafter an?\s+|\/|\bthe next(?: [\w-]+){1,2}\s+)$/i.test(before)) return false;
  if (!/\b(?:was|were|had been)\s+$/i.test(before)) return true;
  const end = index + match[0].length;
  return !/(?:,\s*so\b|\bso (?:I|we)\b|\b(?:fixed|corrected|resolved|updated|replaced|rewrote|added)\b)/i.test(input.slice(end, end + 200));
}

/**
 * Not a property kept or an origin: "Phase 11 … remains parallel-capable" says a thing stays as it is, "a leftover from
 * copying …" says where a fixed defect came from (docs/decisions/0191). Reads at most 40 characters on either side.
 */
function notKeptOrOrigin(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const input = match.input ?? "";
  const end = index + match[0].length;
  const after = input.slice(end, end + 40);
  if (/\bremains?$/i.test(match[0]) && /^\s+(?:[\w-]+-(?:capable|compatible|safe)|unaffected|unchanged|intact|available|valid|supported|usable|compatible|the same|as is|in place)\b/i.test(after)) return false;
  return !(/^leftover$/i.test(match[0]) && /^\s+from\b/i.test(after) && /\ban?\s+$/i.test(input.slice(Math.max(0, index - 4), index)));
}

/** No "if", "when", "once" or "in case" earlier in the same sentence, within 80 characters before the match (docs/decisions/0191). */
function notAfterIf(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  return !/\b(?:if|when|once|in case)\b[^.!?\n]*$/i.test((match.input ?? "").slice(Math.max(0, index - 80), index));
}

/**
 * The agent's next act waits on the person's step or report, or on a run still going: "Check the Write box for logs, save,
 * and I'll verify on the VPS", "tell me what you actually saw … and I'll know which of the two it was", "Fix subagent still
 * running, will report when done" — work left, why it stopped (the person's step, the run) and what comes next
 * (docs/decisions/0191). Three rows read it: unfinished, reason and next.
 */
const WAITS_ON_PERSON = /(?:^|\n|[.!]\s+)\W{0,3}(?:check|tick|set|enable|add|grant|give|save|run|click|toggle|flip|restart|paste|send|update|change)\b[^.?!\n]{0,120}\b(?:and|then),? I(?:'ll| will) (?:verify|check|confirm|test|re-?run|retry|try again|continue|finish|redeploy)\b|\btell me what you (?:actually )?(?:saw|see|got|get)\b[^.\n]{0,120}\band I(?:'ll| will)\b|\b(?:sub-?agents?|workers?|jobs?|builds?|runs?|checks?|CI)\b[^.;\n]{0,30}\bstill running\b[^.\n]{0,60}\b(?:will|I'll) (?:report|update you|let you know|follow up)\b/i;

/**
 * Not the state of things outside the work (docs/decisions/0203): "Existing .pnpm-store/ and docs/research/ remain untracked
 * and untouched", "Only existing whitespace issue remains unrelated" (un- participles of other files), "entire explain --commit
 * can remain a last-resort fallback" (a modal says what a design allows), "there are no leftover conflict markers" (none left).
 * Reads at most 40 characters before the match and 30 after.
 */
function notOtherThingsState(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const input = match.input ?? "";
  const word = match[0];
  if (/^leftover$/i.test(word)) return !/\b(?:no|without|zero)\s+$/i.test(input.slice(Math.max(0, index - 40), index));
  if (!/^remains?$/i.test(word)) return true;
  const after = input.slice(index + word.length, index + word.length + 30);
  if (/^\s+(?:untracked|unrelated|unstaged|unaffected|unmodified)\b/i.test(after)) return false;
  return !/\b(?:can|could|may|might|should|would|will)\s+$/i.test(input.slice(Math.max(0, index - 40), index));
}

/**
 * Not needed here (docs/decisions/0204): "I did not run tests since this was only a branch sync" gives, right after, why the
 * step did not apply. Reads at most 60 characters after the match.
 */
function notNeededHere(match: RegExpMatchArray): boolean {
  const index = (match.index ?? 0) + match[0].length;
  return !/^[^.;\n]{0,40}\b(?:since|because|as) (?:this|it|that) (?:was|is) (?:only|just|merely|purely) (?:a |an )?/i.test((match.input ?? "").slice(index, index + 60));
}

// --- Round 9 (docs/decisions/0220–0222): kinds of statement read from the retired splits 8 and 9 and the rest of dev ---
/**
 * Not a mechanism (docs/decisions/0220): a failure the clause gives as how something behaves — the effect of a cause
 * ("causing the subsequent CODE to fail with …", "makes the build fail"), a case in a relative clause ("a tool whose
 * output content fails to parse", "for real commits where the transcript lookup fails"), or one behaviour set against
 * another ("fail assertions instead of panicking", "fail out of the box") — says what the code or the world does, not
 * that this turn's work failed. Reads at most 60 characters before the match and 60 after.
 */
function notAMechanism(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const input = match.input ?? "";
  const before = input.slice(Math.max(0, index - 60), index);
  if (/\b(?:caus(?:e|es|ed|ing)|mak(?:e|es|ing)|made|let(?:s|ting)?|forc(?:e|es|ed|ing)|expect(?:s|ed|ing)?)\s+(?:[^\s.;:]+\s+){0,4}to\s+$/i.test(before)) return false;
  if (/\b(?:whose|where)\b[^.;:\n]{0,60}$/i.test(before)) return false;
  const end = index + match[0].length;
  return !/^[^.;\n]{0,40}?\b(?:instead of|rather than|out of the box)\b/i.test(input.slice(end, end + 60));
}

/**
 * Not a leftover kept by choice or named outside the work (docs/decisions/0220): "Two intentional QUOTE mentions remain, on
 * purpose:", "left as is by design", "Unrelated CODE and CODE remain uncommitted" — what the agent chose to keep, or things
 * it names unrelated, are not work left. Reads the sentence around the match: at most 80 characters before and 60 after.
 */
function notKeptByChoice(match: RegExpMatchArray): boolean {
  const index = match.index ?? 0;
  const input = match.input ?? "";
  const before = input.slice(Math.max(0, index - 80), index);
  const sentence = /[^.!?\n]*$/.exec(before)?.[0] ?? "";
  const end = index + match[0].length;
  const after = /^[^.!?\n]*/.exec(input.slice(end, end + 60))?.[0] ?? "";
  if (/^\W{0,3}(?:unrelated|pre-?existing)\b/i.test(sentence)) return false;
  return !/\b(?:on purpose|intentional(?:ly)?|deliberate(?:ly)?|by design)\b/i.test(`${sentence} ${after}`);
}

/**
 * The agent's next step of the work waits on someone else's act or report, said without an imperative before it
 * (docs/decisions/0221): "Let me know when you've pushed the tag", "Once pushed, I can create the GitHub release",
 * "I'll assemble a single review once they report back. Standing by for their results.", "Once you have successfully
 * logged in, tell me … and we will proceed with saving the keys" — work left, why it stopped, and what comes next
 * (WAITS_ON_PERSON reads the imperative-first form). "Let me know when you are ready to begin" names no act done: not here.
 */
const WAITS_ON_REPORT = /\blet me know (?:when|once) (?:you(?:'ve| have)|it(?:'s| is| has been)|they(?:'ve| have)) (?:[a-z]+ly )?[a-z]+(?:ed|en|wn|t)\b|\b(?:once|when) (?:they|the (?:[\w-]+ )?(?:agents?|workers?|jobs?|builds?|runs?|reviews?|reviewers?|sub-?agents?)) (?:report back|finish|come back)\b|\bstanding by for (?:their|the|its|your) (?:results?|reports?|output|answers?|reply)\b|^\W*once (?:pushed|merged|deployed|approved|installed|published|tagged|logged in|signed in),? (?:I|we)(?:'ll| will| can)\b|\bonce you(?:'ve| have)? (?:[a-z]+ly )?[a-z]+(?:ed|en|t)(?: in)?\b[^.;\n]{0,60}\btell me\b[^.\n]{0,80}\b(?:and|then) (?:I|we)(?:'ll| will) (?:proceed|continue|go on|move on)\b/i;

/** A blocker named as what is left, or the act it stopped (docs/decisions/0202). */
const BLOCKER_NAMED = /\bthe (?:only |one |last |main |real )?(?:remaining )?blocker (?:is|was|here is)\b|^\W*(?:I )?(?:hit|ran into) a (?:snag|blocker|wall)\b|\b(?:prevented|blocked) (?:the |my |our )?(?:approval|approving|merge|merging|push|pushing|release|publishing)\b/i;

export const REPORT_PATTERNS: readonly ReportPattern[] = [
  // --- claimsComplete: a clause of the claim zone says the work is done ----------------------
  // A clause that opens with a completion word: "Done.", "Fixed!", "All set", "DONE ✅".
  { id: "complete.word", group: "complete", scope: "claim", pattern: /^\W*(?:(?:perfect|great|excellent|good|yes|ok|okay)\W+)?(?:done|fixed|updated|completed|complete(?! (?:the|a|an|all|this|that|these|those|your|our|its|their|each|every)\b)|finished|resolved|all set|all done|all clean|all green|all committed|clean(?=[.!]|\s*$)|merged|deployed|shipped|(?:it )?works(?=[.!]|\s+now\b))\b/i },
  // A clause that opens with a past-tense action verb summarising the change: "Implemented X", "Opened PR #42".
  { id: "complete.verb", group: "complete", scope: "claim", pattern: /^\W*(?:(?:perfect|great|excellent|good|yes|ok|okay)\W+)?(?:(?:the )?(?:fix|change|solution)\s*:\s*)?(?:added|changed|created|implemented|updated|removed|deleted|moved|renamed|replaced|switched|restored|refactored|rewrote|wrote|ported|merged|committed|pushed|migrated|converted|simplified|installed|configured|set up|made the following changes|took care of|opened|drafted|upgraded|saved|cleaned|addressed|extracted|split|documented|tagged|published|released|deployed|wired|enabled|disabled|bumped|edited|reverted|tightened|raised|lowered|dropped|introduced|built|finished|completed)\b|^\W*(?:(?:perfect|great|excellent|good|yes|ok|okay)\W+)?(?:successfully |also |then )?(?!un|(?:based|related|needed|used|expected|proposed|suggested|recommended|required|detailed|advanced|supported|tested|verified|checked|reviewed|noticed|tried|attempted|failed|blocked|skipped|deferred|planned|learned|observed|assumed|limited|affected|estimated|selected|nested|embedded|mixed|automated|dedicated|isolated|generated|compiled|combined|intended|desired|preferred|requested|asked|focused|centered|targeted|detected|reported|identified|discovered|encountered|called|named|listed|defined|declared|located|stored|cached|logged|noted|missed|seemed|appeared|wanted|hoped|decided|started|considered|searched|examined|analy[sz]ed|inspected|explored|investigated|studied|looked|traced|compared|measured|profiled|debugged|diagnosed)\b)[a-z]{3,}(?<!e)ed (?=(?:the|a|an|all|both|each|every|its|their|our|your|this|that|these|those|some|two|three|four|five|several|CODE|QUOTE|it|them|\d+)\b)|^\W*(?:I(?:'ve| have) gone|I went|we(?:'ve| have) gone|we went) ahead and\b/i },
  // The speaker reports finished actions: "I've ported", "I have successfully completed", "I updated:".
  // A premise ("Now that we've extracted X, we should…", "since I added…") reports nothing: the look-behind skips it.
  { id: "complete.ive", group: "complete", scope: "claim", pattern: /(?<!\b(?:now that|since|because|once|after|if|when)\s)\b(?:I|we)(?:'ve| have)(?: (?:now|just|also|successfully|properly|finally|[a-z]{3,}ly))? (?!(?:reviewed|looked|examined|analy[sz]ed|inspected|explored|investigated|studied|checked|verified|confirmed|tested|noticed|identified|found|seen|discovered|realized|realised|learned|traced|located|determined|gathered|researched|paused|stopped|halted|waited|gone through)\b)(?:[a-z]+ed|made|built|written|rewritten|done|set up|put|split|run|taken care of|gotten|given|brought)\b|(?<!\b(?:now that|since|because|once|after|if|when)\s)\b(?:I|we) (?:(?:also|then|now|just|successfully|first|finally|only) )?(?:(?!(?:reviewed|looked|examined|analy[sz]ed|inspected|explored|investigated|studied|checked|noticed|tried|wanted|used|assumed|suggested|recommended|mentioned|noted|asked|started|decided|expected|hoped|planned|intended|considered|searched|observed|verified|confirmed|tested|discovered|realized|realised|identified|traced|focused|learned|seemed|appeared|preferred|wondered|believed|guessed|missed|failed|attempted|encountered|received|reproduced|opted|chose|kept|followed|proposed|outlined|sketched|described|explained|summarized|summarised|discussed|talked|agreed|covered|chatted|paused|stopped|halted|waited|listed|collected|gathered|compared|measured|benchmarked|profiled|debugged|diagnosed)\b)[a-z]+(?<!e)ed|rewrote|wrote|built|put|split|set up|took care of|got (?:it|them|this|that|everything|all|the [\w-]+(?: [\w-]+)?) (?:working|passing|running|building|fixed|green))\b/i },
  // A thing is in a finished state: "everything is committed", "the branch is ready for review", "CI is green",
  // "the plan is in CODE" (a defect that "is in the parser" is located, not delivered; "should be fixed to
  // strip it" recommends a fix).
  { id: "complete.state", group: "complete", scope: "claim", pattern: /\b(?:is|are|'s|should be(?! fixed to\b| updated to\b| changed to\b)|now)(?: now| all)? (?:done|complete|completed|finished|fixed|resolved|in place|clean|updated|satisfied|happy|(?<!\(now )(?<!\b(?:issue|problem|bug|error|cause|culprit|mistake|difference)s? (?:is|are|'s) )(?<!\bshould be )(?<!\b(?:what|where|whatever|which|who)(?:'s| is| are) )in|working(?! (?:code|copy|tree|directory|dir|set|group|hours|days|on|with|through|around)\b)|passing|committed|merged|deployed|green|staged|up to date|ready (?:for review|to (?:merge|commit|ship|deploy|release))|ready)\b|^\W*ready (?:for review|to (?:merge|commit|ship|deploy))\b|\b(?:has|have) (?:all |now |just |also |successfully |fully )?been (?:successfully |fully |properly |correctly )?(?:(?!(?:used|known|deprecated|reported|observed|noted|proposed|suggested|discussed|mentioned|requested|asked|called|named|based|located|stored|defined|declared|marked|flagged|blocked|stuck|failed|disabled|archived|seen|shown|given|left|broken|around|there|open|in|on|at|a|an|the|my|your|our|set to|causing|running|waiting|failing|working)\b)[a-z]+(?<!e)ed|done|made|written|rewritten|built|set up|split|put in place)\b|\b(?:was|were)(?<!\b(?:see|saw|seen|notice|noticed|appears?|appeared|seems?|seemed|looks? like|think|believe|assume|suspect|guess|maybe|perhaps|probably|possibly|likely|whether|unless|if|or)\b[^.;\n]{0,60}\b(?:was|were)) (?:successfully |also |then |all |both |now )?(?!(?:caused|introduced|reported|used|designed|called|named|based|located|stored|defined|declared|marked|flagged|blocked|failed|expected|supposed|required|needed|intended|deprecated|detected|triggered|raised|returned|passed|invoked|executed|logged|printed|observed|noticed|considered|assumed|asked|requested|suggested|proposed|mentioned|discussed|tested|checked|verified|confirmed|reviewed|skipped|ignored|dropped|lost|rejected|denied|killed|terminated|interrupted|cancell?ed|aborted|stopped|started|loaded|created|opened|closed|sent|received|generated|computed|compared|determined|derived|inferred|parsed|read|treated|handled|wrapped|filtered|matched|labell?ed|tagged|added later)\b)(?:[a-z]{3,}(?<!e)ed|run|built|written|rewritten|made)\b(?! (?:by|when|because|since|if|before|in (?:v?\d+(?:\.\d+)*|version|commit|the (?:original|previous|old|last)))\b)/i },
  // A noun followed by a sentence-final completion word: "Refactor complete.", "P1–P5 complete; …"
  // "Commit created successfully.", "Plan complete and saved to …", "Changes applied."
  // Not after when/once/until/unless/before: "will report when done." is a condition (docs/decisions/0191).
  { id: "complete.final", group: "complete", scope: "claim", pattern: /[\w`)\]](?<!\b(?:when|once|until|unless|before))(?<!\b(?:should|must|can|could|will|would|may|might|to|needs?) be|\bnever|\bnot|n't)(?<!\b(?:to|will|would|can|could|should|must|may|might|cannot))(?<!\b(?:that|which|who) (?:was|were|is|are|has been|have been|had been)(?: [a-z]+ly)?) (?:complete|completed|done|finished|fixed|updated|added|created|committed|pushed|merged|applied|saved|written|removed|deleted|installed|resolved)(?<!\b(?:looks? like|appears?|seems?|see|saw|notice|noticed|according to)\b[^.;\n]{0,90})(?: successfully)?(?:[.!:;,]|\s+and\b|$)/i },
  // The finished thing handed over: "Here's the updated commit message:", "Written to CODE", "saved to CODE".
  { id: "complete.here", group: "complete", scope: "claim", pattern: /^\W*here(?:'s| is| are) (?:the|your) (?:updated|revised|rewritten|corrected|fixed|final|finished|new)\b|^\W*here(?:'s| is) an? (?:updated|revised|rewritten|corrected|fixed) (?:version|copy|file|script|component|implementation|module|config)\b|(?<!\b(?:gets?|got|is|are|be|being|was|were) )\b(?:written|saved|exported) to CODE/i },
  // The checks pass: "All tests pass", "the build succeeds", "48 passed, 0 failed", "checks green".
  { id: "complete.checks", group: "complete", scope: "claim", pattern: /\b(?:all (?:tests|checks)|tests?|build|builds|checks|suite|everything|CODE) (?:now )?(?:(?:have|has) (?:all )?)?(?:pass|passes|passed|succeeds|succeeded|works|worked|compiles)\b|\beverything (?:is )?working\b|\b\d+ passed, 0 failed\b|\bchecks (?:are )?green\b/i },
  // Something now behaves as asked: "Now the theme supports…", "The importer now reads…", "Now both … use".
  { id: "complete.now", group: "complete", scope: "claim", pattern: /^\W*(?:(?:perfect|great|excellent|good|yes|ok|okay)\W+)?now,? (?![a-z]+ (?:https?:\/\/|your\b|(?:to|on|at|into) (?:the|your|https?:)))(?!let|that\b|I\b|I'|regarding\b|as for\b|about\b|to answer\b|back to\b|for (?:your|the) question|we need|we have to|we(?:'ll| will| can| should| could| might)\b|you|run|try|check|update|add|use|open|go|wait|continu|moving|on to|back to)[a-z]|^\W*(?:perfect|great|excellent|good)\W+now\b|^\W*now:\s*$|^\W*(?:the|this|it|these|everything)\b[^:\n]{0,80} now:\s*$|\b(?:is|are) now (?!(?:being|going|trying|running|waiting|failing|broken|blocked|stuck|at|in|on|the|a|an|my|your|ready to)\b)[a-z]|(?<!\b(?:I|we|which|that|who) )\bnow (?:properly |correctly |also |only )?(?:reads|uses|supports|shows|has|have|keeps|handles|works|retries|checks|evicts|returns|includes|stays|runs|falls|logs|remembers|implements|matches|covers|accepts|rejects|respects|prints|lets|gives|sets|looks|renders|use)\b|(?<!\b(?:I|we|which|that|who|it|this|what) )\bnow (?:properly |correctly |also |only |fully |[a-z]{3,}ly )?(?!(?:needs|requires|fails|errors|crashes|breaks|hangs|throws|seems|appears|means|wants|expects|happens|remains|stands|waits|depends|exists|becomes|comes|goes|knows|thinks|tries)\b)[a-z]{3,}(?<![su])s\b/i },
  // A label that reports the changes made: "## Changes Made", "Three fixes applied:", "Here's a summary of the changes:"
  // (a bare "Summary of changes:" heads proposals as often as reports, so it does not count).
  // Round 7 (docs/decisions/0195): with one trailing parenthetical, "What I changed (so it can't happen anymore)".
  { id: "complete.label", group: "complete", scope: "label", pattern: /^[^\w\n]*(?:(?:\w+ ){0,2}(?:changes|fixes|edits|improvements|updates|modifications|enhancements|refactors|optimi[sz]ations) (?:made|applied|implemented|done)|summary of (?:the )?(?:changes|fixes) made|files (?:changed|modified)|what (?:I|we) (?:did|changed|fixed)|what was (?:done|changed|fixed)|what(?:'s| has)? changed)(?:\s{0,3}\([^()\n]{1,60}\))?[^\w\n]*$|^[^\w\n]*here(?:'s| is) (?:a |the )?summary of (?:the |my |all )?(?:changes|fixes|what (?:I|we) (?:did|changed|fixed))\b|^[^\w\n]*here(?:'s| is) what (?:(?:I|we)(?:'ve| have)? (?:did|done|changed|fixed|updated|implemented|added|accomplished|built)|(?:has )?changed|shipped|landed|went in|was (?:done|changed|fixed|updated|implemented|added|shipped))\b/i },
  // An overall verdict line: "Overall: ✅ PASS", "Result: all green".
  { id: "complete.verdict", group: "complete", scope: "label", pattern: /^[^\w\n]*(?:overall|result|status|verdict)[^\w\n]*(?:✅[^\w\n]*)?(?:pass(?:ed)?|all (?:pass|passed|green)|success(?:ful)?|green)\b[^\w\n]*$/iu },
  // Plain fix idioms: "That should fix it", "the refactor worked".
  { id: "complete.idiom", group: "complete", scope: "claim", pattern: /\bthat should (?:fix|do) it\b|^\W*(?:this|that|these changes|the change|the fix) should (?:now )?(?:fix|resolve|solve|address|take care of) (?:the|your|this|that|it|these|those|all)\b|\bthe [a-z]+ worked\b|^\W*✅|\b(?:should|will) now (?:work|run|pass|build|compile|load|render|display|show|behave)\b|\b(?:works|working|runs|running|behaves) as (?:expected|intended)\b|\b(?:runs|builds|compiles|loads|starts|passes|deploys) (?:now )?(?:cleanly|without (?:any )?(?:errors?|warnings?|issues?|problems?))\b|\b(?:is|are) (?:now )?(?:set up and )?ready to (?:go|use)\b|\b(?:is|are) (?:now )?live\b(?! (?:reload|preview|data|server|updates?|mode|view)\b)|\b(?:server|app|application|service|site|container|daemon|instance|database)s?(?<!\bno (?:[\w.-]+ ){0,2}(?:server|app|application|service|site|container|daemon|instance|database)s?) (?:is|are) (?:now )?(?:up and )?running\b(?! (?:on an?|in an?) (?:older|old|outdated|different)\b)|\b(?:has|have) (?:started|launched|booted|compiled|built|deployed) successfully\b/i },
  // A defect reported gone, the work's result stated without a completion word: "Both bugs are gone", "It no longer
  // crashes on empty input", "Should work now", "You're all set", "That did the trick" (docs/decisions/0167). Not in a
  // condition or an instruction to check ("make sure it no longer crashes", "see if it works now").
  { id: "complete.result", group: "complete", scope: "claim", pattern: /\b(?:errors?|warnings?|bugs?|crash(?:es)?|issues?|problems?|failures?|exceptions?|leaks?|flicker(?:ing)?|regressions?)\b[^.;:\n]{0,40}\b(?:is|are) (?:now |all |both )?gone\b(?! (?:only|when|if|unless|until)\b)|\bno longer(?<!\b(?:if|when|whether|unless|ensure|ensures|make sure|verify|check|confirm|so|should|would|will|to|that)\b[^.;\n]{0,40}no longer) (?:crash(?:es)?|throws?|fails?|errors?(?: out)?|hangs?|breaks?|leaks?|flickers?|appears?|happens?|occurs?|shows? up|times? out|freezes?|overflows?)\b|\b(?:works|work|runs|starts|loads|renders|builds|passes|compiles|succeeds|responds)\b(?<!(?:n't|\bnot|\bnever|\bif|\bwhether|\bsee|\bcheck|\buntil|\bonce|\bwhen|\bmake sure|\bverify|\bconfirm)\b[^.;?\n]{0,40}\b(?:works|work|runs|starts|loads|renders|builds|passes|compiles|succeeds|responds))[^.;?\n]{0,50}\bnow[.!]?\s*$|\b(?:you're|you are|we're|we are|it's|it is|that's|everything's|everything is|should be) (?:now )?(?:all set|good to go)\b|^\W*(?:and )?good to go\b|\bthat did the trick\b|^\W*(?:(?:perfect|great|excellent|done|good|ok|okay|all set)\W+)?(?:you can now|now you can)\b|\b(?:everything|it|that|this|you) should (?:all )?be (?:good|fine|sorted) now\b|^\W*(?:this|that)(?: (?:change|fix|commit|update|patch|edit))? (?:resolves|fixes|solves|addresses) (?:the|both|all|these|those|each|every|your)\b|^\W*(?:these|the|this|my) (?:changes?|fix(?:es)?|updates?|edits?|patch) (?:make|makes|ensure|ensures|allow|allows|let|lets|give|gives|improve|improves|prevent|prevents|keep|keeps|adds|removes|replaces|moves|wraps|guards|renames|updates|sets)\b|\b(?:PR|pull request|MR|merge request)\b[^.;:\n]{0,30}\b(?:is|are) (?:now )?(?:up|open)\b(?! (?:for|to) (?:discussion|debate|interpretation)\b)/i },

  // --- statesUnfinished: some clause says part of the work is not done -----------------------
  // Negated completion: "not finished", "isn't complete", "not yet wired", "not started", "doesn't yet"; joined by
  // slashes ("a done / partial / not done matrix") it names a category, not the work's state (docs/decisions/0140).
  { id: "unfinished.not", group: "unfinished", scope: "clause", holds: (m) => notInConditionOrCase(m) && notInstructionOrChoice(m) /* 0191 */ && notNeededHere(m) /* 0204 */, pattern: /(?:(?<!\|\s*(?:⬜️?\s*)?)(?<!\/\s{0,2})(?<!\b(?:that|which|who) (?:are|is|were|was|has|have|had|do|does|did) ?)\b(?:not|n't)(?: yet| been| all| fully| quite)? (?:done|finished|complete|completed|implemented|fixed|resolved|started|working|wired|updated|run|tested|merged|ported|converted|reached|checked|in place)\b(?!\s{0,2}\/)|\bnot yet\b|\bn't yet\b|\bdoesn't work\b|\bdidn't work\b|\bhaven't [^.;\n]{1,60} yet\b|\b(?:I|we) have not [^.;\n]{1,100} yet\b)/i },
  // The plain words: "incomplete", "unfinished", "partially", "mostly done", "in progress", 🚧 ⏳ ❌.
  // Not a status: a noun modifier ("saw an incomplete manifest") or a property "by design".
  { id: "unfinished.word", group: "unfinished", scope: "clause", holds: notACase, pattern: /(?<!\b(?:an?|the|any|each|every|of|with|for|on|no)\s)\b(?:incomplete|unfinished|partially|partly|half-done|mostly done|work in progress)\b(?! by design\b)(?<!\b(?:satisfies|covers|supports|matches|meets|addresses|fulfil?ls|aligns|overlaps|conforms|complies|reflects|describes|explains|answers|mirrors|duplicates|implements|handles|tests) (?:this |that |it |them )?(?:partially|partly))(?! (?:satisfies|covers|supports|matches|meets|addresses|fulfil?ls|aligns|overlaps|conforms|complies|reflects|describes|explains|answers|mirrors|duplicates|implements|handles|tests)\b)|\bin progress\b(?<!\b(?:the|an?) in progress)(?! (?:table|column|section|list|state|status|label|badge|items?|rows?|view|tab|filter|bucket|lane)\b)/i },
  // A progress mark at the start of a line or table cell: "❌ Docs", "⏳ password reset", "- [ ] write the
  // migration", "| Not started |". Plans use the same marks for what they propose, so these count only
  // in a reply that also reports progress (a completion clause or a checked item): see analyze.ts.
  // Round 7 (docs/decisions/0195): a mark the line places outside the work ("❌ 2 RingBuffer tests fail (pre-existing issues in …)", "in the existing
  // code", "not our new …") is not progress: the look-ahead after the mark, at most 140 characters of its line.
  { id: "mark.progress", group: "mark", scope: "clause", pattern: /(?:^\W{0,4}[❌⏳🚧]|\|\s*[❌⏳🚧])(?![^\n]{0,140}?\b(?:pre-?existing|unrelated to (?:our|my|the|this|these)\b|not related to (?:our|my|the|this|these)\b|(?:in|from) (?:the )?existing\b|not (?:our|my) (?:new|own)\b|outside (?:the|our|this|my) (?:scope|task|work|changes?)\b))|^\s*[-*+] \[ \]|\|\s*(?:⬜️?\s*)?not started\b/iu },
  // Leftover work: "Remaining:", "still to do", "4 to go", "the rest still use", "the remaining 8", "S3 and S4 remain"
  // ("the remaining 2 commits applied cleanly" says they are done).
  { id: "unfinished.remaining", group: "unfinished", scope: "clause", holds: (m) => notACaseOrKept(m) && notKeptOrOrigin(m) /* 0191 */ && notOtherThingsState(m) /* 0203 */ && notKeptByChoice(m) /* 0220 */ && notUntrackedLeftover(m) /* 0233 */, pattern: /\bremaining(?: work| steps?| items?| tasks?| parts?)?(?: from [^:\n]{1,60})?:|\b(?:still|yet) to (?:do|go|be done|run|come)\b|\bleft to do\b|\b(?:one|two|three|a few|\d+) remaining (?:[\w-]+ )?(?:issues?|problems?|errors?|bugs?|failures?|items?|tasks?|steps?)\b|\b(?:is|are) left\b|\bleftover\b|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|few|more)(?: [a-z]+)? to go\b|\bthe (?:\d+|two|three|four|five|six|seven|eight|nine|ten) remaining (?:work|steps?|items?|tasks?|parts?|files|endpoints|tests|commits|changes|suggestions|comments|issues|points|todos)\b(?![^;\n]{0,120}\b(?:applied|passed|pass|succeeded|work|cleanly|already|are (?:done|fine|unchanged|unaffected)|were \w+ed)\b)|\bthe (?:remaining|other) (?:\d+ |two |three |four |five |six |seven |eight |nine |ten )?(?:work|steps?|items?|tasks?|parts?|ones|files|endpoints|tests|commits|changes|suggestions|comments|issues|points|todos|\d+|two|three|four|five|six|seven|eight|nine|ten)\b(?<!\bthe other (?:ones|files|endpoints|tests|commits|changes|suggestions|comments|issues|points|todos))(?![^;\n]{0,120}\b(?:applied|passed|pass|succeeded|work|cleanly|already|are (?:done|fine|unchanged|unaffected)|were \w+ed)\b)|\b(?:remains?|remain)\b(?<!\bno\b[^.;,\n]{0,60}\b(?:remains?|remain))(?<!\b(?:ensur(?:e|es|ing)|keep(?:s|ing)?|mak(?:e|es|ing) sure|so that|while)\b[^.;,\n]{0,40}\b(?:remains?|remain))(?! (?!un|blocked\b|failed\b|stalled\b|unaddressed\b)[a-z]{3,}ed\b)(?! (?:exactly |only |just |still |fully |largely |mostly |entirely )?(?:the same|unchanged|compatible|as|intact|stable|valid|available|untouched|accurate|correct|true|relevant|safe|fine|consistent|pending until|on|in|at|until|under|inside|within|where|there|local|private|optional|supported|functional|operational|usable|responsive|active|enabled|disabled|in effect|in sync|backwards? compatible|backwards?-compatible|readable|accessible|visible)\b)/i },
  // Deferred: "Template files can be reviewed later", "left for a follow-up" (docs/decisions/0152).
  { id: "unfinished.deferred", group: "unfinished", scope: "clause", pattern: /\b(?:can|could|will|should) be (?:reviewed|done|handled|addressed|fixed|added|completed|implemented|tackled|revisited|migrated|converted|updated) later\b|\b(?:left|deferred|postponed|parked) (?:for|until|to) (?:later|a later \w+|a follow-up|another (?:pass|session|PR|round))\b|\b(?:can|could|will|should) be (?:addressed|handled|fixed|done|tackled|resolved|revisited|picked up) (?:during|in) (?:phase|step|stage|milestone|sprint|a later|the next|a follow-up|a separate|a future)\b/i },
  // Pending: "the two about wording are pending", "pending review".
  { id: "unfinished.pending", group: "unfinished", scope: "clause", holds: notACase, pattern: /\b(?:is|are|still|remain|remains) pending\b(?! until\b)|\bpending(?: review| approval)?:/i },
  // Still not right: "two tests still fail", "still uses the old one", "still working through", "we still get QUOTE".
  { id: "unfinished.still", group: "unfinished", scope: "clause", holds: notInConditionOrCase, pattern: /(?<!\b(?:an?|any|each|every) [\w-]+ (?:that|which|who) )\bstill (?:fails?(?! (?:gracefully|safely|closed|fast|loudly|early)\b)|failing|broken|missing|pending|open|red|(?:uses?|describes?|prints?|shows?|reads?|points? to|returns?|runs?|is on|are on|on) the old|in progress|working (?:through|on)|needs? (?:work|fixing|to be)|building|throws?|crashes|errors?|times? out|to (?:do|come|be done))\b|\bstill (?:get|gets|getting|see|sees|seeing|hit|hits|hitting) (?:an? |the |this |that |same )*(?:QUOTE|CODE|[^.;\n]{0,40}\b(?:errors?|failures?|warnings?|exceptions?|crash(?:es)?|not found|timeouts?))\b/i },
  // The speaker could not do it: "I couldn't", "we were unable to", "I didn't get to", "I skipped", "I'm restricted to the workspace".
  { id: "unfinished.cannot", group: "unfinished", scope: "clause", holds: notAbilityOrConcession, pattern: /(?<!\bwhich )\b(?:I|we) (?:(?:couldn't|could not|can't|cannot) (?:finish|complete|do|run|access|reach|reproduce|test|check|verify|get|push|deploy|open|install|build|inspect|see|find|connect|log|sign|merge|fix|directly|perform|execute|carry out)|was unable to|were unable to|wasn't able to|weren't able to|haven't been able to|didn't get to|did not get to|ran out of|don't have (?:a way|access)|do not have (?:a way|access)|skipped|left out|didn't have time)\b|\bI(?:'m| am) (?:currently )?(?:not able to|unable to|restricted to|limited to)\b|\b(?:we|I)(?:'re| are|'ve been| have been) (?:currently |still )?(?:unable|not able) to\b|\bI need (?:the|a|an|your|access|you)\b[^.;\n]{0,80}\bto (?:run|finish|complete|deploy|continue|apply)\b/i },
  // Code work handed back after the edits: "You'll need to update the `ingest` functions to use the new embedder",
  // "I'll leave the migration for you to run", "You can manually complete the commit"
  // (a setup step, "you'll need to add the key to .env", or an input, "add main.py to the chat", is not; docs/decisions/0152).
  { id: "unfinished.handed-back", group: "unfinished", scope: "clause", pattern: /\byou (?:can|could|may|will|'ll|need to|should)(?: need to)? (?:manually )?(?:complete|finish|finalize|finalise) the\b|\b(?:leave|left|leaving)\b[^.;\n]{0,60}\bfor you to (?:run|apply|do|finish|complete|implement|write|add|fix|update|handle|wire|port|migrate)\b|\byou(?:'ll| will) (?:also |still )?need to (?:update|modify|change|implement|write|refactor|replace|rename|wire|adjust|edit|port|migrate|convert)\b[^.;\n]{0,80}\b(?:functions?|files?|methods?|class(?:es)?|modules?|callers?|components?|tests?|code|imports?|references?|calls?|endpoints?)\b(?![^.;\n]{0,40}\bto the chat\b)/i },
  // Stopped or blocked: "Blocked:", "blocked on", "stopped before step 4", "waiting for CI" (not behaviour:
  // "blocked when disabled", "blocked with a 429", "blocked clients are logged").
  { id: "unfinished.blocked", group: "unfinished", scope: "clause", holds: notACase, pattern: /\bblocked\b(?<!\b(?:any|each|every|all|no|an?)\sblocked)(?! (?:when|if|unless|while|with|by default|for (?!now\b|the moment\b|today\b|this\b|that\b|now,)[a-z]+)\b| [a-z]{3,}s\b(?<!\b(?:is|was|has|as|its|this|status)))|\bstopped (?:before|at|after|short)\b|\b(?:I|we)(?:'ve| have)? (?:paused|stopped|halted) (?:here|there|now|for now|at|before|after)\b|\b(?:prevent(?:s|ed|ing)?|keep(?:s|ing)?|kept|stop(?:s|ped|ping)?) (?:us |me )?from (?:commit|push|deploy|merg|publish|releas|test|verif|build|install|running)\w*|\bpreventing (?:the |any |further |our |full )?(?:commit|push|deploy|merg|publish|releas|test|verif|install)\w*(?! (?:interference|pollution|flakiness|leakage|leaks?|collisions?|conflicts?|breakage|corruption|failures?|errors?|regressions?|isolation issues)\b)|\bprevented (?:(?:the |any |further |our |full |complete |proper )?(?:testing|verification|tests? runs?|the tests?|the build|deploy\w*|install\w*))\b|(?<!\b(?:instead of|without|avoid|avoids|avoiding|no|stop|stops|of|from|than|by) )\bwaiting (?:for|on)\b/i },
  // A present failure: "npm test fails: 3 failures", "the build fails on the type check", "| fail |"; a
  // generic subject ("a request that still fails is logged") states a rule, not a failure, and "why ping fails"
  // or "how it fails" explains behaviour (docs/decisions/0140).
  // Not a failure: negated ("why it doesn't fail locally"), conditional, transitive on code ("passes X but
  // fails CODE", a test input's path), or placed outside the work: said to predate the change, "outside the
  // scope of the task", "other failing tests", "failures in other areas" (ADR 0089; docs/decisions/0124); a test to
  // write ("generate failing tests for P0", test-first) is work to do, not a failure (docs/decisions/0152).
  // Round 7 (docs/decisions/0195): nor a failure the same clause places in code the work did not touch ("both in the existing RingBuffer code", "(not our new
  // OrderedCollection)", "unrelated failing tests"): "unrelated" and "pre-existing" in the look-behind, the rest in the look-ahead.
  { id: "unfinished.fails", group: "unfinished", scope: "clause", holds: (m) => notACase(m) && notMendedOrNamed(m) /* 0191 */ && notAMechanism(m) /* 0220 */, pattern: /(?<!\b(?:if|when|whenever|unless|before|until|would|could|might|will|can|may|should|must|why|how)\b[^.;\n]{0,60})(?<!(?:n't|\bnot|\bnever|\bno longer|\bother|\bunrelated|\bpre-?existing|\brather than|\binstead of|\bwithout)(?: (?:completely|entirely|fully|totally|ever|actually|just))? )(?<!\b(?:an?|any|each|every) [\w-]+ (?:that|which|who) (?:still )?)(?<!\b(?:the|that|this) [\w-]+ (?:one|option|approach|variant|alternative) )(?<!\b(?:fixed|fixes|fixing|resolved|addressed|repaired)(?: all| the| every| each| those| these| both)?(?: [\w-]+)? )(?<!\b(?:previously|formerly|originally|earlier|before|used to be)(?: \d+| [\w-]+)? )\b(?:fails|fail|failing)\b(?<!\b(?:generate|generates|generating|write|writes|writing|add|adds|adding|create|creates|creating|produce|produces|producing) (?:fails|fail|failing))(?! CODE| (?:gracefully|safely|closed|fast|early|loudly)\b)(?![^.\n]{0,80}\b(?:as (?:it )?did before|before my change|the same way before|pre-existing|already|unrelated|outside (?:the|our|this|my) (?:scope|task|work|change)|not caused by|(?:in|from|across) (?:other|unrelated) (?:parts|areas|modules|files|packages|places|components|suites|tests)\b|elsewhere\b|(?:in|from) (?:the )?existing\b|not (?:related to|caused by|part of) (?:our|my|the|this|these)\b|not (?:our|my) (?:new|own)\b))|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|some|several|a few) failures? in\b(?! other\b| unrelated\b)(?![^.\n]{0,120}\b(?:pre-existing|unrelated|outside (?:the|our|this|my) (?:scope|task|work|change)|not caused by))/i },
  // A count short of the whole: "three of six", "5 of the 7", "4/7 tasks", "half of", "the first half".
  // Checker errors present now: "there are many linting errors", "There are still 3 type errors", "the same linter errors
  // remain in core.py" ("No linting issues remain" is none) — the state of the
  // checks the work is held to (docs/decisions/0176). In a diagnosis that asks, or a step under way, it describes the
  // code like the fails row (CODE_STATE_ROWS); in an answer it describes the subject unless the reply also reports its
  // own work done (analyze.ts).
  { id: "unfinished.errors-left", group: "unfinished", scope: "clause", holds: notInConditionOrCase, pattern: /\bthere(?: are|'s| is) (?:still )?(?:many|several|some|a few|a number of|multiple|numerous|a lot of|lots of|\d+|one|two|three|four|five|six|seven|eight|nine|ten)(?: remaining| more| new| other| minor| small)? (?:lint|linting|linter|eslint|type|typescript|TS|type-check|compile|compiler|compilation|build|test|mypy|pylint|flake8|clippy|ruff|formatting|format|style|syntax|indentation)(?:-| )?(?:errors?|warnings?|failures?|issues?)\b|(?<!\b(?:no|zero|0) (?:more |new |remaining |other )?)\b(?:lint|linting|linter|eslint|type|typescript|TS|type-check|compile|compiler|compilation|build|test|mypy|pylint|flake8|clippy|ruff)(?:-| )?(?:errors?|warnings?|failures?|issues?) (?:still )?(?:remain|remains|persist|persists)\b/i },
  // "Some of" and "half of" are partial only about the state of the work ("some of the tests are fixed", "fixed
  // half of them", "half of the endpoints use the new router"); "might not support some of the newer features" counts nothing done; "to reach 100 %" says
  // the count is short of it now (docs/decisions/0140).
  { id: "unfinished.count", group: "unfinished", scope: "clause", pattern: /\b(?:half|some) of (?:the |them|these|those)?[a-z]?[^.;\n]{0,80}\b(?:(?:is|are|was|were|has|have|got)(?: now| been)? (?:done|complete|completed|finished|fixed|migrated|ported|implemented|passing|updated|addressed|resolved|in place|converted|moved)|(?:now )?(?:use|uses|run|runs|are on|is on) the new|(?:now )?(?:pass|passes))\b|\b(?:done|did|completed|finished|fixed|migrated|ported|implemented|updated|addressed|resolved|converted|moved) (?:only )?(?:half|some) of\b|\bthe first half\b|\b(?:first|initial) (?:incremental |small )?(?:pass|part|phase|round|batch|stage|chunk|increment)\b(?: of\b[^.;:\n]{1,60})? (?:is |was |has been )?(?:completed?|done|finished)\b|\b(?:implemented|completed|finished|did|done) the first (?:incremental |small )?(?:pass|part|phase|round|batch|stage|chunk|increment|refactor)\b|\bto (?:achieve|reach|hit|get(?: back)? to) (?:a )?100 ?%/i },
  // "three of six", "5 of the 7", "4/7 tasks": a count short of its whole ("16 of 16" is not); after a preposition
  // or a choice ("running from one of the two sessions", "pick one of the two mockups") it names an element.
  { id: "unfinished.count-of", group: "unfinished", scope: "clause", pattern: /(?<!\b(?:from|in|into|to|for|by|on|at|with|pick|picked|choose|chose|select|selected|either) )\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (?:of|out of) (?:the |all )?(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)\b|\b(\d+)\/(\d+) (?:tasks?|steps?|items?|tests?|files?|done|complete|finished|passing)\b/i, holds: partOfWhole },
  // A clause that carves out an exception: "…, except the docs", "apart from the Windows job", "all done but one".
  { id: "unfinished.except", group: "unfinished", scope: "clause", holds: notUntrackedLeftover /* 0233 */, pattern: /^(?:except|apart from|save for|other than)\b(?![^.;\n]{0,80}\bas (?:you )?(?:asked|requested|agreed|designed|planned))(?!\s+[A-Z][\w.]*(?:\s*,\s*[A-Z][\w.]*)*(?:\s+as\s+\w+)?\s*:)|\b(?:done|complete|finished|everything|all) but (?:one|two|three|\d+|the)\b/i },
  // The agent's own next step: "B3 is next", "Next I'll wire…", "I'll port it next", "for the next session:".
  // The agent owns a defect of its own work and does not say it is mended: "I made an error - I duplicated the
  // resolve section. Let me fix that:", "I made a significant mistake by marking the task done" (docs/decisions/0167).
  { id: "unfinished.own-error", group: "unfinished", scope: "clause", holds: notMendedAfter, pattern: /\b(?:I|we) (?:made|introduced|caused) (?:an? |a few |some |two |several )?(?:[\w-]+ )?(?:error|mistake|bug|regression|typo)s?\b/i },
  // Going on to the rest of the work is work left: "I will proceed to implement the same for the following areas, one by
  // one:" (docs/decisions/0176).
  { id: "unfinished.next", group: "unfinished", scope: "clause", pattern: /(?:\b(?:is|are) next\b|\bnext is\b|\bnext,? I(?:'ll| will)\b|\b(?:I|we)(?:'ll| will| am going to) [^.;?\n]{1,60}\bnext\b|\b(?:working on|starting) [^.;?\n]{1,60}\bnext\b|\bfor the next session\b|(?<!\b(?:and|once|when|after|if)\b[^.;?\n]{0,60})\b(?:I|we)(?:'ll| will) (?:now |then |next )?(?:proceed|continue|move on|start|begin) (?:to|with|on) (?:the )?(?:phase|step|task|part|stage|milestone|epic|story) [\w.]+|\b(?:I|we)(?:'ll| will) (?:now |then )?(?:proceed|continue|go on|move on) (?:to|with) [^.;?\n]{0,120}\b(?:the following|the remaining|remaining|the rest|the other|one by one|each of)\b|^\W*next,? (?:we|I) (?:still )?(?:need|have) to\b)(?![^.;\n]{0,80}\?)/i },
  // A question or offer to continue names work not done: "Shall I go on with B4–B6?", "Want me to keep going?"
  // Not another's going on (0231): "I'd be happy to help you continue your analysis", "let users continue manually".
  { id: "continue.ask", group: "continue", scope: "ending", pattern: /(?<!\b(?:help|helps|helping|let|lets|letting|allow|allows|allowing) (?:you|users?|them|the user|people|others) (?:to )?)\b(?:continue|keep going|go on|carry on|finish the rest|do the rest)\b/i },
  // "Want me to pick up B4?" after a reply that reports progress: the next piece of the same work.
  // Not the person's own thread (0231): "I can help pick up where you left off!"
  { id: "continueNext.pick-up", group: "continueNext", scope: "ending", pattern: /\b(?:pick up|move on to)\b(?! where you left off\b)/i },

  // --- givesReasonAndNext: a reason ... ------------------------------------------------------
  // Why the work stopped: a cause word, a failure, a missing thing, a limit, or an inability.
  { id: "reason.cause", group: "reason", scope: "clause", pattern: /\b(?:wait|pause|paused) (?:for|on|until)\b|\b(?:because|since|due to|caused by|blocked (?:by|on)|requires?|needs?(?! to (?:complete|finish|continue|be (?:done|completed|finished))\b)|missing|fails?|failed|failing|errors?|denied|refuses?|expired|offline|without|waiting (?:for|on)|ran out|timed out|times out|limit|caps?|policy|given the|couldn't|could not|can't|cannot|unable|don't have|do not have|would lock|is down)\b|\b(?:isn't|is not|aren't|are not|not yet) (?:settled|decided|agreed|final|clear)\b/i },
  // ... or a failing status: "returns 401", "refuses my credentials (403)", "exit code 1".
  { id: "reason.status", group: "reason", scope: "clause", pattern: /\b(?:returns?|returned|responds?|responded|answers?|answered) (?:with )?(?:an? )?[45]\d\d\b|\([45]\d\d\)|\bexit(?:ed)? (?:with )?(?:code|status) [1-9]/i },
  // ... and a next step: "Next:", "to continue, run", "once it's set", "I'll finish", "you need to", "send …".
  { id: "next.step", group: "next", scope: "clause", pattern: /\bnext(?: step| steps)?\b|\bto (?:continue|finish|complete|unblock|resume)\b|\bonce\b|\b(?:re-?run|retry)\b|\b(?:please )?(?:run|share|send|paste|provide|set|install|raise|add me|grant) (?:CODE|the|a|an|it|them|me|us)\b|\bI(?:'ll| will) (?:finish|continue|resume|turn|complete|pick|run|try|switch|do)\b|\b(?:you|they|someone) (?:need|can|could|should|must) (?:to )?(?:run|set|add|provide|share|paste|sign|log|install|approve|test|give)\b|\b(?:we|I)(?:'d| would) need (?:access|the|a|an|to)\b|\bwhen (?:ready|you're ready)\b|\bshould I continue\b|\bcontinue with\b|\btell me to\b|\bneed a decision\b|\ba decision from you\b|\bin the maintenance window\b/i },

  // --- Round 10 (docs/decisions/0233): the next step the agent itself takes, or asks the person to take -------------------
  // The reply closes announcing the agent's own next act: "I made an error - I duplicated the section. Let me fix that:",
  // "Let me look at the blend function to make sure everything is right:", "I'll rerun the suite after that." — the next
  // step of work the reply leaves (it counts only beside an unfinished clause and a reason). Not a question, not "let me know".
  { id: "next.own-act", group: "next", scope: "lastSentence", pattern: /^\W*(?:(?:now|ok|okay|so|next|then|first|alright)\W+)?(?:let me|let's|let us|I'll|I will|I'm going to|I am going to)\b(?! know\b| be (?:happy|glad)\b)[^?\n]{0,300}$/i },
  // A sentence that opens asking the person to act: "Please download it for me.", "Could you clarify:", "Please check the
  // console and let me know what you see!" — the next step is theirs. Not "please note/see/feel free", not "let me know if".
  { id: "next.asks-person", group: "next", scope: "clause", pattern: /(?:^|[.!?] {1,3})\W{0,4}(?:please|could you|can you)\s+(?!note\b|see\b|be\b|feel\b|refer\b|keep\b|let me know (?:if|whether)\b)[a-z]+\b/i },

  // --- asksPermission: the ending asks whether (or how) to go on -------------------------------
  // "Should I proceed?", "Shall I continue with the docs?", "Can we merge it?"
  { id: "permission.should", group: "permission", scope: "ending", pattern: /\b(?:should|shall|can|may) (?:I|we)\b[^?\n]{0,200}\?/i },
  // "Do you want me to…", "Would you like me to…"
  { id: "permission.want-me", group: "permission", scope: "ending", pattern: /\b(?:do|would) you (?:want|like) me to\b(?! (?:do|help (?:you )?with) (?:anything|something)\b)/i },
  // Options listed after a clipped lead-in: "Want to:" / "Would you like me to:" followed by a numbered list.
  { id: "permission.options", group: "permission", scope: "ending", pattern: /(?:^|\n)\W*(?:want|do you want|would you like)(?: me)? to:\s*(?:\n|$)|(?:^|\n)\W*(?:want me to|would you like me to|should I|shall I)\b[^?:\n]{0,200}:\s*(?:\n|$)/i },
  // A clipped question: "Want me to begin?", "Want to test more or move on?"
  { id: "permission.clipped", group: "permission", scope: "ending", pattern: /(?:^|[.!?]\s+|\s[—–-]\s+)(?:want|wanna) (?:me )?to\b[^?\n]{0,200}\?/i },
  // "Let me know if you'd like me to…", "let me know whether to remove them", "let me know if I should…"
  { id: "permission.let-me-know", group: "permission", scope: "ending", pattern: /\blet me know (?:if|whether) (?:you(?:'d| would)? (?:like|want|prefer)|you'd want|I should|to|you want me)\b|\blet me know whether\b|\blet me know (?:which|what|how)\b[^.\n]{0,100}\band I(?:'ll| will)\b/i },
  // The same offer with the condition first: "If you'd like me to add tests, let me know", "If you need any
  // further changes or want to update the docs, let me know!" — the condition names more of the agent's
  // work (a change, a tweak, a refinement), so it waits for the word; "If you need anything else" does not.
  { id: "permission.if-let-me-know", group: "permission", scope: "ending", pattern: /\bif you(?:'d| would)? (?:like|want|prefer|need) (?:me )?to\b[^.!?\n]{1,160}\blet me know\b|\bif you (?!(?:need|have) (?:any |more |further |other |additional )(?:other |more |further |specific )?(?:issues?|errors?|problems?|questions?|help|assistance|support|cleanup|improvements?|refinements?|requirements?|modifications?|trouble)(?: (?:or|and) (?:need |have )?(?:any |more |further |other |additional )?(?:issues?|errors?|problems?|questions?|help|assistance|support|cleanup|improvements?|refinements?|requirements?|modifications?|trouble))?,? (?:just |please )?let me know[.!]*\s*$)(?:need|want|'d like|would like)\b[^.!?\n]{0,40}\b(?:changes|tweaks|adjustments|refinements?|modifications|edits|fixes|improvements)\b[^.!?\n]{0,120}\blet me know\b|\blet me know if you need (?:any |some )?(?:further |more |other |additional )?(?:changes|tweaks|adjustments|refinements?|modifications|edits|fixes|improvements)\b/i },
  // "Ready to proceed with implementation?", "Ready for me to implement option B?", "Ready for the next task?",
  // and the agent's readiness as the reply's last sentence: "Ready to proceed with implementation!" (0124).
  // Round 10 (0231): "Ready for the next …?" asks only within its sentence ("Ready for the next project. What would you like to
  // work on?" asks for a task); an emoji, bullet or emphasis may open "Ready to proceed to Task 3 … when you're ready!".
  { id: "permission.ready", group: "permission", scope: "ending", pattern: /\bready (?:for me )?to (?:proceed|start|begin|continue|implement|move on|go ahead)\b[^?\n]{0,200}\?|\bready to\b[^?\n]{0,120}\b(?:and|then) (?:proceed|start|begin|continue|implement|move on|go ahead)\b[^?\n]{0,200}\?|\bready for (?:the )?next\b[^?.!\n]{0,200}\?|\bready for (?:more|another|further)\b[^?.!\n]{0,120}\?|(?:^|[.!]\s+)\W{0,6}(?:I'm |I am )?ready to (?:proceed|start|begin|continue|implement|move on|go ahead)\b(?:[^?.!\n]|\.(?=\d)){0,200}[.!]\s*$/i },
  // A choice about the next move: "Or would you prefer…", "Or do you want a patch release?", "Which would you like me to do?"
  // Round 10 (0231): a wh-question "What do you want to …?" asks for a task, not a go-ahead — but "What do you want to do?"
  // after options, or "… work on next?", hands over the next move.
  { id: "permission.prefer", group: "permission", scope: "ending", pattern: /\bwould you prefer\b|\bwhat(?:'s| is) your preference\b|\bwhich do you prefer\b|(?<!\b(?:what|which|how|where|when|who|why) )\bdo you want (?:a|an|the|to)\b[^?\n]{0,200}\?|\bwhat do you want to (?!work on\b(?![^?\n]{0,80}\bnext\b))[^?\n]{0,200}\?|\bwhich (?:[\w-]+ ){0,2}(?:approach|option|one|way|design|path|version|variant|direction)\b[^?\n]{0,160}\?|\bwhich would you\b[^?\n]{0,160}\?|\bwhat do you prefer\b|\bdo you prefer\b[^?\n]{0,160}\?/i },
  // Approval of a proposed plan: "Does that sound good?", "Does this revised approach address your concern?", "What do you think?"
  { id: "permission.sound-good", group: "permission", scope: "ending", pattern: /\b(?:does|do|is) (?:this|that|the plan|it)\b[^?\n]{0,80}\b(?:look|sound|address|match|align|resonate|seem|work for|the right)\b[^?\n]{0,120}\?|\b(?:do|would) you (?:approve|agree)\b[^?\n]{0,160}\?|\bwhat(?:'s| is) your take\b|\bwhat do you think\b|(?:^|[—–-]\s*|[.!]\s+)(?:any )?thoughts\?/i },
  // A bare go-ahead question: "OK to proceed?", "Proceed?", "Continue with the other nine, or stop here?"
  { id: "permission.proceed", group: "permission", scope: "ending", pattern: /\b(?:ok|okay) to (?:proceed|continue|go ahead)\b|(?:^|[.!?]\s+)(?:proceed|continue|go ahead|keep going)\b[^?\n]{0,200}\?/i },
  // Soft asks: "just say the word", "say go and I'll start", "happy to continue if you'd like", "I can also … if you want",
  // "If you tell me your budget, we can narrow it to one stack" (further work on the person's word).
  // Round 10 (0231): "per your call" follows the person's decision; "Once you have logged in, tell me …" asks for a report of
  // their step (WAITS_ON_REPORT reads it), not their word on the agent's move.
  { id: "permission.soft", group: "permission", scope: "ending", pattern: /\bjust say the word\b|\bsay ["']?(?:go(?: ahead)?|the word|yes|proceed)\b|\bif you(?:'d)? (?:like|want) (?:more )?help (?:with|walking|setting|getting|running|testing|debugging|implementing|writing|wiring)\b|\bgive me the (?:go-ahead|ok|word)\b|\b(?:happy|ready|glad) to [^.\n]{1,120}\bif you(?:'d)? (?:like|want|prefer)\b|\bif you(?:'d)? (?:like|want|prefer)\b[^.\n]{0,80}\b(?:I|we)(?: can| could| will|'ll)\b|\b(?:say|tell me) (?:if|whether) you(?:'d)? (?:like|want)\b|\bif you(?:'d)? (?:like|want) to (?:push|go|take (?:it|this)) further\b|\bif you (?:find|think|feel|decide|notice)\b[^.\n]{0,80}\b(?:I|we) (?:can|could|will|'ll)(?: easily| also| quickly)? (?:adjust|change|tweak|update|fix|add|remove|revert|tune|fine-tune|increase|reduce|swap|switch|make)\b|\bif you tell me\b[^.\n]{0,160}\b(?:I|we) (?:can|could)\b|\bif (?:you need(?: it| to)?|needed),? (?:I|we) (?:can|could)\b|\bI (?:can|could) (?:also )?[^.\n]{1,120}\bif you(?:'d)? (?:like|want|tell me)\b|\bif (?:it|that) (?:helps|would help|'s useful|is useful)\b[^.\n]{0,40}\bI (?:can|could)\b|\btell me (?:and|if) I(?:'ll| will| should)\b|\b(?:I|it|we) can (?:continue|keep going|keep iterating|go on)\b[^.?\n]{0,80}\bor you can\b|(?<!\b(?:once|when|after|as soon as) you\b[^.?!\n]{0,80}), tell me\b|\bor tell me to\b|(?<!\b(?:per|by|on|following) )\byour call\b|\b(?:it's|that's) up to you\b/i },
  // Round 5 (docs/decisions/0152): the ending ties the agent's next action to the person's word, asks for the
  // person's choice of how to go on, or offers named further work — read by what the sentence does, not one phrasing.
  // The next action waits on consent: "Once you confirm, I'll apply the rest", "If this looks good, I'll merge it",
  // "I'll start as soon as you approve", "Awaiting your approval", "Add these files to the chat if you want to proceed" (a decision the agent needs, "once you pick one of
  // the two mockups I'll wire it", is an input: reason and next step, not permission).
  { id: "permission.your-word", group: "permission", scope: "ending", pattern: /\b(?:once|if|when|after|as soon as) you(?:'ve| have)? (?:confirm|approve|agree|okay|ok|give (?:me )?the (?:go-ahead|ok|green light)|say so|sign off|are happy|are ok|are okay|'re happy|'re ok|'re okay)\w*\b[^.?!\n]{0,120}\b(?:I|we)(?:'ll| will| can| could)\b|\b(?:I|we)(?:'ll| will| can)\b[^.?!\n]{1,120}\b(?:once|if|when|after|as soon as) you (?:confirm|approve|agree|give (?:me )?the (?:go-ahead|ok|green light)|say so|sign off)\b|\bif (?:that|this|it|the plan|this plan|that plan|this approach|that approach) (?:works|sounds good|looks good|looks right|seems right|is ok|is okay|is fine|makes sense)(?: (?:for|to) you)?,? (?:I|we)(?:'ll| will| can)\b|\bawaiting your (?:confirmation|approval|go-ahead|decision|ok|direction|instructions)\b|\bwith your (?:approval|go-ahead|ok|permission),? (?:I|we)(?:'ll| will| can)\b|\bif you(?:'d)? (?:like|want|wish)(?: me)? to (?:proceed|continue|go ahead|go on|move forward|keep going)\b/i },
  // The person's choice of how to go on: "Let me know how you'd like to proceed", "Please confirm which approach you'd
  // like", "Tell me which option you prefer", "Let me know and I'll add it", "How would you like me to proceed?"
  // Round 10 (0231): "a confirm dialog/prompt/step …" names a thing the code has, not a request to confirm.
  { id: "permission.tell-me", group: "permission", scope: "ending", pattern: /\b(?:let me know|tell me|please confirm|confirm(?! (?:dialog|prompt|step|modal|button|box|message|screen)s?\b)|please advise|advise)\b[^.?!\n]{0,40}\b(?:how|which|whether|what|if)(?: (?!you\b)[\w-]+){0,2} (?:you(?:'d| would)? (?:like|want|prefer)|to proceed|you'd like to proceed|I should|we should|to go|to continue)\b|\b(?:just )?(?:let me know|tell me|please (?:specify|clarify|indicate|confirm))(?: (?:which|what|if so|yes))?,? and I(?:'ll| will)\b|\bhow (?:would you like|do you want) (?:me )?to (?:proceed|continue|go on|handle)\b/i },
  // A question putting the agent's next action to the person: "Would it help if I added a test?", "Do you need me to
  // update the docs?", "Do you want these changes applied?"
  // Help offered with named work: "Let me know if you need help implementing any of these changes", "… with those files
  // as well"; "If you have other files you would like me to review, please let me know" ("if you need further assistance" is a sign-off).
  { id: "permission.offer-help", group: "permission", scope: "ending", pattern: /\blet me know if you(?: need|'d like| want| would like) (?:my |any |some )?(?:help|assistance) (?:with |implementing |applying |making |updating |adding |writing |setting up |fixing |integrating |testing )(?!anything\b|something\b|else\b)|\byou(?:'d| would)? (?:like|want) me to [a-z]+\b[^.!?\n]{0,120}\blet me know\b/i },
  { id: "permission.offer-question", group: "permission", scope: "ending", pattern: /\bwould it (?:help|be (?:helpful|useful|better|easier|worth))\b[^?\n]{0,160}\?|\b(?:do|would) you need me to\b|\b(?:do|would) you (?:want|like|need) (?:these|this|those|that|the|it|them|any|all)\b[^?\n]{0,120}\b(?:applied|done|changed|added|implemented|fixed|updated|committed|pushed|merged|removed|made|created|written|run|reverted|tested)\b[^?\n]{0,80}\?/i },
  // A sentence offering named further work: "I can also add a dark mode toggle.", "Happy to add that too." (a general
  // offer of help, "I can help with anything else", is a sign-off); "Otherwise, I can help you create one." Only as the
  // reply's last sentence: "I can help you fix this error. Let me …" opens a reply, it offers nothing after it.
  // Round 10 (0231): more verbs of further work — pick up, guide, walk you through, review, debug, test, dig into.
  { id: "permission.offer", group: "permission", scope: "lastSentence", pattern: /^(?:(?:otherwise|alternatively|or|if not|if so|if you prefer),?\s+)?(?:I can|I could|I'd be happy to|I'm happy to|happy to|glad to|I'd be glad to)\s+(?:also\s+)?(?:help (?:you )?)?(?:add|write|create|implement|update|fix|wire|extend|refactor|set up|run|open|make|port|migrate|convert|apply|integrate|build|generate|draft|tackle|handle|remove|move|rename|change|adjust|tweak|clean up|split|document|include|look into|investigate|continue|proceed|pick up|guide|walk you through|review|debug|test|dig into)\b/i },
  // A menu or prompt for the person's pick of the agent's next action: "Choose [1], [2], or specify which issue to
  // examine:", "Please select an option.", "… update the story status? (y/n)" ("Choose the option that best fits your
  // project" hands the person a choice for their own work: no bracketed keys, no prompt).
  { id: "permission.menu", group: "permission", scope: "ending", pattern: /\b(?:choose|select|pick|enter|type)\b[^.\n]{0,40}\[\w{1,3}\]|^\W*please (?:select|choose|pick) (?:an?|one) (?:option|number|item)\b|\((?:yes|y)\s*\/\s*(?:no|n)\b[^)\n]{0,40}\)/i },
  // "Would you like to add main.py to the chat?", "Would you like to update the spec, or proceed?": the person's choice
  // of how the work goes on — but not an invitation to try or check the result themselves ("Would you like to try
  // running it to verify the fix?"), and a wh-question ("What would you like to work on?") asks for a task, not a go-ahead.
  { id: "permission.would-you-like", group: "permission", scope: "ending", pattern: /\bwould you like to(?<!\b(?:what|which|how|where|when|who) would you like to) (?!(?:try|test|run|verify|check|review|see|look|read|learn|know|hear|discuss)\b)[a-z]+\b[^?\n]{0,200}\?/i },
  // An alternative offered as a question after the proposal: "Or keep both running for a while?"
  { id: "permission.or", group: "permission", scope: "ending", pattern: /(?:^|\n)or (?!is |are |was |were |did |does |am )[^?\n]{0,200}\?/i },
  // A choice put back to the person: "Would you like to add a different one, or modify the existing content?"
  { id: "permission.choice", group: "permission", scope: "ending", pattern: /\bwould you like to\b[^?\n]{0,200}\bor\b[^?\n]{0,200}\?/i },
  // What to do next: "What should I work on next?"
  // "What's next?", "What is the next step you would like to take?", "Would you like to tackle user story 5 next?",
  // "Would you like to commit this fix?": the next move of the work handed to the person (docs/decisions/0140).
  { id: "permission.what-next", group: "permission", scope: "ending", pattern: /\bwhat (?:should|shall|would you like) (?:I|me to) (?:do|work on|tackle|look at)\b|\bwhat would you like (?:me )?to do next\b|\bwhat(?:'s| is) (?:the )?next(?: step)?\b[^?\n]{0,80}\?|\bwould you like to\b[^?\n]{0,120}\bnext\b[^?\n]{0,80}\?|\bwould you like to (?:proceed|continue|commit|move on|go ahead|start|begin|tackle|implement|apply)\b[^?\n]{0,160}\?/i },

  // --- Round 10 (docs/decisions/0231): permission asks that carry across projects, read from the dev misses' shapes ----
  // A bare approval question, the "does that" dropped: "Sound right?", "Looks good?", "Makes sense?" — and the go-ahead it
  // asks for said after it: "If so I'll lock it and start building"; the one-word form closing a proposal, "Good?" (0204's
  // permission.good, folded in by 0252: one row for the bare approval question).
  { id: "permission.bare-approval", group: "permission", scope: "ending", pattern: /(?:^|[.!?)]\s+)(?:good|ok|okay|fine|right)\?\s*$|(?:^|[.!?)]\s+|\s[—–-]\s+)\W{0,4}(?:sounds?|looks?|seems?) (?:good|right|ok|okay|reasonable|fine|correct)\b[^?.!\n]{0,60}\?|(?:^|[.!?)]\s+)\W{0,4}makes? sense\?|(?:^|[?]\s+)\W{0,4}if so,? (?:I|we)(?:'ll| will)\b/i },
  // A go-ahead on the person's approval of whatever was proposed, the subject any short phrase: "If this framing looks good,
  // once plan mode is lifted I'll apply …" (permission.your-word names a few subjects only).
  { id: "permission.if-approved", group: "permission", scope: "ending", pattern: /\bif (?:that|this|these|those|it|the|my|our)(?: [\w-]+){0,2} (?:works?|sounds? (?:good|right|ok|okay|fine)|looks? (?:good|right|ok|okay|fine)|seems? (?:good|right|fine|reasonable)|makes sense|is (?:ok|okay|fine|right|what you want))\b(?: (?:for|to) you)?,?[^.?!\n]{0,80}\b(?:I|we)(?:'ll| will| can)\b/i },
  // The agent goes on once the person picks: "I'll generate the exact diff once you choose.", "… when you decide".
  { id: "permission.once-you-choose", group: "permission", scope: "ending", pattern: /\b(?:I|we)(?:'ll| will| can)\b[^.?!\n]{1,120}\b(?:once|when|after|as soon as) you(?:'ve| have)? (?:choose|chosen|decide|decided|pick|picked|make (?:a|your) (?:choice|pick|decision))\b/i },
  // A default the agent will take unless the person says otherwise: "which I'll default unless you say otherwise", "Default
  // I'll use unless you want different:".
  { id: "permission.unless-you-say", group: "permission", scope: "ending", pattern: /\b(?:I(?:'ll| will)|default(?:ing)?)\b[^.?!\n]{0,160}\bunless you(?:'d)? (?:say|tell me|want|prefer|rather|object|disagree|would (?:prefer|rather))\b/i },
  // Options the person is told to pick from: "If you want truly empty output, pick one:" then the list.
  { id: "permission.pick-one", group: "permission", scope: "ending", pattern: /(?:^|[.!,;]\s+|\n)\W{0,4}(?:please )?(?:pick|choose|select) (?:one|an option|one of (?:these|them|the following|the options))\b[^.\n]{0,40}:\s*(?:\n|$)/i },
  // The next piece waits for the person's go: "The next task is Task 5. Please let me know when you are ready to begin."
  // (a report of the person's act, "let me know when you've pushed", is a wait: WAITS_ON_REPORT).
  { id: "permission.when-ready", group: "permission", scope: "ending", pattern: /\b(?:let me know|tell me|ping me|say so)\b,? (?:when|once) you(?:'re| are) ready\b/i },
  // One way set against another, put to the person: "… want me to summarize it, or would you rather read the docs?", "Do you
  // want progressive updates, or only …?", "should Nimbus stop automatically, or just label the run …?" (the same sentence).
  { id: "permission.either-or", group: "permission", scope: "ending", pattern: /\bwould you rather\b[^?\n]{0,160}\?|\b(?:should|shall)\b(?:[^?.!\n]|\.(?=\w)){0,200}\bor\b(?:[^?.!\n]|\.(?=\w)){0,200}\?|\b(?:do|would) you (?:want|prefer|like)\b(?:[^?.!\n]|\.(?=\w)){0,200}\bor\b(?:[^?.!\n]|\.(?=\w)){0,200}\?/i },
  // An offer of a thing rather than an act: "Would you like an Expand All toggle for …?", "Would you like the full diff?".
  { id: "permission.would-you-like-a", group: "permission", scope: "ending", pattern: /\bwould you like (?:a|an|the)\b(?! (?:hand|look)\b)[^?\n]{0,160}\?|\bwould you like (?:my )?(?:help|assistance) (?!with (?:anything|something)\b)[^?\n]{1,160}\?/i },
  // Whether the agent should, asked of the person: "Was your question about whether we should be populating it?"; and whether
  // the result is what the person wanted: "Is this the behavior you expected?".
  { id: "permission.whether-should", group: "permission", scope: "ending", pattern: /\bwhether (?:I|we) should\b[^?\n]{0,200}\?|\b(?:is|was) (?:this|that|it) (?:the |what )?(?:behaviou?r|result|output|outcome|order(?:ing)?|layout|format|approach|design)? ?(?:you )?(?:expected|wanted|intended|had in mind|were (?:expecting|after|looking for))\b[^?\n]{0,80}\?/i },
  // A conditional offer of the agent's work not caught by the older rows: "If you need help connecting, I can guide you …",
  // "or would like me to help with file-based tasks (…), please let me know", "If you want a PR for something else — e.g. …
  // — tell me what should change and I'll do it", "let me know if it is close enough or if you'd prefer the precise one".
  { id: "permission.if-offer", group: "permission", scope: "ending", pattern: /\bif you need (?:more |any |some )?help (?!with (?:anything|something|other|more)\b)[a-z][^.!?\n]{0,80}\b(?:I|we) (?:can|could)\b|\b(?:would|'d) like me to\b[^.!?\n]{1,160}\b(?:let me know|tell me)\b|\bif you(?:'d)? (?:want|like|prefer)\b(?:[^.!?\n]|\.(?=\w)|(?<=\be\.g|\bi\.e)\.){1,160}\b(?:tell me|let me know)\b[^.!?\n]{0,120}\b(?:and|then) (?:I|we)(?:'ll| will)\b|\blet me know (?:if|whether)\b[^.?!\n]{0,160}\bor (?:if )?you(?:'d| would)? (?:rather|prefer|like|want)\b/i },
  // Clipped "want me to" after a clause: "… (not barnaby-app), want me to go fix it there?" (permission.clipped reads it after
  // a sentence or a dash only).
  // A list of questions under a line that names them ("Open Questions:", "A few focused questions to lock down …:",
  // "Decisions needed:") with a question among its first three items.
  { id: "permission.questions", group: "permission", scope: "ending", pattern: /(?:^|\n)\W{0,4}(?:(?:open|outstanding|remaining|clarifying|follow-?up|key|quick|focused|final|a few|some|a couple of|two|three|four|five)\s+(?:[\w-]+\s+){0,2})?(?:questions?|decisions?(?! (?:made|taken)\b))\b[^\n]{0,100}:[^\S\n]*\n(?:[^\n]{0,400}\n){0,2}[^?\n]{0,400}\?/i },
  // A conditional proposal that leads into the change it would make, shown after it: "If the comment is confusing we can
  // simply delete it or replace it with a clarifying note such as:" then the code.
  { id: "permission.if-we-can", group: "permission", scope: "ending", pattern: /\bif\b[^.!?\n]{1,80}\b(?:I|we) (?:can|could)(?: simply| just| easily| also)? (?:delete|remove|replace|rename|revert|drop|change|update|rewrite|move|split|inline|keep)\b[^.!?\n]{0,160}:\s*$/i },
  // --- end of round 10's permission block (0231) ------------------------------------------------------------------

  // --- fillerEnding: the last sentence says nothing -------------------------------------------
  // "Nothing needed", "Nothing needed next", "Nothing else is required", "Nothing further to do".
  { id: "filler.nothing-needed", group: "filler", scope: "lastSentence", pattern: /^nothing (?:else |more |further )?(?:is )?(?:needed|required|to do)(?: next| from you| on your (?:side|end))?[.!]*$/i },
  // "No action required", "No further action needed", "No further changes needed".
  { id: "filler.no-action", group: "filler", scope: "lastSentence", pattern: /^no (?:further |other |more )?(?:action|actions|changes|steps|follow-up)(?: is| are)? (?:needed|required|necessary)(?: next| from you| on your (?:side|end))?[.!]*$/i },
  // An empty next-step line: "Next steps: none", "Next: nothing".
  { id: "filler.next-none", group: "filler", scope: "lastSentence", pattern: /^(?:next steps?|next|what's next|to do next)\s*:\s*(?:none|nothing|n\/a)[.!]*$/i },
  // A generic sign-off: "Hope this helps!", "Happy coding!", "Let me know if you have any questions."
  // A generic offer of help anywhere in the last sentence: "… and I'll be happy to assist you further.", "Let me know if you need
  // further assistance!", "… let me know if you have any further requirements or need additional modifications." (0152)
  { id: "filler.generic-help", group: "filler", scope: "lastSentence", pattern: /\b(?:I'll|I will|I'd|I would) be (?:happy|glad) to (?:assist|help)(?: you)?(?: further| more)?[.!]*$|\blet me know if you (?:need|have|require) (?:any )?(?:further|more|additional|other) (?:assistance|help|questions|requirements|requests)\b[^.!?\n]{0,80}[.!]*$|\blet me know if you need (?:any )?(?:assistance|help)[.!]*$/i },
  { id: "filler.sign-off", group: "filler", scope: "lastSentence", pattern: /^(?:hope (?:this|that) helps|happy coding|let me know if you have (?:any )?(?:other |more |further )?questions|let me know if you (?:encounter|run into|hit|see|have|face) (?:any )?(?:other |more |further )?(?:specific )?(?:issues|problems|errors|trouble)|let me know if (?:you need|there's|there is) anything else(?: (?:you need|I can (?:do|help (?:you )?with)))?|is there anything else (?:you'd like me to (?:do|change|help with)|I can (?:do|help (?:you )?with))\b[^.!?\n]{0,40}\?|ready for (?:the |your )?next (?:task|request|instruction|question)|feel free to (?:ask|reach out)\b[^.!?\n]{0,80}|(?:would|do) you (?:want|like|need) (?:me to (?:do|help (?:you )?with)|(?:any )?(?:more |further |other )?help with) (?:anything|something)\b[^.!?\n]{0,60}\?)[.!]*$/i },
  // A conditional offer of more of nothing named: "If you have more errors or need further cleanup, let me know!",
  // "Let me know if you have more issues to address!" — the object is a generic need (issues, errors, help, cleanup),
  // not a named want ("… or want to review the full diff" asks, 0152) (docs/decisions/0167).
  { id: "filler.generic-need", group: "filler", scope: "lastSentence", pattern: /^(?:(?:just |please )?let me know if you (?:have|need|encounter|run into|hit|see) (?:any |more |further |other |additional )(?:other |more |further |specific )?(?:issues?|errors?|problems?|cleanup|improvements?|refinements?|modifications?|trouble)(?: to (?:address|fix|solve))?(?: (?:or|and) (?:need |have |encounter )?(?:any |more |further |other |additional )?(?:issues?|errors?|problems?|cleanup|improvements?|refinements?|modifications?|trouble))?|if you (?:have|need|encounter|run into|hit|see) (?:any |more |further |other |additional )(?:other |more |further |specific )?(?:issues?|errors?|problems?|questions?|help|assistance|support|cleanup|improvements?|refinements?|requirements?|modifications?|trouble)(?: (?:or|and) (?:need |have |encounter )?(?:any |more |further |other |additional )?(?:issues?|errors?|problems?|questions?|help|assistance|support|cleanup|improvements?|refinements?|requirements?|modifications?|trouble))?,? (?:just |please )?(?:let me know|feel free to ask))[.!]*$/i },
  // --- Round 7, dev batch G (docs/decisions/0191): rows read from batch G's and dev's misses ---------------
  // A finished act said by its noun or a bare participle: "Posted: [comment on PR #7360](…)", "Commit landed as b51711ec",
  // "Commit successful — … all passing", "All 4 changes are implemented and passing:" (the colon opens the list of them).
  { id: "complete.landed", group: "complete", scope: "claim", pattern: /^\W*(?:posted|filed|landed|sent)\b(?=\s*(?:[:—–]|-\s)|\s+(?:the|a|an|it|them|as|to|on)\b)|^\W*(?:the |my |that )?(?:commit|change|fix|PR|patch|push|merge)(?:es|s)? (?:landed|went in)\b|^\W*(?:the )?(?:commit|push|merge|build|deploy(?:ment)?|upload|release|install(?:ation)?)s? (?:was |is )?(?:successful|succeeded)\b|^\W*(?:all|both) (?:\d+ |two |three |four |five |six |seven |eight |nine |ten )?(?:changes|fixes|edits|items|steps|tasks|parts) are (?:now )?(?:implemented|applied|made|in)\b/i },
  // The person picks among the options just given or approves the reading: "Which do you want?", "Which would you pick?",
  // "Does that distinction land for you …?", "Does this make sense …?".
  { id: "permission.which-want", group: "permission", scope: "ending", pattern: /\bwhich (?:one |option )?(?:do|would) you (?:want|like|pick|choose|go with)\b[^?\n]{0,120}\?|\b(?:does|do) (?:this|that|it|these|those)(?: [\w-]+)? (?:land|click|make sense|feel right)\b[^?\n]{0,160}\?/i },
  // A clipped offer of the next commit or change: "Want them as their own commit, or folded into the website commit?",
  // "want this as its own commit alongside the four from before?", "Want me plan implementation …?" (the "to" dropped).
  // "Do you" elided: a clause that opens with "want this/them/it …", "want me <verb>" or, after a comma, "want me to …" and
  // ends in a question mark (0252: one row for what were want-it and comma-want; "Want me to …?" at a sentence start stays
  // permission.clipped's).
  { id: "permission.want-it", group: "permission", scope: "ending", pattern: /(?:^|[.!?]\s+|\s[—–-]\s+)want (?:us|this|these|them|it|that|those)\b[^?\n]{0,200}\?|(?:^|[.!?]\s+)want me (?!to\b)[a-z]+\b[^?\n]{0,200}\?|,\s+want (?:me|us|this|these|them|it|that|those)\b[^?\n]{0,200}\?/i },
  // Named further work on the person's time: "Happy to refresh the README … whenever you want it" ("You're ready to commit
  // these changes whenever you'd like" hands the person their own step: only the agent's "happy/glad to"); an invitation to name
  // what to adjust: "Take a look and tell me what's off"; a listing's prompt for the next pick: "Reply with a number to view
  // details".
  { id: "permission.whenever", group: "permission", scope: "ending", pattern: /(?:^|[.!]\s+)(?:I'm |I am |I'd be |I would be )?(?:happy|glad) to\b[^.\n]{1,120}\bwhenever you\b|\btell me what(?:'s| is) (?:off|wrong|missing|not right)\b|^\W*reply with (?:a|the) (?:number|letter|option)\b/i },
  // The agent's next act waits on the person or on a run still going (WAITS_ON_PERSON): work left, its reason, its next step.
  // Not after an "if" in the same sentence: "If validation surfaces issues, tell me what you see and I'll adjust" offers.
  { id: "unfinished.waits-on-person", group: "unfinished", scope: "clause", holds: notAfterIf, pattern: WAITS_ON_PERSON },
  { id: "reason.waits-on-person", group: "reason", scope: "clause", holds: notAfterIf, pattern: WAITS_ON_PERSON },
  { id: "next.waits-on-person", group: "next", scope: "clause", holds: notAfterIf, pattern: WAITS_ON_PERSON },
  // A series of acts that ends in the commit or push: "I ran a review pass, fixed the issues it surfaced, and committed the
  // Phase 1 work" (the irregular "ran" opens it, so the verb rows miss it).
  { id: "complete.series", group: "complete", scope: "claim", pattern: /\b(?:I|we)\b[^.;?\n]{0,160}, and (?:then )?(?:committed|pushed|merged|deployed|shipped|published|released)\b(?! (?:by|when|if)\b)/i },
  // An offer of the next step on the person's word: "If you want, next step: 1. … 2. …", "If you want, next step is to commit
  // this route-aware fix".
  { id: "permission.next-step-if", group: "permission", scope: "ending", pattern: /\bif you(?:'d)? (?:want|like),? (?:the )?next step\b/i },
  // --- Round 8, dev batch H (docs/decisions/0202): rows read from batch H's misses ---------------------------------
  // Approval of the agent's reasoning or design, asked as a question: "Does that reasoning track, or …?", "Does that model
  // work?", "Agree with all three? Anything you'd tweak?", "Confirm you want me to delete …?", "Is there anything I'm missing
  // or that needs correcting before I put together …?", "Ready for your final review, or want to move to …?".
  { id: "permission.approve", group: "permission", scope: "ending", pattern: /\b(?:does|do) (?:that|this|the|my) (?:reasoning|model|design|approach|framing|shape|split|lifecycle|proposal|direction|flow|breakdown|plan)\b[^?\n]{0,60}\b(?:track|work|hold|hold up|fit)\b[^?\n]{0,160}\?|(?:^|[.!?]\s+)agree(?: with [^?\n]{1,60})?\?|\banything you(?:'d| would) (?:tweak|change|adjust)\b[^?\n]{0,60}\?|\bconfirm (?:that )?you want me to\b[^?\n]{0,200}\?|\bis there anything (?:I'm|I am|I've|I have) (?:missing|missed|got wrong)\b[^?\n]{0,160}\?|\bready for your (?:final )?review\b[^?\n]{0,40}\bor\b[^?\n]{0,120}\?/i },
  // A blocker the reply names as what is left, or the act it stopped: "The remaining blocker is gh auth itself", "Hit a snag —
  // .gitignore excludes docs/", "GitHub prevented approval because …": work left and its reason (BLOCKER_NAMED).
  { id: "unfinished.blocker", group: "unfinished", scope: "clause", holds: notAfterIf, pattern: BLOCKER_NAMED },
  { id: "reason.blocker", group: "reason", scope: "clause", holds: notAfterIf, pattern: BLOCKER_NAMED },
  // A step left because the agent would not force it (docs/decisions/0204): "pnpm … aborted without a TTY, so I did not force
  // it", "… refused in a non-interactive shell. I did not force it because this was research".
  { id: "unfinished.not-forced", group: "unfinished", scope: "clause", holds: notAfterIf, pattern: /\b(?:I|we) (?:did not|didn't) force (?:it|that|this|the (?:install|reinstall|check|test|run))\b/i },
  // A finished act said noun first (docs/decisions/0203): "Merge committed as 932a360.", "Fix pushed to main" (as "Commit landed as").
  { id: "complete.noun-committed", group: "complete", scope: "claim", pattern: /^\W*(?:the )?(?:merge|commit|change|fix|rebase|revert|patch|branch)(?:e?s)? (?:committed|pushed|merged|applied) (?:as|to|in|at|on)\b/i },
  // --- Round 9 (docs/decisions/0220–0222) -----------------------------------------------------------------------------
  // The next step waits on someone else's act or report, said without an imperative first (WAITS_ON_REPORT, 0221): work
  // left, its reason, its next step.
  { id: "unfinished.waits-on-report", group: "unfinished", scope: "clause", holds: notAfterIf, pattern: WAITS_ON_REPORT },
  { id: "reason.waits-on-report", group: "reason", scope: "clause", holds: notAfterIf, pattern: WAITS_ON_REPORT },
  { id: "next.waits-on-report", group: "next", scope: "clause", holds: notAfterIf, pattern: WAITS_ON_REPORT },
  // The diagnosis goes on: the next result is what will tell (0221) — "This will pinpoint exactly where the initialization is
  // failing", "That'll tell us whether our restructure is actually being exercised", "This should help us understand exactly
  // what's happening" (a wh-word: the investigation's open question, not what a feature will show).
  { id: "unfinished.awaits-result", group: "unfinished", scope: "clause", holds: notAfterIf, pattern: /\b(?:this|that|it|which|these|the [\w-]+(?: [\w-]+)?)(?:'ll| will| should| would) (?:help us (?:understand|identify|pinpoint|narrow down|figure out|determine)|(?:tell|show) us (?:exactly )?(?:whether|where|what|which|why|if|how)|give us the (?:exact )?(?:information|info|details|data) (?:we need|to)|pinpoint (?:exactly )?(?:where|what|which|why|whether))\b/i },
  // The result launched and handed over to try, the claim side of 0221's hand-over: "Running now.", "Running (pid 5558).",
  // "The tray is running (PID 123039)", "The new one … is running now", "Ready to test!", "Try now:" (a check, build or job
  // "running now" is under way, not delivered).
  { id: "complete.launched", group: "complete", scope: "claim", pattern: /^\W*(?:(?:it's|it is|now) )?running(?: now)?(?: \(pid \d+\))?\s*[.!](?:\s|$)|^\W*ready to (?:test|try)\b|^\W*try (?:it )?now\s*[:!.]?\s*$|\b(?:is|are) (?:now )?running (?:now\b|\(pid \d+\))(?<!\b(?:CI|builds?|jobs?|tests?|checks?|workflows?|pipelines?|suites?|deploy(?:ment)?s?|migrations?|runs?|agents?|scans?|installs?) (?:is|are) (?:now )?running (?:now|\(pid \d+\)))/i },
  // A requirement the reply states as not met (docs/decisions/0222): a figure over its target or short of it — "772,023 tokens,
  // which is slightly over the 750,000 token target", "3 points short of the 90 % goal" (a number is required: "requests over
  // the limit are blocked" describes a rate limiter).
  { id: "unfinished.target", group: "unfinished", scope: "clause", holds: notInConditionOrCase, pattern: /\b(?:(?:slightly|well|just|still|far|way) )?(?:over|above|beyond|short of|below|under) (?:the |our |its |your |a |my )?[\d][\d,.]*(?:\s?(?:%|[kKmM]\b))?\s(?:[\w-]+ ){0,2}(?:target|goal|budget|limit|cap|threshold|requirement)\b(?<!\b(?:under|below) (?:the |our |its |your |a |my )?[\d][^\n]{0,40}(?:budget|limit|cap))/i },
];
