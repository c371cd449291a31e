import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { BUILTIN_SECTIONS } from "../../../src/core/prompt/builtins.ts";
import { SEPARATOR, compile, cutToFit } from "../../../src/core/prompt/compile.ts";
import { PackError } from "../../../src/core/prompt/errors.ts";
import type { PromptPack, PromptSection, SectionBudget } from "../../../src/core/prompt/types.ts";
import { renderReportingGuidance } from "../../../src/core/report/guidance.ts";
import { TokenCounter, contentHash } from "../../../src/core/tokens.ts";

const reference = new Tiktoken(o200kBase);
const tiktoken = (text: string): number => reference.encode(text, [], []).length;

function md(id: string, order: number, text: string, extra: Partial<PromptSection> = {}): PromptSection {
  return { id, order, stable: true, cut: "never", budget: {}, source: { kind: "markdown", text }, origin: `${id}.md`, ...extra };
}

const pack = (...sections: PromptSection[]): PromptPack => ({ name: "test", sections });

describe("compile", () => {
  it("puts stable sections in order, reporting last in the prefix, dynamic sections after", () => {
    const result = compile(
      pack(
        md("reporting", 1, "## Reporting\nReport."),
        md("workspace", 5, "Work in {{dir}}.", { stable: false }),
        md("b", 20, "B."),
        md("a", 10, "A."),
        md("a2", 10, "A2."),
        md("clock", 1, "Today is {{date}}.", { stable: false }),
      ),
      { dir: "/tmp/w", date: "2026-11-02" },
    );
    expect(result.sections.map((s) => [s.id, s.stable])).toEqual([
      ["a", true],
      ["a2", true],
      ["b", true],
      ["reporting", true],
      ["clock", false],
      ["workspace", false],
    ]);
    expect(result.stablePrefix).toBe("A.\n\nA2.\n\nB.\n\n## Reporting\nReport.");
    expect(result.text).toBe("A.\n\nA2.\n\nB.\n\n## Reporting\nReport.\n\nToday is 2026-11-02.\n\nWork in /tmp/w.");
    expect(result.prefixHash).toBe(contentHash(result.stablePrefix));
    expect(result.violations).toEqual([]);
  });

  it("returns whole, exact figures for a small pack", () => {
    const result = compile(pack(md("a", 1, "  Hello, world.\n\n"), md("reporting", 2, "Lead with the outcome.", { budget: { maxChars: 100 } })));
    expect(result).toEqual({
      text: "Hello, world.\n\nLead with the outcome.",
      stablePrefix: "Hello, world.\n\nLead with the outcome.",
      prefixHash: contentHash("Hello, world.\n\nLead with the outcome."),
      prefixChars: 37,
      prefixTokens: tiktoken("Hello, world.\n\nLead with the outcome."),
      prefixBudget: { maxChars: null, maxTokens: null },
      totalChars: 37,
      totalTokens: tiktoken("Hello, world.\n\nLead with the outcome."),
      sections: [
        { id: "a", order: 1, stable: true, origin: "a.md", chars: 13, tokens: tiktoken("Hello, world."), maxChars: null, maxTokens: null, over: false, cutFrom: null, hash: contentHash("Hello, world.") },
        {
          id: "reporting",
          order: 2,
          stable: true,
          origin: "reporting.md",
          chars: 22,
          tokens: tiktoken("Lead with the outcome."),
          maxChars: 100,
          maxTokens: null,
          over: false,
          cutFrom: null,
          hash: contentHash("Lead with the outcome."),
        },
      ],
      violations: [],
    });
  });

  it("reports an over-budget `never` section as a violation and leaves its text whole", () => {
    const text = "word ".repeat(50).trim();
    const result = compile(pack(md("a", 1, text, { budget: { maxChars: 20, maxTokens: 10 } })));
    expect(result.stablePrefix).toBe(text);
    expect(result.sections[0]?.over).toBe(true);
    expect(result.violations).toEqual([
      { kind: "over_budget", section: "a", origin: "a.md", limit: "maxChars", actual: 249, max: 20, message: 'section "a" is 249 characters, over its maxChars of 20; shorten it or raise its budget.' },
      { kind: "over_budget", section: "a", origin: "a.md", limit: "maxTokens", actual: 50, max: 10, message: 'section "a" is 50 o200k tokens, over its maxTokens of 10; shorten it or raise its budget.' },
    ]);
  });

  it("never cuts the reporting section, even when it says `cut: tail`", () => {
    const result = compile(pack(md("reporting", 1, "x".repeat(30), { cut: "tail", budget: { maxChars: 10 } })));
    expect(result.stablePrefix).toBe("x".repeat(30));
    expect(result.violations).toEqual([
      {
        kind: "over_budget",
        section: "reporting",
        origin: "reporting.md",
        limit: "maxChars",
        actual: 30,
        max: 10,
        message: 'section "reporting" is 30 characters, over its maxChars of 10 (the reporting section is never cut); shorten it or raise its budget.',
      },
    ]);
  });

  it("cuts a `tail` section to fit and records its size before the cut", () => {
    const text = "one two three four five six seven eight nine ten";
    const result = compile(pack(md("notes", 1, text, { cut: "tail", stable: false, budget: { maxTokens: 4 } })));
    expect(result.text).toBe("one two three four");
    expect(result.sections[0]).toMatchObject({ chars: 18, tokens: 4, over: false, cutFrom: { chars: text.length, tokens: 10 } });
    expect(result.violations).toEqual([]);
  });

  it("reports a stable prefix over the pack's prefix budget", () => {
    const result = compile({ ...pack(md("a", 1, "alpha beta"), md("b", 2, "gamma")), prefixBudget: { maxChars: 10, maxTokens: 100 } });
    expect(result.violations).toEqual([
      {
        kind: "prefix_over_budget",
        limit: "maxChars",
        actual: 17,
        max: 10,
        message: 'the stable prefix of "test" is 17 characters, over its maxChars of 10; shorten a section or raise the prefix budget.',
      },
    ]);
  });

  it("fills placeholders and reports missing inputs instead of throwing", () => {
    const result = compile(pack(md("a", 1, "Model {{ model }} in {{dir}}; {{model}} again.")), { model: "m1" });
    expect(result.text).toBe("Model m1 in {{dir}}; m1 again.");
    expect(result.violations).toEqual([
      {
        kind: "missing_input",
        section: "a",
        origin: "a.md",
        name: "dir",
        message: 'section "a" uses {{dir}} but no input "dir" was given; pass it (armstudy prompt show --input dir=VALUE) or remove the placeholder.',
      },
    ]);
  });

  it("does not read inherited object properties as inputs", () => {
    expect(compile(pack(md("a", 1, "{{toString}}"))).violations.map((v) => v.kind)).toEqual(["missing_input"]);
  });

  it("renders function sections with the inputs, and omits empty sections from the text", () => {
    const result = compile(
      pack(
        md("a", 1, "A."),
        { ...md("who", 2, ""), source: { kind: "render", name: "who", render: (inputs) => `Run ${inputs.run ?? "?"}.` } },
        { ...md("empty", 3, ""), source: { kind: "render", name: "empty", render: () => "  \n" } },
      ),
      { run: "7" },
    );
    expect(result.text).toBe("A.\n\nRun 7.");
    expect(result.sections.map((s) => [s.id, s.chars])).toEqual([
      ["a", 2],
      ["who", 6],
      ["empty", 0],
    ]);
  });

  it("offers the reporting guidance as the builtin `reporting`", () => {
    expect(BUILTIN_SECTIONS.reporting?.({})).toBe(renderReportingGuidance());
  });

  it("throws a PackError naming both origins for a duplicate id", () => {
    expect(() => compile(pack(md("a", 1, "x"), { ...md("a", 2, "y"), origin: "other.md" }))).toThrow(
      new PackError("DUPLICATE_SECTION", "other.md", "id", 'section "a" is also defined by a.md; give one of them another id.'),
    );
  });

  it("counts the stable prefix exactly even when a section starts with /", () => {
    const result = compile(pack(md("a", 1, "See:"), md("b", 2, "/// path/to/x")));
    expect(result.prefixTokens).toBe(tiktoken(result.stablePrefix));
  });

  it("recounts only the changed section when given the same counter", () => {
    const counter = new TokenCounter();
    const sections = [md("identity", 1, "You are an agent."), md("autonomy", 2, "Keep going until done."), md("todo", 3, "The list is progress."), md("reporting", 4, "Lead with the outcome.")];
    const first = compile(pack(...sections), {}, { counter });
    // Cold: each section's text once (render), then the prefix join reuses all four.
    expect(counter.stats()).toEqual({ hits: 4, misses: 4, size: 4 });

    const again = compile(pack(...sections), {}, { counter });
    expect(again).toEqual(first);
    expect(counter.stats()).toEqual({ hits: 12, misses: 4, size: 4 });

    const changed = sections.map((s) => (s.id === "autonomy" ? md("autonomy", 2, "Keep going until the request is done.") : s));
    const second = compile(pack(...changed), {}, { counter });
    // Only the changed section's text is counted again, once.
    expect(counter.stats()).toEqual({ hits: 19, misses: 5, size: 5 });
    const differing = second.sections.filter((s, i) => JSON.stringify(s) !== JSON.stringify(first.sections[i])).map((s) => s.id);
    expect(differing).toEqual(["autonomy"]);
    expect(second.prefixHash).not.toBe(first.prefixHash);
    expect(second.prefixTokens).toBe(tiktoken(second.stablePrefix));
  });
});

/** Section texts that stress the tokenizer at section joins: punctuation, slashes, markers, CJK. */
const sectionText = fc
  .array(fc.constantFrom("word", "Word", " ", "\n", "\n\n", ".", "/", "//", "#", "##", "`", "'s", "<|endoftext|>", "汉字", "👩‍💻", "12345", "\t", "-", ":", "é", "\u0301"), { maxLength: 14 })
  .map((parts) => parts.join(""));

describe("compile properties", () => {
  it("is pure: equal input gives byte-identical output, and counts equal js-tiktoken's", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(sectionText, fc.integer({ min: 0, max: 5 }), fc.boolean()), { minLength: 1, maxLength: 6 }), (specs) => {
        const sections = specs.map(([text, order, stable], i) => md(i === 0 ? "reporting" : `s${i}`, order, text, { stable: i === 0 || stable }));
        const a = compile(pack(...sections));
        const b = compile(pack(...sections.map((s) => ({ ...s }))), {}, { counter: new TokenCounter() });
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        expect(a.prefixTokens).toBe(tiktoken(a.stablePrefix));
        expect(a.totalTokens).toBe(tiktoken(a.text));
        const byId = new Map(specs.map(([text], i) => [i === 0 ? "reporting" : `s${i}`, text.trim()]));
        for (const s of a.sections) expect([s.id, s.tokens]).toEqual([s.id, tiktoken(byId.get(s.id) ?? "")]);
      }),
      { numRuns: 300 },
    );
  });

  // Joins where pre-tokens run across the separator: punctuation before it, slashes and newlines
  // after it, sections of one or two pre-tokens (a join can swallow a whole section), markers.
  it("counts any join of trimmed sections exactly, one count per section", () => {
    const edgy = fc
      .array(fc.constantFrom("word", "W", ".", "/", "//", "/*", "*/", "\n", "\r\n", " ", "'s", "'", "12", "1234", "<|endoftext|>", "汉", "👩‍💻", ":", "-", "é", "\u0301", "```"), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.join("").trim())
      .filter((text) => text !== "");
    fc.assert(
      fc.property(fc.array(edgy, { minLength: 1, maxLength: 7 }), (texts) => {
        const counter = new TokenCounter();
        expect(counter.countJoined(texts, SEPARATOR)).toBe(tiktoken(texts.join(SEPARATOR)));
        expect(counter.stats().misses).toBe(new Set(texts).size);
      }),
      { numRuns: 1000 },
    );
  });

  it("joins pieces without changing the count, except before a slash", () => {
    const trimmed = sectionText.map((t) => t.trim()).filter((t) => t !== "" && !t.startsWith("/"));
    fc.assert(
      fc.property(trimmed, trimmed, (a, b) => {
        expect(tiktoken(a + SEPARATOR) + tiktoken(b)).toBe(tiktoken(a + SEPARATOR + b));
      }),
      { numRuns: 500 },
    );
  });

  it("cuts to the longest head that fits, never splitting a surrogate pair", () => {
    const budget = fc.record({ maxChars: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }), maxTokens: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }) });
    fc.assert(
      fc.property(sectionText, budget, (text, b: SectionBudget) => {
        const cut = cutToFit(text, b);
        expect(text.startsWith(cut)).toBe(true);
        if (b.maxChars !== undefined) expect(cut.length).toBeLessThanOrEqual(b.maxChars);
        if (b.maxTokens !== undefined) expect(tiktoken(cut)).toBeLessThanOrEqual(b.maxTokens);
        expect(/[\uD800-\uDBFF]$/.test(cut)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

