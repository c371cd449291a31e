/**
 * The hand-off after too many compactions in one reply (STUDY-0003 P5): the conversation restarts
 * from the handoff and a checkpoint written from the record — files changed, checks failing at
 * their last run, the next step — instead of compacting again.
 */
import { checkpoint } from "../policies/work-slice.ts";
import type { RunView } from "../policies/contract.ts";

function list(items: readonly string[], max: number): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, max).map((item) => `\`${item}\``);
  return items.length > max ? `${shown.join(", ")} and ${items.length - max} more` : shown.join(", ");
}

export function contextCheckpoint(view: RunView, compactions: number): string {
  const facts = checkpoint(view);
  return [
    `This message comes from the harness. The context was compacted ${compactions} times in one reply, so the conversation starts again from the handoff above and this checkpoint. Nothing is lost on disk: read files again as you need them.`,
    "",
    `- Files changed so far: ${list(facts.files, 20)}.`,
    `- Checks failing at their last run: ${list(facts.failing, 10)}.`,
    `- Next step: ${facts.nextStep}.`,
    "",
    "Carry on with the handoff from here.",
  ].join("\n");
}
