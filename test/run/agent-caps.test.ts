/**
 * The run's token and cost caps, and the goal's wrap-up round when a hard cap is reached inside it.
 * The model is a boundary double that reports usage like a provider; the tools run for real.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelClient, ModelReply, ModelRequest } from "../../src/core/model.ts";
import { AgentError, runAgent } from "../../src/run/agent.ts";
import { WRAP_UP_REQUESTS, requestTokens } from "../../src/run/agent-caps.ts";
import type { RunEvent } from "../../src/run/record.ts";
import { priceRequest } from "../../src/study/limits.ts";
import { checkPolicySpecs } from "../../src/core/policies/index.ts";
import { collector, fakeClock, testArm } from "./scripted-support.ts";

/** Answers every request with a `list_files` call, unless `answer` says otherwise; usage as reported. */
class BusyModel implements ModelClient {
  readonly isTestDouble = true;
  readonly requests: ModelRequest[] = [];
  constructor(
    readonly id: string,
    private readonly answer: (request: ModelRequest) => Partial<ModelReply> | null = () => null,
    private readonly replyModel?: string,
  ) {}
  async complete(request: ModelRequest): Promise<ModelReply> {
    this.requests.push(request);
    const base: ModelReply = {
      text: "",
      toolCalls: [{ id: `c${this.requests.length}`, name: "list_files", arguments: {} }],
      stop: "tool_calls",
      usage: { input: 100_000, cachedInput: 40_000, output: 1_000, reasoning: 0, source: "reported" },
      ...(this.replyModel === undefined ? {} : { model: this.replyModel }),
    };
    return { ...base, ...(this.answer(request) ?? {}) };
  }
}

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-caps-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(model: ModelClient, extra: Partial<Parameters<typeof runAgent>[0]> = {}) {
  const { events, onEvent } = collector();
  const outcome = await runAgent({ arm: testArm(), model, dir, handoff: "Look around.", runIndex: 0, seed: 1, onEvent, clock: fakeClock(), env: { PATH: process.env.PATH }, ...extra });
  return { outcome, events };
}

/** The decisions and status changes of a record, without timings. */
function decisions(events: readonly RunEvent[]): Array<Record<string, unknown>> {
  return events.flatMap((e): Array<Record<string, unknown>> => {
    if (e.type === "policy.decision") return [{ policy: e.policy, decision: e.decision, reason: e.reason, ...(e.status === undefined ? {} : { status: e.status }) }];
    if (e.type === "goal.update") return [{ goal: `${e.from} -> ${e.to}`, by: e.by }];
    if (e.type === "reply.end") return [{ replyEnd: e.reason, ...(e.errorMessage === undefined ? {} : { errorMessage: e.errorMessage }) }];
    return [];
  });
}

describe("token and cost caps", () => {
  it("a token cap ends the run once the run's requests reach it (provider-reported usage)", async () => {
    const { outcome, events } = await run(new BusyModel("list:busy"), { limits: { maxTokens: 250_000 } });
    expect(events.filter((e) => e.type === "model.request").length).toBe(3);
    expect(outcome.status).toBe("budget_limited");
    expect(decisions(events)).toEqual([
      { replyEnd: "interrupted", errorMessage: "hard cap: 250000 tokens reached (303000 used)" },
      { policy: "hardCap", decision: "settle", reason: "hard cap: 250000 tokens reached (303000 used)", status: "budget_limited" },
    ]);
  });

  it("a request's tokens are the provider's when reported, else our o200k count", () => {
    expect(requestTokens({ input: 10, cachedInput: 0, output: 5, reasoning: 0, source: "reported" }, { input: 7, output: 2 })).toBe(15);
    expect(requestTokens({ input: 10, cachedInput: 0, output: 5, reasoning: 0, source: "counted" }, { input: 7, output: 2 })).toBe(9);
  });

  it("a cost cap prices each request from the table (gpt-4o-mini) and stops when it is spent", async () => {
    // One request: 60 k uncached × $0.15 + 40 k cached × $0.075 + 1 k output × $0.60, per million = $0.0126.
    expect(priceRequest("gpt-4o-mini", { input: 100_000, cachedInput: 40_000, output: 1_000, reasoning: 0, source: "reported" })).toBeCloseTo(0.0126, 10);
    const { outcome, events } = await run(new BusyModel("openai:gpt-4o-mini"), { limits: { maxCostUsd: 0.03 }, pricer: priceRequest });
    expect(events.filter((e) => e.type === "model.request").length).toBe(3);
    expect(outcome).toEqual({ status: "budget_limited", reason: "hard cap: $0.03 reached ($0.0378 spent)", wallMs: outcome.wallMs });
  });

  it("a cost cap on a model the table does not price ends the run as an error naming the model", async () => {
    const { outcome } = await run(new BusyModel("list:busy"), { limits: { maxCostUsd: 1 }, pricer: priceRequest });
    expect(outcome.status).toBe("error");
    expect(outcome.reason).toBe('limits.maxCostUsd is set, but the price table has no price for model "list:busy"; add it or remove the cost cap');
  });

  it("a cost cap with no price function, or a non-positive cap, is the caller's mistake", async () => {
    await expect(run(new BusyModel("list:busy"), { limits: { maxCostUsd: 1 } })).rejects.toThrow(AgentError);
    await expect(run(new BusyModel("list:busy"), { limits: { maxTokens: 0 } })).rejects.toThrow("limits.maxTokens must be a positive number; got 0");
  });
});

describe("a hard cap inside a goal", () => {
  const goalArm = testArm([{ name: "goal" }]);
  const isWrapUp = (request: ModelRequest) => request.messages.some((m) => m.role === "user" && m.content.includes("This is the last round"));

  it("gives the goal its one wrap-up round, which ends the run budget_limited", async () => {
    const model = new BusyModel("list:busy", (request) => (isWrapUp(request) ? { text: "Done so far: listed files. Remains: everything else.", toolCalls: [], stop: "end_turn" } : null));
    const { outcome, events } = await run(model, { arm: goalArm, limits: { maxRounds: 3 } });
    expect(model.requests.length).toBe(4);
    expect(outcome.status).toBe("budget_limited");
    expect(decisions(events)).toEqual([
      { goal: "null -> active", by: "person" },
      { replyEnd: "interrupted", errorMessage: "hard cap: 3 model requests reached" },
      { goal: "active -> budget_limited", by: "system" },
      { policy: "hardCap", decision: "continue", reason: "hard cap: 3 model requests reached; goal cap reached: one wrap-up round" },
      { replyEnd: "no_tool_call" },
      { policy: "goal", decision: "settle", reason: "the wrap-up round after the cap is over", status: "budget_limited" },
    ]);
    const wrapUp = events.filter((e) => e.type === "user.message").at(-1);
    expect(wrapUp?.type === "user.message" && wrapUp.kind === "continuation" && wrapUp.text.includes("has reached its limit (hard cap: 3 model requests reached)")).toBe(true);
  });

  it("a wrap-up round that keeps working is cut after its own few requests", async () => {
    const model = new BusyModel("list:busy");
    const { outcome, events } = await run(model, { arm: goalArm, limits: { maxRounds: 2 } });
    expect(model.requests.length).toBe(2 + WRAP_UP_REQUESTS);
    expect(outcome).toEqual({ status: "budget_limited", reason: `hard cap: 2 model requests reached; the wrap-up round used its ${WRAP_UP_REQUESTS} requests`, wallMs: outcome.wallMs });
    expect(decisions(events).at(-1)).toEqual({ policy: "hardCap", decision: "settle", reason: outcome.reason, status: "budget_limited" });
  });

  it("an arm without a goal settles at the cap with no wrap-up", async () => {
    const { outcome } = await run(new BusyModel("list:busy"), { limits: { maxRounds: 2 } });
    expect(outcome).toEqual({ status: "budget_limited", reason: "hard cap: 2 model requests reached", wallMs: outcome.wallMs });
  });
});

describe("the work slice's new-token budget (STUDY-0003: 320 k)", () => {
  it("is accepted as an option and ends a slice when the reply's output and tool results reach it", async () => {
    const words = "word ".repeat(60);
    const model = new BusyModel("list:busy", () => ({ text: words }));
    const { events } = await run(model, { arm: testArm([{ name: "workSlice", options: { newTokens: 100, maxSlices: 2 } }]) });
    expect(decisions(events).filter((d) => "policy" in d)).toEqual([
      { policy: "workSlice", decision: "continue", reason: "slice budget: 100 new tokens; slice 2 of 2 starts" },
      { policy: "workSlice", decision: "settle", reason: "slice_limit: 2 slices used (slice budget: 100 new tokens)", status: "interrupted" },
    ]);
    expect(checkPolicySpecs([{ name: "workSlice", options: { toolCalls: 160, minutes: 40, newTokens: 320_000 } }])).toBeNull();
  });
});
