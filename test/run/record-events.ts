/** Sample run-record events for the writer and reader tests: one of each common type, with awkward text. */
import fc from "fast-check";
import type { RunEvent } from "../../src/run/record.ts";

export const SAMPLE_EVENTS: RunEvent[] = [
  {
    t: 0,
    type: "run.start",
    arm: "baseline",
    runIndex: 3,
    seed: 42,
    model: "scripted:diligent",
    testDouble: true,
    prefixHash: "ab".repeat(32),
    prefixTokens: 1200,
    source: "armstudy",
  },
  // U+2028 / U+2029 are legal inside JSON strings and must not split a line.
  { t: 1, type: "user.message", text: "Fix the bug.\u2028Then run the tests.\u2029Done?\r\nyes", kind: "handoff" },
  {
    t: 5,
    type: "model.request",
    round: 0,
    counted: { input: 1500, output: 20 },
    input: 1520,
    cachedInput: 1024,
    output: 30,
    reasoning: 10,
    usageSource: "reported",
    durationMs: 812,
    purpose: "agent",
  },
  { t: 6, type: "tool.call", id: "call_1", name: "shell", arguments: { command: "npm test", nested: { a: [1, "ü"] } } },
  { t: 9, type: "tool.result", id: "call_1", name: "shell", ok: false, exitCode: 1, output: "FAIL 🧪 one\n…[cut 200 lines]…\nend" },
  { t: 10, type: "assistant.text", text: "Done: all green.", final: true },
  { t: 10, type: "reply.end", reason: "no_tool_call" },
  { t: 11, type: "run.end", status: "completed", wallMs: 11 },
];

/** Arbitrary valid events with hostile text (line breaks, U+2028/2029, astral characters). */
export const arbitraryEvent: fc.Arbitrary<RunEvent> = (() => {
  const text = fc.string({ unit: "binary", maxLength: 40 });
  const t = fc.nat({ max: 1_000_000 });
  return fc.oneof(
    fc.record({ t, type: fc.constant("user.message" as const), text, kind: fc.constantFrom("handoff" as const, "continuation" as const, "nudge" as const, "person" as const) }),
    fc.record({ t, type: fc.constant("assistant.text" as const), text, final: fc.boolean() }),
    fc.record({ t, type: fc.constant("tool.call" as const), id: text, name: text, arguments: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean())) }),
    fc.record({ t, type: fc.constant("note" as const), level: fc.constantFrom("info" as const, "warning" as const), text }),
  );
})();
