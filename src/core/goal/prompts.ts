/**
 * The goal's prompts, rendered from the templates in prompts/*.md. The objective (and any other
 * person- or model-written text) is XML-escaped and wrapped in a tag that marks it as data.
 */
import { escapeXml, formatDuration, renderTemplate } from "./template.ts";
import { TEMPLATES } from "./templates.ts";
import type { Goal } from "./types.ts";

const HOUR_MS = 3_600_000;

/** Three or more newlines (an empty optional block) collapse to one blank line. */
function tidy(text: string): string {
  return text.replace(/\n{3,}/g, "\n\n");
}

/** The prompt that starts the next automatic round (round `goal.rounds + 1`). */
export function renderContinuation(goal: Goal): string {
  const feedback =
    goal.lastRejection === null ? "" : renderTemplate("check_feedback", TEMPLATES.check_feedback, { reason: escapeXml(goal.lastRejection) });
  return tidy(
    renderTemplate("continuation", TEMPLATES.continuation, {
      round: String(goal.rounds + 1),
      round_limit: String(goal.limits.rounds),
      objective: escapeXml(goal.objective),
      elapsed_line: goal.showElapsed === true ? `Time spent on this goal so far: ${formatDuration(goal.elapsedMs)} of ${formatDuration(goal.limits.hours * HOUR_MS)}.` : "",
      check_feedback: feedback,
    }),
  );
}

/** Which cap a goal has hit, in words for the budget-limit prompt; null below both caps. */
export function capReached(goal: Goal): string | null {
  if (goal.rounds >= goal.limits.rounds) return `${goal.limits.rounds} rounds`;
  if (goal.elapsedMs >= goal.limits.hours * HOUR_MS) return formatDuration(goal.limits.hours * HOUR_MS);
  return null;
}

/** The prompt of the one wrap-up round a budget-limited goal gets. */
export function renderBudgetLimit(goal: Goal, limit: string): string {
  return renderTemplate("budget_limit", TEMPLATES.budget_limit, {
    limit,
    rounds: String(goal.rounds),
    elapsed: formatDuration(goal.elapsedMs),
    objective: escapeXml(goal.objective),
  });
}

/** The prompt delivered into a running round when the person edits the objective. */
export function renderObjectiveUpdated(goal: Goal): string {
  return renderTemplate("objective_updated", TEMPLATES.objective_updated, { objective: escapeXml(goal.objective) });
}
