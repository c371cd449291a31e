/**
 * The analyzer's bounded read (src/core/report/window.ts, docs/decisions/0135): a reply longer than
 * its head and tail windows is read on both ends, and says what it did not read. Every labelled
 * reply is short enough to be read whole, so its analysis is the whole read's, field by field.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WINDOW_HEAD, WINDOW_TAIL, analyzeFinalReport, explainFinalReport, replyWindow } from "../../../src/core/report/analyze.ts";
import { FENCE_RUNS_READ } from "../../../src/core/report/window.ts";
import { readProse } from "../../../src/core/report/read.ts";
import { TokenCounter, countTokens } from "../../../src/core/tokens.ts";
import { loadLabelledReplies } from "./labelled.ts";
import { withoutSealed } from "./split.ts";

const WHOLE = { head: Number.POSITIVE_INFINITY, tail: Number.POSITIVE_INFINITY };
const counter = new TokenCounter();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Neutral prose that no row reads: the middle of a long reply in these tests. */
function filler(chars: number): string {
  const paragraph = "The cache keys each entry by locale and region, and the loader reads the table once per process.\n\n";
  return paragraph.repeat(Math.ceil(chars / paragraph.length));
}

describe("every labelled reply is read whole", () => {
  // A sealed split stays sealed until its look (none since split 12's look, 0244): the analyzer does not run on it here.
  const replies = withoutSealed(loadLabelledReplies());

  it("fits the windows: the longest is under WINDOW_HEAD + WINDOW_TAIL", () => {
    const longest = Math.max(...replies.map((reply) => reply.text.length));
    expect(replies.length).toBeGreaterThanOrEqual(848);
    expect(longest).toBeLessThanOrEqual(WINDOW_HEAD + WINDOW_TAIL);
  });

  it("has the whole read's analysis and explanation, every field, with and without its steps", () => {
    const differ = replies.flatMap((reply) => {
      const options = reply.steps === undefined ? {} : { steps: reply.steps };
      const bounded = analyzeFinalReport(reply.text, counter, options);
      const whole = analyzeFinalReport(reply.text, counter, { ...options, window: WHOLE });
      const same = JSON.stringify(bounded) === JSON.stringify(whole) && bounded.unreadChars === 0;
      const explained = JSON.stringify(explainFinalReport(reply.text, options)) === JSON.stringify(explainFinalReport(reply.text, { ...options, window: WHOLE }));
      return same && explained ? [] : [reply.file];
    });
    expect(differ).toEqual([]);
  });
});

describe("replyWindow", () => {
  it("returns a reply that fits as it is", () => {
    expect(replyWindow("Done.\n\nNothing needed next.", 10, 20)).toEqual({ text: "Done.\n\nNothing needed next.", unreadChars: 0, headChars: 27, tailChars: 0, tailFenceKnown: true });
  });

  it("cuts at paragraph breaks in the outer half of each window", () => {
    const text = ["aaaa", "bbbb", "cccc", "dddd", "eeee", "ffff", "gggg"].join("\n\n");
    // head 12: the last paragraph break at or before offset 10 is at 10 (after "bbbb"); tail 12 starts after "eeee".
    expect(replyWindow(text, 12, 12)).toEqual({ text: "aaaa\n\nbbbb\n\nffff\n\ngggg", unreadChars: 20, headChars: 10, tailChars: 10, tailFenceKnown: true });
  });

  it("falls back to a line break, then to a raw cut that never splits a surrogate pair", () => {
    expect(replyWindow("line one\nline two\nline three\nline four\nline five", 12, 12).text).toBe("line one\n\nline five");
    const emoji = "🚀".repeat(40);
    const window = replyWindow(emoji, 11, 11);
    expect(LONE_SURROGATE.test(window.text)).toBe(false);
    expect(window).toEqual({ text: `${"🚀".repeat(5)}\n\n${"🚀".repeat(5)}`, unreadChars: 60, headChars: 10, tailChars: 10, tailFenceKnown: true });
  });

  it("skips blank lines before the first text, so the first line is read", () => {
    const text = `${" \n".repeat(100)}Done: all three endpoints.\n\n${filler(400)}Nothing needed next.`;
    const window = replyWindow(text, 120, 120);
    expect(window.text.startsWith("Done: all three endpoints.\n\n")).toBe(true);
    expect(analyzeFinalReport(text, counter, { window: { head: 120, tail: 120 } }).firstLineRaw).toBe("Done: all three endpoints.");
  });

  it("closes a fence the head ends inside, and reopens one the tail starts inside", () => {
    const code = Array.from({ length: 60 }, (_, i) => `const x${i} = ${i};\n`).join("\n");
    const text = `Done.\n\n~~~~ts\n${code}~~~~\n\nShould I open the PR?`;
    const window = replyWindow(text, 100, 100);
    expect(window.text.startsWith("Done.\n\n~~~~ts\n")).toBe(true);
    expect(window.text).toContain("\n~~~~\n\n~~~~\n");
    // Read whole or windowed, the code is code and the ending asks.
    const bounded = analyzeFinalReport(text, counter, { window: { head: 100, tail: 100 } });
    const whole = analyzeFinalReport(text, counter, { window: WHOLE });
    expect(bounded).toEqual({ ...whole, unreadChars: window.unreadChars });
    expect([bounded.claimsComplete, bounded.asksPermission, readProse(window.text).lines]).toEqual([true, true, ["Done.", "Should I open the PR?"]]);
  });

  it("stays the windows' size when a fence run is longer than either window", () => {
    // One line of backticks opens a fence as long as the reply: the head's closer and the tail's opener are capped.
    const ticks = "`".repeat(200_000);
    const window = replyWindow(ticks, 1000, 1000);
    expect(window.text.length).toBeLessThanOrEqual(4 * 1000 + 8);
    const [read, whole] = [readProse(window.text), readProse(ticks)];
    expect([read.lines, read.statements, read.headings]).toEqual([whole.lines, whole.statements, whole.headings]);
    // A fence opened in the middle by a run longer than the tail: the tail is all code, as read whole.
    const text = `Done.\n\n${filler(3000)}${"~".repeat(5000)}\n${filler(3000)}~~~~\n\nShould I go on?`;
    const part = readProse(replyWindow(text, 1000, 1000).text).lines;
    expect([part[0], part.includes("Should I go on?"), readProse(text).lines.includes("Should I go on?")]).toEqual(["Done.", false, false]);
  });

  it("reads no more than FENCE_RUNS_READ fence runs of the middle, and says when the tail's fence state was not worked out", () => {
    const fences = "```\n".repeat(FENCE_RUNS_READ + 2);
    const text = `Done.\n\n${filler(2000)}${fences}${filler(2000)}Nothing needed next.`;
    const window = replyWindow(text, 1000, 1000);
    expect(window.tailFenceKnown).toBe(false);
    expect(replyWindow(`Done.\n\n${filler(2000)}${"```\n".repeat(FENCE_RUNS_READ - 2)}${filler(2000)}Nothing needed next.`, 1000, 1000).tailFenceKnown).toBe(true);
    expect(explainFinalReport(text, { window: { head: 1000, tail: 1000 } }).at(-1)?.clause).toMatch(new RegExp(`characters in the middle were not read; the middle has more than ${FENCE_RUNS_READ} runs of three backticks or tildes, so the tail was read as if it began outside code$`));
    expect(analyzeFinalReport(text, counter, { window: { head: 1000, tail: 1000 } }).fillerEnding).toBe(true);
  });

  it("refuses a negative or missing size", () => {
    expect(() => replyWindow("x", -1, 10)).toThrow(/≥ 0 at each end; got head -1, tail 10/);
    expect(() => replyWindow("x", Number.NaN, 10)).toThrow(RangeError);
  });
});

describe("a reply longer than the windows", () => {
  const head = "Done: the exporter writes all three formats and the checks pass.\n\n";
  const tail = "\n\nNothing needed next.";

  it("is read on its ends: chars and tokens are the whole reply's, and the unread middle is named", () => {
    const text = `${head}${filler(1024 * 1024)}${tail}`;
    const window = replyWindow(text);
    const result = analyzeFinalReport(text, counter);
    expect(result).toEqual({
      firstLine: "Done: the exporter writes all three formats and the checks pass.",
      firstLineRaw: "Done: the exporter writes all three formats and the checks pass.",
      claimsComplete: true,
      statesUnfinished: false,
      givesReasonAndNext: false,
      asksPermission: false,
      fillerEnding: true,
      headings: [],
      chars: text.length,
      tokens: counter.count(text),
      unreadChars: text.length - window.headChars - window.tailChars,
    });
    expect(window.headChars).toBeGreaterThan(WINDOW_HEAD / 2);
    expect(window.tailChars).toBeGreaterThan(WINDOW_TAIL / 2);
    expect(explainFinalReport(text).at(-1)).toEqual({
      id: "window.unread",
      group: "window",
      clause: `read the first ${window.headChars} and the last ${window.tailChars} characters; ${result.unreadChars} characters in the middle were not read`,
    });
  });

  it("does not see what its middle says: the loss the window buys its speed with", () => {
    const text = `${head}${filler(40 * 1024)}S3 and S4 remain.\n\n${filler(40 * 1024)}${tail}`;
    expect(analyzeFinalReport(text, counter, { window: WHOLE }).statesUnfinished).toBe(true);
    expect([analyzeFinalReport(text, counter).statesUnfinished, analyzeFinalReport(text, counter).claimsComplete]).toEqual([false, true]);
  });

  it("without a counter, counts the tokens of the whole reply", () => {
    const text = `${head}${filler(100 * 1024)}${tail}`;
    expect(analyzeFinalReport(text).tokens).toBe(countTokens(text));
  });
});

describe("bounded-read properties", () => {
  // Paragraphs of markdown: prose, list items, headings (ATX and setext), block quotes and fenced code with blank lines inside.
  const word = fc.constantFrom("done", "not", "remain", "Should I go on?", "`x`", "**b**", "’", "🚀", "S3", "fails", "Or", "|", "a", "the");
  const line = fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(" "));
  const paragraph = fc.oneof(
    { weight: 4, arbitrary: fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join("\n")) },
    { weight: 1, arbitrary: line.map((text) => `- ${text}`) },
    { weight: 1, arbitrary: line.map((text) => `## ${text}`) },
    { weight: 1, arbitrary: line.map((text) => `${text}\n${"=".repeat(3)}`) },
    { weight: 1, arbitrary: line.map((text) => `> ${text}`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom("```", "~~~", "````"), fc.array(line, { maxLength: 3 })).map(([fence, lines]) => `${fence}\n${lines.join("\n\n")}\n${fence}`) },
    // A fence that opens and never closes (or closes one left open).
    { weight: 1, arbitrary: fc.constantFrom("```", "~~~") },
  );
  // Sized "max" so most replies are longer than the windows below (fast-check would keep them short).
  const reply = fc.tuple(fc.array(paragraph, { minLength: 1, maxLength: 60, size: "max" }), fc.constantFrom("", "\n", "\n\n")).map(([paragraphs, end]) => paragraphs.join("\n\n") + end);

  /** The part's items are a prefix of the whole's followed by a suffix of it. */
  function prefixPlusSuffix(part: readonly string[], whole: readonly string[]): boolean {
    if (part.length > whole.length) return false;
    let prefix = 0;
    while (prefix < part.length && part[prefix] === whole[prefix]) prefix += 1;
    for (let k = prefix; k >= 0; k -= 1) {
      const rest = part.slice(k);
      if (rest.every((item, i) => item === whole[whole.length - rest.length + i])) return true;
    }
    return false;
  }

  it("a windowed reply reads its first and last paragraphs exactly as the whole read does, fences included", () => {
    const seen = { cut: 0, fenceAtCut: 0 };
    fc.assert(
      fc.property(reply, fc.integer({ min: 400, max: 900 }), fc.integer({ min: 400, max: 900 }), (text, head, tail) => {
        const window = replyWindow(text, head, tail);
        if (window.unreadChars > 0) seen.cut += 1;
        if (window.unreadChars > 0 && window.text.length > window.headChars + window.tailChars + 2) seen.fenceAtCut += 1;
        const part = readProse(window.text);
        const whole = readProse(text);
        expect(prefixPlusSuffix(part.lines, whole.lines)).toBe(true);
        expect(prefixPlusSuffix(part.statements, whole.statements)).toBe(true);
        expect(prefixPlusSuffix(part.headings, whole.headings)).toBe(true);
        expect(part.firstLineRaw).toBe(whole.firstLineRaw);
        if (window.unreadChars === 0) expect(part).toEqual(whole);
      }),
      { numRuns: 600 },
    );
    // The property read cuts, and cuts inside fenced code, not only replies that fit.
    expect(seen.cut).toBeGreaterThan(150);
    expect(seen.fenceAtCut).toBeGreaterThan(20);
  });

  it("the analysis of a long reply is the analysis of its window, with the whole reply's chars and tokens", () => {
    fc.assert(
      fc.property(reply, fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 600 }), (text, head, tail) => {
        const window = replyWindow(text, head, tail);
        const result = analyzeFinalReport(text, counter, { window: { head, tail } });
        expect(result).toEqual({ ...analyzeFinalReport(window.text, counter, { window: WHOLE }), chars: text.length, tokens: counter.count(text), unreadChars: window.unreadChars });
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on any text and any window, never splits a surrogate pair, and accounts for every character", () => {
    const text = fc.oneof(fc.string({ unit: "binary", maxLength: 400 }), fc.string({ unit: "grapheme", maxLength: 200 }), reply);
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), (reply, head, tail) => {
        const window = replyWindow(reply, head, tail);
        expect(window.headChars + window.tailChars + window.unreadChars).toBeLessThanOrEqual(reply.length);
        if (!LONE_SURROGATE.test(reply)) expect(LONE_SURROGATE.test(window.text)).toBe(false);
        const result = analyzeFinalReport(reply, counter, { window: { head, tail } });
        expect(result.unreadChars).toBe(window.unreadChars);
        expect(explainFinalReport(reply, { window: { head, tail } }).some((hit) => hit.id === "window.unread")).toBe(window.unreadChars > 0);
      }),
      { numRuns: 800 },
    );
  });

  it("never throws at the default windows on long fuzzed replies", () => {
    fc.assert(
      fc.property(reply, (unit) => {
        const text = unit.repeat(Math.ceil((WINDOW_HEAD + WINDOW_TAIL + 1) / unit.length));
        const result = analyzeFinalReport(text, counter);
        expect(result.unreadChars).toBeGreaterThan(0);
        expect(result.chars).toBe(text.length);
      }),
      { numRuns: 20 },
    );
  });
});
