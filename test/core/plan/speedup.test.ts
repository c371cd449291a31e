/**
 * The classifier's round-3 speed-up (paragraph backtick runs paired without a map, tag lines read
 * by the tag lookup) changes no classification: the result and the tags found equal those of the
 * frozen copy taken before it, on fuzzed markdown, on backtick-heavy paragraphs, on every reply of
 * the final-reply corpus and on the benchmark's adversarial inputs.
 */
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyPlanReply, findOutcomeTags } from "../../../src/core/plan/classify.ts";
import { classifyPlanReply as before, findOutcomeTags as tagsBefore } from "./before/classify-before.ts";

const piece = fc.constantFrom(
  "<proposed_plan>",
  "</proposed_plan>",
  "<plan_blocked>",
  "</plan_blocked>",
  "<plan_clarification>",
  "</plan_clarification>",
  "<proposed_plan",
  "<plan_b>",
  "<p",
  "```",
  "````",
  "~~~",
  "`",
  "``",
  "```x```",
  " \t",
  "\n",
  "\n\n",
  "\r\n",
  "- step",
  "text",
);
const markdownish = fc.array(fc.oneof({ weight: 5, arbitrary: piece }, { weight: 1, arbitrary: fc.string() }), { maxLength: 60 }).map((parts) => parts.join(""));
// Paragraphs with many backtick runs of a few lengths: both ways of pairing runs are taken.
const backticky = fc
  .array(fc.oneof(fc.constantFrom("`", "``", "```", "<proposed_plan>", "</proposed_plan>", " a ", "<plan_blocked>"), fc.string({ maxLength: 3 })), { maxLength: 80 })
  .map((parts) => parts.join(""));

const same = (text: string) => {
  expect(findOutcomeTags(text)).toEqual(tagsBefore(text));
  expect(classifyPlanReply(text)).toEqual(before(text));
};

describe("the classifier after its speed-up", () => {
  it("classifies fuzzed markdown as before", () => {
    fc.assert(fc.property(fc.oneof(markdownish, fc.string(), fc.string({ unit: "binary" })), (text) => same(text)), { numRuns: 4000 });
  });

  it("classifies backtick-heavy paragraphs as before", () => {
    fc.assert(fc.property(fc.array(backticky, { maxLength: 4 }), (paragraphs) => same(paragraphs.join("\n"))), { numRuns: 3000 });
  });

  it("classifies every reply of the final-reply corpus, and each wrapped as a plan, as before", () => {
    const dir = path.join(import.meta.dirname, "../../../fixtures/final-replies");
    const files = readdirSync(dir).filter((name) => name.endsWith(".md"));
    expect(files.length).toBeGreaterThan(300);
    for (const file of files) {
      const text = readFileSync(path.join(dir, file), "utf8");
      same(text);
      same(`Here is the plan.\n\n<proposed_plan>\n${text}\n</proposed_plan>\n`);
    }
  });

  // Round 4 (docs/decisions/0136): the scan stops once the tags found decide the outcome, tags are
  // found by two cursors instead of a list, and many-run paragraphs pair short runs through a typed array.
  it("classifies tag-dense replies as before: every tag kind, in and out of code, with and without clarification", () => {
    const dense = fc.constantFrom("<proposed_plan>", "</proposed_plan>", "<plan_blocked>", "</plan_blocked>", "<plan_clarification>", "`", "``", "`<proposed_plan>`", "```", "~~~", "\n", "\n\n", " x ", "plan_clarification", "proposed_plan>");
    fc.assert(fc.property(fc.array(dense, { maxLength: 80 }), (parts) => same(parts.join(""))), { numRuns: 4000 });
    fc.assert(fc.property(fc.array(dense, { maxLength: 80 }), (parts) => same(parts.join("\n"))), { numRuns: 2000 });
    // Past 4 KiB the scan may stop early (shorter replies are read whole): the same tags after a long first paragraph.
    const padding = `${"words of a long first paragraph ".repeat(140)}\n\n`;
    expect(padding.length).toBeGreaterThan(4096);
    fc.assert(fc.property(fc.array(dense, { maxLength: 80 }), fc.boolean(), (parts, lines) => same(padding + parts.join(lines ? "\n" : ""))), { numRuns: 4000 });
  });

  it("classifies many-run paragraphs as before: runs of every length up to past the typed array's", () => {
    const run = fc.integer({ min: 1, max: 70 }).map((n) => "`".repeat(n));
    const part = fc.oneof(run, fc.constantFrom("<proposed_plan>", "</proposed_plan>", " a ", "\n"));
    fc.assert(fc.property(fc.array(part, { minLength: 9, maxLength: 60 }), (parts) => same(parts.join(""))), { numRuns: 2000 });
  });

  it("classifies the benchmark's adversarial inputs as before", () => {
    const fill = (unit: string) => unit.repeat(Math.ceil(65_536 / unit.length)).slice(0, 65_536);
    let runs = "";
    for (let n = 1; runs.length < 32_768; n += 1) runs += `${"`".repeat((n % 40) + 1)} <proposed_plan `;
    for (const text of [fill("`<proposed_plan>`\n<plan_blocked>\n"), fill("`<proposed_plan>`\n"), fill("<proposed_plan>\n"), fill("x <proposed_plan> y\n"), fill("`<proposed_plan>`\n\n"), fill("<proposed_plan>\n</proposed_plan>\n"), runs, fill("```\n<proposed_plan>\n~~~\n</plan_blocked>\n    ```\n``x`` <plan_blocked <<<<\n` `` <proposed_plan> ` </proposed_plan> ``\n")]) same(text);
  });
  // Round 4 (docs/decisions/0138): the scanner records tags as numbers, reads a tag line's tag
  // where the line test found it, and skips empty gaps. Lines dense with tags of both kinds, in
  // code and out, inside fences opened and closed or left open, with LF or CRLF line ends, short
  // and past the 4 KiB from which the scan may stop early.
  it("classifies tag-dense lines as before: both kinds, in code and out, open and closed fences, CRLF", () => {
    const line = fc.constantFrom(
      "<proposed_plan>",
      "</proposed_plan>",
      "<plan_blocked>",
      "</plan_blocked>",
      "  <plan_blocked>\t",
      "<plan_clarification>",
      "`<proposed_plan>`",
      "`<plan_blocked>`",
      "``</plan_blocked>``",
      "x <proposed_plan> y",
      "<proposed_plan> step",
      "`a` <plan_blocked> `",
      "<proposed_plan></proposed_plan>",
      "```",
      "```ts",
      "~~~",
      "    ```",
      "````",
      "",
      "  ",
      "- step one",
      "plan_blocked>",
    );
    const padding = `${"words of a long first paragraph ".repeat(140)}\n\n`;
    const reply = fc.tuple(fc.array(line, { maxLength: 120 }), fc.boolean(), fc.boolean()).map(([lines, crlf, padded]) => (padded ? padding : "") + lines.join(crlf ? "\r\n" : "\n"));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 6000 });
    // The same lines repeated past 4 KiB: the bench's "a tag on every line" and its relatives.
    const repeated = fc.tuple(fc.array(line, { minLength: 1, maxLength: 6 }), fc.boolean()).map(([lines, crlf]) => {
      const unit = lines.join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n");
      return unit.repeat(Math.ceil(6000 / unit.length));
    });
    fc.assert(fc.property(repeated, (text) => same(text)), { numRuns: 1500 });
  });

  it("classifies long tag-dense replies as before: tag lines, `<p` lines, fence-like lines and blank lines in a paragraph that holds a tag", () => {
    const fill = (unit: string) => unit.repeat(Math.ceil(65_536 / unit.length)).slice(0, 65_536);
    const texts = [
      fill("`<proposed_plan>`\r\n<plan_blocked>\r\n"),
      fill("`<plan_blocked>`\n<proposed_plan>\n"),
      fill("<p\n"),
      `x <proposed_plan>\n${fill("<pz\n")}`,
      `x <proposed_plan>\n${fill("```x```\n")}`,
      `x <proposed_plan>\n${fill("~~x\n")}`,
      fill("<plan_blocked>\n\n</plan_blocked>\n\n"),
      fill("<proposed_planX\n"),
      fill("`<proposed_plan>` "),
      `${fill("word word word\n")}\n<proposed_plan>\nx\n</proposed_plan>\n`,
      `x \`<proposed_plan>\n${fill("a `b` <plan_blocked> c\n")}`,
    ];
    for (const text of texts) same(text);
  });
});

// Round 5 (docs/decisions/0159): short lines that each may hold a tag. After 64 close `<` in a row
// that open no tag the paragraph scan finds tags by their names' texts, a paragraph over 512
// characters collects its backtick runs up to its last possible tag first, and a line's end is
// looked for in JS first after a short line.
describe("the classifier on short tag-dense lines", () => {
  const tagLines = ["<proposed_plan>", "</proposed_plan>", "<plan_blocked>", "</plan_blocked>", "<plan_clarification>"];
  // Lines that look like the start of a tag and are none, and texts that end like one.
  const miss = fc.constantFrom("<p", "<pz", "</p", "<p>", "<plan_b", "<proposed_plan", "</plan_blocked", "<", "x <p", "<p<p", " <pz\t");
  const later = fc.constantFrom(
    ...tagLines,
    "`<proposed_plan>`",
    "x <plan_blocked> y",
    "`a` </plan_blocked> `",
    "proposed_plan>",
    "/plan_blocked>",
    "x/proposed_plan>",
    "<</proposed_plan>",
    "<<plan_blocked>",
    "<p",
    "```x```",
    "```",
    "````",
    "~~~",
    "`",
    "``",
    "",
    "  ",
    "- step",
  );
  const newline = fc.constantFrom("\n", "\r\n");

  it("reads `<p`-like lines and then tags as before: in the paragraph, after it, in code and out, LF and CRLF", () => {
    const reply = fc
      .tuple(fc.constantFrom("", "x <proposed_plan>", "`a", "``", "<plan_blocked>"), fc.array(miss, { minLength: 60, maxLength: 160 }), fc.array(later, { maxLength: 40 }), newline)
      .map(([head, misses, rest, nl]) => [head, ...misses, ...rest].join(nl));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 1500 });
    // The same misses inside one line, then the rest on lines.
    const inline = fc
      .tuple(fc.array(miss, { minLength: 70, maxLength: 160 }), fc.array(later, { maxLength: 40 }), newline)
      .map(([misses, rest, nl]) => [misses.join(""), ...rest].join(nl));
    fc.assert(fc.property(inline, (text) => same(text)), { numRuns: 1000 });
  });

  it("reads tags separated by blank lines as before, with fences opened, closed and left open", () => {
    const line = fc.constantFrom(...tagLines, "  <plan_blocked>\t", "```", "```ts", "~~~", "    ```", "text", "`<proposed_plan>`", "<pz", "<p");
    const reply = fc
      .tuple(fc.array(line, { maxLength: 80 }), newline, fc.constantFrom(1, 2, 3), fc.boolean())
      .map(([lines, nl, blanks, padded]) => (padded ? `${"words of a long first paragraph ".repeat(140)}${nl}${nl}` : "") + lines.join(nl.repeat(blanks)));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 3000 });
  });

  it("pairs a long paragraph's backtick runs as before when a run before its last possible tag closes after it", () => {
    const piece = fc.constantFrom("`", "``", "```", "```x```", " a ", "<proposed_plan>", "</proposed_plan>", "<plan_blocked>", "<pz", "\n", "\r\n");
    const filler = fc.tuple(fc.constantFrom("```x```\n", "a `b` c\n", "``\n", "x\n", "`` ` ``\n"), fc.integer({ min: 70, max: 200 })).map(([unit, n]) => unit.repeat(n));
    const reply = fc.tuple(fc.array(piece, { maxLength: 30 }), filler, fc.array(piece, { maxLength: 30 }), fc.array(piece, { maxLength: 30 })).map(([head, middle, tags, tail]) => head.join("") + middle + tags.join("") + middle + tail.join(""));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 2000 });
  });

  it("reads lines short, long and short again as before (the JS-first line-end search follows the last line's length)", () => {
    const lineOf = fc.oneof(fc.constantFrom("<p", "<pz", "`a`", "x"), fc.integer({ min: 5, max: 40 }).map((n) => `x${" y".repeat(n)} <plan_blocked>`), fc.constantFrom(...tagLines, "", "```"));
    const reply = fc.tuple(fc.constantFrom("x <proposed_plan>", "<p"), fc.array(lineOf, { maxLength: 120 }), newline).map(([head, lines, nl]) => [head, ...lines].join(nl));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 2000 });
  });

  it("classifies the bench's short tag-dense inputs (64 KiB each) and their relatives as before", () => {
    const fill = (unit: string) => unit.repeat(Math.ceil(65_536 / unit.length)).slice(0, 65_536);
    const texts = [
      fill("<p\n"),
      fill("<p\r\n"),
      `x <proposed_plan>\n${fill("<pz\n")}`,
      `x <proposed_plan>\n${fill("```x```\n")}`,
      `x <proposed_plan>\r\n${fill("```x```\r\n")}`,
      fill("<plan_blocked>\n\n</plan_blocked>\n\n"),
      fill("<plan_blocked>\r\n\r\n</plan_blocked>\r\n\r\n"),
      `${fill("<p\n")}<proposed_plan>\nx\n</proposed_plan>\n`,
      `${fill("<p\n")}x <proposed_plan> y\n\`<plan_blocked>\`\n</proposed_plan>\n`,
      `x <proposed_plan>\n${fill("<pz\n")}\`a\n${fill("<p\n")}\`</proposed_plan>\n`,
      `x \`<proposed_plan>\n${fill("```x```\n")}\` </proposed_plan>`,
      `x <proposed_plan>\n${fill("```x```\n")}\n\`\`\`\n<plan_blocked>\n${fill("<p\n")}`,
      `${fill("<p>\n")}<plan_blocked>\nwhy\n</plan_blocked>`,
      `${fill("<pproposed_plan>/plan_blocked>\n")}<plan_blocked>\nwhy\n</plan_blocked>`,
    ];
    for (const text of texts) same(text);
  });
});

// Round 9 (docs/decisions/0188): the line pass stops only at a `<` with its `>` where the tag's
// would be and, past 64 close misses, finds the next tag by its name's text; a run followed by one
// of its length is paired as found; a paragraph's last possible tag is found forwards from the
// line pass's cursor; a line that may open a fence is read on from its third character.
describe("the classifier's round-9 shortcuts", () => {
  const newline = fc.constantFrom("\n", "\r\n");

  it("tells fence openings from inline code in a paragraph that holds a tag as before: info strings with a backtick at every offset", () => {
    const fenceLike = fc
      .tuple(fc.constantFrom("", " ", "   ", "    ", "\t", " \t"), fc.constantFrom("```", "````", "~~~", "~~~~", "``````````````````"), fc.string({ unit: fc.constantFrom("x", " ", "`", "~", "\r"), maxLength: 12 }))
      .map(([indent, run, info]) => indent + run + info);
    const line = fc.oneof({ weight: 3, arbitrary: fenceLike }, { weight: 1, arbitrary: fc.constantFrom("<proposed_plan>", "</proposed_plan>", "x <plan_blocked> y", "`<proposed_plan>`", "text", "", "  ") });
    const reply = fc.tuple(fc.constantFrom("x <proposed_plan>", "<plan_blocked> x", "text"), fc.array(line, { maxLength: 40 }), newline).map(([head, lines, nl]) => [head, ...lines].join(nl));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 4000 });
  });

  it("pairs runs as found, then by the table, as before: equal neighbours, unequal ones, and runs cut by a paragraph's end", () => {
    const run = fc.integer({ min: 1, max: 5 }).map((n) => "`".repeat(n));
    const part = fc.oneof({ weight: 4, arbitrary: run }, { weight: 2, arbitrary: fc.constantFrom("<proposed_plan>", "</proposed_plan>", "<plan_blocked>", " a ", "x") }, { weight: 1, arbitrary: fc.constantFrom("\n", "\n\n", "\r\n") });
    const reply = fc.tuple(fc.array(part, { maxLength: 80 }), fc.integer({ min: 1, max: 30 })).map(([parts, times]) => parts.join("").repeat(times));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 3000 });
  });

  it("finds tags after crowds of `<` without their `>` as before, on the line pass's lines and in long paragraphs", () => {
    const miss = fc.constantFrom("<p", "<pz", "</p", "<plan_b", "<proposed_plan ", "</plan_blocked", "<pxxxxxxxxxxxx>", "x <p");
    const hit = fc.constantFrom("<proposed_plan>", "</proposed_plan>", "<plan_blocked>", "</plan_blocked>", "<proposed_plan> step", "`<plan_blocked>`", "x </proposed_plan> y", "```", "", "`");
    const part = fc.oneof({ weight: 12, arbitrary: miss }, { weight: 1, arbitrary: hit });
    const reply = fc
      .tuple(fc.array(part, { minLength: 60, maxLength: 400 }), fc.constantFrom("\n", "\r\n", " ", "", "\n\n"), fc.boolean())
      .map(([parts, sep, padded]) => (padded ? `${"words of a long first paragraph ".repeat(140)}\n\n` : "") + parts.join(sep));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 2000 });
  });
});

// Round 9, later (docs/decisions/0189): a paragraph's run of lines that start with a backtick and
// end nothing, and a run of tag lines, empty lines and code span lines after a tag line, are each
// taken by one sticky expression, a few hundred lines per call.
describe("the classifier's runs of lines taken whole", () => {
  const newline = fc.constantFrom("\n", "\r\n");
  const repeatedPast = (lines: string[], nl: string, size: number) => {
    const unit = lines.join(nl) + nl;
    return unit.repeat(Math.ceil(size / unit.length));
  };

  it("follows a paragraph through lines that start with a backtick as before: spans, ```x``` lines, fences and near-fences", () => {
    const line = fc.constantFrom("```x```", "```x", "```x`", "``` `", "````x`", "```", "````", "`````", "``````", "````` `", "```ts", "`a`", "``a``", "`", "``", "`\r", "` <proposed_plan>", "``<plan_blocked>``", "`a", "``a", " ```x```", "~~~", "", "x", "<plan_blocked>", "</proposed_plan>");
    const reply = fc
      .tuple(fc.constantFrom("x <proposed_plan>", "`<proposed_plan>`", "text"), fc.array(line, { maxLength: 8 }), fc.integer({ min: 1, max: 600 }), newline)
      .map(([head, lines, times, nl]) => head + nl + repeatedPast(lines, nl, times * 8));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 2500 });
  });

  it("follows a paragraph through lines that start with `<` as before: every length up to a tag's and past it, CRLF", () => {
    const line = fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 16 }).map((n) => `<${"z".repeat(n)}`) },
      { weight: 2, arbitrary: fc.constantFrom("<p", "<pz", "<plan_b", "<plan_blocked", "</plan_blocked", "<pxxxxxxxxxxxx>", "<plan_blocked> ", "<\r") },
      { weight: 1, arbitrary: fc.constantFrom("<plan_blocked>", "</plan_blocked>", "<proposed_plan>", "", "x", "```", "`a`", "` y") },
    );
    const reply = fc
      .tuple(fc.constantFrom("x <proposed_plan>", "x <proposed_plan> `", "`<proposed_plan>`", "text"), fc.array(line, { maxLength: 8 }), fc.integer({ min: 1, max: 600 }), newline)
      .map(([head, lines, times, nl]) => head + nl + repeatedPast(lines, nl, times * 8));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 2500 });
  });

  it("pairs a paragraph's lines of one code span each as before: spans of every kind, cut by tag lines, blank lines and fences", () => {
    const line = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom("`<proposed_plan>`", "`</plan_blocked>`", "`a`", "``a``", "`a` `b`", "`a`<plan_blocked>`b`", "`a``", "``", "`a", "a`", "` `\r") },
      { weight: 1, arbitrary: fc.constantFrom("<plan_blocked>", "</plan_blocked>", "x <proposed_plan> y", "", "  ", "```", "```x```", "~~~", "x") },
    );
    const reply = fc
      .tuple(fc.constantFrom("x <proposed_plan>", "`<proposed_plan>`", "x `", "text"), fc.array(line, { maxLength: 8 }), fc.integer({ min: 1, max: 600 }), newline, fc.constantFrom("", "\n", "x </proposed_plan>", "`"))
      .map(([head, lines, times, nl, tail]) => head + nl + repeatedPast(lines, nl, times * 8) + tail);
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 2500 });
  });

  it("takes tag lines, empty lines and code span lines after a tag line as before: spans that do not cover their line, CRLF, early decisions", () => {
    const line = fc.constantFrom(
      "<proposed_plan>",
      "</proposed_plan>",
      "<plan_blocked>",
      "</plan_blocked>",
      "<plan_clarification>",
      "</plan_clarification>",
      "",
      "`<proposed_plan>`",
      "`</plan_blocked>`",
      "``",
      "`a`<proposed_plan>`b`",
      "`a` <plan_blocked> `b`",
      "``<plan_blocked>``",
      "`<plan_blocked>` x",
      "`<plan_blocked>`\r",
      "`x",
      " <plan_blocked>",
      "<plan_blocked> ",
      "<proposed_plan>x",
      "<plan_b>",
      "x",
      "```",
      "~~~",
      "<pz",
    );
    const reply = fc.tuple(fc.constantFrom("<proposed_plan>", "x <plan_blocked>", "text"), fc.array(line, { maxLength: 60 }), newline).map(([head, lines, nl]) => [head, ...lines].join(nl));
    fc.assert(fc.property(reply, (text) => same(text)), { numRuns: 4000 });
    const repeated = fc
      .tuple(fc.constantFrom("<proposed_plan>", "x <plan_blocked>", "`<proposed_plan>`"), fc.array(line, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 400 }), newline)
      .map(([head, lines, times, nl]) => head + nl + repeatedPast(lines, nl, times * 16));
    fc.assert(fc.property(repeated, (text) => same(text)), { numRuns: 2500 });
  });
});
