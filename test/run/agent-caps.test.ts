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

describe("the wall-time cap inside a goal (ADR 0126)", () => {
  const goalArm = testArm([{ name: "goal" }]);
  const isWrapUp = (request: ModelRequest) => request.messages.some((m) => m.role === "user" && m.content.includes("This is the last round"));
  /** Hangs until the run's signal ends the request, except where `answer` gives a reply. */
  class HangingModel implements ModelClient {
    readonly id = "list:hanging";
    readonly isTestDouble = true;
    readonly requests: ModelRequest[] = [];
    constructor(private readonly answer: (request: ModelRequest) => ModelReply | null) {}
    complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
      this.requests.push(request);
      const given = this.answer(request);
      if (given !== null) return Promise.resolve(given);
      const usage = { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" as const };
      return new Promise((resolve) => signal?.addEventListener("abort", () => resolve({ text: "", toolCalls: [], stop: "aborted", usage, errorMessage: "aborted" }), { once: true }));
    }
  }
  const usage = { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" as const };
  const handover: ModelReply = { text: "Done so far: nothing. Remains: everything.", toolCalls: [], stop: "end_turn", usage };

  it("gives the goal its wrap-up round, on a fresh signal, after a request the cap cut", async () => {
    const model = new HangingModel((request) => (isWrapUp(request) ? handover : null));
    const { outcome, events } = await run(model, { arm: goalArm, clock: undefined, limits: { maxWallMs: 200 }, wrapUpWallMs: 60_000 });
    expect(model.requests.length).toBe(2);
    expect(outcome).toEqual({ status: "budget_limited", reason: "the wrap-up round after the cap is over", wallMs: outcome.wallMs });
    expect(decisions(events)).toEqual([
      { goal: "null -> active", by: "person" },
      { replyEnd: "interrupted", errorMessage: "hard cap: wall time 200 ms reached" },
      { goal: "active -> budget_limited", by: "system" },
      { policy: "hardCap", decision: "continue", reason: "hard cap: wall time 200 ms reached; goal cap reached: one wrap-up round" },
      { replyEnd: "no_tool_call" },
      { policy: "goal", decision: "settle", reason: "the wrap-up round after the cap is over", status: "budget_limited" },
    ]);
  });

  it("a wrap-up round that hangs too is ended for good by its own timer", async () => {
    const model = new HangingModel(() => null);
    const { outcome, events } = await run(model, { arm: goalArm, clock: undefined, limits: { maxWallMs: 200 }, wrapUpWallMs: 200 });
    expect(model.requests.length).toBe(2);
    expect(outcome).toEqual({ status: "budget_limited", reason: "hard cap: wall time 200 ms reached; the wrap-up round used its 200 ms", wallMs: outcome.wallMs });
    expect(decisions(events).slice(-2)).toEqual([
      { replyEnd: "interrupted", errorMessage: outcome.reason },
      { policy: "hardCap", decision: "settle", reason: outcome.reason, status: "budget_limited" },
    ]);
  });

  it("a command the cap kills gets its result, the reply's later calls are not run, then the wrap-up round", async () => {
    const calls = [
      { id: "s1", name: "shell", arguments: { command: "sleep 30" } },
      { id: "s2", name: "shell", arguments: { command: "echo later" } },
    ];
    const model = new HangingModel((request) => (isWrapUp(request) ? handover : { text: "", toolCalls: calls, stop: "tool_calls", usage }));
    const { outcome, events } = await run(model, { arm: goalArm, clock: undefined, limits: { maxWallMs: 300 }, wrapUpWallMs: 60_000 });
    expect(outcome.status).toBe("budget_limited");
    const results = events.flatMap((e) => (e.type === "tool.result" ? [{ id: e.id, ok: e.ok }] : []));
    expect(results).toEqual([{ id: "s1", ok: false }, { id: "s2", ok: false }]);
    expect(events.flatMap((e) => (e.type === "tool.result" && e.id === "s2" ? [{ ...e, t: 0, durationMs: 0 }] : []))).toEqual([
      { type: "tool.result", t: 0, id: "s2", name: "shell", ok: false, output: "not run: the run's wall time ran out", durationMs: 0 },
    ]);
    // The wrap-up request sees every call answered before the round's message.
    expect(model.requests[1]?.messages.slice(-4).map((m) => m.role)).toEqual(["assistant", "tool", "tool", "user"]);
  });
});
