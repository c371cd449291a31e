/**
 * `workSlice` (STUDY-0003 P1): a reply has a budget of tool calls, minutes and new tokens. At the boundary the
 * loop ends the reply (`onStep` says stop), and the policy continues the run with a checkpoint
 * written from the record (files changed, checks failing at their last run, the next step) — at
 * most `maxSlices` slices, after which the run settles `interrupted` (`slice_limit`).
 */
import { z } from "zod";
import { renderTemplate } from "../goal/template.ts";
import { allCalls, brake, commandText, lastReply, parseOptions, positiveInt, positiveNumber, settleCompleted } from "./common.ts";
import type { PolicyDecision, RunView, ToolCallView, TurnEndPolicy } from "./contract.ts";
import { TEMPLATES } from "./templates.ts";

/** STUDY-0003 P1: 160 tool calls, 40 minutes or 320 k new tokens per slice; 8 slices. */
export const DEFAULT_SLICE = { toolCalls: 160, minutes: 40, newTokens: 320_000, maxSlices: 8 } as const;

export interface WorkSliceState {
  /** Slices that have ended at their budget. */
  slices: number;
  /** Set by `onStep` when it asked the loop to end the reply. */
  boundary: string | null;
}

const Options = z
  .object({
    toolCalls: positiveInt.default(DEFAULT_SLICE.toolCalls),
    minutes: positiveNumber.default(DEFAULT_SLICE.minutes),
    newTokens: positiveInt.default(DEFAULT_SLICE.newTokens),
    maxSlices: positiveInt.default(DEFAULT_SLICE.maxSlices),
  })
  .strict();

/** Paths a call changed: `changedPaths` when the loop knows them, else its `path`-like argument. */
export function changedPathsOf(call: ToolCallView): string[] {
  if (!call.changedFiles) return [];
  if (call.changedPaths !== undefined && call.changedPaths.length > 0) return [...call.changedPaths];
  for (const key of ["path", "file_path", "file", "filename"]) {
    const value = call.arguments[key];
    if (typeof value === "string" && value !== "") return [value];
  }
  return [];
}

function listOrNone(items: readonly string[], max: number): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, max).map((item) => `\`${item}\``);
  return items.length > max ? `${shown.join(", ")} and ${items.length - max} more` : shown.join(", ");
}

/** The checkpoint facts, from the record alone. */
export function checkpoint(view: RunView): { files: string[]; failing: string[]; nextStep: string } {
  const calls = allCalls(view);
  const files = [...new Set(calls.flatMap(changedPathsOf))];
  const lastRun = new Map<string, boolean>();
  for (const call of calls) if (call.isCommand) lastRun.set(commandText(call), call.ok);
  const failing = [...lastRun].filter(([, ok]) => !ok).map(([command]) => command);
  const open = view.todos.find((item) => item.status === "in_progress") ?? view.todos.find((item) => item.status === "pending");
  const nextStep = open !== undefined ? open.text : "not recorded; state it in your first sentences, from the handoff and the checkpoint";
  return { files, failing, nextStep };
}

export function createWorkSlice(options?: Record<string, unknown>): TurnEndPolicy<WorkSliceState> {
  const budget = parseOptions("workSlice", Options, options);
  const decide = (decision: PolicyDecision): PolicyDecision => ({ ...decision, policy: "workSlice" });
  return {
    name: "workSlice",
    initialState: () => ({ slices: 0, boundary: null }),
    onStep(_view, current, state) {
      if (state.boundary !== null) return { state, stop: { reason: state.boundary } };
      let reason: string | null = null;
      if (current.toolCalls.length >= budget.toolCalls) reason = `slice budget: ${budget.toolCalls} tool calls`;
      else if (current.nowMs - current.startedAtMs >= budget.minutes * 60_000) reason = `slice budget: ${budget.minutes} minutes`;
      else if ((current.newTokens ?? 0) >= budget.newTokens) reason = `slice budget: ${budget.newTokens} new tokens`;
      if (reason === null) return { state };
      return { state: { ...state, boundary: reason }, stop: { reason } };
    },
    onReplyEnd(view, state) {
      const reply = lastReply(view, "workSlice");
      const cleared = { ...state, boundary: null };
      const stop = brake(reply);
      if (stop !== null) return { decision: decide(stop), state: cleared };
      if (state.boundary === null || reply.endReason !== "slice_budget") return { decision: decide(settleCompleted()), state: cleared };
      const slice = state.slices + 1;
      if (slice >= budget.maxSlices) {
        return { decision: decide({ kind: "settle", status: "interrupted", reason: `slice_limit: ${budget.maxSlices} slices used (${state.boundary})` }), state: { slices: slice, boundary: null } };
      }
      const facts = checkpoint(view);
      const message = renderTemplate("slice_checkpoint", TEMPLATES.slice_checkpoint, {
        slice: String(slice),
        max_slices: String(budget.maxSlices),
        files: listOrNone(facts.files, 20),
        failing: listOrNone(facts.failing, 10),
        next_step: facts.nextStep,
      });
      return {
        decision: decide({ kind: "continue", message, messageKind: "continuation", reason: `${state.boundary}; slice ${slice + 1} of ${budget.maxSlices} starts` }),
        state: { slices: slice, boundary: null },
      };
    },
  };
}
