import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/run/record.ts";
import { alignSteps, editScript } from "../../src/view/page/align.ts";
import { buildSteps, countSteps, findEvidence, stableJson } from "../../src/view/page/steps.ts";
import fc from "fast-check";

const start: RunEvent = { t: 0, type: "run.start", arm: "a", runIndex: 1, seed: 1, model: "m", testDouble: true, prefixHash: "abcdef0123456789", prefixTokens: 10, source: "armstudy" };
const handoff: RunEvent = { t: 1, type: "user.message", kind: "handoff", text: "Do B1." };
const request = (round: number, t: number): RunEvent => ({ t, type: "model.request", round, input: 100, cachedInput: 0, output: 10, reasoning: 0, usageSource: "counted", durationMs: 2, purpose: "agent" });
const call = (id: string, command: string, t: number): RunEvent => ({ t, type: "tool.call", id, name: "shell", arguments: { command } });
const result = (id: string, output: string, t: number): RunEvent => ({ t, type: "tool.result", id, name: "shell", ok: true, exitCode: 0, output });
const final = (text: string, t: number): RunEvent => ({ t, type: "assistant.text", text, final: true });
const settle: RunEvent = { t: 9, type: "policy.decision", policy: "none", decision: "settle", reason: "reply ended" };
const check: RunEvent = { t: 9, type: "policy.decision", policy: "goal", decision: "check_claim", reason: "claim" };

describe("buildSteps", () => {
  it("folds each result into its call, counts tokens, and closes with the checks and the diff", () => {
    const steps = buildSteps({
      events: [start, handoff, request(0, 2), call("c1", "npm test", 3), result("c1", "ok - B1\n1 passed", 4), final("Done.", 5)],
      acceptance: [{ id: "B1", command: "true", passed: true, exitCode: 0, timedOut: false, durationMs: 3, output: "" }],
      patch: "diff --git a/x b/x\n+1\n",
    });
    expect(steps.map((step) => [step.n, step.kind, step.label, step.summary, step.tokens, step.totalTokens])).toEqual([
      [1, "system", "system prompt", "m (test double) · prefix 10 tokens · abcdef012345", null, 0],
      [2, "user", "handoff", "Do B1.", null, 0],
      [3, "request", "model request 0", "100 in (0 cached) · 10 out · 2 ms", 110, 110],
      [4, "tool", "shell", "npm test", null, 110],
      [5, "text", "final reply", "Done.", null, 110],
      [6, "checks", "acceptance checks", "1 of 1 passed", null, 110],
      [7, "diff", "diff", "1 file changed", null, 110],
    ]);
    expect(steps[3]?.result).toEqual(result("c1", "ok - B1\n1 passed", 4));
  });

  it("finds a claim's quoted evidence in the latest tool output that holds it, and says when it is nowhere", () => {
    const claim: RunEvent = { t: 8, type: "claim.check", verdict: "done", reason: "r", evidence: ["1 passed", "never printed"], shield: "rejected" };
    const steps = buildSteps({ events: [start, call("c1", "a", 1), result("c1", "0 passed", 2), call("c2", "b", 3), result("c2", "x 1 passed", 4), claim], acceptance: [], patch: null });
    expect(steps[3]?.evidence).toEqual([
      { quote: "1 passed", step: 3, offset: 2 },
      { quote: "never printed", step: null, offset: -1 },
    ]);
    expect(findEvidence(["  "], steps)).toEqual([{ quote: "  ", step: null, offset: -1 }]);
  });

  it("shows an event kind it does not know as an `other` step instead of failing, and a retry as a retry", () => {
    const odd = { t: 3, type: "model.rerouted", attempt: 2 } as unknown as RunEvent;
    const retry: RunEvent = { t: 4, type: "model.retry", round: 0, attempt: 1, cause: "model.http_5xx", message: "HTTP 503", waitMs: 500 };
    const steps = buildSteps({ events: [start, odd, retry], acceptance: [], patch: null });
    expect(steps.map((step) => [step.kind, step.label, step.summary])).toEqual([
      ["system", "system prompt", "m (test double) · prefix 10 tokens · abcdef012345"],
      ["other", "model.rerouted", '{"attempt":2,"t":3,"type":"model.rerouted"}'],
      ["retry", "retry of request 0", "attempt 1 failed: model.http_5xx — HTTP 503 · next in 500 ms"],
    ]);
    expect(countSteps(steps).retries).toEqual(1);
  });

  it("counts what a run did", () => {
    const nudge: RunEvent = { t: 7, type: "user.message", kind: "nudge", text: "go on" };
    const steps = buildSteps({ events: [start, handoff, request(0, 1), call("c", "x", 2), nudge, request(1, 3), final("ok", 4)], acceptance: [], patch: null });
    expect(countSteps(steps)).toEqual({ rounds: 2, toolCalls: 1, nudges: 1, continuations: 0, claimChecks: 0, claimsSentBack: 0, policyDecisions: 0, compactions: 0, retries: 0, tokens: 220 });
  });

  it("numbers every step once and folds every result whatever the order of events (fuzz)", () => {
    const event = fc.oneof(
      fc.record({ t: fc.nat(), type: fc.constant("tool.call"), id: fc.constantFrom("a", "b", "c"), name: fc.string(), arguments: fc.dictionary(fc.string(), fc.jsonValue()) }),
      fc.record({ t: fc.nat(), type: fc.constant("tool.result"), id: fc.constantFrom("a", "b", "c", "d"), ok: fc.boolean(), output: fc.string() }),
      fc.record({ t: fc.nat(), type: fc.constant("assistant.text"), text: fc.string(), final: fc.boolean() }),
      fc.record({ t: fc.nat(), type: fc.constant("claim.check"), verdict: fc.constantFrom("done", "continue"), reason: fc.string(), evidence: fc.array(fc.string(), { maxLength: 3 }), shield: fc.constant("passed") }),
      fc.record({ t: fc.nat(), type: fc.string(), extra: fc.jsonValue() }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const steps = buildSteps({ events: events as unknown as RunEvent[], acceptance: [], patch: null });
        expect(steps.map((step) => step.n)).toEqual(steps.map((_, i) => i + 1));
        const folded = steps.filter((step) => step.result !== null && step.kind === "tool" && step.event?.type === "tool.call").length;
        expect(steps.length + folded).toEqual(events.length);
      }),
    );
  });

  it("keys equal arguments equally whatever their order", () => {
    expect(stableJson({ b: 1, a: [{ d: 2, c: 3 }] })).toEqual(stableJson({ a: [{ c: 3, d: 2 }], b: 1 }));
  });
});

describe("alignSteps", () => {
  const ordinary = buildSteps({ events: [start, handoff, request(0, 2), call("c1", "x", 3), final("Done.", 5), { t: 6, type: "reply.end", reason: "no_tool_call" }, settle], acceptance: [], patch: null });
  const goalEvents: RunEvent[] = [start, { t: 1, type: "goal.update", from: null, to: "active", reason: "set", by: "person" }, handoff, request(0, 2), call("c1", "x", 3), final("Done.", 5), { t: 6, type: "reply.end", reason: "no_tool_call" }, check, request(1, 7), call("c2", "y", 8)];
  const goal = buildSteps({ events: goalEvents, acceptance: [], patch: null });

  it("marks the first decisive difference, not a bookkeeping step one run has", () => {
    const alignment = alignSteps(ordinary, goal);
    expect(alignment.rows.map((row) => [row.kind, row.a?.n ?? null, row.b?.n ?? null])).toEqual([
      ["same", 1, 1],
      ["b", null, 2],
      ["same", 2, 3],
      ["same", 3, 4],
      ["same", 4, 5],
      ["same", 5, 6],
      ["same", 6, 7],
      ["changed", 7, 8],
      ["b", null, 9],
      ["b", null, 10],
    ]);
    expect({ divergence: alignment.divergence, model: alignment.modelDivergence, truncated: alignment.truncated }).toEqual({ divergence: 7, model: 9, truncated: false });
  });

  it("puts one run's nudge beside the other's settle: the same slot, decided differently", () => {
    const replyEnd: RunEvent = { t: 6, type: "reply.end", reason: "no_tool_call" };
    const nudge: RunEvent = { t: 7, type: "policy.decision", policy: "todoGate", decision: "nudge", reason: "open items" };
    const nudged = buildSteps({ events: [start, handoff, final("Done.", 5), replyEnd, nudge, { t: 8, type: "user.message", kind: "nudge", text: "go on" }, final("Done now.", 9), replyEnd, { ...settle, policy: "todoGate" }], acceptance: [], patch: null });
    const settled = buildSteps({ events: [start, handoff, final("Done.", 5), replyEnd, settle], acceptance: [], patch: null });
    const alignment = alignSteps(nudged, settled);
    expect(alignment.rows.map((row) => [row.kind, row.a?.summary ?? null, row.b?.summary ?? null]).slice(4)).toEqual([
      ["changed", "nudge: open items", "settle: reply ended"],
      ["a", "go on", null],
      ["a", "Done now.", null],
      ["a", "no_tool_call", null],
      ["a", "settle: reply ended", null],
    ]);
    expect(alignment.divergence).toEqual(4);
  });

  it("finds no divergence in a run beside itself", () => {
    expect(alignSteps(goal, goal).divergence).toEqual(null);
  });

  it("pairs by position past its edit budget and says so", () => {
    const alignment = alignSteps(ordinary, goal, 1);
    expect({ truncated: alignment.truncated, rows: alignment.rows.length, divergence: alignment.divergence }).toEqual({ truncated: true, rows: 10, divergence: 1 });
  });

  it("editScript rebuilds both sequences for any input (fuzz)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 30 }), fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 30 }), (a, b) => {
        const ops = editScript(a, b, 1000) ?? [];
        expect(ops.filter((op) => op.kind !== "b").map((op) => a[op.ai])).toEqual(a);
        expect(ops.filter((op) => op.kind !== "a").map((op) => b[op.bi])).toEqual(b);
        for (const op of ops) if (op.kind === "same") expect(a[op.ai]).toEqual(b[op.bi]);
      }),
    );
  });
});
