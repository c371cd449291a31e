/**
 * A driven client's token and cost caps (ADR 0127). The client owns its loop, so armstudy cannot
 * stop it between requests; it watches the usage the client's own event stream reports — each
 * `model.request` the stream mapper writes — with the same running totals our loop keeps
 * (`RunBudget`: the provider's tokens when reported, cost from the injected price table), and the
 * driver kills the client's process group when a cap is reached. A client that reports usage only
 * once per turn (`codex exec --json`: `turn.completed`) can pass a cap by at most that turn.
 */
import { RunBudget, limitsProblem } from "../agent-caps.ts";
import type { RequestPricer, RunLimits } from "../agent-contract.ts";
import type { RunEvent } from "../record.ts";

export interface ClientCapHit {
  status: "budget_limited" | "error";
  reason: string;
}

export class ClientCaps {
  private readonly budget: RunBudget | null;
  private hit: ClientCapHit | null = null;

  /** Throws for a cap the run cannot honour (a cost cap with no price table), as our loop does. */
  constructor(limits: RunLimits | undefined, pricer: RequestPricer | undefined) {
    const problem = limitsProblem(limits, pricer);
    if (problem !== null) throw new Error(problem);
    this.budget = limits?.maxTokens === undefined && limits?.maxCostUsd === undefined ? null : new RunBudget(limits, pricer);
  }

  /** Counts one event of the client's stream; the cap it reaches, once, else null. */
  see(event: RunEvent, fallbackModel: string): ClientCapHit | null {
    if (this.budget === null || this.hit !== null || event.type !== "model.request") return null;
    const source = event.usageSource;
    const usage = { input: event.input, cachedInput: event.cachedInput, ...(event.cacheWrite === undefined ? {} : { cacheWrite: event.cacheWrite }), output: event.output, reasoning: event.reasoning, source };
    const model = event.model ?? fallbackModel;
    this.budget.add(model, usage, event.counted ?? { input: event.input, output: event.output });
    if (this.budget.unpriced !== null) {
      this.hit = { status: "error", reason: `limits.maxCostUsd is set, but the price table has no price for model "${this.budget.unpriced}"; add it or remove the cost cap` };
    } else {
      this.hit = this.budget.reached();
    }
    return this.hit;
  }
}
