import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PackError } from "../../../src/core/prompt/errors.ts";
import { parseSectionFile } from "../../../src/core/prompt/front-matter.ts";

/** The error a parse throws, as a plain value (code, file, field, message). */
function failure(text: string): { code: string; file: string; field: string; message: string } | "parsed" {
  try {
    parseSectionFile(text, "arms/x/sections/a.md");
    return "parsed";
  } catch (error) {
    if (!(error instanceof PackError)) throw error;
    return { code: error.code, file: error.file, field: error.field, message: error.message };
  }
}

describe("parseSectionFile", () => {
  it("reads the fields and the trimmed body", () => {
    const text = "---\nid: work-slice\norder: 80\nstable: false\ncut: tail\ntitle: Long work\n---\n\n## Long work\n\nText.\n\n";
    expect(parseSectionFile(text, "a.md")).toEqual({ id: "work-slice", order: 80, stable: false, cut: "tail", title: "Long work", body: "## Long work\n\nText." });
  });

  it("fills defaults: stable, never cut, no title", () => {
    expect(parseSectionFile("---\nid: a\norder: 1.5\n---\nbody", "a.md")).toEqual({ id: "a", order: 1.5, stable: true, cut: "never", body: "body" });
  });

  it("accepts a byte-order mark, CRLF line endings and spaces after the fence", () => {
    expect(parseSectionFile("\uFEFF--- \r\nid: a\r\norder: 2\r\n---\t\r\nline 1\r\nline 2\r\n", "a.md")).toEqual({
      id: "a",
      order: 2,
      stable: true,
      cut: "never",
      body: "line 1\nline 2",
    });
  });

  it("keeps a later --- line (a markdown rule) in the body", () => {
    expect(parseSectionFile("---\nid: a\norder: 1\n---\nabove\n---\nbelow", "a.md").body).toBe("above\n---\nbelow");
  });

  it.each([
    [
      "no front matter",
      "## Just markdown\n",
      {
        code: "FRONT_MATTER",
        field: "front matter",
        message:
          "arms/x/sections/a.md: front matter: missing: the file must start with a line `---`, then the fields `id:` and `order:`, then a closing `---` line.",
      },
    ],
    [
      "an unclosed block",
      "---\nid: a\norder: 1\n## body",
      { code: "FRONT_MATTER", field: "front matter", message: "arms/x/sections/a.md: front matter: not closed: add a line `---` after the last front-matter field." },
    ],
    [
      "broken YAML",
      "---\nid: a\norder: [1\n---\nbody",
      {
        code: "YAML",
        field: "front matter (line 3)",
        message:
          "arms/x/sections/a.md: front matter (line 3): is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]. Fix the syntax (fields are `name: value`, indented with spaces).",
      },
    ],
    [
      "a missing id",
      "---\norder: 1\n---\nbody",
      { code: "FIELD", field: "front matter.id", message: "arms/x/sections/a.md: front matter.id: is required but missing; add it." },
    ],
    [
      "an order that is not a number",
      "---\nid: a\norder: first\n---\nbody",
      { code: "FIELD", field: "front matter.order", message: "arms/x/sections/a.md: line 3: front matter.order: expected number, received string; fix the value." },
    ],
    [
      "a bad id",
      "---\nid: Work Slice\norder: 1\n---\nbody",
      {
        code: "FIELD",
        field: "front matter.id",
        message:
          "arms/x/sections/a.md: line 2: front matter.id: must be lower-case letters, digits and dashes, starting with a letter (e.g. work-slice); fix the value.",
      },
    ],
    [
      "an unknown cut rule",
      "---\nid: a\norder: 1\ncut: middle\n---\nbody",
      { code: "FIELD", field: "front matter.cut", message: 'arms/x/sections/a.md: line 4: front matter.cut: expected one of "never"|"tail"; fix the value.' },
    ],
    [
      "an unknown field",
      "---\nid: a\norder: 1\nstabel: true\n---\nbody",
      {
        code: "FIELD",
        field: "front matter.stabel",
        message: "arms/x/sections/a.md: line 4: front matter.stabel: unknown field; remove it or fix its spelling. Known fields here: id, order, stable, cut, title.",
      },
    ],
    [
      "front matter that is a list",
      "---\n- id: a\n---\nbody",
      { code: "FIELD", field: "front matter", message: "arms/x/sections/a.md: line 2: front matter: expected object, received array; fix the value." },
    ],
  ])("names the file, the line and the field for %s", (_name, text, expected) => {
    expect(failure(text)).toEqual({ file: "arms/x/sections/a.md", ...expected });
  });

  it("reports the file's line number for a YAML error", () => {
    // Line 1 is the opening fence, so the third YAML line (a tab indent) is line 4 of the file.
    expect(failure("---\nid: a\norder: 1\n\tx: 1\n---\nbody")).toEqual({
      code: "YAML",
      file: "arms/x/sections/a.md",
      field: "front matter (line 4)",
      message:
        "arms/x/sections/a.md: front matter (line 4): is not valid YAML: Tabs are not allowed as indentation. Fix the syntax (fields are `name: value`, indented with spaces).",
    });
  });

  it("never throws anything but a PackError, on any text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map((s) => `---\n${s}\n---\n${s}`), fc.string().map((s) => `---\nid: a\norder: 1\n${s}`)), (text) => {
        failure(text); // rethrows anything that is not a PackError
      }),
      { numRuns: 300 },
    );
  });

  it("reads back whatever valid fields and body it is given", () => {
    const id = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
    const body = fc.string().map((s) => s.replace(/\r/g, "").trim()).filter((s) => !/^---[ \t]*$/m.test(s));
    fc.assert(
      fc.property(id, fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.constantFrom("never" as const, "tail" as const), body, (id, order, stable, cut, body) => {
        const text = `---\nid: ${id}\norder: ${order}\nstable: ${stable}\ncut: ${cut}\n---\n${body}\n`;
        expect(parseSectionFile(text, "a.md")).toEqual({ id, order, stable, cut, body });
      }),
      { numRuns: 200 },
    );
  });
});
