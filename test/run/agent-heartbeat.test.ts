/**
 * Heartbeats (ADR-0078): while a real command runs longer than N seconds, the record gets a beat
 * every N seconds naming the running tool and its age, so the longest silence on the record is
 * shorter than the command. A 3 s `sleep` with N = 1 s stands in for the 30 s command of the issue
 * (demonstrated by hand: docs/decisions/0101-long-runs-caps-wrap-up-heartbeats.md).
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelClient, ModelReply, ModelRequest } from "../../src/core/model.ts";
import { runMetrics } from "../../src/measure/metrics.ts";
import { runAgent } from "../../src/run/agent.ts";
import type { EventOf, RunEvent } from "../../src/run/record.ts";
import { collector, testArm } from "./scripted-support.ts";

/** Runs one shell command, then ends its reply. */
class OneCommand implements ModelClient {
  readonly id = "list:one-command";
  readonly isTestDouble = true;
  private sent = 0;
  constructor(private readonly command: string) {}
  async complete(_request: ModelRequest): Promise<ModelReply> {
    this.sent += 1;
    const usage = { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" as const };
    if (this.sent === 1) return { text: "", toolCalls: [{ id: "c1", name: "shell", arguments: { command: this.command } }], stop: "tool_calls", usage };
    return { text: "Ran it.", toolCalls: [], stop: "end_turn", usage };
  }
}

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-beat-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(heartbeatMs: number): Promise<RunEvent[]> {
  const { events, onEvent } = collector();
  await runAgent({ arm: testArm(), model: new OneCommand("sleep 3"), dir, handoff: "Wait.", runIndex: 0, seed: 1, onEvent, env: { PATH: process.env.PATH }, heartbeatMs });
  return events;
}

describe("heartbeats while a tool runs", () => {
  it("a 3 s command with N = 1 s beats inside the call, names the tool, and shortens the longest silence", async () => {
    const events = await run(1000);
    const types = events.map((e) => e.type);
    const callAt = types.indexOf("tool.call");
    const resultAt = types.indexOf("tool.result");
    const beats = events.filter((e): e is EventOf<"heartbeat"> => e.type === "heartbeat");
    expect(beats.length).toBeGreaterThanOrEqual(1);
    // Every beat sits between the call and its result, in order, each older than the last.
    expect(events.slice(callAt + 1, resultAt).every((e) => e.type === "heartbeat")).toBe(true);
    expect(beats.length).toBe(resultAt - callAt - 1);
    expect(beats.map((b) => b.activeTools)).toEqual(beats.map(() => ["shell"]));
    const ages = beats.map((b) => b.oldestToolMs);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    expect(ages[0]).toBeGreaterThanOrEqual(900);
    const result = events[resultAt] as EventOf<"tool.result">;
    expect(result.durationMs).toBeGreaterThanOrEqual(3000);
    expect(runMetrics(events).longestSilenceMs).toBeLessThan(result.durationMs ?? 0);
  });

  it("a command shorter than N writes no beat, and the silence is the command's length", async () => {
    const events = await run(60_000);
    expect(events.filter((e) => e.type === "heartbeat")).toEqual([]);
    expect(runMetrics(events).longestSilenceMs).toBeGreaterThanOrEqual(3000);
  });
});
