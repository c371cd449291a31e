/**
 * The hand-written o200k pre-tokenizer (ADR 0131) splits every text exactly as gpt-tokenizer's
 * split regex does: random text from an alphabet chosen to hit each rule and its edges (capitals
 * before lower case, contractions, digit runs, punctuation with line breaks and slashes, runs of
 * mixed white space, and characters beyond ASCII that end or carry on a piece), and whole files.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { describe, expect, it } from "vitest";
import { PreTokenizer } from "../../../src/core/tokens/pretokenize.ts";

const ROOT = path.join(import.meta.dirname, "../../..");

function byRegex(text: string): string[] {
  return [...text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags))].map((match) => match[0]);
}

function byScanner(text: string): string[] {
  const pre = new PreTokenizer();
  const pieces: string[] = [];
  for (let i = 0; i < text.length; ) {
    const end = pre.end(text, i);
    pieces.push(text.slice(i, end));
    i = end;
  }
  return pieces;
}

// Each rule's characters and their neighbours beyond ASCII: accented and other-script letters, a
// combining mark, other digits, no-break and ideographic spaces, line and paragraph separators,
// symbols, an emoji (a surrogate pair), and the ASCII controls that JavaScript's \s leaves out.
const UNITS = [
  ..."aAzZqQ'sStTdDmMlLvVeErR019 \t\n\r\v\f.,;:!?-_/\\\"'()[]{}<>=+*&^%$#@`~|",
  "é",
  "É",
  "ß",
  "\u0301",
  "ж",
  "漢",
  "٣",
  "²",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\u2029",
  "\ufeff",
  "→",
  "—",
  "–",
  "×",
  "✓",
  "§",
  "«",
  "ª",
  "ʰ",
  "Ⅳ",
  "½",
  "\u0085",
  "\u200b",
  "😀",
  "\u001c",
  "\u0000",
];
const text = fc.array(fc.constantFrom(...UNITS), { maxLength: 60 }).map((units) => units.join(""));
const words = fc
  .array(fc.constantFrom("don't", "I'LL", "we're", "'ve", "HTTPServer", "iPhone", "x1", "123456", "  ", "\n\n  ", " \n", "//", ".\n/", "é", " é", "\u00a0x", "ab\u0301c", "%", " -", "\t", " — ", "a—b", " →\n", "×2", "–B", "—\u0301"), { maxLength: 30 })
  .map((parts) => parts.join(""));

describe("the o200k pre-tokenizer", () => {
  it("splits random text exactly as the regex does", () => {
    fc.assert(
      fc.property(text, (sample) => {
        expect(byScanner(sample)).toEqual(byRegex(sample));
      }),
      { numRuns: 3000 },
    );
  });

  it("splits runs of words, contractions, numbers and white space exactly as the regex does", () => {
    fc.assert(
      fc.property(words, (sample) => {
        expect(byScanner(sample)).toEqual(byRegex(sample));
      }),
      { numRuns: 2000 },
    );
  });

  it("splits the repository's own sources and fixtures exactly as the regex does", () => {
    const files = [
      ...readdirSync(path.join(ROOT, "src/core/tokens")).map((name) => path.join(ROOT, "src/core/tokens", name)),
      path.join(ROOT, "README.md"),
      path.join(ROOT, "docs/architecture.md"),
      ...readdirSync(path.join(ROOT, "fixtures/tasks/stockbook/repo/src")).map((name) => path.join(ROOT, "fixtures/tasks/stockbook/repo/src", name)),
    ];
    for (const file of files) {
      const content = readFileSync(file, "utf8");
      expect({ file, pieces: byScanner(content) }).toEqual({ file, pieces: byRegex(content) });
    }
  });
});
