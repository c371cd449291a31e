/**
 * The small parsers the history reader adds, fuzzed: pi's tree-entry head reader agrees with a
 * full JSON parse, the edited-file reader and the date bounds never throw, and the row filter
 * keeps exactly the sessions inside the bounds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { checklistTexts, filesEditedBy } from "../../src/measure/edits.ts";
import { filterOut, parseDateBound } from "../../src/measure/session-rows.ts";
import { piTreeEntry } from "../../src/sessions/formats/pi.ts";
import { FIXTURES } from "./scan.ts";

describe("pi tree entries", () => {
  it("the line-head reader gives the same id and parent as JSON.parse, for any ids and entry types", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.option(fc.string(), { nil: null }), fc.dictionary(fc.string(), fc.jsonValue()), (type, id, parentId, rest) => {
        const line = JSON.stringify({ type, id, parentId, ...Object.fromEntries(Object.entries(rest).filter(([k]) => !["type", "id", "parentId"].includes(k))) });
        expect(piTreeEntry(line)).toEqual({ id, parentId });
      }),
      { numRuns: 500 },
    );
  });

  it("anything else is not an entry, and nothing throws", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const e = piTreeEntry(text);
        expect(e === null || typeof e.id === "string").toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(piTreeEntry('{"type":"session","version":3,"id":"x","cwd":"/"}')).toBe(null);
    expect(piTreeEntry('{"parentId":"a","id":"b","type":"message"}')).toEqual({ id: "b", parentId: "a" });
  });
});

describe("edited files and checklists", () => {
  it("never throw on any arguments", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (args, name) => {
        expect(Array.isArray(filesEditedBy(args))).toBe(true);
        const texts = checklistTexts(name, args);
        expect(texts === null || texts.every((t) => typeof t === "string")).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("--since / --until bounds", () => {
  it("a day is midnight UTC; --until includes the day; an ISO time is taken as it is; anything else is null", () => {
    expect(parseDateBound("2026-11-29", false)).toBe(Date.parse("2026-11-29T00:00:00Z"));
    expect(parseDateBound("2026-11-29", true)).toBe(Date.parse("2026-11-30T00:00:00Z"));
    expect(parseDateBound("2026-11-29T20:10:00+01:00", false)).toBe(Date.parse("2026-11-29T19:10:00Z"));
    fc.assert(fc.property(fc.string(), (text) => {
      const t = parseDateBound(text, false);
      expect(t === null || Number.isFinite(t)).toBe(true);
    }));
  });

  it("a row is kept exactly when since ≤ start < until", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 4e12 }), (start, since, until) => {
        const kept = filterOut({ startedAt: new Date(start).toISOString(), project: null }, { since, until }) === null;
        expect(kept).toBe(since <= start && start < until);
      }),
      { numRuns: 500 },
    );
  });
});

describe("the progress line", () => {
  it("is written to stderr on a terminal only, and ends with a newline", async () => {
    const tty = memoryIO({ cwd: FIXTURES, isTTY: true });
    expect(await main(["analyze", "offline-real-clients", "--csv", "--workers", "1"], tty)).toBe(0);
    const progress = tty.err.filter((l) => l.startsWith("\r"));
    expect(progress.at(-1)).toMatch(/^\r12 files, 12 sessions, \d+ files\/s\n$/);
    const pipe = memoryIO({ cwd: FIXTURES, isTTY: false });
    expect(await main(["analyze", "offline-real-clients", "--csv", "--workers", "1"], pipe)).toBe(0);
    expect(pipe.err.filter((l) => l.startsWith("\r"))).toEqual([]);
  });
});
