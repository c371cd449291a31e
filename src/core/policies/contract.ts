/**
 * The TurnEndPolicy contract. When the model ends a reply, the agent loop asks the arm's policies,
 * in order, what to do: settle the run, or continue it with a message. A policy is pure over a
 * read-only view of the run; its state lives in the value it returns, not in hidden fields, so a
 * run can be replayed from its record.
 *
 * The required part is `initialState` + `onReplyEnd`. The optional methods let a policy offer
 * tools (the goal's `get_goal` / `update_goal`), stop a reply between steps (work slice, loop
 * guard), learn a claim check's verdict, and ask the loop to run a measure command. Exactly which
 * calls the loop makes, and when, is written down in `docs/goal-loop.md` ("Driving the policies
 * from the agent loop"). `combinePolicies` (./combine.ts) folds an arm's policies into one value of
 * this type, so the loop only ever drives one.
 */
import type { ToolSpec } from "../model.ts";

/** A compact, read-only view of one tool call and its result, as the loop recorded them. */
export interface ToolCallView {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  exitCode?: number | null;
  /** Capped output, as recorded. */
  output: string;
  /** True when the call changed a file in the work directory. */
  changedFiles: boolean;
  /** The paths it changed, relative to the work directory, when the loop knows them. */
  changedPaths?: readonly string[];
  /** True for a `shell` call that ran a command (so its exit code means pass or fail). */
  isCommand: boolean;
}

export interface TodoItem {
  text: string;
  status: "pending" | "in_progress" | "completed";
}

/**
 * Why a reply ended. `slice_budget` also covers a reply that a policy stopped between steps
 * (`onStep` returned `stop`): the work slice at its budget, the loop guard on a loop.
 */
export type ReplyEndReason = "no_tool_call" | "ask_user" | "slice_budget" | "error" | "usage_limit";

/** One model reply: the text it ended on and the tool calls it made on the way. */
export interface ReplyView {
  index: number;
  text: string;
  toolCalls: ToolCallView[];
  /** Why the reply ended, as the loop saw it. */
  endReason: ReplyEndReason;
  errorMessage?: string;
  startedAtMs: number;
  endedAtMs: number;
  tokens: { input: number; output: number };
}

/** The reply in progress, as `onStep` sees it after each tool result. */
export interface StepView {
  index: number;
  toolCalls: readonly ToolCallView[];
  startedAtMs: number;
  /** The injected clock, now: milliseconds since the run started (the scale of every `*Ms` here). */
  nowMs: number;
  /**
   * o200k tokens this reply added to the conversation so far: the model's output and the tool
   * results (STUDY-0003's "new tokens"; the re-sent history is not new). Absent from loops that do not count it.
   */
  newTokens?: number;
}

/** One run of a policy's measure command by the loop (measureLoop). */
export interface Measurement {
  command: string;
  exitCode: number | null;
  output: string;
  atMs: number;
}

export interface RunView {
  handoff: string;
  replies: readonly ReplyView[];
  todos: readonly TodoItem[];
  /** Milliseconds since the run started, from the injected clock. */
  elapsedMs: number;
  /** How many continuations (of any policy) the run has had so far. */
  continuations: number;
  /** Results of `measureCommand`, oldest first: one at run start, then one per reply end. */
  measurements?: readonly Measurement[];
}

export type SettleStatus = "completed" | "unfinished" | "interrupted" | "blocked" | "error" | "budget_limited" | "usage_limited" | "paused";

export type PolicyDecision =
  | { kind: "settle"; status: SettleStatus; reason: string; policy?: string }
  | { kind: "continue"; message: string; messageKind: "continuation" | "nudge"; reason: string; policy?: string }
  /**
   * The policy wants a completion-claim check before deciding; the loop runs it (`checkClaim` in
   * src/core/goal/check.ts) and calls back `onClaimVerdict`. `objective` is what the claim is
   * judged against; absent, the loop uses the handoff.
   */
  | { kind: "check_claim"; claim: string; reason: string; objective?: string; policy?: string };

/**
 * A run-record line a policy wants written (the loop adds `t` from its clock). Structurally the
 * `goal.update` event of src/run/record.ts without `t`.
 */
export type PolicyRecord =
  | {
      type: "goal.update";
      from: string | null;
      to: string | null;
      reason: string;
      /** Who caused the change: `person`, `model`, `system`, `check`. */
      by: string;
    }
  | {
      /** A plan run's reply classified (ADR-0077); `attempt` 1 is the repair turn's reply. */
      type: "plan.outcome";
      outcome: "plan_ready" | "blocked" | "no_plan" | "invalid";
      reason?: string;
      attempt: number;
      /** True when this outcome sends the one repair turn. */
      repair: boolean;
    };

/** A tool call routed to the policy that offers the tool. */
export interface PolicyToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** The answer the loop sends back to the model as the tool result. */
export interface PolicyToolResult {
  ok: boolean;
  output: string;
}

/** A claim check's outcome, as the loop hands it back (the `ClaimCheckResult` of checkClaim). */
export interface ClaimVerdictView {
  verdict: "done" | "continue" | "accepted_unchecked";
  reason: string;
  evidence: readonly string[];
  shield: "passed" | "rejected" | "not_applied";
  /** For `accepted_unchecked`: why the claim was not checked. */
  cause?: string;
}

export interface StepOutcome<State> {
  state: State;
  /** Present when the policy wants the reply to end now (endReason `slice_budget`). */
  stop?: { reason: string };
  records?: PolicyRecord[];
}

export interface ReplyEndOutcome<State> {
  decision: PolicyDecision;
  state: State;
  records?: PolicyRecord[];
}

export interface TurnEndPolicy<State = unknown> {
  readonly name: string;
  initialState(): State;
  /** Called at every reply end. Returns the decision and the policy's next state. */
  onReplyEnd(view: RunView, state: State): ReplyEndOutcome<State>;

  /**
   * Called once before the first model request, with the view holding only the handoff. A
   * `message` is sent as a user message (kind `continuation`) right after the handoff.
   */
  onRunStart?(view: RunView, state: State): { state: State; message?: string; records?: PolicyRecord[] };
  /** Extra tools to offer on the next request (the goal tools only while a goal exists). */
  tools?(state: State): ToolSpec[];
  /** Answers a call to one of this policy's tools, mid-reply. Never throws for bad arguments. */
  onToolCall?(call: PolicyToolCall, state: State, at: { nowMs: number }): { result: PolicyToolResult; state: State; records?: PolicyRecord[] };
  /** Called after every tool result inside a reply; `stop` ends the reply at this step. */
  onStep?(view: RunView, current: StepView, state: State): StepOutcome<State>;
  /** Called with the verdict of the check this policy asked for; never answers `check_claim`. */
  onClaimVerdict?(verdict: ClaimVerdictView, state: State, at: { nowMs: number }): ReplyEndOutcome<State>;
  /**
   * Called when a hard cap of the run (requests, tokens, cost; not wall time or an abort) is reached
   * mid-reply. A `continue` is one wrap-up round (the goal's); anything else ends the run.
   */
  onHardCap?(view: RunView, state: State, cap: { reason: string; nowMs: number }): ReplyEndOutcome<State>;
  /** A shell command the loop runs at run start and at every reply end, before `onReplyEnd`. */
  measureCommand?(state: State): string | null;
}
