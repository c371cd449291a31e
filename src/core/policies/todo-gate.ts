/**
 * `todoGate` (ADR-0069): while the todo list has open items when the model ends its reply, send it
 * back with a nudge, up to three times. A nudged reply that makes no progress (no file change, no
 * passing command, no fewer open items) ends the run at once; so does the last nudge running out.
 * Either way the run settles `interrupted` with reason `unfinished`.
 */
import { z } from "zod";
import { renderTemplate } from "../goal/template.ts";
import { brake, bullets, lastReply, parseOptions, plural, positiveInt, settleCompleted } from "./common.ts";
import type { PolicyDecision, ReplyView, TodoItem, TurnEndPolicy } from "./contract.ts";
import { TEMPLATES } from "./templates.ts";

export const DEFAULT_TODO_NUDGES = 3;

export interface TodoGateState {
  nudges: number;
  /** Open items when the last nudge was sent; null before the first. */
  openAtLastNudge: number | null;
}

const Options = z.object({ maxNudges: positiveInt.default(DEFAULT_TODO_NUDGES) }).strict();

export function openItems(todos: readonly TodoItem[]): TodoItem[] {
  return todos.filter((item) => item.status !== "completed");
}

function progressed(reply: ReplyView, open: number, openAtLastNudge: number): boolean {
  return open < openAtLastNudge || reply.toolCalls.some((call) => call.changedFiles || (call.isCommand && call.ok));
}

export function createTodoGate(options?: Record<string, unknown>): TurnEndPolicy<TodoGateState> {
  const { maxNudges } = parseOptions("todoGate", Options, options);
  const decide = (decision: PolicyDecision): PolicyDecision => ({ ...decision, policy: "todoGate" });
  return {
    name: "todoGate",
    initialState: () => ({ nudges: 0, openAtLastNudge: null }),
    onReplyEnd(view, state) {
      const reply = lastReply(view, "todoGate");
      const stop = brake(reply);
      if (stop !== null) return { decision: decide(stop), state };
      if (reply.endReason !== "no_tool_call") return { decision: decide(settleCompleted("the reply was stopped by another control")), state };
      const open = openItems(view.todos);
      if (open.length === 0) return { decision: decide(settleCompleted("no open todo items")), state };
      if (state.openAtLastNudge !== null && !progressed(reply, open.length, state.openAtLastNudge)) {
        return { decision: decide({ kind: "settle", status: "interrupted", reason: `unfinished: no progress after nudge ${state.nudges}; ${plural(open.length, "open todo item")}` }), state };
      }
      if (state.nudges >= maxNudges) {
        return { decision: decide({ kind: "settle", status: "interrupted", reason: `unfinished: ${plural(open.length, "open todo item")} after ${plural(maxNudges, "nudge")}` }), state };
      }
      const nudges = state.nudges + 1;
      const message = renderTemplate("todo_nudge", TEMPLATES.todo_nudge, {
        count: String(nudges),
        max: String(maxNudges),
        open_items: bullets(open.map((item) => `${item.text} (${item.status})`)),
      });
      return {
        decision: decide({ kind: "continue", message, messageKind: "nudge", reason: `${plural(open.length, "open todo item")} (nudge ${nudges} of ${maxNudges})` }),
        state: { nudges, openAtLastNudge: open.length },
      };
    },
  };
}
