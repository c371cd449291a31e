import { describe, expect, it } from "vitest";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { TokenCounter, countTokens } from "../../src/core/tokens.ts";

const reference = new Tiktoken(o200kBase);
/** js-tiktoken's count of the text as plain text (no special tokens allowed or disallowed). */
const referenceCount = (text: string): number => reference.encode(text, [], []).length;

const TRICKY = [
  "",
  "a",
  "a <|endoftext|> b",
  "<|endoftext|><|fim_prefix|><|fim_middle|><|fim_suffix|><|endofprompt|>",
  "👩‍👩‍👧‍👦 family, 🇫🇷 flag, 🧑🏽‍💻 coder",
  "汉字テキスト한국어 mixed with ASCII",
  "a".repeat(5000),
  " ".repeat(3000),
  "line one\r\nline two\u00a0nbsp",
  "ﬁ ﬂ ligatures and ẞ",
  "```ts\nconst x = `<|endoftext|>`;\n```",
  "\u0000\u0001 control chars \uFFFD",
];

/** Every text file under fixtures/ and arms/, so new fixtures are covered without editing this. */
function textFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === ".git" || name === "node_modules") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(md|txt|ya?ml|json|jsonl|ndjson|ts|js)$/.test(name) && statSync(path).size < 3_000_000) out.push(path);
    }
  };
  walk(root);
  return out;
}

describe("countTokens", () => {
  it.each(TRICKY.map((text, i) => [i, text] as const))("matches js-tiktoken on tricky string %i", (_i, text) => {
    expect(countTokens(text)).toBe(referenceCount(text));
  });

  it("counts special markers as plain text instead of throwing", () => {
    expect(countTokens("a <|endoftext|> b")).toBe(referenceCount("a <|endoftext|> b"));
    expect(countTokens("a <|endoftext|> b")).toBeGreaterThan(4);
  });

  it("matches js-tiktoken on every text fixture and arm section", () => {
    const files = [...textFiles("fixtures"), ...textFiles("arms")];
    const mismatches = files
      .map((file) => {
        const text = readFileSync(file, "utf8");
        return { file, ours: countTokens(text), theirs: referenceCount(text) };
      })
      .filter((row) => row.ours !== row.theirs);
    expect(mismatches).toEqual([]);
  });
});

describe("TokenCounter", () => {
  it("counts a repeated text once and reports hits", () => {
    const counter = new TokenCounter();
    const first = counter.count("hello world");
    const second = counter.count("hello world");
    expect([first, second]).toEqual([2, 2]);
    expect(counter.stats()).toEqual({ hits: 1, misses: 1, size: 1 });
  });

  it("evicts the oldest entry when full", () => {
    const counter = new TokenCounter(2);
    counter.count("one");
    counter.count("two");
    counter.count("three");
    counter.count("one");
    expect(counter.stats()).toEqual({ hits: 0, misses: 4, size: 2 });
  });
});
