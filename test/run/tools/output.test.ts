import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capMiddle, HeadTailCollector } from "../../../src/run/tools/output.ts";

describe("output capping", () => {
  it("leaves text that fits alone and marks a cut with its size", () => {
    expect(capMiddle("abcdef", 6)).toBe("abcdef");
    expect(capMiddle("abcdefghij", 4)).toBe("ab\n[… 6 characters elided …]\nij");
  });

  it("a streamed collector equals capping the whole text, however the text is chunked", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 30 }), fc.integer({ min: 1, max: 120 }), (chunks, limit) => {
        const collector = new HeadTailCollector(limit);
        for (const chunk of chunks) collector.push(chunk);
        expect(collector.text()).toBe(capMiddle(chunks.join(""), limit));
      }),
    );
  });

  it("keeps exactly `limit` characters of the original around the marker", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 500 }), fc.integer({ min: 2, max: 100 }), (text, limit) => {
        const capped = capMiddle(text, limit);
        if (text.length <= limit) {
          expect(capped).toBe(text);
          return;
        }
        const marker = `\n[… ${text.length - limit} characters elided …]\n`;
        const at = capped.indexOf(marker, Math.floor(limit / 2));
        expect(capped.slice(0, at) + capped.slice(at + marker.length)).toBe(text.slice(0, Math.floor(limit / 2)) + text.slice(text.length - (limit - Math.floor(limit / 2))));
      }),
    );
  });
});
