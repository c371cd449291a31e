/**
 * `goal` (ADR-0072): the run is a goal the person set, with the handoff as its objective (or the
 * `objective` option). Each reply is a goal round. The policy feeds the reducer
 * (src/core/goal/reducer.ts) and turns its effects into decisions: the next round's continuation,
 * a claim check, the wrap-up round at the cap, or a settle. The model talks to the goal through
 * `get_goal` / `update_goal`, which this policy offers and answers.
 */
import { z } from "zod";
import { reduceGoal } from "../goal/reducer.ts";
import { GOAL_TOOL_NAMES, goalToolSpecs, handleGoalTool } from "../goal/tools.ts";
import { DEFAULT_GOAL_LIMITS, type Goal, type GoalClaim, type GoalEffect, type GoalEvent, type RoundSummary } from "../goal/types.ts";
import { lastReply, parseOptions, positiveInt, positiveNumber } from "./common.ts";
import type { ClaimVerdictView, PolicyDecision, PolicyRecord, PolicyToolCall, PolicyToolResult, ReplyView, RunView, TurnEndPolicy } from "./contract.ts";

export interface GoalPolicyState {
  goal: Goal | null;
  /** True once `onRunStart` has set the goal; a cleared goal leaves it true. */
  started: boolean;
}

export const GoalOptions = z
  .object({
    objective: z.string().min(1).optional(),
    rounds: positiveInt.default(DEFAULT_GOAL_LIMITS.rounds),
    hours: positiveNumber.default(DEFAULT_GOAL_LIMITS.hours),
    /** The elapsed-time line in each continuation; off by default (ADR 0102, citing ADR-0072). */
    elapsedTime: z.boolean().default(false),
  })
  .strict();

/** What one reply did, for the reducer; the goal's own tools are not activity. */
export function roundSummary(reply: ReplyView): RoundSummary {
  const calls = reply.toolCalls.filter((call) => !GOAL_TOOL_NAMES.includes(call.name));
  return {
    toolCalls: calls.length,
    okCommands: calls.filter((call) => call.isCommand && call.ok).length,
    failedCommands: calls.filter((call) => call.isCommand && !call.ok).length,
    fileChanges: calls.filter((call) => call.changedFiles).length,
    tokens: { input: reply.tokens.input, output: reply.tokens.output },
    elapsedMs: Math.max(0, reply.endedAtMs - reply.startedAtMs),
  };
}

/** The claim the reviewer judges: the model's `reason`, and the text the reply ended with. */
export function claimText(claim: GoalClaim, replyText: string): string {
  const reason = claim.reason === "" ? "(update_goal was called without a reason)" : claim.reason;
  const text = replyText.trim();
  return text === "" ? reason : `${reason}\n\nThe reply that made the claim ended with:\n${text}`;
}

export interface EffectOutcome {
  decision: PolicyDecision | null;
  records: PolicyRecord[];
}

/** Maps the reducer's effects to at most one decision plus the provenance records. */
export function effectsToDecision(effects: readonly GoalEffect[], replyText: string, policy: string): EffectOutcome {
  const records: PolicyRecord[] = [];
  let decision: PolicyDecision | null = null;
  for (const effect of effects) {
    switch (effect.kind) {
      case "goal_update":
        records.push({ type: "goal.update", from: effect.change.from, to: effect.change.to, reason: effect.change.reason, by: effect.change.by });
        break;
      case "start_round":
        decision = {
          kind: "continue",
          message: effect.prompt,
          messageKind: "continuation",
          reason: effect.promptKind === "budget_limit" ? "goal cap reached: one wrap-up round" : "goal active: next round",
          policy,
        };
        break;
      case "check_claim":
        decision = { kind: "check_claim", claim: claimText(effect.claim, replyText), objective: effect.objective, reason: `completion claim from round ${effect.claim.round}`, policy };
        break;
      case "settle":
        decision = { kind: "settle", status: effect.status, reason: effect.reason, policy };
        break;
      case "rejected":
        // The driver sent an event the goal refused: a bug in the loop, surfaced as an error.
        decision = { kind: "settle", status: "error", reason: `goal refused ${effect.code}: ${effect.message}`, policy };
        break;
      case "inject":
        // Only a person's edit injects; the policy never sends one.
        break;
      default: {
        const unreachable: never = effect;
        return unreachable;
      }
    }
  }
  return { decision, records };
}

/** The reducer events one reply end means, in order. */
export function replyEndEvents(reply: ReplyView, atMs: number): GoalEvent[] {
  switch (reply.endReason) {
    case "error":
      return [{ type: "providerError", message: reply.errorMessage ?? "no message", atMs }];
    case "usage_limit":
      return [{ type: "usageLimit", message: reply.errorMessage ?? "no message", atMs }];
    case "ask_user": {
      const asked = reply.toolCalls.findLast((call) => typeof call.arguments["question"] === "string")?.arguments["question"];
      return [
        { type: "awaitPerson", question: typeof asked === "string" ? asked : reply.text, atMs },
        { type: "roundEnded", ...roundSummary(reply), atMs },
      ];
    }
    case "no_tool_call":
    case "slice_budget":
      return [{ type: "roundEnded", ...roundSummary(reply), atMs }];
    default: {
      const unreachable: never = reply.endReason;
      return unreachable;
    }
  }
}

/** Runs events through the reducer, collecting every effect. */
export function reduceAll(goal: Goal | null, events: readonly GoalEvent[]): { goal: Goal | null; effects: GoalEffect[] } {
  let current = goal;
  const effects: GoalEffect[] = [];
  for (const event of events) {
    const step = reduceGoal(current, event);
    current = step.goal;
    effects.push(...step.effects);
  }
  return { goal: current, effects };
}

/** The goal policy's hooks over a `GoalPolicyState`; goalQueue reuses them. */
export const goalHooks = {
  runStart(objective: string, limits: { rounds: number; hours: number; elapsedTime?: boolean }, atMs: number, policy: string, reason?: string) {
    const step = reduceGoal(null, {
      type: "set",
      objective,
      rounds: limits.rounds,
      hours: limits.hours,
      atMs,
      ...(reason === undefined ? {} : { reason }),
      ...(limits.elapsedTime === true ? { showElapsed: true } : {}),
    });
    const out = effectsToDecision(step.effects, "", policy);
    const message = out.decision?.kind === "continue" ? out.decision.message : undefined;
    return { state: { goal: step.goal, started: true }, records: out.records, ...(message === undefined ? {} : { message }) };
  },

  replyEnd(view: RunView, state: GoalPolicyState, policy: string): { decision: PolicyDecision; state: GoalPolicyState; records: PolicyRecord[] } {
    const reply = lastReply(view, policy);
    if (!state.started) {
      return { decision: { kind: "settle", status: "error", reason: `${policy}: onRunStart was not called, so no goal was set; call it before the first request`, policy }, state, records: [] };
    }
    if (state.goal === null) return { decision: { kind: "settle", status: "completed", reason: "the goal was cleared", policy }, state, records: [] };
    const step = reduceAll(state.goal, replyEndEvents(reply, view.elapsedMs));
    const out = effectsToDecision(step.effects, reply.text, policy);
    const decision = out.decision ?? { kind: "settle" as const, status: "error" as const, reason: "the goal gave no next step; this is a bug in the goal reducer", policy };
    return { decision, state: { ...state, goal: step.goal }, records: out.records };
  },

  verdict(verdict: ClaimVerdictView, state: GoalPolicyState, nowMs: number, policy: string): { decision: PolicyDecision; state: GoalPolicyState; records: PolicyRecord[] } {
    const step = reduceGoal(state.goal, {
      type: "verdict",
      verdict: verdict.verdict,
      reason: verdict.reason,
      ...(verdict.cause === undefined ? {} : { cause: verdict.cause }),
      atMs: nowMs,
    });
    const out = effectsToDecision(step.effects, "", policy);
    const decision = out.decision ?? { kind: "settle" as const, status: "error" as const, reason: "the goal gave no next step after the verdict", policy };
    return { decision, state: { ...state, goal: step.goal }, records: out.records };
  },

  hardCap(state: GoalPolicyState, cap: string, nowMs: number, policy: string): { decision: PolicyDecision; state: GoalPolicyState; records: PolicyRecord[] } {
    const step = reduceGoal(state.goal, { type: "hardCap", cap, atMs: nowMs });
    const out = effectsToDecision(step.effects, "", policy);
    const decision = out.decision ?? { kind: "settle" as const, status: "budget_limited" as const, reason: `hard cap: ${cap}`, policy };
    return { decision, state: { ...state, goal: step.goal }, records: out.records };
  },

  toolCall(call: PolicyToolCall, state: GoalPolicyState, nowMs: number): { result: PolicyToolResult; state: GoalPolicyState; records: PolicyRecord[] } {
    const outcome = handleGoalTool(state.goal, call, nowMs);
    return { result: outcome.result, state: { ...state, goal: outcome.goal }, records: effectsToDecision(outcome.effects, "", "goal").records };
  },
};

export function createGoal(options?: Record<string, unknown>): TurnEndPolicy<GoalPolicyState> {
  const parsed = parseOptions("goal", GoalOptions, options);
  return {
    name: "goal",
    initialState: () => ({ goal: null, started: false }),
    onRunStart(view) {
      return goalHooks.runStart(parsed.objective ?? view.handoff, { rounds: parsed.rounds, hours: parsed.hours, elapsedTime: parsed.elapsedTime }, view.elapsedMs, "goal");
    },
    tools: (state) => goalToolSpecs(state.goal),
    onToolCall: (call, state, at) => goalHooks.toolCall(call, state, at.nowMs),
    onReplyEnd: (view, state) => goalHooks.replyEnd(view, state, "goal"),
    onClaimVerdict: (verdict, state, at) => goalHooks.verdict(verdict, state, at.nowMs, "goal"),
    onHardCap: (_view, state, cap) => goalHooks.hardCap(state, cap.reason, cap.nowMs, "goal"),
  };
}
