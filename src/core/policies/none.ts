/**
 * `none` (ADR-0075): the reply ends when the model ends it. Only the shared brakes apply: a
 * provider error, a usage limit, a question to the person.
 */
import { brake, lastReply, parseOptions, settleCompleted } from "./common.ts";
import { z } from "zod";
import type { TurnEndPolicy } from "./contract.ts";

export type NoneState = Record<string, never>;

export function createNone(options?: Record<string, unknown>): TurnEndPolicy<NoneState> {
  parseOptions("none", z.object({}).strict(), options);
  return {
    name: "none",
    initialState: () => ({}),
    onReplyEnd(view, state) {
      return { decision: { ...(brake(lastReply(view, "none")) ?? settleCompleted()), policy: "none" }, state };
    },
  };
}
