/**
 * What drove a run past its first reply: the messages the harness (continuations, nudges) or a
 * person sent after the handoff, counted from the run record's `user.message` kinds.
 */
import type { RunEvent } from "../run/record.ts";

export interface TurnMessages {
  continuation: number;
  nudge: number;
  person: number;
}

export function turnMessages(events: Iterable<RunEvent>): TurnMessages {
  const counts: TurnMessages = { continuation: 0, nudge: 0, person: 0 };
  for (const event of events) if (event.type === "user.message" && event.kind !== "handoff") counts[event.kind] += 1;
  return counts;
}
