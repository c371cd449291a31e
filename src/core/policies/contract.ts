/**
 * The TurnEndPolicy contract. When the model ends a reply, the agent loop asks the arm's policies,
 * in order, what to do: settle the run, or continue it with a message. A policy is pure over a
 * read-only view of the run; its state lives in the value it returns, not in hidden fields, so a
 * run can be replayed from its record.
 */

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
  /** True for a `shell` call that ran a command (so its exit code means pass or fail). */
  isCommand: boolean;
}

export interface TodoItem {
  text: string;
  status: "pending" | "in_progress" | "completed";
}

/** One model reply: the text it ended on and the tool calls it made on the way. */
export interface ReplyView {
  index: number;
  text: string;
  toolCalls: ToolCallView[];
  /** Why the reply ended, as the loop saw it. */
  endReason: "no_tool_call" | "ask_user" | "slice_budget" | "error" | "usage_limit";
  errorMessage?: string;
  startedAtMs: number;
  endedAtMs: number;
  tokens: { input: number; output: number };
}

export interface RunView {
  handoff: string;
  replies: readonly ReplyView[];
  todos: readonly TodoItem[];
  /** Milliseconds since the run started, from the injected clock. */
  elapsedMs: number;
  /** How many continuations (of any policy) the run has had so far. */
  continuations: number;
}

export type SettleStatus = "completed" | "unfinished" | "interrupted" | "blocked" | "error" | "budget_limited" | "usage_limited" | "paused";

export type PolicyDecision =
  | { kind: "settle"; status: SettleStatus; reason: string }
  | { kind: "continue"; message: string; messageKind: "continuation" | "nudge"; reason: string }
  /** The policy wants a completion-claim check before deciding; the loop runs it and calls back. */
  | { kind: "check_claim"; claim: string; reason: string };

export interface TurnEndPolicy<State = unknown> {
  readonly name: string;
  initialState(): State;
  /** Called at every reply end. Returns the decision and the policy's next state. */
  onReplyEnd(view: RunView, state: State): { decision: PolicyDecision; state: State };
}
