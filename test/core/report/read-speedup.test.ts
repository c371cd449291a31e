/**
 * The reader's round-4 speed-up (docs/decisions/0137: a line's backtick runs found by indexOf, a
 * line with one run left as text, a few runs paired without a map) changes nothing it returns: the
 * whole Prose equals that of the frozen copy taken before it, on fuzzed markdown, backtick-heavy
 * lines, every labelled reply and the benchmark inputs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSpaceCode, trimmed } from "../../../src/core/report/clauses.ts";
import { isPlainLine, opensBlock, plainLine, readProse } from "../../../src/core/report/read.ts";
import { plainLine as plainBefore, readProse as readBefore } from "./before/read-before.ts";
import { loadLabelledReplies } from "./labelled.ts";
import { withoutSealed } from "./split.ts";

const same = (text: string): void => {
  expect(readProse(text)).toEqual(readBefore(text));
};

describe("the reader after its speed-up", () => {
  const piece = fc.constantFrom("`", "``", "```", "````", "~~~", "**", "_", "~~", '"', "“", "’", "# ", "## x ##", "===", "---", "- ", "> ", "| a |", "1. ", "\n", "\n\n", "\r\n", "   ", "done", "a b c", "🚀");
  const markdown = fc.array(fc.oneof({ weight: 5, arbitrary: piece }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 80 }).map((parts) => parts.join(""));
  const ticks = fc.array(fc.oneof(fc.integer({ min: 1, max: 12 }).map((n) => "`".repeat(n)), fc.constantFrom(" a ", "x", " ", "**b**", '"q r s"')), { maxLength: 40 }).map((parts) => parts.join(""));

  it("reads fuzzed markdown as before", () => {
    fc.assert(fc.property(fc.oneof(markdown, fc.string(), fc.string({ unit: "binary" })), (text) => same(text)), { numRuns: 4000 });
  });

  it("reads lines of many backtick runs as before, and plainLine keeps their code as before", () => {
    fc.assert(
      fc.property(fc.array(ticks, { maxLength: 4 }), (lines) => {
        same(lines.join("\n"));
        for (const line of lines) expect(plainLine(line)).toBe(plainBefore(line));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads every labelled reply, and the benchmark's inputs, as before", () => {
    // A sealed split stays sealed until its look (none since split 12's look, 0244): the reader does not run on it here.
    const replies = withoutSealed(loadLabelledReplies());
    expect(replies.length).toBeGreaterThanOrEqual(848);
    for (const reply of replies) same(reply.text);
    const fill = (unit: string): string => unit.repeat(Math.ceil(32_768 / unit.length)).slice(0, 32_768);
    for (const unit of ["x```\n", "`", "Done.\n- ok\nB3 next\n", `${"still not | ❌ 1 of 2 if fails B1-B3 `x ".repeat(40)}\n`, "```\ncode\n```\ntext\n", "a `b` c ``d`` e `f\n"]) same(fill(unit));
  });
});

describe("the reader's plain-line test (docs/decisions/0187)", () => {
  // The expression isPlainLine reads short lines without (read.ts's PLAIN, copied).
  const PLAIN = /^[^\s`~#>|=\-*+_\d\u2018\u2019\u02BC\u201C\u201D"][^`*_~\r\u2018\u2019\u02BC\u201C\u201D"]*$/;
  const char = fc.constantFrom(..."`~#>|=-*+_\"0 9\t\r\u000b\u00a0\u3000\u2018\u2019\u02bc\u201c\u201dabZ.:;!?é🚀\u0000");

  it("says what PLAIN says, on short and long lines of the characters it tests", () => {
    fc.assert(
      fc.property(fc.array(char, { maxLength: 60 }), (chars) => {
        const line = chars.join("");
        expect(isPlainLine(line)).toBe(PLAIN.test(line));
      }),
      { numRuns: 20000 },
    );
    expect(["Done.", "- ok", "B3 next", "", " x", "x`"].map(isPlainLine)).toEqual([true, false, true, false, false, false]);
  });
});

describe("the character tests of docs/decisions/0193", () => {
  // The expression opensBlock reads without (read.ts's NOT_SETEXT_TEXT, copied).
  const NOT_SETEXT_TEXT = /^ {0,3}(?:[-*+>|]|\d{1,9}[.)])(?:\s|$)/;
  const char = fc.constantFrom(..." -*+>|.)0123456789x\t\u00a0\u2028\u3000\r");

  it("opensBlock says what NOT_SETEXT_TEXT says, on lines of the characters it reads", () => {
    fc.assert(
      fc.property(fc.array(char, { maxLength: 16 }), (chars) => {
        const line = chars.join("");
        expect(opensBlock(line)).toBe(NOT_SETEXT_TEXT.test(line));
      }),
      { numRuns: 20000 },
    );
    expect(["- ok", "-ok", "   * x", "    * x", "1234567890. x", "123456789. x", "12)", "> q", "|"].map(opensBlock)).toEqual([true, false, true, false, false, true, true, true, true]);
  });

  it("isSpaceCode is \\s on every UTF-16 code unit, and trimmed is trim", () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c += 1) if (isSpaceCode(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(" ", "\t", "\u00a0", "\ufeff", "\u2029", "a", "é", "🚀", "."), { maxLength: 8 }), (chars) => {
        const text = chars.join("");
        expect(trimmed(text)).toBe(text.trim());
      }),
      { numRuns: 5000 },
    );
  });
});
