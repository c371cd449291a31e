/**
 * `everyReplyCheck` (ADR-0071): after every reply that did work (at least one tool call), a
 * completion check judges the reply's claim against the handoff. `done` (or a claim accepted
 * unchecked) settles the run; `continue` sends the reviewer's reason back, up to `maxContinues`
 * times, after which the run settles `interrupted` / `unfinished`. A reply without tool calls is
 * not checked.
 */
import { z } from "zod";
import { escapeXml, renderTemplate } from "../goal/template.ts";
import { brake, didWork, lastReply, parseOptions, positiveInt, settleCompleted } from "./common.ts";
import type { PolicyDecision, TurnEndPolicy } from "./contract.ts";
import { TEMPLATES } from "./templates.ts";

export const DEFAULT_CHECK_CONTINUES = 3;

export interface EveryReplyCheckState {
  checks: number;
  continues: number;
  awaitingVerdict: boolean;
}

const Options = z.object({ maxContinues: positiveInt.default(DEFAULT_CHECK_CONTINUES) }).strict();

export function createEveryReplyCheck(options?: Record<string, unknown>): TurnEndPolicy<EveryReplyCheckState> {
  const { maxContinues } = parseOptions("everyReplyCheck", Options, options);
  const decide = (decision: PolicyDecision): PolicyDecision => ({ ...decision, policy: "everyReplyCheck" });
  return {
    name: "everyReplyCheck",
    initialState: () => ({ checks: 0, continues: 0, awaitingVerdict: false }),
    onReplyEnd(view, state) {
      const reply = lastReply(view, "everyReplyCheck");
      const stop = brake(reply);
      if (stop !== null) return { decision: decide(stop), state };
      if (reply.endReason !== "no_tool_call") return { decision: decide(settleCompleted("the reply was stopped by another control")), state };
      if (!didWork(reply)) return { decision: decide(settleCompleted("the reply made no tool call; nothing to check")), state };
      const claim = reply.text.trim() === "" ? "(the reply ended without text)" : reply.text.trim();
      return {
        decision: decide({ kind: "check_claim", claim, objective: view.handoff, reason: `reply ${reply.index} did work; checking whether the request is done` }),
        state: { ...state, checks: state.checks + 1, awaitingVerdict: true },
      };
    },
    onClaimVerdict(verdict, state) {
      const next = { ...state, awaitingVerdict: false };
      if (verdict.verdict === "done") return { decision: decide(settleCompleted(`check: done: ${verdict.reason}`)), state: next };
      if (verdict.verdict === "accepted_unchecked") return { decision: decide(settleCompleted(`check: accepted unchecked (${verdict.cause ?? verdict.reason})`)), state: next };
      if (state.continues >= maxContinues) {
        return { decision: decide({ kind: "settle", status: "interrupted", reason: `unfinished: the check sent the reply back ${maxContinues} times; last reason: ${verdict.reason}` }), state: next };
      }
      const message = renderTemplate("reply_check_continue", TEMPLATES.reply_check_continue, { reason: escapeXml(verdict.reason) });
      return {
        decision: decide({ kind: "continue", message, messageKind: "continuation", reason: `check: continue (${state.continues + 1} of ${maxContinues}): ${verdict.reason}` }),
        state: { ...next, continues: state.continues + 1 },
      };
    },
  };
}
