/**
 * The goal reducer: `(goal, event) → { goal, effects }`. It owns every rule of the goal loop
 * (docs/goal-loop.md has them as a table): the person sets, edits, pauses, resumes and clears; the
 * model may only claim `complete` (checked) or `blocked` (after three consecutive rounds of the same
 * blocker); the harness pauses a stalled goal, blocks on a provider error, limits on a usage limit
 * and on the caps, and restores a goal as paused. Every change carries provenance. The driver does
 * the I/O the effects ask for.
 */
import type { SettleStatus } from "../policies/contract.ts";
import { capReached, renderBudgetLimit, renderContinuation, renderObjectiveUpdated } from "./prompts.ts";
import { isTerminal, type GoalStatus } from "./status.ts";
import {
  BLOCKED_ROUNDS,
  DEFAULT_GOAL_LIMITS,
  STALL_ROUNDS,
  type Actor,
  type Goal,
  type GoalEffect,
  type GoalEvent,
  type GoalLimits,
  type GoalRejection,
  type GoalStep,
} from "./types.ts";

/** Lower-case, letters and digits only, single spaces: "Missing API key!" and "missing  API key" match. */
export function normalizeBlocker(reason: string): string {
  return reason
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The run status a goal's stop maps to. */
export function settleStatusFor(status: GoalStatus): SettleStatus {
  switch (status) {
    case "complete":
      return "completed";
    case "active":
      return "unfinished";
    case "paused":
      return "paused";
    case "blocked":
      return "blocked";
    case "usage_limited":
      return "usage_limited";
    case "budget_limited":
      return "budget_limited";
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

function reject(goal: Goal | null, code: GoalRejection, message: string): GoalStep {
  return { goal, effects: [{ kind: "rejected", code, message }] };
}

function change(goal: Goal, to: GoalStatus, by: Actor, reason: string, atMs: number): { goal: Goal; effect: GoalEffect } {
  const provenance = { from: goal.status, to, by, reason, atMs };
  return { goal: { ...goal, status: to, provenance }, effect: { kind: "goal_update", change: provenance } };
}

function validLimits(rounds: number | undefined, hours: number | undefined): string | null {
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds > 0)) return `rounds must be a positive whole number; got ${rounds}`;
  if (hours !== undefined && !(Number.isFinite(hours) && hours > 0)) return `hours must be a positive number; got ${hours}`;
  return null;
}

function describe(goal: Goal): string {
  const head = goal.objective.length > 60 ? `${goal.objective.slice(0, 57)}...` : goal.objective;
  return `${goal.status} goal "${head}"`;
}

/** After a round (and its claim check, if any): the stall brakes, the caps, or the next round. */
function afterRound(goal: Goal, atMs: number, effects: GoalEffect[]): GoalStep {
  if (goal.stall.noActivity >= STALL_ROUNDS) {
    const paused = change(goal, "paused", "system", `no_activity: ${STALL_ROUNDS} automatic rounds in a row made no tool call`, atMs);
    return { goal: paused.goal, effects: [...effects, paused.effect, { kind: "settle", status: "paused", reason: "no_activity" }] };
  }
  if (goal.stall.onlyFailures >= STALL_ROUNDS) {
    const paused = change(goal, "paused", "system", `only_failures: ${STALL_ROUNDS} automatic rounds in a row ran only failing commands`, atMs);
    return { goal: paused.goal, effects: [...effects, paused.effect, { kind: "settle", status: "paused", reason: "only_failures" }] };
  }
  const cap = capReached(goal);
  if (cap !== null) {
    const limited = change(goal, "budget_limited", "system", `cap reached: ${cap}; one wrap-up round follows`, atMs);
    const next: Goal = { ...limited.goal, roundTrigger: "wrap_up" };
    return { goal: next, effects: [...effects, limited.effect, { kind: "start_round", promptKind: "budget_limit", prompt: renderBudgetLimit(next, cap) }] };
  }
  const next: Goal = { ...goal, roundTrigger: "continuation" };
  return { goal: next, effects: [...effects, { kind: "start_round", promptKind: "continuation", prompt: renderContinuation(next) }] };
}

export function newGoal(objective: string, limits: GoalLimits, atMs: number, from: GoalStatus | null, reason: string): Goal {
  return {
    objective,
    status: "active",
    limits,
    rounds: 0,
    elapsedMs: 0,
    tokens: { input: 0, output: 0 },
    roundTrigger: "person",
    stall: { noActivity: 0, onlyFailures: 0 },
    blocker: null,
    claim: null,
    awaitingVerdict: false,
    lastRejection: null,
    provenance: { from, to: "active", by: "person", reason, atMs },
  };
}

export function reduceGoal(goal: Goal | null, event: GoalEvent): GoalStep {
  switch (event.type) {
    case "set": {
      if (goal !== null && !isTerminal(goal.status) && event.replace !== true) {
        return reject(goal, "goal_exists", `there is already a ${describe(goal)}; replace it (replace: true) or clear it first`);
      }
      const objective = event.objective.trim();
      if (objective === "") return reject(goal, "objective_empty", "the goal's objective is empty; write what should be true when the goal is done");
      const bad = validLimits(event.rounds, event.hours);
      if (bad !== null) return reject(goal, "bad_limits", bad);
      const limits = { rounds: event.rounds ?? DEFAULT_GOAL_LIMITS.rounds, hours: event.hours ?? DEFAULT_GOAL_LIMITS.hours };
      const fresh = newGoal(objective, limits, event.atMs, goal?.status ?? null, event.reason ?? (goal === null ? "set by the person" : "replaced by the person"));
      const created: Goal = event.showElapsed === true ? { ...fresh, showElapsed: true } : fresh;
      return {
        goal: created,
        effects: [
          { kind: "goal_update", change: created.provenance },
          { kind: "start_round", promptKind: "continuation", prompt: renderContinuation(created) },
        ],
      };
    }

    case "edit": {
      if (goal === null) return reject(goal, "no_goal", "there is no goal to edit; set one first");
      if (isTerminal(goal.status)) return reject(goal, "goal_finished", `the goal is ${goal.status}; set a new goal instead of editing it`);
      const bad = validLimits(event.rounds, event.hours);
      if (bad !== null) return reject(goal, "bad_limits", bad);
      const objective = event.objective?.trim();
      if (objective === "") return reject(goal, "objective_empty", "the goal's objective is empty; write what should be true when the goal is done");
      const objectiveChanged = objective !== undefined && objective !== goal.objective;
      const limits = { rounds: event.rounds ?? goal.limits.rounds, hours: event.hours ?? goal.limits.hours };
      const what = [objectiveChanged ? "objective" : null, limits.rounds !== goal.limits.rounds || limits.hours !== goal.limits.hours ? "limits" : null]
        .filter((part) => part !== null)
        .join(" and ");
      if (what === "") return { goal, effects: [] };
      const provenance = { from: goal.status, to: goal.status, by: "person" as const, reason: `${what} edited by the person`, atMs: event.atMs };
      const edited: Goal = {
        ...goal,
        objective: objectiveChanged ? objective : goal.objective,
        limits,
        provenance,
        // A claim or a blocker about the old objective says nothing about the new one.
        ...(objectiveChanged ? { claim: null, blocker: null, lastRejection: null } : {}),
      };
      const effects: GoalEffect[] = [{ kind: "goal_update", change: provenance }];
      if (objectiveChanged && edited.status === "active") effects.push({ kind: "inject", promptKind: "objective_updated", prompt: renderObjectiveUpdated(edited) });
      return { goal: edited, effects };
    }

    case "pause": {
      if (goal === null) return reject(goal, "no_goal", "there is no goal to pause");
      if (isTerminal(goal.status)) return reject(goal, "goal_finished", `the goal is ${goal.status}; there is nothing to pause`);
      if (goal.status === "paused") return reject(goal, "already_paused", "the goal is already paused");
      const paused = change(goal, "paused", "person", event.reason ?? "paused by the person", event.atMs);
      return { goal: paused.goal, effects: [paused.effect] };
    }

    case "resume": {
      if (goal === null) return reject(goal, "no_goal", "there is no goal to resume; set one first");
      if (isTerminal(goal.status)) return reject(goal, "goal_finished", `the goal is ${goal.status} and cannot resume; set a new goal`);
      if (goal.status === "active") return reject(goal, "already_active", "the goal is already active");
      const resumed = change(goal, "active", "person", `resumed by the person from ${goal.status}`, event.atMs);
      // A resumed goal starts a fresh stall count and a fresh blocked audit.
      const next: Goal = { ...resumed.goal, roundTrigger: "person", stall: { noActivity: 0, onlyFailures: 0 }, blocker: null, claim: null, awaitingVerdict: false };
      return { goal: next, effects: [resumed.effect, { kind: "start_round", promptKind: "continuation", prompt: renderContinuation(next) }] };
    }

    case "clear": {
      if (goal === null) return reject(goal, "no_goal", "there is no goal to clear");
      const provenance = { from: goal.status, to: null, by: "person" as const, reason: "cleared by the person", atMs: event.atMs };
      return { goal: null, effects: [{ kind: "goal_update", change: provenance }] };
    }

    case "claim": {
      if (goal === null) return reject(goal, "no_goal", "there is no goal; the person sets goals");
      const round = goal.rounds + 1;
      if (event.claim.kind === "complete") {
        if (goal.status !== "active" && goal.status !== "budget_limited") {
          return reject(goal, "goal_not_active", `the goal is ${goal.status}; a completion claim is taken only while it is active or in its wrap-up round`);
        }
        return { goal: { ...goal, claim: { reason: event.claim.reason.trim(), round, atMs: event.atMs } }, effects: [] };
      }
      if (goal.status !== "active") return reject(goal, "goal_not_active", `the goal is ${goal.status}; a blocker is taken only while it is active`);
      const reason = event.claim.reason.trim();
      const normalized = normalizeBlocker(reason);
      if (normalized === "") return reject(goal, "blocked_reason_required", "say what blocks the goal in `reason`; the same words each time it recurs");
      const previous = goal.blocker;
      let blocker;
      if (previous !== null && previous.normalized === normalized && previous.round === round) blocker = previous;
      else if (previous !== null && previous.normalized === normalized && previous.round === round - 1) blocker = { ...previous, reason, streak: previous.streak + 1, round };
      else blocker = { reason, normalized, streak: 1, round };
      const next: Goal = { ...goal, blocker };
      if (blocker.streak < BLOCKED_ROUNDS) return { goal: next, effects: [] };
      const blocked = change(next, "blocked", "model", `blocker reported on ${BLOCKED_ROUNDS} consecutive rounds: ${reason}`, event.atMs);
      return { goal: blocked.goal, effects: [blocked.effect] };
    }

    case "roundEnded": {
      if (goal === null) return { goal, effects: [] };
      if (goal.awaitingVerdict) return reject(goal, "awaiting_verdict", "a claim check is still waiting for its verdict; send the verdict before the next round ends");
      const round = goal.rounds + 1;
      const automatic = goal.roundTrigger === "continuation";
      const active = event.toolCalls > 0 || event.fileChanges > 0;
      const onlyFailures = event.failedCommands > 0 && event.okCommands === 0 && event.fileChanges === 0;
      const counted: Goal = {
        ...goal,
        rounds: round,
        elapsedMs: goal.elapsedMs + event.elapsedMs,
        tokens: { input: goal.tokens.input + event.tokens.input, output: goal.tokens.output + event.tokens.output },
        // The person's own rounds do not count towards a stall; they reset it.
        stall: automatic ? { noActivity: active ? 0 : goal.stall.noActivity + 1, onlyFailures: onlyFailures ? goal.stall.onlyFailures + 1 : 0 } : { noActivity: 0, onlyFailures: 0 },
        // A blocker not reported in this round breaks the streak.
        blocker: goal.blocker !== null && goal.blocker.round === round ? goal.blocker : null,
      };
      if (counted.status === "active" || counted.status === "budget_limited") {
        if (counted.claim !== null) {
          return { goal: { ...counted, awaitingVerdict: true }, effects: [{ kind: "check_claim", claim: counted.claim, objective: counted.objective }] };
        }
        if (counted.status === "budget_limited") {
          return { goal: counted, effects: [{ kind: "settle", status: "budget_limited", reason: "the wrap-up round after the cap is over" }] };
        }
        return afterRound(counted, event.atMs, []);
      }
      // Paused by the person, blocked by the model, or limited mid-round: stop here.
      return { goal: { ...counted, claim: null }, effects: [{ kind: "settle", status: settleStatusFor(counted.status), reason: counted.provenance.reason }] };
    }

    case "verdict": {
      if (goal === null || !goal.awaitingVerdict) return reject(goal, "no_pending_claim", "no completion claim is waiting for a verdict");
      const settled: Goal = { ...goal, awaitingVerdict: false, claim: null };
      if (event.verdict === "done" || event.verdict === "accepted_unchecked") {
        const reason =
          event.verdict === "done" ? `claim accepted by the check: ${event.reason}` : `claim accepted unchecked (${event.cause ?? "unknown cause"})`;
        const complete = change(settled, "complete", event.verdict === "done" ? "check" : "model", reason, event.atMs);
        return { goal: complete.goal, effects: [complete.effect, { kind: "settle", status: "completed", reason }] };
      }
      const provenance = { from: goal.status, to: goal.status, by: "check" as const, reason: `claim sent back by the check: ${event.reason}`, atMs: event.atMs };
      const rejected: Goal = { ...settled, lastRejection: event.reason, provenance };
      const effects: GoalEffect[] = [{ kind: "goal_update", change: provenance }];
      if (rejected.status === "budget_limited") {
        return { goal: rejected, effects: [...effects, { kind: "settle", status: "budget_limited", reason: "the wrap-up round after the cap is over" }] };
      }
      return afterRound(rejected, event.atMs, effects);
    }

    case "providerError": {
      if (goal === null || isTerminal(goal.status)) return { goal, effects: [] };
      const blocked = change({ ...goal, claim: null, awaitingVerdict: false }, "blocked", "system", `provider error: ${event.message}`, event.atMs);
      return { goal: blocked.goal, effects: [blocked.effect, { kind: "settle", status: "error", reason: `provider error: ${event.message}` }] };
    }

    case "usageLimit": {
      if (goal === null || isTerminal(goal.status)) return { goal, effects: [] };
      const limited = change({ ...goal, claim: null, awaitingVerdict: false }, "usage_limited", "system", `usage limit: ${event.message}`, event.atMs);
      return { goal: limited.goal, effects: [limited.effect, { kind: "settle", status: "usage_limited", reason: `usage limit: ${event.message}` }] };
    }

    case "awaitPerson": {
      if (goal === null || goal.status !== "active") return { goal, effects: [] };
      const question = event.question.trim();
      const head = question.length > 120 ? `${question.slice(0, 117)}...` : question;
      // A claim made in a reply that ends on a question is dropped: the model is asking, not done.
      const paused = change({ ...goal, claim: null }, "paused", "system", `waiting for the person's answer: ${head === "" ? "(no question text)" : head}`, event.atMs);
      return { goal: paused.goal, effects: [paused.effect] };
    }

    case "hardCap": {
      // The run's own cap pre-empts the goal's: an active goal wraps up once, like at its own cap.
      if (goal === null || goal.status !== "active") {
        return { goal, effects: [{ kind: "settle", status: "budget_limited", reason: `hard cap: ${event.cap}` }] };
      }
      const limited = change(goal, "budget_limited", "system", `hard cap reached: ${event.cap}; one wrap-up round follows`, event.atMs);
      const next: Goal = { ...limited.goal, claim: null, awaitingVerdict: false, roundTrigger: "wrap_up" };
      return { goal: next, effects: [limited.effect, { kind: "start_round", promptKind: "budget_limit", prompt: renderBudgetLimit(next, event.cap) }] };
    }

    case "restored": {
      // Nothing resumes by itself: an active goal comes back paused, and no check is left pending.
      const snapshot: Goal = { ...event.goal, claim: null, awaitingVerdict: false, roundTrigger: "person" };
      const to = snapshot.status === "active" ? "paused" : snapshot.status;
      const provenance = { from: snapshot.status, to, by: "system" as const, reason: "restored; the person resumes it", atMs: event.atMs };
      return { goal: { ...snapshot, status: to, provenance }, effects: [{ kind: "goal_update", change: provenance }] };
    }

    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
