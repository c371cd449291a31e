import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runMetrics } from "../../src/measure/metrics.ts";
import { RunEvent } from "../../src/run/record.ts";
import type { SessionFormat } from "../../src/sessions/format.ts";
import { importSessionFile } from "../../src/sessions/import.ts";
import { type Expected, FIXTURES, scanClaudeStream, scanClaudeTranscript, scanCodexExec, scanCodexRollout, scanPiJson, scanPiSession } from "./scan.ts";

const CASES: Array<{ file: string; format: SessionFormat; scan: (path: string) => Expected }> = [
  { file: "codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl", format: "codex", scan: scanCodexRollout },
  { file: "codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl", format: "codex", scan: scanCodexRollout },
  { file: "offline-real-clients/codex-session.jsonl", format: "codex", scan: scanCodexRollout },
  { file: "offline-real-clients/codex-events.jsonl", format: "codex-exec", scan: scanCodexExec },
  { file: "codemie-code/session-196820da.jsonl", format: "claude", scan: scanClaudeTranscript },
  { file: "codemie-code/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl", format: "claude", scan: scanClaudeTranscript },
  { file: "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl", format: "claude", scan: scanClaudeTranscript },
  { file: "claude-code-log/f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl", format: "claude", scan: scanClaudeTranscript },
  { file: "offline-real-clients/claude-session.jsonl", format: "claude", scan: scanClaudeTranscript },
  { file: "claude-agent-sdk-gleam/basic_query.ndjson", format: "claude-stream", scan: scanClaudeStream },
  { file: "offline-real-clients/claude-events.jsonl", format: "claude-stream", scan: scanClaudeStream },
  { file: "pi-mono/before-compaction.jsonl", format: "pi", scan: scanPiSession },
  { file: "offline-real-clients/pi-session.jsonl", format: "pi", scan: scanPiSession },
  { file: "offline-real-clients/pi-events.jsonl", format: "pi-json", scan: scanPiJson },
  // Every sub-agent transcript, read on its own.
  ...readdirSync(join(FIXTURES, "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents"))
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => ({ file: `claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/${name}`, format: "claude" as const, scan: scanClaudeTranscript })),
];

describe("importers against a plain line scan of every fixture", () => {
  it.each(CASES)("$file ($format)", async ({ file, format, scan }) => {
    const path = join(FIXTURES, file);
    const expected = scan(path);
    const imported = await importSessionFile(path);
    expect(imported.format).toBe(format);
    for (const event of imported.events) expect(RunEvent.safeParse(event).success).toBe(true);
    const m = runMetrics(imported.events);
    const userMessages = imported.events.filter((e) => e.type === "user.message").length;

    const estimated = expected.tokens.source === "estimated";
    expect({
      toolCalls: m.toolCalls,
      toolCallsByName: m.toolCallsByName,
      userMessages,
      compactions: m.compactions,
      tokens: estimated ? { source: m.tokens.source, lowerBound: m.tokens.lowerBound } : { input: m.tokens.input, cachedInput: m.tokens.cachedInput, cacheWrite: m.tokens.cacheWrite, output: m.tokens.output, reasoning: m.tokens.reasoningReported ? m.tokens.reasoning : null, source: m.tokens.source },
      warnings: m.warnings,
    }).toEqual({
      toolCalls: expected.toolCalls,
      toolCallsByName: expected.toolCallsByName,
      // codex exec --json does not carry the prompt (the driver adds it)
      userMessages: expected.userMessages,
      compactions: expected.compactions,
      tokens: estimated ? { source: "estimated", lowerBound: true } : expected.tokens,
      // the one codex exec warning is the client's own "model metadata not found" item
      warnings: format === "codex-exec" ? 1 : 0,
    });
    if (expected.interrupts !== undefined) expect(m.interrupts).toBe(expected.interrupts);
    if (expected.rejected !== undefined) expect(m.rejectedToolCalls).toBe(expected.rejected);
    if (expected.planApprovals !== undefined) expect(m.planApprovals).toEqual(expected.planApprovals);
    if (expected.subagents !== undefined) expect({ count: m.subagents.count, toolCalls: m.subagents.toolCalls }).toEqual(expected.subagents);
    if (expected.costUsd !== undefined && expected.costUsd !== null) {
      expect(m.costSource).toBe("log");
      expect(m.costUsd).toBeCloseTo(expected.costUsd, 9);
    }
    // Every tool call gets at most one result, and every result answers a call.
    const calls = new Set(imported.events.flatMap((e) => (e.type === "tool.call" ? [e.id] : [])));
    const results = imported.events.flatMap((e) => (e.type === "tool.result" ? [e.id] : []));
    expect(results.filter((id) => !calls.has(id))).toEqual([]);
    expect(new Set(results).size).toBe(results.length);
    // Time never runs backwards, the record starts with run.start and ends with run.end.
    expect(imported.events[0]?.type).toBe("run.start");
    expect(imported.events.at(-1)?.type).toBe("run.end");
    const times = imported.events.map((e) => e.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe("what the fixtures' SOURCES say, checked", () => {
  it("the Codex CLI rollout: 105 tool calls over 2 turns, the last cumulative total, final text from task_complete", async () => {
    const path = join(FIXTURES, CASES[0]!.file);
    const { events } = await importSessionFile(path);
    const m = runMetrics(events);
    expect({ toolCallsPerReply: m.toolCallsPerReply, tokens: m.tokens, requests: m.modelRequests }).toEqual({
      toolCallsPerReply: [2, 103],
      tokens: { prefix: 4376, input: 6_055_836, cachedInput: 4_929_536, cacheWrite: 0, output: 9_118, reasoning: 1_759, reasoningReported: true, total: 6_064_954, source: "reported", lowerBound: false },
      requests: 66,
    });
  });

  it("the Codex Desktop rollout has no usage: an o200k estimate over visible text, marked a lower bound", async () => {
    const { events } = await importSessionFile(join(FIXTURES, CASES[1]!.file));
    const end = events.at(-1);
    expect(end?.type === "run.end" ? { source: end.usage?.source, lowerBound: end.usage?.lowerBound, reasoning: end.usage?.reasoning } : null).toEqual({ source: "estimated", lowerBound: true, reasoning: null });
    expect(events.some((e) => e.type === "model.request")).toBe(false);
  });

  it("Claude Code 2.0.76: usage deduplicated per (message.id, requestId) keeps the largest snapshot", async () => {
    const { events } = await importSessionFile(join(FIXTURES, "codemie-code/session-196820da.jsonl"));
    const m = runMetrics(events);
    // SOURCES.md: input 6,711 + cache_creation 1,473,882 + cache_read 2,560,506; output 65,263; 47 responses.
    expect({ input: m.tokens.input, cachedInput: m.tokens.cachedInput, cacheWrite: m.tokens.cacheWrite, output: m.tokens.output, requests: m.modelRequests }).toEqual({
      input: 6_711 + 1_473_882 + 2_560_506,
      cachedInput: 2_560_506,
      cacheWrite: 1_473_882,
      output: 65_263,
      requests: 47,
    });
  });

  it("Claude Code 1.0.128: 2 rejected and 2 approved plan approvals, 2 interrupts, 2 rejected tool uses", async () => {
    const { events } = await importSessionFile(join(FIXTURES, "claude-code-log/f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl"));
    const m = runMetrics(events);
    expect({ planApprovals: m.planApprovals, interrupts: m.interrupts, rejected: m.rejectedToolCalls }).toEqual({ planApprovals: { approved: 2, rejected: 2 }, interrupts: 2, rejected: 2 });
  });

  it("Claude Code 2.1.114: six sub-agent files linked where their Agent call returns, counted apart from the parent", async () => {
    const { events } = await importSessionFile(join(FIXTURES, "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"));
    const subagents = events.flatMap((e) => (e.type === "subagent" ? [e.ref] : []));
    expect(subagents.sort()).toEqual([
      "subagents/agent-a36efb2a1231c41e2.jsonl",
      "subagents/agent-a4ca7529859c158c2.jsonl",
      "subagents/agent-a52886dc180afb356.jsonl",
      "subagents/agent-a6aa8ad077d9ea083.jsonl",
      "subagents/agent-ab1e6e141221a29ab.jsonl",
      "subagents/agent-aef063ba534d73153.jsonl",
    ]);
    // Linked at the tool result of the Agent call that spawned it, not at the end.
    const firstLink = events.findIndex((e) => e.type === "subagent");
    expect(events.slice(firstLink + 1).some((e) => e.type === "tool.call")).toBe(true);
    expect(runMetrics(events).toolCalls).toBe(40);
  });

  it("pi with compactions: the log's own cost (Σ cost.total), 2 compactions with their token counts", async () => {
    const { events } = await importSessionFile(join(FIXTURES, "pi-mono/before-compaction.jsonl"));
    expect(events.flatMap((e) => (e.type === "compaction" ? [e.tokensBefore] : []))).toEqual([175004, 185014]);
    const m = runMetrics(events);
    expect(m.costUsd).toBeCloseTo(42.5959075, 6);
    expect(m.costSource).toBe("log");
  });

  it("claude -p stream-json: the result's usage and total_cost_usd are the run's", async () => {
    const { events } = await importSessionFile(join(FIXTURES, "claude-agent-sdk-gleam/basic_query.ndjson"));
    const end = events.at(-1);
    expect(end).toEqual({
      t: 0,
      type: "run.end",
      status: "success",
      wallMs: 0,
      usage: { input: 10 + 21570 + 0, cachedInput: 0, cacheWrite: 21570, output: 25, reasoning: null, source: "reported", lowerBound: false },
      costUsd: 0.1354875,
      // total_cost_usd counts every request of the process, sub-agents' too
      costIncludesSubagents: true,
    });
  });

  it("claude -p stream-json: a sub-agent's inline turns give its own usage, apart from the result's", async () => {
    // Claude Code 2.1.332 stream-json: a Task call, the sub-agent's assistant turn tagged with parent_tool_use_id, then the Task result.
    const lines = readFileSync(join(FIXTURES, "offline-real-clients/claude-events.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, any>);
    const [init, first, toolResult, last, result] = lines as [Record<string, any>, Record<string, any>, Record<string, any>, Record<string, any>, Record<string, any>];
    const task = { ...first, message: { ...first.message, id: "msg_t", content: [{ type: "tool_use", id: "toolu_task", name: "Task", input: { prompt: "look" } }] } };
    // One line per content block, each repeating its message's usage (the early one with a partial output count).
    const sub = (n: number, output: number, content: unknown[]) => ({ ...first, parent_tool_use_id: "toolu_task", message: { ...first.message, id: `msg_s${n}`, content, usage: { input_tokens: 7, output_tokens: output, cache_creation_input_tokens: 100, cache_read_input_tokens: 0 } } });
    const text = [{ type: "text", text: "Looking." }];
    const taskResult = { ...toolResult, message: { role: "user", content: [{ tool_use_id: "toolu_task", type: "tool_result", content: "found it", is_error: false }] } };
    const dir = mkdtempSync(join(tmpdir(), "armstudy-stream-sub-"));
    const path = join(dir, "events.jsonl");
    // msg_s1 on two lines (a partial count, then the full one): counted once, the largest.
    writeFileSync(path, [init, task, sub(1, 1, text), sub(1, 4, first.message.content), sub(2, 6, text), taskResult, first, toolResult, last, result].map((l) => JSON.stringify(l)).join("\n"));
    const { events } = await importSessionFile(path);
    const subagents = events.filter((e) => e.type === "subagent");
    expect(subagents).toEqual([{ t: expect.any(Number), type: "subagent", ref: "task:toolu_task", toolCalls: 1, model: "claude-opus-5-5", usage: { input: 214, cachedInput: 0, cacheWrite: 200, output: 10, reasoning: null, source: "reported", lowerBound: false } }]);
    const m = runMetrics(events);
    expect([m.tokens.input, m.tokensIncludingSubagents.input, m.costUsdIncludingSubagents]).toEqual([20, 234, result.total_cost_usd]);
    // total_cost_usd covers the sub-agent too, so the main thread's own cost is priced: 20 in + 10 out at opus-5-5's $4 / $20.
    expect(m.costSource).toBe("price_table");
    expect(m.costUsd).toBeCloseTo((20 * 4 + 10 * 20) / 1e6, 12);
  });
});
