/**
 * `loopGuard` (STUDY-0003 P3): a deterministic loop detector over the recorded tool calls.
 * It trips on the same tool with the same arguments three times, the same command failing twice,
 * or 25 steps without a file change or a passing check. A file change resets the first two counts
 * (repeating a read or a test after an edit is work, not a loop; docs/decisions/0026-loop-guard-resets-on-file-change.md).
 * The first trip ends the reply (`onStep`) and sends one nudge with the evidence; the next trip
 * settles the run `blocked`.
 */
import { z } from "zod";
import { renderTemplate } from "../goal/template.ts";
import { allCalls, brake, callSignature, commandText, lastReply, parseOptions, positiveInt, settleCompleted, stableJson, tail } from "./common.ts";
import type { PolicyDecision, ToolCallView, TurnEndPolicy } from "./contract.ts";
import { TEMPLATES } from "./templates.ts";

export const DEFAULT_LOOP_GUARD = { repeats: 3, failingRepeats: 2, idleSteps: 25 } as const;

export interface LoopGuardState {
  /** True once the one nudge has been sent. */
  nudged: boolean;
  /** Calls (counted over the whole run) before this index were judged before the nudge. */
  since: number;
  /** Evidence of a trip `onStep` found in the reply in progress. */
  trip: LoopEvidence | null;
}

const Options = z
  .object({
    repeats: positiveInt.default(DEFAULT_LOOP_GUARD.repeats),
    failingRepeats: positiveInt.default(DEFAULT_LOOP_GUARD.failingRepeats),
    idleSteps: positiveInt.default(DEFAULT_LOOP_GUARD.idleSteps),
  })
  .strict();

export type LoopGuardLimits = z.infer<typeof Options>;

/** What tripped the guard: one line for the record, and the detail for the nudge. */
export interface LoopEvidence {
  summary: string;
  detail: string;
}

/** The evidence of a loop in this sequence of calls, or null. Pure; the thresholds are options. */
export function detectLoop(calls: readonly ToolCallView[], limits: LoopGuardLimits): LoopEvidence | null {
  const seen = new Map<string, number>();
  const failures = new Map<string, number>();
  let idle = 0;
  for (const call of calls) {
    const signature = callSignature(call);
    const count = (seen.get(signature) ?? 0) + 1;
    seen.set(signature, count);
    if (call.isCommand) failures.set(signature, call.ok ? 0 : (failures.get(signature) ?? 0) + 1);
    idle = call.changedFiles || (call.isCommand && call.ok) ? 0 : idle + 1;

    if (call.isCommand && !call.ok && (failures.get(signature) ?? 0) >= limits.failingRepeats) {
      const summary = `the same command failed ${failures.get(signature)} times in a row with no file change in between: ${commandText(call)}`;
      return { summary, detail: `The same command failed ${failures.get(signature)} times in a row with no file change in between: \`${commandText(call)}\`. Its last output ends with:\n\n${tail(call.output)}` };
    }
    if (count >= limits.repeats) {
      const summary = `the same call was made ${count} times with no file change in between: ${call.name} ${stableJson(call.arguments)}`;
      return { summary, detail: `The same call was made ${count} times with no file change in between: \`${call.name} ${stableJson(call.arguments)}\`.` };
    }
    if (idle >= limits.idleSteps) {
      return { summary: `${idle} tool calls in a row without a file change or a passing check`, detail: `${idle} tool calls in a row without a file change or a passing check.` };
    }
    if (call.changedFiles) {
      seen.clear();
      failures.clear();
    }
  }
  return null;
}

export function createLoopGuard(options?: Record<string, unknown>): TurnEndPolicy<LoopGuardState> {
  const limits = parseOptions("loopGuard", Options, options);
  const decide = (decision: PolicyDecision): PolicyDecision => ({ ...decision, policy: "loopGuard" });
  return {
    name: "loopGuard",
    initialState: () => ({ nudged: false, since: 0, trip: null }),
    onStep(view, current, state) {
      if (state.trip !== null) return { state, stop: { reason: "loop guard" } };
      const evidence = detectLoop([...allCalls(view), ...current.toolCalls].slice(state.since), limits);
      if (evidence === null) return { state };
      return { state: { ...state, trip: evidence }, stop: { reason: "loop guard" } };
    },
    onReplyEnd(view, state) {
      const reply = lastReply(view, "loopGuard");
      const calls = allCalls(view);
      const evidence = state.trip ?? detectLoop(calls.slice(state.since), limits);
      const stop = brake(reply);
      if (stop !== null) return { decision: decide(stop), state: { ...state, trip: null } };
      if (evidence === null) return { decision: decide(settleCompleted()), state };
      if (state.nudged) {
        return { decision: decide({ kind: "settle", status: "blocked", reason: `loop_guard: ${evidence.summary}` }), state: { ...state, trip: null } };
      }
      const message = renderTemplate("loop_guard_nudge", TEMPLATES.loop_guard_nudge, { evidence: evidence.detail });
      return {
        decision: decide({ kind: "continue", message, messageKind: "nudge", reason: `loop_guard: ${evidence.summary}` }),
        state: { nudged: true, since: calls.length, trip: null },
      };
    },
  };
}
