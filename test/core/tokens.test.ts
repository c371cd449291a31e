import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { TokenCounter, countTokens, countTokensChecked } from "../../src/core/tokens.ts";
import { SCAN_LIMIT } from "../../src/core/tokens/bpe-merge.ts";
import { O200kEncoder, o200kRankTable } from "../../src/core/tokens/o200k.ts";
import { countTokens as gptTokenizerCount } from "gpt-tokenizer/encoding/o200k_base";

const reference = new Tiktoken(o200kBase);
/** js-tiktoken's count of the text as plain text (no special tokens allowed or disallowed). */
const referenceCount = (text: string): number => reference.encode(text, [], []).length;
const PLAIN = { disallowedSpecial: new Set<string>() };

const TRICKY = [
  "",
  "a",
  "a <|endoftext|> b",
  "<|endoftext|><|fim_prefix|><|fim_middle|><|fim_suffix|><|endofprompt|>",
  "👩‍👩‍👧‍👦 family, 🇫🇷 flag, 🧑🏽‍💻 coder",
  "汉字テキスト한국어 mixed with ASCII",
  "a".repeat(1500),
  " ".repeat(1200),
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

/**
 * Fragments that stress the pre-tokenizer and the merge: runs that make one long pre-token (the
 * heap path past SCAN_LIMIT bytes), scripts whose letters are 2–4 UTF-8 bytes, emoji sequences,
 * whitespace of every kind, contractions, digits, and the special-token markers.
 */
const FRAGMENTS = [
  "a", "A", "ab", "Ab", "=", "`", "-", "_", "/", "\\", "*", "#", "'", "'s", "'LL", ".", ",", "!?",
  " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u2028",
  "é", "e\u0301", "ß", "ǅ", "Ω", "ж", "汉", "字", "テ", "한", "ع", "ह", "\u0e01",
  "😀", "👩‍👩‍👧‍👦", "🇫🇷", "🧑🏽‍💻", "\ud83d", "\udc00", "\ufffd", "\u0000",
  "0", "12", "345", "<|endoftext|>", "<|fim_prefix|>", "hello", " world", "Done.",
];
const fragment = fc.constantFrom(...FRAGMENTS);
/**
 * A fragment repeated, so single-kind runs long enough for the heap merge come up often. Kept to
 * ~600 bytes: js-tiktoken's merge is quadratic (5 000 `a` take it seconds).
 */
const run = fc
  .tuple(fragment, fc.integer({ min: 1, max: 600 }))
  .map(([text, bytes]) => text.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(text)))));

describe("countTokens against js-tiktoken (fast-check)", () => {
  it("matches on random mixes of adversarial fragments and runs", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fragment, run), { maxLength: 8 }), (parts) => {
        const text = parts.join("");
        expect(countTokens(text)).toBe(referenceCount(text));
      }),
      { numRuns: 200 },
    );
  });

  it("matches on arbitrary Unicode strings, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => {
        expect(countTokens(text)).toBe(referenceCount(text));
      }),
      { numRuns: 300 },
    );
  });

  it("matches on pre-tokens of every length around the scan/heap boundary", () => {
    for (const unit of ["a", "=", " ", "`", "é", "ab", "😀", "x=", "汉"]) {
      for (let bytes = SCAN_LIMIT - 6; bytes <= SCAN_LIMIT + 6; bytes++) {
        const text = unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)));
        expect({ unit, bytes, tokens: countTokens(text) }).toEqual({ unit, bytes, tokens: referenceCount(text) });
      }
    }
  });

  it("matches on runs of one character as long as js-tiktoken counts quickly", () => {
    for (const unit of ["a", "A", " ", "=", "`", "-", "\n", "é", "😀", "汉", "ab", " a", "0"]) {
      const text = unit.repeat(1200 / unit.length);
      expect({ unit, tokens: countTokens(text) }).toEqual({ unit, tokens: referenceCount(text) });
    }
  });

  // gpt-tokenizer runs tiktoken's merge loop too (quadratic, but ~100x faster than js-tiktoken),
  // so it can check runs long enough for the heap to be deep.
  it("matches gpt-tokenizer's tiktoken loop on runs of 20 000 characters", () => {
    for (const unit of ["a", " ", "=", "`", "é", "😀", "ab", "\t "]) {
      const text = unit.repeat(20_000 / unit.length);
      expect({ unit, tokens: countTokens(text) }).toEqual({ unit, tokens: gptTokenizerCount(text, PLAIN) });
    }
  });
});

describe("one pre-token past the exactness limit", () => {
  it("is counted in pieces and flagged as not exact; shorter text is exact", () => {
    const encoder = new O200kEncoder(o200kRankTable(), 300);
    const long = "a".repeat(1000);
    // Cut into runs of 100 characters (the limit / 3 bytes, the most a UTF-16 unit can take).
    expect(encoder.count(long)).toEqual({ tokens: 10 * referenceCount("a".repeat(100)), exact: false });
    expect(encoder.count("a".repeat(100) + " b")).toEqual({ tokens: referenceCount("a".repeat(100) + " b"), exact: true });
    expect(countTokensChecked(long)).toEqual({ tokens: referenceCount(long), exact: true });
  });

  it("never splits a surrogate pair when cutting", () => {
    const encoder = new O200kEncoder(o200kRankTable(), 30);
    // One punctuation pre-token of 61 UTF-16 units cut every 10 units at most: the first cut
    // would fall inside the fifth emoji, so it comes one unit early.
    const text = "!" + "😀".repeat(30);
    const expected = referenceCount("!" + "😀".repeat(4)) + 5 * referenceCount("😀".repeat(5)) + referenceCount("😀");
    expect(encoder.count(text)).toEqual({ tokens: expected, exact: false });
  });
});

describe("TokenCounter.countJoined", () => {
  // Texts whose edges make pre-tokens run across a join: punctuation, slashes, line breaks,
  // contractions, digits, combining marks; half of them trimmed (the shape path), half not (a
  // text ending in white space takes the direct count).
  const edgy = fc
    .tuple(
      fc.array(fc.constantFrom("word", "W", ".", "/", "//", "\n", "\r\n", " ", "  ", "\t", "'s", "'", "12", "1234", "汉", "👩‍💻", ":", "é", "\u0301", "```", "\u00a0", "<|endoftext|>"), { minLength: 1, maxLength: 6 }),
      fc.boolean(),
    )
    .map(([parts, trim]) => (trim ? parts.join("").trim() : parts.join("")));
  it("equals counting the joined text, for any texts and separators", () => {
    fc.assert(
      fc.property(fc.array(edgy, { minLength: 1, maxLength: 7 }), fc.constantFrom("\n\n", "", " ", "\n", "\r\n", "\n\n/"), (texts, separator) => {
        expect(new TokenCounter().countJoined(texts, separator)).toBe(referenceCount(texts.join(separator)));
      }),
      { numRuns: 2000 },
    );
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
