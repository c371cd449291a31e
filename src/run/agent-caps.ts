/**
 * The run's hard caps beyond rounds and wall time: tokens and cost, counted as the run goes, and
 * the one wrap-up round a goal gets when a cap (the wall-time cap too) is reached inside it. The loop owns the timing;
 * this file owns the arithmetic, so it is tested with values alone.
 */
import type { Usage } from "../core/model.ts";
import type { RequestPricer, RunLimits } from "./agent-contract.ts";

/** Requests the wrap-up round after a hard cap may use before the run is cut (ADR 0101). */
export const WRAP_UP_REQUESTS = 8;

/**
 * Wall time the wrap-up round after the wall-time cap may use (ADR 0126): a tenth of the cap, at
 * least 10 s and at most 5 min. The round gets a fresh timer of its own that ends it for good, so
 * a run that hangs is still cut, at most this much after the cap.
 */
export function wrapUpWallMs(maxWallMs: number): number {
  return Math.min(5 * 60_000, Math.max(10_000, Math.round(maxWallMs / 10)));
}

export interface CapReached {
  status: "budget_limited";
  reason: string;
}

/** Tokens one request spends: the provider's figures when it reported them, else our o200k count. */
export function requestTokens(usage: Usage, counted: { input: number; output: number }): number {
  return usage.source === "reported" ? usage.input + usage.output : counted.input + counted.output;
}

/** Checks the limits once, before the run starts; a message names the field and the fix. */
export function limitsProblem(limits: RunLimits | undefined, pricer: RequestPricer | undefined): string | null {
  for (const key of ["maxTokens", "maxCostUsd"] as const) {
    const value = limits?.[key];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) return `limits.${key} must be a positive number; got ${value}`;
  }
  if (limits?.maxCostUsd !== undefined && pricer === undefined) {
    return "limits.maxCostUsd is set, but no price table was given to the run (pass `pricer`); remove the cap or run it through the study runner";
  }
  return null;
}

/** Running totals of the run's requests against its token and cost caps. */
export class RunBudget {
  tokens = 0;
  costUsd = 0;
  /** The first model the price table did not know, when a cost cap needs one. */
  unpriced: string | null = null;

  constructor(
    private readonly limits: RunLimits,
    private readonly pricer: RequestPricer | undefined,
  ) {}

  /** Adds one request (agent or claim check). */
  add(model: string, usage: Usage, counted: { input: number; output: number }): void {
    this.tokens += requestTokens(usage, counted);
    if (this.limits.maxCostUsd === undefined || this.pricer === undefined) return;
    const cost = this.pricer(model, usage);
    if (cost === null) this.unpriced ??= model;
    else this.costUsd += cost;
  }

  /** The token or cost cap that is reached, or null. */
  reached(): CapReached | null {
    const { maxTokens, maxCostUsd } = this.limits;
    if (maxTokens !== undefined && this.tokens >= maxTokens) {
      return { status: "budget_limited", reason: `hard cap: ${maxTokens} tokens reached (${this.tokens} used)` };
    }
    if (maxCostUsd !== undefined && this.costUsd >= maxCostUsd) {
      return { status: "budget_limited", reason: `hard cap: $${maxCostUsd} reached ($${this.costUsd.toFixed(4)} spent)` };
    }
    return null;
  }
}
