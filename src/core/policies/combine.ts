/**
 * Folds an arm's policies into one `TurnEndPolicy`, so the agent loop drives a single value.
 * Every policy sees every hook (each keeps its own state), and one decision is chosen:
 *
 * 1. a `settle` with any status but `completed` (a brake) — the first in arm order;
 * 2. a `check_claim` — the first; the verdict goes back to the policy that asked;
 * 3. every `continue`, their messages joined in arm order into one user message;
 * 4. `settle completed`, which every policy uses to mean "no objection".
 *
 * Tools are the union of the policies' tools, each call routed to its owner; `onStep` stops the
 * reply when any policy says stop; the measure command is the first any policy declares.
 */
import type { ClaimVerdictView, PolicyDecision, PolicyRecord, PolicyToolResult, TurnEndPolicy } from "./contract.ts";

export interface CombinedState {
  states: unknown[];
  /** The policy (index) whose claim check is running. */
  awaiting: number | null;
  /** Continues held back while a claim check runs; merged with a `continue` verdict. */
  held: Extract<PolicyDecision, { kind: "continue" }>[];
}

type AnyPolicy = TurnEndPolicy<unknown>;
type Continue = Extract<PolicyDecision, { kind: "continue" }>;

/** Joins continues into one message: kind `continuation` if any part is one, else `nudge`. */
export function mergeContinues(continues: readonly Continue[]): Continue {
  if (continues.length === 1) return continues[0]!;
  return {
    kind: "continue",
    message: continues.map((c) => c.message).join("\n\n"),
    messageKind: continues.some((c) => c.messageKind === "continuation") ? "continuation" : "nudge",
    reason: continues.map((c) => `${c.policy ?? "?"}: ${c.reason}`).join("; "),
    policy: continues.map((c) => c.policy ?? "?").join("+"),
  };
}

export class CombineError extends Error {
  readonly code = "policy_no_verdict_handler";
  constructor(message: string) {
    super(message);
    this.name = "CombineError";
  }
}

export function combinePolicies(policies: readonly TurnEndPolicy<any>[]): TurnEndPolicy<CombinedState> {
  const list = policies as readonly AnyPolicy[];
  const name = list.length === 0 ? "none" : list.map((p) => p.name).join("+");
  const tag = (decision: PolicyDecision, policy: AnyPolicy): PolicyDecision => ({ ...decision, policy: decision.policy ?? policy.name });

  return {
    name,
    initialState: () => ({ states: list.map((p) => p.initialState()), awaiting: null, held: [] }),

    onRunStart(view, state) {
      const states = [...state.states];
      const messages: string[] = [];
      const records: PolicyRecord[] = [];
      list.forEach((policy, i) => {
        if (policy.onRunStart === undefined) return;
        const out = policy.onRunStart(view, states[i]);
        states[i] = out.state;
        if (out.message !== undefined) messages.push(out.message);
        records.push(...(out.records ?? []));
      });
      return { state: { ...state, states }, records, ...(messages.length > 0 ? { message: messages.join("\n\n") } : {}) };
    },

    tools(state) {
      return list.flatMap((policy, i) => policy.tools?.(state.states[i]) ?? []);
    },

    onToolCall(call, state, at) {
      const owner = list.findIndex((policy, i) => (policy.tools?.(state.states[i]) ?? []).some((tool) => tool.name === call.name));
      if (owner < 0) {
        const result: PolicyToolResult = { ok: false, output: `${call.name} is not offered in this run` };
        return { result, state };
      }
      const out = list[owner]!.onToolCall!(call, state.states[owner], at);
      const states = [...state.states];
      states[owner] = out.state;
      return { result: out.result, state: { ...state, states }, records: out.records ?? [] };
    },

    onStep(view, current, state) {
      const states = [...state.states];
      const records: PolicyRecord[] = [];
      let stop: { reason: string } | undefined;
      list.forEach((policy, i) => {
        if (policy.onStep === undefined) return;
        const out = policy.onStep(view, current, states[i]);
        states[i] = out.state;
        records.push(...(out.records ?? []));
        if (out.stop !== undefined && stop === undefined) stop = { reason: `${policy.name}: ${out.stop.reason}` };
      });
      return { state: { ...state, states }, records, ...(stop === undefined ? {} : { stop }) };
    },

    onReplyEnd(view, state) {
      const states = [...state.states];
      const records: PolicyRecord[] = [];
      const decisions: PolicyDecision[] = [];
      list.forEach((policy, i) => {
        const out = policy.onReplyEnd(view, states[i]);
        states[i] = out.state;
        records.push(...(out.records ?? []));
        decisions.push(tag(out.decision, policy));
      });
      const next: CombinedState = { states, awaiting: null, held: [] };
      if (list.length === 0) return { decision: { kind: "settle", status: "completed", reason: "the model ended its reply", policy: "none" }, state: next, records };

      const brakeAt = decisions.find((d) => d.kind === "settle" && d.status !== "completed");
      if (brakeAt !== undefined) return { decision: brakeAt, state: next, records };
      const continues = decisions.filter((d): d is Continue => d.kind === "continue");
      const checkAt = decisions.findIndex((d) => d.kind === "check_claim");
      if (checkAt >= 0) return { decision: decisions[checkAt]!, state: { ...next, awaiting: checkAt, held: continues }, records };
      if (continues.length > 0) return { decision: mergeContinues(continues), state: next, records };
      return { decision: decisions[0]!, state: next, records };
    },

    onHardCap(view, state, cap) {
      const states = [...state.states];
      const records: PolicyRecord[] = [];
      const continues: Continue[] = [];
      list.forEach((policy, i) => {
        if (policy.onHardCap === undefined) return;
        const out = policy.onHardCap(view, states[i], cap);
        states[i] = out.state;
        records.push(...(out.records ?? []));
        const decision = tag(out.decision, policy);
        if (decision.kind === "continue") continues.push(decision);
      });
      const next: CombinedState = { states, awaiting: null, held: [] };
      // Only a wrap-up continues past a hard cap; no policy wanting one means the cap ends the run.
      if (continues.length > 0) return { decision: mergeContinues(continues), state: next, records };
      return { decision: { kind: "settle", status: "budget_limited", reason: cap.reason, policy: "hardCap" }, state: next, records };
    },

    onClaimVerdict(verdict: ClaimVerdictView, state, at) {
      const index = state.awaiting;
      const policy = index === null ? undefined : list[index];
      if (index === null || policy?.onClaimVerdict === undefined) {
        throw new CombineError(`${name}: onClaimVerdict was called, but no policy asked for a claim check at the last reply end; call it only after a check_claim decision`);
      }
      const states = [...state.states];
      const out = policy.onClaimVerdict(verdict, states[index], at);
      states[index] = out.state;
      const decision = tag(out.decision, policy);
      const next: CombinedState = { states, awaiting: null, held: [] };
      if (decision.kind === "check_claim") {
        return { decision: { kind: "settle", status: "error", reason: `${policy.name} asked for a second check after a verdict`, policy: policy.name }, state: next, records: out.records ?? [] };
      }
      if (decision.kind === "continue" && state.held.length > 0) return { decision: mergeContinues([decision, ...state.held]), state: next, records: out.records ?? [] };
      return { decision, state: next, records: out.records ?? [] };
    },

    measureCommand(state) {
      for (const [i, policy] of list.entries()) {
        const command = policy.measureCommand?.(state.states[i]) ?? null;
        if (command !== null) return command;
      }
      return null;
    },
  };
}
