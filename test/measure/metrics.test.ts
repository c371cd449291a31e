import { describe, expect, it } from "vitest";
import { type RunMetrics, runMetrics } from "../../src/measure/metrics.ts";
import type { RunEvent } from "../../src/run/record.ts";

const start: RunEvent = { t: 0, type: "run.start", arm: "goal", runIndex: 0, seed: 1, model: "claude-sonnet-4-5", testDouble: true, prefixHash: "h", prefixTokens: 1200, source: "armstudy", cwd: "/w" };

function req(t: number, input: number, cached: number, output: number, durationMs: number, extra: Partial<Extract<RunEvent, { type: "model.request" }>> = {}): RunEvent {
  return { t, type: "model.request", round: 1, input, cachedInput: cached, output, reasoning: 0, usageSource: "reported", durationMs, purpose: "agent", ...extra };
}
function call(t: number, id: string, name: string, args: Record<string, unknown>): RunEvent {
  return { t, type: "tool.call", id, name, arguments: args };
}
function result(t: number, id: string, durationMs: number, extra: Partial<Extract<RunEvent, { type: "tool.result" }>> = {}): RunEvent {
  return { t, type: "tool.result", id, ok: true, output: "", durationMs, ...extra };
}

/** A two-reply run: the first reply stops early and claims done; a continuation finishes it. */
const RUN: RunEvent[] = [
  start,
  { t: 10, type: "user.message", text: "Do B1..B6", kind: "handoff" },
  req(1000, 5000, 0, 100, 990),
  call(1000, "c1", "read_file", { path: "src/a.ts" }),
  result(1050, "c1", 50),
  req(2000, 5200, 5000, 80, 950),
  call(2000, "c2", "shell", { command: "sed -n '1,40p' /w/src/a.ts && cat ./src/b.ts" }),
  result(2300, "c2", 300, { exitCode: 0 }),
  call(2300, "c3", "shell", { command: "npm test" }),
  result(4300, "c3", 2000, { ok: false, exitCode: 1 }),
  call(4300, "c4", "shell", { command: "npm test" }),
  result(6300, "c4", 2000, { ok: false, exitCode: 1 }),
  { t: 6400, type: "compaction", tokensBefore: 9000, tokensAfter: 2000 },
  call(6500, "c5", "update_plan", { plan: [{ step: "B1", status: "completed" }, { step: "B2", status: "completed" }] }),
  result(6510, "c5", 10),
  req(7000, 6000, 5200, 50, 480),
  { t: 7000, type: "assistant.text", text: "\n\nAll steps are done.\nB1 … B6 complete.", final: true },
  { t: 7000, type: "reply.end", reason: "no_tool_call" },
  { t: 7100, type: "policy.decision", policy: "goal", decision: "check_claim", reason: "claim" },
  { t: 7200, type: "claim.check", verdict: "continue", reason: "tests fail", evidence: [], shield: "not_applied" },
  { t: 7300, type: "user.message", text: "Continue: tests fail", kind: "continuation" },
  call(7400, "c6", "read_file", { path: "src/a.ts" }),
  result(7450, "c6", 50),
  req(8000, 7000, 6000, 60, 500),
  { t: 8000, type: "assistant.text", text: "Should I continue with B5?", final: true },
  { t: 8000, type: "reply.end", reason: "no_tool_call" },
  { t: 8100, type: "run.end", status: "settled", wallMs: 8100 },
];

const EXPECTED: RunMetrics = {
  toolCalls: 6,
  toolCallsByName: { shell: 3, read_file: 2, update_plan: 1 },
  toolCallsBeforeReplyEnd: 5,
  toolCallsPerReply: [5, 1],
  replies: 2,
  firstReportLine: "Should I continue with B5?",
  claimedComplete: true,
  claimSource: "todo_all_done",
  falseCompletion: null,
  permissionQuestion: true,
  permissionStop: null,
  claimChecks: { count: 1, done: 0, continue: 1, acceptedUnchecked: 0, shieldRejected: 0, agreesWithAcceptance: null },
  tokens: { prefix: 1200, input: 23200, cachedInput: 16200, cacheWrite: 0, output: 290, reasoning: 0, reasoningReported: false, total: 23490, source: "reported", lowerBound: false },
  // claude-sonnet-4-5: $3 input, $0.30 cache read, $15 output per million
  costUsd: ((23200 - 16200) * 3 + 16200 * 0.3 + 290 * 15) / 1e6,
  costSource: "price_table",
  modelRequests: 4,
  repeatedIdenticalCalls: 2,
  repeatedSignatures: 2,
  reads: 4,
  distinctFilesRead: 2,
  readsPerDistinctFile: 2,
  maxReadsOfOneFile: 3,
  mostReadFile: "src/a.ts",
  compactions: 1,
  compactionsPerReply: [1, 0],
  timeToFirstTextMs: 6990,
  visibleTexts: 2,
  toolCallsPerVisibleText: 3,
  longestReply: { ms: 6990, toolCalls: 5 },
  wallMs: 8100,
  plan: null,
  modelMs: 2920,
  toolMs: 4410,
  interrupts: 0,
  rejectedToolCalls: 0,
  planApprovals: { approved: 0, rejected: 0 },
  subagents: { count: 0, toolCalls: 0, tokens: null, costUsd: null },
  tokensIncludingSubagents: { prefix: 1200, input: 23200, cachedInput: 16200, cacheWrite: 0, output: 290, reasoning: 0, reasoningReported: false, total: 23490, source: "reported", lowerBound: false },
  costUsdIncludingSubagents: ((23200 - 16200) * 3 + 16200 * 0.3 + 290 * 15) / 1e6,
  unpricedRequests: 0,
  retries: { count: 0, ms: 0 },
  // durations 990, 950, 480, 500: p90 interpolates between 950 and 990 at 0.7
  modelTime: { meanMs: 730, p90Ms: 978 },
  toolTimeShare: 4410 / 8100,
  longCommands: { count: 0, ms: 0 },
  edits: { count: 0, files: 0, perFile: null, maxOfOneFile: 0, mostEditedFile: null },
  coldResends: { count: 0, uncachedTokens: 0 },
  // the two npm test runs
  longestSilenceMs: 2000,
  fileChanges: { count: 0, perHour: 0, longestGapMs: null },
  commands: { passed: 1, failed: 2 },
  checklist: { writes: 1, rewrites: 0 },
  warnings: 0,
};

describe("STUDY-0003's diagnosis metrics", () => {
  it("long commands, edits per file, cold re-sends, file-change gaps, passing and failing commands, checklist rewrites", () => {
    const m = runMetrics([
      start,
      { t: 0, type: "user.message", text: "go", kind: "handoff" },
      req(1000, 30_000, 0, 10, 1000, { cacheWrite: 29_000 }),
      call(1000, "e1", "Edit", { file_path: "/w/src/a.ts", old_string: "a", new_string: "b" }),
      result(1100, "e1", 100),
      call(1100, "e2", "apply_patch", { input: "*** Begin Patch\n*** Update File: src/a.ts\n@@\n*** Add File: src/c.ts\n+x\n*** End Patch" }),
      result(1200, "e2", 100),
      call(1200, "s1", "Bash", { command: "npx playwright test" }),
      result(601_200, "s1", 600_000, { ok: false, exitCode: 124 }),
      req(602_000, 31_000, 30_000, 10, 800),
      call(602_000, "p1", "TodoWrite", { todos: [{ content: "Fix a", status: "in_progress" }] }),
      result(602_010, "p1", 10),
      call(602_100, "p2", "TodoWrite", { todos: [{ content: "Fix a", status: "completed" }] }),
      result(602_110, "p2", 10),
      call(602_200, "p3", "TodoWrite", { todos: [{ content: "Close the profile migration", status: "pending" }] }),
      result(602_210, "p3", 10),
      call(602_300, "w1", "Write", { file_path: "src/d.ts", content: "x" }),
      result(1_202_300, "w1", 5),
      req(1_250_000, 40_000, 0, 10, 700),
      { t: 1_250_000, type: "assistant.text", text: "Done.", final: true },
      { t: 1_250_000, type: "reply.end", reason: "no_tool_call" },
      { t: 1_250_000, type: "run.end", status: "settled", wallMs: 1_250_000 },
    ]);
    expect({
      longCommands: m.longCommands,
      edits: m.edits,
      coldResends: m.coldResends,
      longestSilenceMs: m.longestSilenceMs,
      fileChanges: m.fileChanges,
      commands: m.commands,
      checklist: m.checklist,
      modelTime: m.modelTime,
    }).toEqual({
      longCommands: { count: 1, ms: 600_000 },
      // src/a.ts twice (Edit, then the patch), src/c.ts and src/d.ts once: 3 calls over 3 files
      edits: { count: 3, files: 3, perFile: 1, maxOfOneFile: 2, mostEditedFile: "src/a.ts" },
      // the first and the last request: no cache read, over 20k input (cache writes are not served from the cache)
      coldResends: { count: 2, uncachedTokens: 30_000 + 40_000 },
      longestSilenceMs: 600_000,
      fileChanges: { count: 3, perHour: 3 / (1_250_000 / 3_600_000), longestGapMs: 1_202_300 - 1200 },
      commands: { passed: 0, failed: 1 },
      // the second write only changes a status; the third rewords the list
      checklist: { writes: 3, rewrites: 1 },
      modelTime: { meanMs: 2500 / 3, p90Ms: 960 },
    });
  });
});

describe("runMetrics over a run record", () => {
  it("measures every field of a two-reply run", () => {
    const m = runMetrics(RUN);
    const round = (v: number | null | undefined) => Number(v?.toFixed(9));
    expect({ ...m, costUsd: round(m.costUsd), costUsdIncludingSubagents: round(m.costUsdIncludingSubagents) }).toEqual({ ...EXPECTED, costUsd: round(EXPECTED.costUsd), costUsdIncludingSubagents: round(EXPECTED.costUsdIncludingSubagents) });
  });

  it("with acceptance results: a claimed-complete run with a failing check is a false completion and a permission stop", () => {
    const failing = runMetrics(RUN, { acceptance: { passed: 4, failed: 2, checks: [] } });
    expect([failing.falseCompletion, failing.permissionStop, failing.claimChecks.agreesWithAcceptance]).toEqual([true, true, true]);
    const passing = runMetrics(RUN, { acceptance: { passed: 6, failed: 0, checks: [] } });
    expect([passing.falseCompletion, passing.permissionStop, passing.claimChecks.agreesWithAcceptance]).toEqual([false, false, false]);
  });

  it("claim sources in order: goal_complete, then report_first_line, then todo_all_done", () => {
    const text = (s: string): RunEvent => ({ t: 1, type: "assistant.text", text: s, final: true });
    const base: RunEvent[] = [start, { t: 0, type: "user.message", text: "go", kind: "handoff" }];
    expect(runMetrics([...base, text("Done. All six steps pass.")]).claimSource).toBe("report_first_line");
    expect(runMetrics([...base, text("Not done yet: B5 is still failing.")]).claimSource).toBe(null);
    expect(runMetrics([...base, { t: 1, type: "goal.update", from: "active", to: "complete", reason: "", by: "model" }, text("Done.")]).claimSource).toBe("goal_complete");
    expect(runMetrics([...base, call(1, "g", "update_goal", { status: "complete" })]).claimSource).toBe("goal_complete");
    expect(runMetrics([...base, { t: 1, type: "plan.update", items: [{ text: "B1", status: "completed" }] }]).claimSource).toBe("todo_all_done");
    expect(runMetrics([...base, call(1, "t", "TodoWrite", { todos: [{ content: "x", status: "completed" }, { content: "y", status: "pending" }] })]).claimSource).toBe(null);
  });

  it("an empty record, a cut-off run and a run that never spoke", () => {
    expect(runMetrics([]).replies).toBe(0);
    const cut = runMetrics([start, { t: 5, type: "user.message", text: "go", kind: "handoff" }, call(10, "a", "bash", { command: "ls" }), call(500, "b", "bash", { command: "ls" })]);
    expect({ replies: cut.replies, before: cut.toolCallsBeforeReplyEnd, perText: cut.toolCallsPerVisibleText, ttft: cut.timeToFirstTextMs, wall: cut.wallMs, repeated: cut.repeatedIdenticalCalls, longest: cut.longestReply }).toEqual({
      replies: 1,
      before: 2,
      perText: null,
      ttft: null,
      wall: 500,
      repeated: 1,
      longest: { ms: 495, toolCalls: 2 },
    });
  });

  it("longest silence: the largest gap between consecutive events; heartbeats break it", () => {
    const long = [start, call(1000, "c1", "shell", { command: "sleep 30" }), result(31_000, "c1", 30_000), { t: 31_100, type: "run.end", status: "x", wallMs: 31_100 }] as RunEvent[];
    expect(runMetrics(long).longestSilenceMs).toBe(30_000);
    const beats: RunEvent[] = Array.from({ length: 3 }, (_, i) => ({ t: 11_000 + i * 10_000, type: "heartbeat", activeTools: ["shell"], oldestToolMs: 10_000 * (i + 1) }));
    const beaten = [...long.slice(0, 2), ...beats, ...long.slice(2)];
    expect(runMetrics(beaten).longestSilenceMs).toBe(10_000);
  });

  it("cost: the log's own cost wins; an unpriced model gives null, never a guess", () => {
    const logged = runMetrics([start, req(1, 100, 0, 10, 1, { costUsd: 0.25 }), req(2, 100, 0, 10, 1, { costUsd: 0.5 })]);
    expect([logged.costUsd, logged.costSource]).toEqual([0.75, "log"]);
    const unpriced = runMetrics([{ ...start, model: "mystery-1" } as RunEvent, req(1, 100, 0, 10, 1)]);
    expect([unpriced.costUsd, unpriced.costSource]).toEqual([null, null]);
    const stated = runMetrics([start, { t: 3, type: "run.end", status: "x", wallMs: 3, costUsd: 1.5 }]);
    expect([stated.costUsd, stated.costSource]).toEqual([1.5, "log"]);
  });

  it("tokens come from run.end's stated totals when a source gives them (Codex's last cumulative total)", () => {
    const m = runMetrics([start, req(1, 10, 0, 1, 1), { t: 2, type: "run.end", status: "imported", wallMs: 2, usage: { input: 900, cachedInput: 800, cacheWrite: 0, output: 50, reasoning: 20, source: "reported", lowerBound: false } }]);
    expect(m.tokens).toEqual({ prefix: 1200, input: 900, cachedInput: 800, cacheWrite: 0, output: 50, reasoning: 20, reasoningReported: true, total: 950, source: "reported", lowerBound: false });
  });
});
