import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseError, type SseEvent, SseParser } from "../../../src/run/models/sse.ts";

function parseAll(chunks: string[], parser = new SseParser()): SseEvent[] {
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

describe("SseParser", () => {
  it("follows the event-stream rules: fields, comments, multi-line data, one dropped space", () => {
    const text = [
      ": a comment",
      "event: delta",
      "data: first",
      "data:second",
      "data:  two spaces",
      "id: 7",
      "retry: 1000",
      "",
      "data",
      "",
      "",
      "event: ignored when no data",
      "",
      "data: last",
    ].join("\n");
    expect(parseAll([text])).toEqual([
      { event: "delta", data: "first\nsecond\n two spaces" },
      { event: "message", data: "" },
      { event: "message", data: "last" },
    ]);
  });

  it("treats a CR at the end of one chunk and an LF at the start of the next as one line end", () => {
    expect(parseAll(["data: a\r", "", "\ndata: b\r", "\n\r", "\n"])).toEqual([{ event: "message", data: "a\nb" }]);
  });

  it("refuses an event larger than its bound", () => {
    const parser = new SseParser(10);
    expect(() => parser.push("data: 0123456789abc\n")).toThrow(SseError);
    expect(() => new SseParser(10).push("data: 0123456789abc")).toThrow("an event-stream event exceeds 10 characters");
  });

  it("fuzz: any events, any line endings, any chunking parse back to the same events", () => {
    const line = fc.string({ unit: "binary", maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, "_"));
    const event = fc.record({ event: fc.constantFrom("message", "delta", "done"), data: fc.array(line, { minLength: 1, maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 8 }), fc.constantFrom("\n", "\r\n", "\r"), fc.array(fc.nat(), { maxLength: 10 }), (events, eol, cuts) => {
        const text = events.map((e) => `event: ${e.event}${eol}${e.data.map((d) => `data: ${d}${eol}`).join("")}${eol}`).join("");
        const points = [...new Set(cuts.map((cut) => (text.length === 0 ? 0 : cut % text.length)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let at = 0;
        for (const point of points) {
          chunks.push(text.slice(at, point));
          at = point;
        }
        chunks.push(text.slice(at));
        expect(parseAll(chunks)).toEqual(events.map((e) => ({ event: e.event, data: e.data.join("\n") })));
      }),
      { numRuns: 400 },
    );
  });
});
