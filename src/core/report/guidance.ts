/**
 * The reporting guidance: the section the `ordinary` and `goal` arms compile last in their stable
 * prefix. It is a pure renderer, so the prompt compiler can count and budget it like any section.
 */
export function renderReportingGuidance(): string {
  return [
    "## Reporting",
    "",
    "Lead with the outcome. If the work is not finished, say so on the first line, with the reason and the next step.",
    "Summarise the evidence you checked and say what it does not cover.",
    "Use headings only when they help; let the length follow the amount of work.",
    "End when the report is done: no closing offers or empty sign-offs.",
  ].join("\n");
}
