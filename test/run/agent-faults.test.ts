/**
 * The agent loop and faults (ADR 0081): a reply that carries a fault cause ends the run as
 * `error` with that cause, each retried attempt is a `model.retry` event, and the wall cap holds
 * between the tool calls of one reply (ADR 0084).
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelClient, ModelReply, ModelRequest } from "../../src/core/model.ts";
import { runAgent } from "../../src/run/agent.ts";
import { collector, fakeClock, testArm } from "./scripted-support.ts";

/** A model at the boundary: the same answer to every request. */
function constantModel(reply: ModelReply): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: "constant:test",
    isTestDouble: true,
    requests,
    complete: async (request) => {
      requests.push(request);
      return reply;
    },
  };
}

const ZERO = { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" as const };

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-agent-faults-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("faults in the agent loop", () => {
  it("ends the run as error with the reply's cause, and records each retry", async () => {
    const message = "http://127.0.0.1:9/v1/chat/completions: gave up after 2 attempts: HTTP 503: overloaded";
    const model = constantModel({
      text: "",
      toolCalls: [],
      stop: "error",
      usage: ZERO,
      errorMessage: message,
      fault: "model.http_5xx",
      retries: [{ attempt: 1, cause: "model.http_5xx", message: "HTTP 503: overloaded", atMs: 5, waitMs: 50 }],
    });
    const { events, onEvent } = collector();
    const outcome = await runAgent({ arm: testArm(), model, dir, handoff: "Do it.", runIndex: 1, seed: 1, onEvent, clock: fakeClock(), env: {} });
    expect([outcome.status, outcome.cause, outcome.reason]).toEqual(["error", "model.http_5xx", message]);
    expect(model.requests.length).toEqual(1);
    const retry = events.find((event) => event.type === "model.retry");
    expect(retry && { ...retry, t: 0 }).toEqual({ t: 0, type: "model.retry", round: 0, attempt: 1, cause: "model.http_5xx", message: "HTTP 503: overloaded", waitMs: 50 });
    const end = events.at(-1);
    expect(end && { ...end, t: 0, wallMs: 0 }).toEqual({ t: 0, type: "run.end", status: "error", reason: message, cause: "model.http_5xx", wallMs: 0 });
  });

  it("leaves an error reply without a cause to the turn-end control, as before", async () => {
    const model = constantModel({ text: "", toolCalls: [], stop: "error", usage: ZERO, errorMessage: "scripted refusal" });
    const { onEvent } = collector();
    const outcome = await runAgent({ arm: testArm(), model, dir, handoff: "Do it.", runIndex: 1, seed: 1, onEvent, clock: fakeClock(), env: {} });
    expect(outcome.cause).toEqual(undefined);
  });

  it("stops between the tool calls of one reply when the wall cap is reached", async () => {
    // One reply with 20,000 calls; a 300 ms cap. Without the check between calls every one would run.
    const calls = Array.from({ length: 20_000 }, (_, i) => ({ id: `c${i}`, name: "list_files", arguments: { path: "." } }));
    const model = constantModel({ text: "", toolCalls: calls, stop: "tool_calls", usage: ZERO });
    const { events, onEvent } = collector();
    const outcome = await runAgent({
      arm: testArm(),
      model,
      dir,
      handoff: "List.",
      runIndex: 1,
      seed: 1,
      onEvent,
      env: {},
      limits: { maxWallMs: 300 },
    });
    const results = events.filter((event) => event.type === "tool.result").length;
    expect([outcome.status, outcome.reason]).toEqual(["budget_limited", "hard cap: wall time 300 ms reached"]);
    expect(results).toBeLessThan(20_000);
    expect(model.requests.length).toEqual(1);
  });
});

describe("time limits of the agent loop", () => {
  it.each([
    [{ limits: { maxWallMs: 3e9 } }, "limits.maxWallMs must be at most 24 hours (86400000 ms), got 3000000000"],
    [{ shellTimeoutMs: 2 ** 31 }, "shellTimeoutMs must be at most 24 hours (86400000 ms), got 2147483648"],
  ])("refuses %j by name", async (extra, message) => {
    const model = constantModel({ text: "", toolCalls: [], stop: "end_turn", usage: ZERO });
    const { onEvent } = collector();
    await expect(runAgent({ arm: testArm(), model, dir, handoff: "x", runIndex: 1, seed: 1, onEvent, env: {}, ...extra })).rejects.toMatchObject({ code: "AGENT_BAD_OPTIONS", message });
    expect(model.requests.length).toEqual(0);
  });
});

describe("a fault in the completion-claim check", () => {
  it("ends the run as error instead of accepting the claim unchecked", async () => {
    const message = "http://127.0.0.1:9/v1/chat/completions: gave up after 2 attempts: network error: connection failed (ECONNREFUSED)";
    const requests: ModelRequest[] = [];
    const model: ModelClient = {
      id: "flaky:test",
      isTestDouble: true,
      complete: async (request) => {
        requests.push(request);
        if (request.meta?.purpose === "claim_check") return { text: "", toolCalls: [], stop: "error", usage: ZERO, errorMessage: message, fault: "model.unreachable" };
        return requests.length === 1
          ? { text: "", toolCalls: [{ id: "g", name: "update_goal", arguments: { status: "complete", reason: "all done" } }], stop: "tool_calls", usage: ZERO }
          : { text: "Done: everything is complete.", toolCalls: [], stop: "end_turn", usage: ZERO };
      },
    };
    const { events, onEvent } = collector();
    const outcome = await runAgent({
      arm: testArm([{ name: "goal", options: { rounds: 5 } }]),
      model,
      dir,
      handoff: "Do it.",
      runIndex: 1,
      seed: 1,
      onEvent,
      clock: fakeClock(),
      env: {},
      completionCheck: "on",
    });
    expect([outcome.status, outcome.cause, outcome.reason]).toEqual(["error", "model.unreachable", message]);
    expect(requests.map((request) => request.meta?.purpose)).toContain("claim_check");
    expect(events.filter((event) => event.type === "claim.check").length).toEqual(1);
  });
});
