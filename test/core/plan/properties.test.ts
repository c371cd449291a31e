/**
 * Property tests for the plan classifier: it never throws, a reply wrapped in a fence is a quote,
 * trailing whitespace never matters, the repair exists exactly for `invalid`, and the linear
 * scanner agrees with a slow, obviously-correct reference on markdown-shaped input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyPlanReply, findOutcomeTags } from "../../../src/core/plan/classify.ts";
import { planRepairInstruction } from "../../../src/core/plan/repair.ts";

/** Pieces that make the scanner's decisions interesting: tags, fences, backticks, blank lines. */
const piece = fc.constantFrom(
  "<proposed_plan>",
  "</proposed_plan>",
  "<plan_blocked>",
  "</plan_blocked>",
  "<plan_clarification>",
  "</plan_clarification>",
  "<proposed_plan",
  "```",
  "````",
  "~~~",
  "   ```",
  "    ```",
  "`",
  "``",
  "\n",
  "\n\n",
  "\r\n",
  " ",
  "- step",
  "text",
  "<",
  ">",
);
const markdownish = fc.array(fc.oneof({ weight: 4, arbitrary: piece }, { weight: 1, arbitrary: fc.string() }), { maxLength: 40 }).map((parts) => parts.join(""));
const anyReply = fc.oneof(markdownish, fc.string(), fc.string({ unit: "binary" }));

const longestRun = (text: string, char: string): number => {
  let best = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    best = Math.max(best, current);
  }
  return best;
};

describe("classifyPlanReply properties", () => {
  it("never throws and always returns a well-formed result", () => {
    fc.assert(
      fc.property(anyReply, (text) => {
        const result = classifyPlanReply(text);
        switch (result.outcome) {
          case "plan_ready":
            return typeof result.plan === "string" && result.plan.trim() !== "" && result.reason === undefined;
          case "blocked":
            return typeof result.blocked === "string" && result.blocked.trim() !== "" && result.reason === undefined;
          case "no_plan":
            return Object.keys(result).length === 1;
          case "invalid":
            return typeof result.reason === "string";
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("a reply wrapped in a fence longer than any run inside it is a quote: no_plan", () => {
    fc.assert(
      fc.property(anyReply, fc.constantFrom("`", "~"), fc.integer({ min: 0, max: 3 }), fc.boolean(), (text, char, indent, closed) => {
        const fence = " ".repeat(indent) + char.repeat(Math.max(3, longestRun(text, char) + 1));
        const wrapped = `${fence}\n${text}\n${closed ? fence : ""}`;
        expect(classifyPlanReply(wrapped)).toEqual({ outcome: "no_plan" });
      }),
      { numRuns: 1000 },
    );
  });

  it("an empty reply is the only way a wrapped reply could have been invalid", () => {
    expect(classifyPlanReply("")).toEqual({ outcome: "invalid", reason: "empty_reply" });
    expect(classifyPlanReply("```\n\n```")).toEqual({ outcome: "no_plan" });
  });

  it("the result is independent of trailing whitespace", () => {
    const whitespace = fc.array(fc.constantFrom(" ", "\t", "\n", "\r\n", "\r"), { maxLength: 6 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(anyReply, whitespace, (text, tail) => {
        expect(classifyPlanReply(text + tail)).toEqual(classifyPlanReply(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("a repair instruction exists exactly for invalid results", () => {
    fc.assert(
      fc.property(anyReply, (text) => {
        const result = classifyPlanReply(text);
        expect(planRepairInstruction(result) === null).toBe(result.outcome !== "invalid");
      }),
      { numRuns: 1000 },
    );
  });

  it("finds the same tags as a slow reference scanner", () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        expect(findOutcomeTags(text).map((tag) => tag.start)).toEqual(referenceTagStarts(text));
      }),
      { numRuns: 3000 },
    );
  });

  // The scanner jumps over lines that hold no tag and no fence run; these replies put many such
  // lines (blank, whitespace-only, prose with lone backticks) between the lines that matter.
  it("finds the same tags as the reference when it skips runs of prose lines", () => {
    const prose = fc
      .array(fc.constantFrom("step one", "`code", "a `b` c", "", "  ", "\t", "\r", "- item ``", "<not a tag>", "x~~y"), { minLength: 1, maxLength: 12 })
      .map((lines) => `\n${lines.join("\n")}\n`);
    const reply = fc.array(fc.oneof(piece, prose), { maxLength: 30 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(reply, (text) => {
        expect(findOutcomeTags(text).map((tag) => tag.start)).toEqual(referenceTagStarts(text));
      }),
      { numRuns: 3000 },
    );
  });
});

/**
 * The reference: split into lines, track fences with regular expressions, group paragraphs, and
 * pair code spans by searching forward from every run (quadratic, but easy to check by eye).
 */
function referenceTagStarts(text: string): number[] {
  const tagRe = /<\/?(proposed_plan|plan_blocked|plan_clarification)>/g;
  const tagLine = /^[ \t]*<\/?(proposed_plan|plan_blocked|plan_clarification)>[ \t\r]*$/;
  const starts: number[] = [];
  let fence: { char: string; length: number } | null = null;
  let paragraph: { start: number; end: number } | null = null;
  const tagsIn = (from: number, to: number): void => {
    const slice = text.slice(from, to);
    for (const match of slice.matchAll(tagRe)) starts.push(from + (match.index ?? 0));
  };
  const flush = (): void => {
    if (paragraph === null) return;
    const { start, end } = paragraph;
    paragraph = null;
    const body = text.slice(start, end);
    const runs = [...body.matchAll(/`+/g)].map((m) => ({ at: start + (m.index ?? 0), length: m[0].length }));
    let cursor = start;
    for (let k = 0; k < runs.length; k += 1) {
      const run = runs[k]!;
      const closer = runs.findIndex((other, index) => index > k && other.length === run.length);
      if (closer === -1) continue;
      tagsIn(cursor, run.at);
      cursor = runs[closer]!.at + runs[closer]!.length;
      k = closer;
    }
    tagsIn(cursor, end);
  };
  let offset = 0;
  for (const line of text.split("\n")) {
    const end = offset + line.length;
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence.char === "`" ? "`" : "~"}{${fence.length},}[ \\t\\r]*$`);
      if (close.test(line)) fence = null;
    } else {
      const open = /^ {0,3}(`{3,}|~{3,})([^]*)$/.exec(line);
      if (open && !(open[1]!.startsWith("`") && open[2]!.includes("`"))) {
        flush();
        fence = { char: open[1]![0]!, length: open[1]!.length };
      } else if (/^[ \t\r]*$/.test(line)) {
        flush();
      } else if (tagLine.test(line)) {
        flush();
        tagsIn(offset, end);
      } else {
        paragraph = paragraph === null ? { start: offset, end } : { start: paragraph.start, end };
      }
    }
    offset = end + 1;
  }
  flush();
  return starts;
}
