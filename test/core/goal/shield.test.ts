import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyEvidenceShield, cleanQuote, evidenceOutputs, MIN_EVIDENCE_CHARS, quoteFound } from "../../../src/core/goal/index.ts";
import type { RunView } from "../../../src/core/policies/contract.ts";

const TEST_OUTPUT = " RUN  v4.1.12 /work/app\n\n ✓ test/parser.test.ts (12 tests) 8ms\n\n Test Files  1 passed (1)\n      Tests  12 passed (12)\n";
const GREP_OUTPUT = "src/cli.ts:41:  if (flags['dry-run']) return plan(<Options>opts);";

describe("quoteFound", () => {
  it.each([
    ["verbatim", "Tests  12 passed (12)", true],
    ["whitespace-normalised", "Test Files 1 passed (1)\n Tests 12 passed (12)", true],
    ["markdown quote mark and backticks", "> `✓ test/parser.test.ts (12 tests)`", true],
    ["straight and curly quotes", "“Tests  12 passed (12)”", true],
    ["XML-escaped by the digest", "return plan(&lt;Options&gt;opts);", true],
    ["elided with ..., parts in order", "Test Files ... 12 passed (12)", true],
    ["elided with …, parts out of order", "12 passed (12) … Test Files", false],
    ["parts from two different outputs", "Tests  12 passed … flags['dry-run']", false],
    ["paraphrased", "All 12 tests passed", false],
    ["case changed", "tests  12 PASSED (12)", false],
    ["too short to prove anything", "passed", false],
    ["empty", "", false],
  ])("%s", (_, quote, found) => {
    expect(quoteFound(quote, [TEST_OUTPUT, GREP_OUTPUT])).toBe(found);
  });

  it("finds any long enough slice of an output, however it is re-spaced", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 40, maxLength: 200 }), fc.nat(), fc.nat(), fc.constantFrom(" ", "\n", "\t ", "  "), (output, a, b, space) => {
        const start = a % (output.length - 20);
        const slice = output.slice(start, start + 20 + (b % (output.length - start - 20 + 1)));
        const cleaned = slice.replace(/\s+/g, " ").trim();
        fc.pre(cleaned.replace(/\s/g, "").length >= MIN_EVIDENCE_CHARS);
        fc.pre(!/\.\.\.|…|&(lt|gt|amp|quot|#39|apos);|^[\s>*\-•"'`“‘\d]/.test(cleaned) && !/["'`”’]$/.test(cleaned));
        return quoteFound(cleaned.split(" ").join(space), [output]);
      }),
    );
  });

  it("never finds a quote that contains text absent from every output", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 5 }), fc.string({ minLength: 12, maxLength: 60 }), (outputs, quote) => {
        const marked = `${quote}§§ unseen marker §§`;
        return !quoteFound(marked, outputs.map((o) => o.replace(/§/g, "")));
      }),
    );
  });
});

describe("cleanQuote", () => {
  it.each([
    ['> "Tests  12 passed"', "Tests 12 passed"],
    ["- `npm test` exited 0", "`npm test` exited 0"],
    ["* `npm test exited 0`", "npm test exited 0"],
    ["1. &lt;div&gt;", "<div>"],
    ["  plain  text  ", "plain text"],
  ])("%j → %j", (input, output) => {
    expect(cleanQuote(input)).toBe(output);
  });
});

describe("applyEvidenceShield", () => {
  it("passes a done verdict with at least one real quote", () => {
    expect(applyEvidenceShield({ verdict: "done", reason: "tests pass", evidence: ["made up line here", "Tests  12 passed (12)"] }, [TEST_OUTPUT])).toEqual({
      verdict: "done",
      reason: "tests pass",
      evidence: ["made up line here", "Tests  12 passed (12)"],
      shield: "passed",
    });
  });

  it("turns a done verdict without real evidence into continue: evidence not found", () => {
    expect(applyEvidenceShield({ verdict: "done", reason: "looks complete", evidence: ["All tests pass"] }, [TEST_OUTPUT])).toEqual({
      verdict: "continue",
      reason: "evidence not found",
      evidence: ["All tests pass"],
      shield: "rejected",
    });
    expect(applyEvidenceShield({ verdict: "done", reason: "looks complete", evidence: [] }, [TEST_OUTPUT]).shield).toBe("rejected");
  });

  it("leaves a continue verdict alone", () => {
    expect(applyEvidenceShield({ verdict: "continue", reason: "docs missing", evidence: [] }, [])).toEqual({ verdict: "continue", reason: "docs missing", evidence: [], shield: "not_applied" });
  });
});

describe("evidenceOutputs", () => {
  it("takes every tool output except the goal's own tools", () => {
    const view: RunView = {
      handoff: "h",
      todos: [],
      elapsedMs: 0,
      continuations: 0,
      replies: [
        {
          index: 0,
          text: "",
          endReason: "no_tool_call",
          startedAtMs: 0,
          endedAtMs: 1,
          tokens: { input: 0, output: 0 },
          toolCalls: [
            { id: "1", name: "shell", arguments: {}, ok: true, output: "real output", changedFiles: false, isCommand: true },
            { id: "2", name: "get_goal", arguments: {}, ok: true, output: '{"objective":"Tests  12 passed (12)"}', changedFiles: false, isCommand: false },
            { id: "3", name: "update_goal", arguments: {}, ok: true, output: "Completion claim recorded.", changedFiles: false, isCommand: false },
          ],
        },
      ],
    };
    expect(evidenceOutputs(view)).toEqual(["real output"]);
    // The objective echoed by get_goal cannot serve as proof.
    expect(quoteFound("Tests  12 passed (12)", evidenceOutputs(view))).toBe(false);
  });
});
