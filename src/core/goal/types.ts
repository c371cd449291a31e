/**
 * The goal's value types: the goal itself, the events the reducer takes and the effects it
 * returns. Time arrives in events (`atMs`, milliseconds since the run started); nothing here
 * reads a clock.
 */
import type { SettleStatus } from "../policies/contract.ts";
import type { GoalStatus } from "./status.ts";

/** Who caused a change: the person, the model (update_goal), the harness, or the claim check. */
export type Actor = "person" | "model" | "system" | "check";

/** Provenance of one change to a goal: from → to, who, why, when. */
export interface GoalChange {
  from: GoalStatus | null;
  to: GoalStatus | null;
  by: Actor;
  reason: string;
  atMs: number;
}

export interface GoalLimits {
  rounds: number;
  hours: number;
}

export const DEFAULT_GOAL_LIMITS: GoalLimits = { rounds: 30, hours: 8 };

/** Consecutive automatic rounds with no activity (or only failed commands) that pause a goal. */
export const STALL_ROUNDS = 3;

/** Consecutive rounds the same blocker must be reported before `blocked` is accepted. */
export const BLOCKED_ROUNDS = 3;

/** How the round in progress started: the person's set/resume, the loop's continuation, or the wrap-up. */
export type RoundTrigger = "person" | "continuation" | "wrap_up";

/** A completion claim waiting for its check. */
export interface GoalClaim {
  reason: string;
  /** The goal round it was made in (1-based). */
  round: number;
  atMs: number;
}

/** The blocker the model has reported, and on how many consecutive rounds. */
export interface BlockerStreak {
  reason: string;
  normalized: string;
  streak: number;
  /** The last round (1-based) it was reported in. */
  round: number;
}

export interface Goal {
  objective: string;
  status: GoalStatus;
  limits: GoalLimits;
  /** Rounds that have ended. The round in progress, if any, is `rounds + 1`. */
  rounds: number;
  /** Time spent in this goal's rounds. */
  elapsedMs: number;
  tokens: { input: number; output: number };
  roundTrigger: RoundTrigger;
  /** Consecutive automatic rounds without activity / with only failed commands. */
  stall: { noActivity: number; onlyFailures: number };
  blocker: BlockerStreak | null;
  claim: GoalClaim | null;
  /** True between a `check_claim` effect and its `verdict` event. */
  awaitingVerdict: boolean;
  /** The check's reason when it last sent a claim back; shown in the next continuation. */
  lastRejection: string | null;
  /** The change that produced the goal's current status and objective. */
  provenance: GoalChange;
  /**
   * Put "time spent … of …" in each continuation. Off unless set: ADR-0072 records that Codex
   * removed elapsed-time text because it made models cut work short (ADR 0102).
   */
  showElapsed?: boolean;
}

/** What one round did, as the driver counted it (the goal's own tools excluded). */
export interface RoundSummary {
  toolCalls: number;
  okCommands: number;
  failedCommands: number;
  fileChanges: number;
  tokens: { input: number; output: number };
  elapsedMs: number;
}

export type GoalClaimInput = { kind: "complete"; reason: string } | { kind: "blocked"; reason: string };

export type GoalEvent =
  | {
      type: "set";
      objective: string;
      rounds?: number;
      hours?: number;
      /** Needed to replace an unfinished goal. */
      replace?: boolean;
      /** Show the elapsed-time line in continuations (the goal option `elapsedTime`). */
      showElapsed?: boolean;
      /** Provenance text; defaults to "set by the person" / "replaced by the person". */
      reason?: string;
      atMs: number;
    }
  | { type: "edit"; objective?: string; rounds?: number; hours?: number; atMs: number }
  | { type: "pause"; reason?: string; atMs: number }
  | { type: "resume"; atMs: number }
  | { type: "clear"; atMs: number }
  | ({ type: "roundEnded"; atMs: number } & RoundSummary)
  | { type: "providerError"; message: string; atMs: number }
  | { type: "usageLimit"; message: string; atMs: number }
  /** The model ended its round on a question to the person: the goal waits for the answer. */
  | { type: "awaitPerson"; question: string; atMs: number }
  | { type: "claim"; claim: GoalClaimInput; atMs: number }
  | { type: "verdict"; verdict: "done" | "continue" | "accepted_unchecked"; reason: string; cause?: string; atMs: number }
  | { type: "restored"; goal: Goal; atMs: number }
  /** A hard cap of the run (requests, tokens, cost) was reached mid-round: the goal gets its wrap-up round. */
  | { type: "hardCap"; cap: string; atMs: number };

export type GoalEffect =
  /** Start the next round with this prompt (a hidden user message of kind `continuation`). */
  | { kind: "start_round"; promptKind: "continuation" | "budget_limit"; prompt: string }
  /** Deliver this prompt in the round already running (the person edited the objective). */
  | { kind: "inject"; promptKind: "objective_updated"; prompt: string }
  /** Run a completion-claim check, then send the `verdict` event. */
  | { kind: "check_claim"; claim: GoalClaim; objective: string }
  /** Stop driving the goal; the run settles with this status. */
  | { kind: "settle"; status: SettleStatus; reason: string }
  /** Record this change (a `goal.update` run-record event). */
  | { kind: "goal_update"; change: GoalChange }
  /** The event was refused; the goal is unchanged. `message` says why and what to do instead. */
  | { kind: "rejected"; code: GoalRejection; message: string };

export type GoalRejection =
  | "goal_exists"
  | "no_goal"
  | "objective_empty"
  | "bad_limits"
  | "goal_finished"
  | "goal_not_active"
  | "already_active"
  | "already_paused"
  | "blocked_reason_required"
  | "no_pending_claim"
  | "awaiting_verdict";

export interface GoalStep {
  goal: Goal | null;
  effects: GoalEffect[];
}
