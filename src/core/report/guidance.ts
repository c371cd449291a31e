/**
 * The reporting guidance: the `reporting` section the `ordinary` and `goal` arms compile last in
 * their stable prefix (ADR-0072 §2, ADR-0074, ADR-0076). Written in our own words and kept small:
 * the arms' reporting budget is about 1,200 characters (300 o200k tokens), and the test in
 * test/core/report/guidance.test.ts holds the text to it.
 *
 * Each rule maps to a field of analyzeFinalReport (analyze.ts), so a study can see whether a model
 * followed it: outcome first → `firstLine`; unfinished work on the first line with reason and next
 * step → `statesUnfinished` / `givesReasonAndNext`; no closing offer → `asksPermission`; no filler
 * ending → `fillerEnding`; free headings → `headings`; length with the work → `chars` / `tokens`.
 *
 * A pure renderer with no inputs, so the prompt compiler can count and budget it like any section.
 */
export function renderReportingGuidance(): string {
  return [
    "## Reporting",
    "",
    "Your last message is the report the person reads; make it stand on its own.",
    "- Start with the outcome in one line: what now works, what you found, or what you decided.",
    "- If any part of the request is not done, that first line says so, with why it stopped and the next step that would finish it (a command, a decision, an input).",
    "- Give the evidence briefly: what you ran or read and what it showed, and what it does not cover. Quote only the lines that matter.",
    "- Headings are optional; when a report needs them, name them after its content.",
    "- Let the length follow the work: a sentence for a small answer, short sections for a large change.",
    "- Stop after the last useful point. No sign-off, no \"nothing needed\" line, and no question asking whether to carry on with work you were already asked to do.",
  ].join("\n");
}
