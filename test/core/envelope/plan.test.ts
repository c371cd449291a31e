import { describe, expect, it } from "vitest";
import { extractSynthesisDimensions, PlanFormatError } from "../../../src/core/envelope/plan.ts";

const failure = (text: string): { code: string; line: number | null; message: string } => {
  try {
    extractSynthesisDimensions(text);
  } catch (error) {
    if (error instanceof PlanFormatError) return { code: error.code, line: error.line, message: error.message };
    throw error;
  }
  throw new Error("expected a PlanFormatError");
};

describe("extractSynthesisDimensions", () => {
  it("reads a list of names from front matter", () => {
    expect(extractSynthesisDimensions("---\ntitle: x\nsynthesis_dimensions: [a, b]\n---\n# Plan\n")).toEqual({ dimensions: ["a", "b"], source: "front-matter", line: 2 });
  });

  it("reads entries naming themselves by dimension, name, id or a single key", () => {
    const text = ["---", "synthesis_dimensions:", "  - dimension: a", "    prescribed: x", "  - name: b", "  - id: c", "  - d: secondary", "  - e", "  - a", "---", ""].join("\n");
    expect(extractSynthesisDimensions(text).dimensions).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("reads a mapping from a fenced yaml block, giving the block's first line", () => {
    const text = ["# Plan", "", "```yaml", "synthesis_dimensions:", "  placement: after X", "  cta_tier: secondary", "```", ""].join("\n");
    expect(extractSynthesisDimensions(text)).toEqual({ dimensions: ["placement", "cta_tier"], source: "fenced-block", line: 4 });
  });

  it("reads a plan written as a YAML document", () => {
    expect(extractSynthesisDimensions("title: x\nsynthesis_dimensions:\n  - a\n")).toEqual({ dimensions: ["a"], source: "document", line: 1 });
  });

  it("finds no block in a plan without one, and treats an empty block as no dimensions", () => {
    expect(extractSynthesisDimensions("# Plan\n\nJust prose.\n\n```ts\nconst x = 1;\n```\n")).toEqual({ dimensions: [], source: null, line: null });
    expect(extractSynthesisDimensions("---\nsynthesis_dimensions:\n---\n")).toEqual({ dimensions: [], source: "front-matter", line: 2 });
    expect(extractSynthesisDimensions("---\nsynthesis_dimensions: {}\n---\n").dimensions).toEqual([]);
  });

  it("skips fenced yaml blocks that do not hold the key", () => {
    const text = ["```yaml", "other: 1", "```", "", "```yml", "synthesis_dimensions: [z]", "```"].join("\n");
    expect(extractSynthesisDimensions(text)).toEqual({ dimensions: ["z"], source: "fenced-block", line: 6 });
  });

  it("accepts two blocks that agree and rejects two that differ", () => {
    const agree = "---\nsynthesis_dimensions: [a]\n---\n```yaml\nsynthesis_dimensions: [a]\n```\n";
    expect(extractSynthesisDimensions(agree).dimensions).toEqual(["a"]);
    expect(failure("---\nsynthesis_dimensions: [a]\n---\n```yaml\nsynthesis_dimensions: [b]\n```\n")).toEqual({
      code: "PLAN_FORMAT",
      line: 5,
      message: "the plan has two different synthesis_dimensions blocks (lines 2 and 5); keep one",
    });
  });

  it("refuses a synthesis_dimensions line it cannot read, rather than ignore it", () => {
    expect(failure("# Plan\n\nsynthesis_dimensions:\n- a\n\nProse that makes this no YAML document: [\n")).toEqual({
      code: "PLAN_FORMAT",
      line: 3,
      message:
        "line 3 has a synthesis_dimensions key that is not a top-level key of the front matter or of a fenced yaml block; move it to the top level of one so it can be read",
    });
    expect(failure("---\nplan:\n  synthesis_dimensions: [a]\n---\n").line).toBe(3);
  });

  it("names the line of a YAML error and of an unclosed front matter", () => {
    expect(failure("---\ntitle: x\nsynthesis_dimensions: [a\n---\n")).toEqual({
      code: "PLAN_FORMAT",
      line: 3,
      message: "the front-matter YAML starting on line 2 does not parse (line 3): Flow sequence in block collection must be sufficiently indented and end with a ]",
    });
    expect(failure("---\ntitle: x\n")).toEqual({ code: "PLAN_FORMAT", line: 1, message: "the front matter opened on line 1 is never closed: add a line with --- after it" });
  });

  it("turns an unresolved YAML alias into a PlanFormatError", () => {
    expect(failure("```yaml\nsynthesis_dimensions: *nowhere\n```\n")).toEqual({
      code: "PLAN_FORMAT",
      line: 2,
      message: "the fenced-block YAML starting on line 2 does not convert: Unresolved alias (the anchor must be set before the alias): nowhere",
    });
  });

  it("rejects entries that name no dimension and blocks of the wrong type", () => {
    expect(failure("---\nsynthesis_dimensions:\n  - {a: 1, b: 2}\n---\n").message).toBe(
      "synthesis_dimensions entry 1 (block near line 2) names no dimension: use a string, or a mapping with dimension:, name: or id:",
    );
    expect(failure("---\nsynthesis_dimensions: 3\n---\n").message).toBe("synthesis_dimensions (near line 2) must be a list or a mapping of dimension names; got number");
  });
});
