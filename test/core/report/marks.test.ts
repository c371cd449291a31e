/**
 * A statement's marks (src/core/report/marks.ts, docs/decisions/0193): each bit is set exactly when the cheap test it
 * stands for would pass, written here as an expression, on short lines of the characters the tests read; a longer line
 * gets every bit.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BAR, BREAK_MARK, COLON, DIGIT, ENDS_COLON, ENDS_IN_S, EVERY_MARK, L_OR_G, OPENS_B_OR_O, OPENS_DEFECT_WORD, QUOTE_MARK, SENTENCE_MARK, TRIMMED_ENDS_COLON, statementMarks } from "../../../src/core/report/marks.ts";

/** What each bit says, as an expression (or a string test) over the whole line. */
const EXPECTED: ReadonlyArray<[number, (line: string) => boolean]> = [
  [SENTENCE_MARK, (line) => /[.!?][^]/.test(line)],
  [BREAK_MARK, (line) => /;|[\t-\r \u00a0-\uffff][—–\-bBeEaAtThHsSoO]/.test(line)],
  [COLON, (line) => line.includes(":")],
  [BAR, (line) => line.includes("|")],
  [L_OR_G, (line) => /[lg]/i.test(line)],
  [DIGIT, (line) => /[0-9]/.test(line)],
  [QUOTE_MARK, (line) => line.slice(0, 4).includes(">")],
  [ENDS_COLON, (line) => /:[ \t]*$/.test(line)],
  [TRIMMED_ENDS_COLON, (line) => line.trimEnd().endsWith(":")],
  [ENDS_IN_S, (line) => /[sS][^0-9A-Za-z_]*$/.test(line)],
  [OPENS_B_OR_O, (line) => /^[^0-9A-Za-z_]*[bo]/i.test(line)],
  [OPENS_DEFECT_WORD, (line) => /^[^0-9A-Za-z_]*(?:bu|is|pr)/i.test(line)],
];

const expected = (line: string): number => (line.length > 32 ? EVERY_MARK : EXPECTED.reduce((bits, [bit, test]) => (test(line) ? bits | bit : bits), 0));

describe("a statement's marks", () => {
  const char = fc.constantFrom(..." \t\u000b\u00a0\u3000\u2014\u2013-.!?;:|>_0 9bBuUiIsSpPrRoOlLgGeEaAtThHxé🚀\r");

  it("set each bit exactly when its test passes, on lines of the characters the tests read", () => {
    fc.assert(
      fc.property(fc.array(char, { maxLength: 36 }), (chars) => {
        const line = chars.join("");
        expect(statementMarks(line)).toBe(expected(line));
      }),
      { numRuns: 30000 },
    );
    expect(["Done.", "- ok", "B3 next", "Bug 2: x", "Limitations:", "| a |", "> quote", "x".repeat(33)].map(statementMarks)).toEqual(["Done.", "- ok", "B3 next", "Bug 2: x", "Limitations:", "| a |", "> quote", "x".repeat(33)].map(expected));
  });

  it("sets every bit once, and no other", () => {
    const bits = EXPECTED.map(([bit]) => bit);
    expect(bits.reduce((a, b) => a | b, 0)).toBe(EVERY_MARK);
    expect(new Set(bits).size).toBe(bits.length);
    expect(bits.every((bit) => (bit & (bit - 1)) === 0)).toBe(true);
  });
});
