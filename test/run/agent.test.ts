import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelClient, ModelReply, ModelRequest, ToolCall } from "../../src/core/model.ts";
import { AgentError, policiesOf, runAgent } from "../../src/run/agent.ts";
import { RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { countTokens } from "../../src/core/tokens.ts";
import { RunEvent } from "../../src/run/record.ts";
import { createToolbox, UNATTENDED_ANSWER } from "../../src/run/tools/index.ts";
import { collector, fakeClock, testArm } from "./scripted-support.ts";
import { defaultRunSandbox } from "../../src/run/sandbox/default.ts";
import { describeSandbox } from "../../src/run/sandbox/types.ts";

/** A model at the boundary: answers each request from a list, and keeps what it was sent. */
class ListModel implements ModelClient {
  readonly id = "list:test";
  readonly isTestDouble = true;
  readonly requests: ModelRequest[] = [];
  constructor(private readonly answer: (request: ModelRequest, index: number) => Partial<ModelReply> | Promise<Partial<ModelReply>>) {}
  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
    this.requests.push(request);
    const partial = await this.answer(request, this.requests.length - 1);
    if (signal?.aborted) return { text: "", toolCalls: [], stop: "aborted", usage: usage(0, 0) };
    const toolCalls = partial.toolCalls ?? [];
    return { text: "", toolCalls, stop: toolCalls.length > 0 ? "tool_calls" : "end_turn", usage: usage(100, 10), ...partial };
  }
}

function usage(input: number, output: number): ModelReply["usage"] {
  return { input, cachedInput: 40, output, reasoning: 2, source: "reported" };
}

const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ id, name, arguments: args });

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-agent-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What run.start says of the default sandbox: with a cgroup of the run's own where this machine can make one (ADR 0114). */
function runStartSandbox(): ReturnType<typeof describeSandbox> {
  const box = defaultRunSandbox();
  const { limitsReason: _none, ...note } = describeSandbox(box);
  return box.sandbox.kind === "bwrap" && box.sandbox.groups?.kind === "cgroup" ? { ...note, limitsKind: "cgroup" } : describeSandbox(box);
}

function run(model: ModelClient, extra: Partial<Parameters<typeof runAgent>[0]> = {}) {
  const { events, onEvent } = collector();
  const outcome = runAgent({
    arm: testArm(),
    model,
    dir,
    handoff: "Write hello.txt.",
    runIndex: 2,
    seed: 5,
    onEvent,
    clock: fakeClock(),
    env: { PATH: process.env.PATH },
    ...extra,
  });
  return outcome.then((result) => ({ outcome: result, events }));
}

describe("the agent loop", () => {
  it("records a whole run: request, tool call and result, final text, the policy's settle", async () => {
    const model = new ListModel((_, index) =>
      index === 0 ? { text: "Writing it.", toolCalls: [call("c1", "write_file", { path: "hello.txt", content: "hi\n" })] } : { text: "Done: wrote hello.txt." },
    );
    const { outcome, events } = await run(model);
    expect(await readFile(path.join(dir, "hello.txt"), "utf8")).toBe("hi\n");
    expect(outcome).toEqual({ status: "completed", reason: "the model ended its reply", wallMs: 25 });
    // Our count, rebuilt by hand: the tool list's JSON, then each message plus 4 tokens of framing.
    const sent0 = countTokens(JSON.stringify(createToolbox().specs())) + countTokens(testArm().prompt?.text ?? "") + 4 + countTokens("Write hello.txt.") + 4;
    const callText = `Writing it.\nwrite_file ${JSON.stringify({ path: "hello.txt", content: "hi\n" })}`;
    const sent1 = sent0 + countTokens(callText) + 4 + countTokens("wrote hello.txt (1 lines)") + 4;
    expect(events).toEqual([
      { t: 1, type: "run.start", arm: "test-arm", runIndex: 2, seed: 5, model: "list:test", testDouble: true, prefixHash: "0".repeat(64), prefixTokens: 17, source: "armstudy", sandbox: runStartSandbox() },
      { t: 3, type: "user.message", text: "Write hello.txt.", kind: "handoff" },
      // Our o200k count of what was sent, beside the provider's own figures.
      { t: 7, type: "model.request", round: 0, counted: { input: sent0, output: countTokens(callText) }, input: 100, cachedInput: 40, output: 10, reasoning: 2, usageSource: "reported", durationMs: 2, stop: "tool_calls", purpose: "agent" },
      { t: 9, type: "assistant.text", text: "Writing it.", final: false },
      { t: 10, type: "tool.call", id: "c1", name: "write_file", arguments: { path: "hello.txt", content: "hi\n" } },
      { t: 12, type: "tool.result", id: "c1", name: "write_file", ok: true, output: "wrote hello.txt (1 lines)", durationMs: 2, changedFiles: ["hello.txt"] },
      { t: 18, type: "model.request", round: 1, counted: { input: sent1, output: countTokens("Done: wrote hello.txt.") }, input: 100, cachedInput: 40, output: 10, reasoning: 2, usageSource: "reported", durationMs: 2, stop: "end_turn", purpose: "agent" },
      { t: 20, type: "assistant.text", text: "Done: wrote hello.txt.", final: true },
      { t: 21, type: "reply.end", reason: "no_tool_call" },
      { t: 24, type: "policy.decision", policy: "none", decision: "settle", reason: "the model ended its reply", status: "completed" },
      { t: 25, type: "run.end", status: "completed", reason: "the model ended its reply", wallMs: 25 },
    ]);
    // What was sent: the arm's prompt as the system message, the handoff first, then the work.
    expect(model.requests[1]?.messages).toEqual([
      { role: "system", content: testArm().prompt?.text },
      { role: "user", content: "Write hello.txt." },
      { role: "assistant", content: "Writing it.", toolCalls: [call("c1", "write_file", { path: "hello.txt", content: "hi\n" })] },
      { role: "tool", toolCallId: "c1", name: "write_file", content: "wrote hello.txt (1 lines)" },
    ]);
    expect(model.requests.map((request) => request.meta)).toEqual([
      { runIndex: 2, round: 0, purpose: "agent" },
      { runIndex: 2, round: 1, purpose: "agent" },
    ]);
  });

  it("counts what each request sends, once per message: O(new text) per request", async () => {
    const counter = new RequestTokenCounter();
    const model = new ListModel((_, index) => (index < 6 ? { toolCalls: [call(`c${index}`, "list_files", {})] } : { text: "done" }));
    const { events } = await run(model, { counter });
    const counted = events.flatMap((event) => (event.type === "model.request" ? [event.counted?.input ?? 0] : []));
    // Each request sends everything before it plus one assistant message and one tool result.
    expect(counted.every((value, index) => index === 0 || value > (counted[index - 1] ?? 0))).toBe(true);
    // Every reply is looked up once, but the five that repeat the one before in new objects (the
    // same list_files call), which take its count (ADR 0131): 2; every message once when first
    // sent (14) except the six assistant messages with tool calls, which reuse their reply's
    // count, and the five listings that repeat the one before, which take its count (ADR 0185):
    // 3; and the tool list once: 6 lookups for 7 requests, where re-counting the history would
    // take 56 + 7. Only six distinct texts exist (the calls and listings repeat), so six are
    // tokenized.
    const stats = counter.text.stats();
    expect([stats.hits + stats.misses, stats.misses]).toEqual([6, 6]);
  });

  it("stops at the round cap with a hard-cap settle", async () => {
    const model = new ListModel((_, index) => ({ toolCalls: [call(`c${index}`, "list_files", {})] }));
    const { outcome, events } = await run(model, { limits: { maxRounds: 3 } });
    expect(outcome.status).toBe("budget_limited");
    expect(model.requests).toHaveLength(3);
    expect(events.slice(-3).map(({ t: _t, ...rest }) => rest)).toEqual([
      { type: "reply.end", reason: "interrupted", errorMessage: "hard cap: 3 model requests reached" },
      { type: "policy.decision", policy: "hardCap", decision: "settle", reason: "hard cap: 3 model requests reached", status: "budget_limited" },
      { type: "run.end", status: "budget_limited", reason: "hard cap: 3 model requests reached", wallMs: events.at(-1)?.t },
    ]);
  });

  it("cuts a model request that hangs past the wall-time cap", async () => {
    const model = new ListModel(() => new Promise(() => undefined));
    const hanging: ModelClient = {
      id: "hang",
      isTestDouble: true,
      complete: (request, signal) =>
        new Promise((resolve) => {
          void model.complete(request);
          signal?.addEventListener("abort", () => resolve({ text: "", toolCalls: [], stop: "aborted", usage: usage(0, 0), errorMessage: "aborted" }));
        }),
    };
    const { outcome } = await run(hanging, { limits: { maxWallMs: 150 }, clock: undefined });
    expect([outcome.status, outcome.reason]).toEqual(["budget_limited", "hard cap: wall time 150 ms reached"]);
  });

  it("ends as interrupted when the caller aborts", async () => {
    const controller = new AbortController();
    const model = new ListModel((_, index) => {
      if (index === 1) controller.abort();
      return { toolCalls: [call(`c${index}`, "list_files", {})] };
    });
    const { outcome, events } = await run(model, { signal: controller.signal });
    expect([outcome.status, events.at(-1)?.type]).toEqual(["interrupted", "run.end"]);
  });

  it("a provider error ends the reply and the run settles error; a throwing client is treated the same", async () => {
    const failing = new ListModel(() => ({ stop: "error", errorMessage: "HTTP 500 from the provider" }));
    const first = await run(failing);
    expect(first.events.filter((event) => event.type === "reply.end")).toEqual([{ t: expect.any(Number), type: "reply.end", reason: "error", errorMessage: "HTTP 500 from the provider" }]);
    expect(first.outcome.status).toBe("error");
    const throwing: ModelClient = { id: "throws", isTestDouble: true, complete: async () => Promise.reject(new Error("socket hang up")) };
    const second = await run(throwing);
    expect([second.outcome.status, second.outcome.reason]).toEqual(["error", "provider error: socket hang up"]);
  });

  it("ask_user records the question, answers that nobody is there, and ends the reply", async () => {
    const model = new ListModel(() => ({ toolCalls: [call("q1", "ask_user", { question: "Which branch?" })] }));
    const { outcome, events } = await run(model);
    expect(events.filter((event) => event.type === "tool.call" || event.type === "tool.result" || event.type === "reply.end").map(({ t: _t, ...rest }) => rest)).toEqual([
      { type: "tool.call", id: "q1", name: "ask_user", arguments: { question: "Which branch?" } },
      { type: "tool.result", id: "q1", name: "ask_user", ok: false, output: UNATTENDED_ANSWER, durationMs: 2 },
      { type: "reply.end", reason: "ask_user" },
    ]);
    expect(outcome.status).toBe("paused");
  });

  it("a tool the model invents is an error it can read, and the run goes on", async () => {
    const model = new ListModel((_, index) => (index === 0 ? { toolCalls: [call("x", "rm_rf", {})] } : { text: "ok" }));
    const { events } = await run(model, { toolbox: createToolbox(["read_file"]) });
    expect(events.find((event) => event.type === "tool.result")).toEqual({
      t: expect.any(Number),
      type: "tool.result",
      id: "x",
      name: "rm_rf",
      ok: false,
      output: 'unknown tool "rm_rf"; the tools are: read_file',
      durationMs: 2,
    });
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(["read_file"]);
  });

  it("offers the goal tools while the goal runs and routes their calls to the policy", async () => {
    const model = new ListModel((request, index) => {
      if (request.meta?.purpose === "claim_check") return { text: "VERDICT: continue\nREASON: nothing was checked" };
      return index === 0 ? { toolCalls: [call("g", "get_goal", {})] } : { text: "stopping" };
    });
    const { events } = await run(model, { arm: testArm([{ name: "goal", options: { rounds: 2 } }]) });
    expect(model.requests[0]?.tools.map((tool) => tool.name).slice(-2)).toEqual(["get_goal", "update_goal"]);
    const result = events.find((event) => event.type === "tool.result");
    expect(result?.type === "tool.result" && JSON.parse(result.output)).toMatchObject({ status: "active", roundLimit: 2 });
    expect(events.filter((event) => event.type === "user.message").map((event) => event.type === "user.message" && event.kind)).toEqual([
      "handoff",
      "continuation",
      "continuation",
      "continuation",
    ]);
    for (const event of events) expect(RunEvent.parse(event)).toEqual(event);
  });

  it("refuses an arm with no prompt: that arm belongs to an external driver", async () => {
    const arm = testArm([{ name: "none" }], { agent: "codex", prompt: null });
    await expect(run(new ListModel(() => ({})), { arm })).rejects.toThrow(new AgentError("AGENT_NO_PROMPT", 'arm "test-arm" has no compiled prompt (agent: codex); run it with its external driver, not the armstudy agent loop'));
  });

  it("gives the arm's goal limits to its goal policy unless the policy sets its own", () => {
    expect(policiesOf(testArm([{ name: "todoGate" }, { name: "goal" }], { goal: { rounds: 4, hours: 1 } }))).toEqual([
      { name: "todoGate" },
      { name: "goal", options: { rounds: 4, hours: 1 } },
    ]);
    expect(policiesOf(testArm([{ name: "goal", options: { rounds: 9 } }], { goal: { rounds: 4 } }))).toEqual([{ name: "goal", options: { rounds: 9 } }]);
  });
});
