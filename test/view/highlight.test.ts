import { describe, expect, it } from "vitest";
import { highlightCode, highlightPatch } from "../../src/view/page/highlight.ts";
import { compareHref, parseRoute, runHref } from "../../src/view/page/routes.ts";

describe("highlightCode", () => {
  it("classes keywords, strings, numbers and comments", () => {
    expect(highlightCode('const x = "a\\"b" + 42; // why')).toEqual([
      { text: "const", cls: "kw" },
      { text: " x = ", cls: null },
      { text: '"a\\"b"', cls: "str" },
      { text: " + ", cls: null },
      { text: "42", cls: "num" },
      { text: "; ", cls: null },
      { text: "// why", cls: "com" },
    ]);
    expect(highlightCode(" * a doc line")).toEqual([{ text: " * a doc line", cls: "com" }]);
    expect(highlightCode("'open")).toEqual([{ text: "'open", cls: "str" }]);
  });

  it("splits a patch into file, hunk, added, removed and context lines", () => {
    expect(highlightPatch("diff --git a/x b/x\n@@ -1 +1 @@\n-let a\n+let b\n same\n\\ No newline at end of file\n").map((line) => [line.kind, line.marker, line.tokens.map((t) => t.text).join("")])).toEqual([
      ["file", "", "diff --git a/x b/x"],
      ["hunk", "", "@@ -1 +1 @@"],
      ["del", "-", "let a"],
      ["add", "+", "let b"],
      ["ctx", " ", "same"],
      ["meta", "", "\\ No newline at end of file"],
    ]);
  });
});

describe("routes", () => {
  it("round-trips run and compare links, with odd arm names", () => {
    expect(parseRoute(runHref({ arm: "a/b c#", runIndex: 3 }, 17))).toEqual({ view: "run", arm: "a/b c#", runIndex: 3, task: null, step: 17 });
    expect(parseRoute(runHref({ arm: "goal", runIndex: 2, task: "csv:quotes" }))).toEqual({ view: "run", arm: "goal", runIndex: 2, task: "csv:quotes", step: null });
    expect(parseRoute(compareHref({ arm: "ordinary", runIndex: 1 }, { arm: "goal", runIndex: 1 }, 4))).toEqual({ view: "compare", a: { arm: "ordinary", runIndex: 1, task: null }, b: { arm: "goal", runIndex: 1, task: null }, row: 4 });
    expect(parseRoute("#run/x/notanumber")).toEqual({ view: "study" });
    expect(parseRoute("#run/%E0%A4%A/1")).toEqual({ view: "study" });
    expect(parseRoute("")).toEqual({ view: "study" });
  });
});
