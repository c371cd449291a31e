/** The pure pieces of context management (ADR 0103): windows, settings, clearing, the summary cut. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/model.ts";
import { CLEARED_MARK, clearOldToolResults, digestOf, resultRef } from "../../../src/core/context/clear.ts";
import { resolveContext } from "../../../src/core/context/settings.ts";
import { references, summaryCut, summaryMessage, summaryRequest } from "../../../src/core/context/summary.ts";
import { contextWindowFor } from "../../../src/core/context/windows.ts";

const long = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1} of the file`).join("\n");

const conversation: Message[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "Do the handoff." },
  { role: "assistant", content: "", toolCalls: [{ id: "a", name: "read_file", arguments: { path: "src/money.js" } }] },
  { role: "tool", toolCallId: "a", name: "read_file", content: long(40) },
  { role: "assistant", content: "", toolCalls: [{ id: "b", name: "shell", arguments: { command: "npm test" } }] },
  { role: "tool", toolCallId: "b", name: "shell", content: `exit code: 1\nFAIL checks/b1.test.js\n${long(30)}` },
  { role: "assistant", content: "", toolCalls: [{ id: "c", name: "read_file", arguments: { path: "src/csv.js", offset: 10, limit: 5 } }] },
  { role: "tool", toolCallId: "c", name: "read_file", content: long(5) },
];

describe("context windows as data", () => {
  it("finds a model by id, spec prefix, provider folder or date suffix; a declared window wins", () => {
    expect(["gpt-4o", "openai:gpt-4o", "openrouter:anthropic/claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "ollama:qwen2.5-coder:7b", "scripted:diligent"].map((id) => contextWindowFor(id))).toEqual([
      128_000, 128_000, 200_000, 200_000, 32_768, null,
    ]);
    expect(contextWindowFor("openai:gpt-4o", { "gpt-4o": 16_000 })).toBe(16_000);
    expect(contextWindowFor("scripted:diligent", { "scripted:diligent": 16_000 })).toBe(16_000);
  });
});

describe("resolveContext", () => {
  const real = { id: "openai:gpt-4o", isTestDouble: false };
  const double = { id: "scripted:diligent", isTestDouble: true };
  const table = (declared: boolean) => (id: string) => (id === real.id || declared ? { window: 16_000, declared } : null);
  it("auto is on for a real model with a known window, off for a double unless a window is declared", () => {
    expect(resolveContext(undefined, real, table(false))).toEqual({ window: 16_000, limit: 12_800, keepToolResults: 4, keepMessages: 6, maxPerReply: 3 });
    expect(resolveContext(undefined, double, () => ({ window: 16_000, declared: false }))).toBeNull();
    expect(resolveContext({ mode: "auto" }, double, table(true))).toEqual({ window: 16_000, limit: 12_800, keepToolResults: 4, keepMessages: 6, maxPerReply: 3 });
    expect(resolveContext({ mode: "off" }, real, table(false))).toBeNull();
  });
  it("on with no window is refused naming the fix; an arm's own window and threshold are used", () => {
    expect(resolveContext({ mode: "on" }, double, () => null)).toBe(
      'context: on, but no context window is known for model "scripted:diligent"; set context.window in arm.yaml or contextWindows in the study file',
    );
    expect(resolveContext({ mode: "on", window: 10_000, threshold: 0.5, maxPerReply: 2 }, double, () => null)).toEqual({ window: 10_000, limit: 5_000, keepToolResults: 4, keepMessages: 6, maxPerReply: 2 });
  });
});

describe("clearing old tool results", () => {
  it("keeps the newest results and replaces the others with path, line range and a one-line digest", () => {
    const { messages, cleared } = clearOldToolResults(conversation, 1);
    expect(cleared).toEqual([
      { tool: "read_file", ref: "src/money.js (lines 1-40)", digest: '"line 1 of the file"' },
      { tool: "shell", ref: "`npm test`", digest: 'exit code: 1; "FAIL checks/b1.test.js"' },
    ]);
    expect(messages[3]).toEqual({ role: "tool", toolCallId: "a", name: "read_file", content: `${CLEARED_MARK} read_file src/money.js (lines 1-40) — "line 1 of the file". Call the tool again to see it in full.]` });
    expect(messages[7]).toBe(conversation[7]);
    expect(messages.slice(0, 3)).toEqual(conversation.slice(0, 3));
    // A summary of cleared turns reads each stub back, not a digest of the stub.
    expect(references(messages.slice(2, 6))).toEqual(cleared);
    // Clearing again changes nothing: a stub is never cleared twice.
    expect(clearOldToolResults(messages, 1).cleared).toEqual([]);
  });

  it("names a paged read's range and a command's exit code", () => {
    expect(resultRef({ id: "c", name: "read_file", arguments: { path: "src/csv.js", offset: 10, limit: 5 } }, long(5))).toBe("src/csv.js (lines 10-14)");
    expect(digestOf("exit code: 0\n(no output)")).toBe('exit code: 0; "(no output)"');
    expect(digestOf("")).toBe("(empty)");
  });

  it("never changes a message that is not an old tool result, nor the order or the call ids (fuzzed)", () => {
    const message = fc.oneof(
      fc.record({ role: fc.constant("user" as const), content: fc.string() }),
      fc.record({ role: fc.constant("tool" as const), toolCallId: fc.string({ maxLength: 3 }), name: fc.constantFrom("shell", "read_file"), content: fc.string({ maxLength: 400 }) }),
      fc.record({ role: fc.constant("assistant" as const), content: fc.string(), toolCalls: fc.array(fc.record({ id: fc.string({ maxLength: 3 }), name: fc.constantFrom("shell", "read_file"), arguments: fc.dictionary(fc.constantFrom("path", "command", "offset"), fc.oneof(fc.string(), fc.integer())) }), { maxLength: 2 }) }),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), fc.nat(4), (list, keep) => {
        const { messages } = clearOldToolResults(list as Message[], keep);
        expect(messages.length).toBe(list.length);
        messages.forEach((m, i) => {
          expect(m.role).toBe(list[i]!.role);
          if (m.role !== "tool") expect(m).toBe(list[i]);
          else expect(m.toolCallId).toBe((list[i] as { toolCallId: string }).toolCallId);
        });
      }),
    );
  });
});

describe("summarising the oldest turns", () => {
  it("cuts after the handoff, never orphans a tool result, and keeps references that restore the turns", () => {
    expect(summaryCut(conversation, 2)).toEqual({ from: 2, to: 6 });
    expect(summaryCut(conversation, 3)).toEqual({ from: 2, to: 6 });
    expect(summaryCut(conversation.slice(0, 3), 6)).toBeNull();
    const old = conversation.slice(2, 6);
    expect(references(old)).toEqual([
      { tool: "read_file", ref: "src/money.js (lines 1-40)", digest: '"line 1 of the file"' },
      { tool: "shell", ref: "`npm test`", digest: 'exit code: 1; "FAIL checks/b1.test.js"' },
    ]);
    const request = summaryRequest(old, { runIndex: 1, round: 7 });
    expect({ tools: request.tools, meta: request.meta, roles: request.messages.map((m) => m.role) }).toEqual({ tools: [], meta: { runIndex: 1, round: 7, purpose: "compaction" }, roles: ["system", "user"] });
    expect(summaryMessage("Read money.js; npm test fails on B1.", references(old))).toEqual({
      role: "user",
      content: [
        "[Context summary: earlier turns of this session were summarised to save context. This is a note from the harness, not a new request.]",
        "",
        "Read money.js; npm test fails on B1.",
        "",
        "References — re-read a file or re-run a command to restore its detail:",
        '- read_file src/money.js (lines 1-40) — "line 1 of the file"',
        '- shell `npm test` — exit code: 1; "FAIL checks/b1.test.js"',
      ].join("\n"),
    });
  });
});
