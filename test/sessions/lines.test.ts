import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLines } from "../../src/sessions/lines.ts";

async function collect(chunks: Array<Uint8Array | string>, maxLineBytes?: number): Promise<Array<{ lineNo: number; text?: string; bytes?: number }>> {
  async function* source() {
    for (const c of chunks) yield c;
  }
  const out: Array<{ lineNo: number; text?: string; bytes?: number }> = [];
  for await (const line of readLines(source(), maxLineBytes === undefined ? {} : { maxLineBytes })) {
    out.push("overlong" in line ? { lineNo: line.lineNo, bytes: line.bytes } : { lineNo: line.lineNo, text: line.text });
  }
  return out;
}

describe("readLines: LF framing by hand", () => {
  it("splits on LF only: U+2028 and U+2029 stay inside their line, CR before LF is dropped", async () => {
    expect(await collect(['{"a":"x\u2028y"}\r\n{"b":"\u2029"}\nlast'])).toEqual([
      { lineNo: 1, text: '{"a":"x\u2028y"}' },
      { lineNo: 2, text: '{"b":"\u2029"}' },
      { lineNo: 3, text: "last" },
    ]);
  });

  it("joins a line split across chunks, including a multi-byte character cut in half", async () => {
    const bytes = Buffer.from('{"t":"é€😀"}\n{"u":1}\n', "utf8");
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(await collect([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([
        { lineNo: 1, text: '{"t":"é€😀"}' },
        { lineNo: 2, text: '{"u":1}' },
      ]);
    }
  });

  it("skips a line over the limit and reports its number and size, then carries on", async () => {
    expect(await collect(["short\n", "x".repeat(10), "y".repeat(10), "\nafter\n"], 15)).toEqual([
      { lineNo: 1, text: "short" },
      { lineNo: 2, bytes: 20 },
      { lineNo: 3, text: "after" },
    ]);
    expect(await collect(["ok\n", "z".repeat(40)], 15)).toEqual([
      { lineNo: 1, text: "ok" },
      { lineNo: 2, bytes: 40 },
    ]);
  });

  it("an empty stream has no lines; a lone LF is one empty line", async () => {
    expect(await collect([])).toEqual([]);
    expect(await collect(["\n"])).toEqual([{ lineNo: 1, text: "" }]);
  });

  it("property: any text cut into any chunks gives the lines of text.split('\\n')", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 200 }), fc.array(fc.nat(), { maxLength: 8 }), async (text, cuts) => {
        const bytes = Buffer.from(text, "utf8");
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks: Uint8Array[] = [];
        let prev = 0;
        for (const p of points) {
          chunks.push(bytes.subarray(prev, p));
          prev = p;
        }
        chunks.push(bytes.subarray(prev));
        const expected = text.split("\n").map((t) => (t.endsWith("\r") ? t.slice(0, -1) : t));
        if (text.endsWith("\n")) expected.pop();
        if (text.length === 0) expected.pop();
        const got = await collect(chunks);
        expect(got.map((l) => l.text)).toEqual(expected);
        expect(got.map((l) => l.lineNo)).toEqual(expected.map((_, i) => i + 1));
      }),
      { numRuns: 200 },
    );
  });
});
