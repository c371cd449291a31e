import { describe, expect, it } from "vitest";
import { EnvelopeTextError, parseEnvelopeText } from "../../../src/core/envelope/document.ts";

const failure = (text: string): { code: string; line: number | null; message: string } => {
  try {
    parseEnvelopeText(text);
  } catch (error) {
    if (error instanceof EnvelopeTextError) return { code: error.code, line: error.line, message: error.message };
    throw error;
  }
  throw new Error("expected an EnvelopeTextError");
};

describe("parseEnvelopeText", () => {
  it("unwraps YAML under envelope:", () => {
    expect(parseEnvelopeText("envelope:\n  branch: x\n  loc_added: 3\n")).toEqual({ envelope: { branch: "x", loc_added: 3 }, wrapped: true, source: "yaml", warnings: [] });
  });

  it("reads wrapped and bare JSON", () => {
    expect(parseEnvelopeText('{"envelope": {"branch": "x"}}')).toEqual({ envelope: { branch: "x" }, wrapped: true, source: "json", warnings: [] });
    expect(parseEnvelopeText('\uFEFF  {"branch": "x"}')).toEqual({ envelope: { branch: "x" }, wrapped: false, source: "json", warnings: [] });
  });

  it("reads a YAML flow mapping that is not JSON", () => {
    expect(parseEnvelopeText("{envelope: {branch: x}}")).toEqual({ envelope: { branch: "x" }, wrapped: true, source: "yaml", warnings: [] });
  });

  it("keeps YAML 1.2 scalars as the contract writes them", () => {
    expect(parseEnvelopeText("envelope:\n  a: n/a\n  b: no\n  c: 0x10\n  d: ~\n  e: '4f1c2a9'\n").envelope).toEqual({ a: "n/a", b: "no", c: 16, d: null, e: "4f1c2a9" });
  });

  it("warns about keys beside the wrapper and passes a non-mapping wrapper on to the check", () => {
    expect(parseEnvelopeText("envelope:\n  branch: x\nmeta: 1\n")).toEqual({
      envelope: { branch: "x" },
      wrapped: true,
      source: "yaml",
      warnings: [{ rule: "NOTE", path: "", message: "top-level key(s) beside envelope: are ignored: meta" }],
    });
    expect(parseEnvelopeText("envelope: 5\n").envelope).toBe(5);
  });

  it("finds the envelope in a reply's fenced block, the last one when there are several", () => {
    const reply = ["Done.", "", "```yaml", "envelope:", "  branch: first", "```", "", "Revised:", "", "```yml", "envelope:", "  branch: second", "```", "", "```json", '{"not": "it"}', "```"].join("\n");
    expect(parseEnvelopeText(reply)).toEqual({
      envelope: { branch: "second" },
      wrapped: true,
      source: "fenced-block",
      warnings: [{ rule: "NOTE", path: "", message: "the text has 2 fenced blocks with an envelope: key; the last one was read" }],
    });
  });

  it("names the line of a syntax error", () => {
    expect(failure("envelope:\n  a: 1\n  a: 2\n")).toEqual({ code: "ENVELOPE_UNREADABLE", line: 3, message: "does not parse as YAML (line 3): Map keys must be unique" });
    // A trailing comma is fine (it reads as a YAML flow mapping); a missing comma is not.
    expect(parseEnvelopeText('{\n  "branch": "x",\n}\n').envelope).toEqual({ branch: "x" });
    expect(failure('{\n  "branch": "x"\n  "notes": ""\n}\n')).toEqual({
      code: "ENVELOPE_UNREADABLE",
      line: 3,
      // The tail is Node's own JSON message, which varies between Node versions.
      message: expect.stringMatching(/^does not parse as JSON \(line 3\): \S/) as unknown as string,
    });
  });

  it("refuses an unresolved alias", () => {
    expect(failure("envelope: *nowhere\n")).toEqual({ code: "ENVELOPE_UNREADABLE", line: null, message: "does not convert from YAML: Unresolved alias (the anchor must be set before the alias): nowhere" });
  });

  it("refuses text with no mapping in it", () => {
    const none = "holds no envelope: expected a mapping — YAML with an envelope: wrapper, JSON, or a reply with a fenced yaml block holding envelope:";
    expect(failure("just a sentence\n")).toEqual({ code: "ENVELOPE_UNREADABLE", line: null, message: none });
    expect(failure("- a\n- b\n")).toEqual({ code: "ENVELOPE_UNREADABLE", line: null, message: none });
    expect(failure(" \n")).toEqual({ code: "ENVELOPE_UNREADABLE", line: null, message: "is empty: expected an envelope (YAML with an envelope: wrapper, or JSON)" });
  });
});
