/**
 * The lines the pinned clients (Codex 0.171.0, Claude Code 2.1.332, pi 0.73.1) write that the
 * importers used to get wrong. Each case starts from a real file in fixtures/sessions/offline-real-clients
 * and adds lines reconstructed from the client's own definitions: pi's `AgentSessionEvent` and
 * `SessionEntry` types (dist/core/agent-session.d.ts, session-manager.d.ts), Claude Code's
 * transcript writers (the `cost-state`, `continued-in`, `frame-link` and `system/api_error` row
 * builders in its binary), and Codex's rollout lines as 0.171.0 writes them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runMetrics } from "../../src/measure/metrics.ts";
import { type EventOf, RunEvent } from "../../src/run/record.ts";
import { importSessionFile } from "../../src/sessions/import.ts";
import { liveMapper } from "../../src/sessions/live.ts";
import { FIXTURES } from "./scan.ts";

const dir = mkdtempSync(join(tmpdir(), "armstudy-pinned-"));
const real = (name: string): string[] => readFileSync(join(FIXTURES, "offline-real-clients", name), "utf8").trimEnd().split("\n");
const write = (name: string, lines: Array<string | object>): string => {
  const path = join(dir, name);
  writeFileSync(path, `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`);
  return path;
};
async function load(path: string) {
  const { events } = await importSessionFile(path);
  for (const event of events) expect(RunEvent.safeParse(event).success).toBe(true);
  return { events, m: runMetrics(events), notes: events.flatMap((e) => (e.type === "note" ? [`${e.level}: ${e.text}`] : [])) };
}
const of = <T extends RunEvent["type"]>(events: RunEvent[], type: T): EventOf<T>[] => events.filter((e): e is EventOf<T> => e.type === type);

describe("pi 0.73.1, real runs (fixtures/sessions/offline-real-clients/pi-rpc-compaction, pi-retry-*)", () => {
  it("a manual compaction over --mode rpc: compaction_start / compaction_end, and the compaction entry of its session file", async () => {
    for (const file of ["pi-rpc-compaction.jsonl", "pi-compaction-session.jsonl"]) {
      const { events: ev, m } = await load(join(FIXTURES, "offline-real-clients", file));
      expect([of(ev, "compaction").map((c) => c.tokensBefore), m.replies, m.warnings]).toEqual([[15], 1, 0]);
    }
  });

  it("a request the server refused three times (529): pi's auto-retry in the stream, and in the session file the failed message it keeps", async () => {
    const stream = await load(join(FIXTURES, "offline-real-clients/pi-retry-events.jsonl"));
    expect(of(stream.events, "model.retry").map(({ t: _t, ...r }) => r)).toEqual([{ type: "model.retry", round: 2, attempt: 1, cause: "model.http_5xx", message: "529 Overloaded", waitMs: 2000, maxAttempts: 3 }]);
    // pi writes agent_end before auto_retry_start: the reply does not end at the failure.
    expect([stream.m.replies, of(stream.events, "reply.end").map((r) => r.reason), stream.m.warnings]).toEqual([1, ["no_tool_call"], 0]);
    const file = await load(join(FIXTURES, "offline-real-clients/pi-retry-session.jsonl"));
    // From the session file alone: the wait is the gap between the failed message and the retried request (2 s + pi's own overhead).
    expect(of(file.events, "model.retry").map(({ t: _t, ...r }) => r)).toEqual([{ type: "model.retry", round: 2, attempt: 1, cause: "model.http_5xx", message: "529 Overloaded", waitMs: 2019 }]);
    expect([file.m.replies, of(file.events, "reply.end").map((r) => r.reason)]).toEqual([1, ["no_tool_call"]]);
  });
});

describe("pi 0.73.1", () => {
  const events = real("pi-events.jsonl");
  // pi ≥ 0.66.1: {type:"compaction_start", reason} … {type:"compaction_end", reason, result, aborted, willRetry}
  const compactionStart = { type: "compaction_start", reason: "threshold" };
  const compactionEnd = { type: "compaction_end", reason: "threshold", result: { summary: "Earlier: wrote hello.txt", firstKeptEntryId: "bee4dfed", tokensBefore: 181_204 }, aborted: false, willRetry: false };
  const aborted = { type: "compaction_end", reason: "overflow", result: undefined, aborted: true, willRetry: false };
  const withCompaction = [...events.slice(0, 16), compactionStart, compactionEnd, compactionStart, aborted, ...events.slice(16)];

  it("pi --mode json compaction_start / compaction_end: one compaction with its tokensBefore; an aborted one is a note, not a compaction", async () => {
    const { events: ev, m, notes } = await load(write("pi-compaction.jsonl", withCompaction));
    expect(of(ev, "compaction").map((c) => c.tokensBefore)).toEqual([181_204]);
    expect([m.compactions, m.warnings]).toEqual([1, 0]);
    expect(notes).toEqual(["info: line 20: compaction aborted"]);
  });

  it("the live pi-json driver mapping reads the same compaction", async () => {
    let now = 0;
    const mapper = liveMapper("pi-json", { start: { arm: "a", runIndex: 0, seed: 1, model: "mock-model", testDouble: false, prefixHash: "", prefixTokens: 0, cwd: "/home/user/project" }, clock: () => (now += 10), handoff: "Create hello.txt containing world" });
    for (const line of withCompaction) await mapper.line(typeof line === "string" ? line : JSON.stringify(line));
    await mapper.finish({ status: "exited" });
    const out = mapper.drain();
    expect(of(out, "compaction").map((c) => c.tokensBefore)).toEqual([181_204]);
    expect(of(out, "note").filter((n) => n.level === "warning")).toEqual([]);
  });

  it("auto_retry_start / auto_retry_end: a retry event with its delay, counted in the retries metric", async () => {
    const retry = { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "529 overloaded_error: Overloaded" };
    const retryEnd = { type: "auto_retry_end", success: true, attempt: 1 };
    const { events: ev, m } = await load(write("pi-retry.jsonl", [...events.slice(0, 5), retry, retryEnd, ...events.slice(5)]));
    expect(of(ev, "model.retry").map(({ t: _t, ...r }) => r)).toEqual([{ type: "model.retry", round: 1, attempt: 1, cause: "model.http_5xx", message: "529 overloaded_error: Overloaded", waitMs: 2000, maxAttempts: 3 }]);
    expect(m.retries).toEqual({ count: 1, ms: 2000 });
    expect(m.warnings).toBe(0);
  });

  // A goal-loop extension's continuation prompt: CustomMessageEntry {type:"custom_message", customType, content, display}.
  const session = real("pi-session.jsonl");
  const goalPrompt = { type: "custom_message", id: "c0ffee01", parentId: "657cbc28", timestamp: "2026-11-29T20:10:15.000Z", customType: "goal", content: "Continue toward the goal: hello.txt must also end with a newline.", display: true };
  const secondReply = {
    type: "message",
    id: "c0ffee02",
    parentId: "c0ffee01",
    timestamp: "2026-11-29T20:10:16.000Z",
    message: { role: "assistant", content: [{ type: "text", text: "Done: hello.txt now ends with a newline." }], api: "openai-completions", provider: "mock", model: "mock-model", usage: { input: 12, output: 6, cacheRead: 0, cacheWrite: 0, totalTokens: 18, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 1795983015500 },
  };

  it("a custom_message entry (an extension's continuation prompt) starts a new round", async () => {
    const { events: ev, m } = await load(write("pi-goal.jsonl", [...session, goalPrompt, secondReply]));
    expect(of(ev, "user.message").map((u) => u.kind)).toEqual(["handoff", "continuation"]);
    expect([m.replies, m.toolCallsPerReply, m.warnings]).toEqual([2, [1, 0], 0]);
  });

  it("pi --mode json: a custom-role message_end is the same continuation", async () => {
    const custom = { type: "message_end", message: { role: "custom", customType: "goal", content: "Continue toward the goal.", display: true, timestamp: 1795983015000 } };
    const end = events.at(-1) as string;
    const { events: ev, m } = await load(write("pi-goal-json.jsonl", [...events.slice(0, -1), custom, JSON.stringify({ type: "message_end", message: secondReply.message }), end]));
    expect(of(ev, "user.message").map((u) => u.kind)).toEqual(["handoff", "continuation"]);
    expect(m.replies).toBe(2);
  });

  it("a session file's failed request followed by the assistant again is pi's retry (it keeps the failed message); one not retried ends the reply", async () => {
    // pi 0.73.1 _handleRetryableError: "Remove error message from agent state (keep in session for history)".
    const [header, modelChange, thinking, prompt, toolTurn, toolResult, finalTurn] = session as [string, string, string, string, string, string, string];
    const failed = { type: "message", id: "e0e0e0e0", parentId: "bee4dfed", timestamp: "2026-11-29T20:10:14.600Z", message: { role: "assistant", content: [], api: "openai-completions", provider: "mock", model: "mock-model", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "error", errorMessage: "529 overloaded_error: Overloaded", timestamp: 1795983014590 } };
    const retried = JSON.parse(finalTurn) as Record<string, any>;
    retried.parentId = "e0e0e0e0";
    retried.message.timestamp = Date.parse("2026-11-29T20:10:16.600Z");
    const { events: ev, m } = await load(write("pi-retried.jsonl", [header, modelChange, thinking, prompt, toolTurn, toolResult, failed, retried]));
    expect(of(ev, "model.retry").map(({ t: _t, ...r }) => r)).toEqual([{ type: "model.retry", round: 3, attempt: 1, cause: "model.http_5xx", message: "529 overloaded_error: Overloaded", waitMs: 2000 }]);
    expect([m.replies, m.retries, of(ev, "reply.end").map((r) => r.reason)]).toEqual([1, { count: 1, ms: 2000 }, ["no_tool_call"]]);
    const gaveUp = await load(write("pi-failed.jsonl", [header, modelChange, thinking, prompt, toolTurn, toolResult, failed]));
    expect([gaveUp.m.retries.count, of(gaveUp.events, "reply.end").map((r) => [r.reason, r.errorMessage])]).toEqual([0, [["error", "529 overloaded_error: Overloaded"]]]);
  });

  it("abandoned branches of the v3 tree are left out: the session is the branch it ended on", async () => {
    // The person went back to the first entry and asked something else: the write of hello.txt is on an abandoned branch.
    const header = JSON.parse(session[0] as string);
    const [, modelChange, thinking, ...rest] = session;
    const newPrompt = { type: "message", id: "0a0b0c0d", parentId: "b457acc1", timestamp: "2026-11-29T20:11:00.000Z", message: { role: "user", content: [{ type: "text", text: "Actually, just say hi" }], timestamp: 1795983060000 } };
    const answer = { ...secondReply, id: "0a0b0c0e", parentId: "0a0b0c0d", timestamp: "2026-11-29T20:11:01.000Z", message: { ...secondReply.message, content: [{ type: "text", text: "Hi." }] } };
    const { events: ev, m, notes } = await load(write("pi-branches.jsonl", [header, modelChange as string, thinking as string, ...rest, newPrompt, answer]));
    expect(of(ev, "user.message").map((u) => u.text)).toEqual(["Actually, just say hi"]);
    expect([m.toolCalls, m.modelRequests, m.tokens.input, m.tokens.output]).toEqual([0, 1, 12, 6]);
    expect(notes).toEqual(["info: 4 entries on abandoned branches of the session tree left out (the session is the branch it ended on)"]);
  });
});

describe("Claude Code 2.1.332, a real run (fixtures/sessions/offline-real-clients/claude-retry-*)", () => {
  it("a request the server refused once (529): system/api_error in the transcript, system/api_retry in stream-json, both a retry event", async () => {
    const file = await load(join(FIXTURES, "offline-real-clients/claude-retry-session.jsonl"));
    expect(of(file.events, "model.retry").map(({ t: _t, ...r }) => r)).toEqual([{ type: "model.retry", round: 1, attempt: 1, cause: "model.http_5xx", message: "529 Overloaded", waitMs: 621, maxAttempts: 10 }]);
    // cost-state: $0.00014 for 10 in + 5 out of claude-opus-5-5, API time 894 ms of which 19 ms without retries.
    expect([file.m.retries, file.m.costUsd, file.m.costSource, file.m.replies, file.m.warnings]).toEqual([{ count: 1, ms: 621 }, 0.00014000000000000001, "log", 1, 0]);
    const stream = await load(join(FIXTURES, "offline-real-clients/claude-retry-events.jsonl"));
    expect(of(stream.events, "model.retry").map(({ t: _t, ...r }) => r)).toEqual([{ type: "model.retry", round: 1, attempt: 1, cause: "model.http_5xx", message: "529 overloaded", waitMs: 621, maxAttempts: 10 }]);
    expect([stream.m.replies, stream.m.warnings]).toEqual([1, 0]);
  });
});

describe("Claude Code 2.1.332", () => {
  const transcript = real("claude-session.jsonl");

  it("cost-state is the session's cost (the log's); thinking_tokens is its reasoning", async () => {
    const { m } = await load(join(FIXTURES, "offline-real-clients/claude-session.jsonl"));
    // cost-state: totalCostUSD 0.00028 (claude-opus-5-5 at Claude Code's own $4 / $20 per million).
    expect([m.costUsd, m.costSource, m.tokens.reasoning, m.tokens.reasoningReported]).toEqual([0.00028000000000000003, "log", 0, true]);
  });

  it("cost-state's own token totals cross-check the transcript: equal here, a warning when they differ", async () => {
    const same = await load(join(FIXTURES, "offline-real-clients/claude-session.jsonl"));
    expect(same.m.warnings).toBe(0);
    const changed = transcript.map((l) => (l.includes('"type":"cost-state"') ? l.replace('"inputTokens":20', '"inputTokens":25') : l));
    const { notes } = await load(write("claude-cost-state-differs.jsonl", changed));
    expect(notes).toEqual(["warning: Claude Code's cost-state counts 25 input and 10 output tokens; the transcript's requests and sub-agent files add up to 20 and 10 (a request the transcript does not hold, or one it holds twice)"]);
  });

  it("continued-in and frame-link lines are read, not 'unknown'; system/api_error is a retry", async () => {
    const sessionId = "971d70d0-473b-4c88-affe-fb9035257323";
    const apiError = {
      parentUuid: "13468014-7bdf-4a08-9e98-3d7fb10c8b6f",
      isSidechain: false,
      type: "system",
      subtype: "api_error",
      level: "error",
      error: { status: 529, error: { type: "overloaded_error", message: "Overloaded" } },
      retryInMs: 1187,
      retryAttempt: 1,
      maxRetries: 10,
      timestamp: "2026-11-29T20:10:09.200Z",
      uuid: "5d1c0b8e-0f0e-4b7a-9d55-2f6f1e0c1a01",
      sessionId,
    };
    const frameLink = { type: "frame-link", artifactCount: 1, sessionId, timestamp: "2026-11-29T20:10:11.000Z" };
    const continued = { type: "continued-in", continuedInSessionId: "01a228ee-0000-7000-8000-000000000001", sessionId };
    const lines = [...transcript.slice(0, 15), apiError, ...transcript.slice(15), frameLink, continued];
    const { events: ev, m, notes } = await load(write("claude-extra.jsonl", lines));
    expect(of(ev, "model.retry").map(({ t: _t, ...r }) => r)).toEqual([{ type: "model.retry", round: 1, attempt: 1, cause: "model.http_5xx", message: "Overloaded", waitMs: 1187, maxAttempts: 10 }]);
    expect(m.retries).toEqual({ count: 1, ms: 1187 });
    expect(notes).toEqual([`info: line ${lines.length}: the session continues in session 01a228ee-0000-7000-8000-000000000001`]);
  });

  it("one-hour cache writes are priced at 2 × input; fast speed and priority tier are left unpriced, not billed at standard", async () => {
    const base = JSON.parse(transcript.find((l) => l.includes('"id":"msg_2"')) as string);
    const line = (id: string, usage: Record<string, unknown>) => ({ ...base, uuid: `u-${id}`, requestId: `req_${id}`, message: { ...base.message, id, usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 1000, cache_creation: { ephemeral_1h_input_tokens: 1000, ephemeral_5m_input_tokens: 0 }, service_tier: "standard", ...usage } } });
    const noCost = transcript.filter((l) => !l.includes('"cost-state"') && !l.includes('"type":"assistant"'));
    const oneHour = await load(write("claude-1h.jsonl", [...noCost, line("m1", {})]));
    // claude-opus-5-5: 100 × $4 + 1000 × $8 (1 h write) + 10 × $20 per million.
    expect([oneHour.m.costSource, oneHour.m.costUsd]).toEqual(["price_table", (100 * 4 + 1000 * 8 + 10 * 20) / 1e6]);
    const fast = await load(write("claude-fast.jsonl", [...noCost, line("m2", { speed: "fast" }), line("m3", { service_tier: "priority" })]));
    expect([fast.m.costUsd, fast.m.unpricedRequests]).toEqual([null, 2]);
    expect(of(fast.events, "model.request").map((r) => [r.cacheWrite1h, r.speed ?? null, r.serviceTier ?? null])).toEqual([
      [1000, "fast", null],
      [1000, null, "priority"],
    ]);
  });

  it("sub-agent tokens: their own, and added into the session's totals named as such (ccusage 20.0.24 --offline: 2,856,814 input, 53,458 output, $5.45)", async () => {
    const { m } = await load(join(FIXTURES, "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"));
    expect([m.tokens.input, m.tokens.output]).toEqual([832_157, 22_901]);
    expect(m.subagents.tokens).toEqual({ input: 2_024_657, cachedInput: 1_727_035, cacheWrite: 296_384, output: 30_557, reasoning: null });
    expect([m.tokensIncludingSubagents.input, m.tokensIncludingSubagents.cachedInput, m.tokensIncludingSubagents.cacheWrite, m.tokensIncludingSubagents.output]).toEqual([2_856_814, 2_455_695, 398_573, 53_458]);
    expect(m.costUsdIncludingSubagents).toBeCloseTo(5.4513175, 9);
  });
});

describe("Codex 0.171.0", () => {
  const rollout = real("codex-session.jsonl").map((l) => JSON.parse(l) as Record<string, any>);

  it("token_usage_record is each response's usage; task_complete.duration_ms the reply's time; a command's exit code and duration come from its item", async () => {
    const { events: ev, m } = await load(join(FIXTURES, "offline-real-clients/codex-session.jsonl"));
    expect(of(ev, "model.request").map((r) => [r.input, r.output])).toEqual([
      [10, 5],
      [10, 5],
    ]);
    expect(of(ev, "reply.end").map((r) => r.durationMs)).toEqual([2102]);
    expect(m.longestReply.ms).toBe(2102);
    expect(of(ev, "tool.result").map((r) => [r.exitCode, r.durationMs])).toEqual([[0, 0.014307]]);
    const start = of(ev, "run.start")[0];
    expect([start?.clientVersion, start?.parentSession]).toEqual(["0.171.0", undefined]);
  });

  /**
   * A forked child: its own session_meta, then the parent's history replayed (the parent's
   * session_meta, turns and cumulative totals of 1,000,000 input), then its own turn, whose
   * cumulative totals continue from the parent's.
   */
  function forked(withRecords: boolean): Array<Record<string, any>> {
    const parentId = "01a228ed-d0c3-7d11-95f4-d1ead2f54472";
    const childId = "01a22a00-0000-7000-8000-00000000c41d";
    const childTurn = "01a22a00-0001-7000-8000-00000000c41d";
    const bump = (u: Record<string, number>, by: number) => ({ ...u, input_tokens: u.input_tokens! + by, total_tokens: u.total_tokens! + by });
    const parent = rollout
      .filter((l) => withRecords || l.type !== "token_usage_record")
      .map((l) => (l.type === "event_msg" && l.payload.type === "token_count" ? { ...l, payload: { ...l.payload, info: { ...l.payload.info, total_token_usage: bump(l.payload.info.total_token_usage, 1_000_000) } } } : l));
    const meta = rollout[0]!;
    const child = { ...meta, payload: { ...meta.payload, id: childId, session_id: childId, source: { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1 } } }, thread_source: "subagent" } };
    const last = parent.filter((l) => l.type === "event_msg" && l.payload.type === "token_count").at(-1)!;
    const own = [
      { timestamp: "2026-11-29T20:20:00.000Z", type: "event_msg", payload: { type: "task_started", turn_attribution: { turn_id: childTurn, turn_trigger: "exec", parent_turn_id: null }, turn_id: childTurn } },
      { timestamp: "2026-11-29T20:20:00.100Z", type: "turn_context", payload: { turn_id: childTurn, cwd: "/home/user/project", model: "gpt-5.5" } },
      { timestamp: "2026-11-29T20:20:00.200Z", type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "Check hello.txt" }] } },
      { timestamp: "2026-11-29T20:20:01.000Z", type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "hello.txt holds world." }], phase: "final_answer" } },
      ...(withRecords ? [{ timestamp: "2026-11-29T20:20:01.100Z", type: "token_usage_record", payload: { thread_id: childId, turn_id: childTurn, response_id: "resp_c1", usage: { input_tokens: 10_000, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 300, reasoning_output_tokens: 0, total_tokens: 10_300 } } }] : []),
      { timestamp: "2026-11-29T20:20:01.200Z", type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { ...last.payload.info.total_token_usage, input_tokens: last.payload.info.total_token_usage.input_tokens + 10_000, output_tokens: last.payload.info.total_token_usage.output_tokens + 300 } } } },
      { timestamp: "2026-11-29T20:20:01.300Z", type: "event_msg", payload: { type: "task_complete", turn_id: childTurn, duration_ms: 1300 } },
    ];
    return [child, ...parent, ...own];
  }

  it.each([
    ["with token_usage_record", true],
    ["cumulative token_count only (older rollouts)", false],
  ])("a forked / sub-agent rollout counts only its own turns and tokens (%s)", async (_name, withRecords) => {
    const { events: ev, m, notes } = await load(write(`codex-fork-${withRecords}.jsonl`, forked(withRecords)));
    expect([m.tokens.input, m.tokens.output, m.toolCalls, m.replies]).toEqual([10_000, 300, 0, 1]);
    expect(of(ev, "user.message").map((u) => u.text)).toEqual(["Check hello.txt"]);
    expect(of(ev, "run.start")[0]?.parentSession).toBe("01a228ed-d0c3-7d11-95f4-d1ead2f54472");
    expect(notes).toEqual([`info: line ${rollout.length - (withRecords ? 0 : 2) + 2}: ${rollout.length - (withRecords ? 0 : 2)} lines replayed from the parent thread left out (this session starts here)`]);
  });

  it("model_reroute, thread_rolled_back and collab spawns are read; a non-person turn_trigger makes a continuation", async () => {
    const at = (i: number) => `2026-11-29T20:10:06.${String(300 + i)}Z`;
    const extra = [
      { timestamp: at(0), type: "event_msg", payload: { type: "model_reroute", from_model: "gpt-5.5", to_model: "gpt-5.5-mini", reason: "high_risk_cyber_activity" } },
      { timestamp: at(1), type: "event_msg", payload: { type: "collab_agent_spawn_begin", call_id: "call_9", sender_thread_id: "01a228ed-d0c3-7d11-95f4-d1ead2f54472", prompt: "look around" } },
      { timestamp: at(2), type: "event_msg", payload: { type: "collab_agent_spawn_end", call_id: "call_9", sender_thread_id: "01a228ed-d0c3-7d11-95f4-d1ead2f54472", new_thread_id: "01a228ee-1111-7000-8000-000000000009", prompt: "look around", status: "pending_init" } },
      { timestamp: at(3), type: "event_msg", payload: { type: "thread_rolled_back", num_turns: 1 } },
      // The value "goal" is illustrative: any trigger other than a person's (user, exec) marks the turn's prompt a continuation.
      { timestamp: at(4), type: "event_msg", payload: { type: "task_started", turn_attribution: { turn_id: "t2", turn_trigger: "goal" }, turn_id: "t2" } },
      { timestamp: at(5), type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "Keep going" }] } },
      { timestamp: at(6), type: "event_msg", payload: { type: "task_complete", turn_id: "t2", duration_ms: 5 } },
    ];
    const { events: ev, m, notes } = await load(write("codex-extra.jsonl", [...rollout, ...extra]));
    expect(of(ev, "subagent").map((s) => s.ref)).toEqual(["thread:01a228ee-1111-7000-8000-000000000009"]);
    expect(of(ev, "user.message").map((u) => u.kind)).toEqual(["handoff", "continuation"]);
    expect(m.warnings).toBe(1);
    expect(notes).toEqual([
      `info: line ${rollout.length + 1}: the model was rerouted from gpt-5.5 to gpt-5.5-mini (high_risk_cyber_activity)`,
      `warning: line ${rollout.length + 4}: the thread was rolled back 1 turn(s); the rolled-back turns stay counted (they ran)`,
    ]);
  });
});
