import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RunEvent } from "../../src/run/record.ts";
import { readRecord, readRecordFile, type RecordWarning } from "../../src/run/record-reader.ts";
import { RecordWriter } from "../../src/run/record-writer.ts";
import { arbitraryEvent, SAMPLE_EVENTS } from "./record-events.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "armstudy-record-reader-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const line = (event: unknown): string => JSON.stringify(RunEvent.parse(event));
/** The engine's own JSON.parse message (it differs between Node versions). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected invalid JSON");
}

const parsed = SAMPLE_EVENTS.map((event) => RunEvent.parse(event));

async function* chunksOf(bytes: Buffer, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut <= at || cut >= bytes.length) continue;
    yield new Uint8Array(bytes.subarray(at, cut));
    at = cut;
  }
  yield new Uint8Array(bytes.subarray(at));
}

describe("readRecord", () => {
  it("reads back what the writer wrote, with no warnings", async () => {
    const path = join(dir, "run.jsonl");
    const writer = await RecordWriter.open(path);
    for (const event of SAMPLE_EVENTS) await writer.write(event);
    await writer.close();
    expect(await readRecordFile(path)).toEqual({ events: parsed, warnings: [] });
  });

  it("reports bad lines in the middle with their line numbers and keeps going", async () => {
    const path = join(dir, "run.jsonl");
    const text = [
      line(SAMPLE_EVENTS[0]),
      "{not json",
      line(SAMPLE_EVENTS[1]),
      JSON.stringify({ t: 3, type: "model.explode" }),
      "",
      JSON.stringify({ t: 4, type: "assistant.text", text: "x" }),
      "[1,2]",
      line(SAMPLE_EVENTS[2]),
      "",
    ].join("\n");
    writeFileSync(path, text);
    const { events, warnings } = await readRecordFile(path);
    expect(events).toEqual([parsed[0], parsed[1], parsed[2]]);
    expect(warnings).toEqual([
      { kind: "invalid_json", line: 2, message: `${path}:2: not valid JSON (${jsonError("{not json")}); skipped` },
      {
        kind: "invalid_event",
        line: 4,
        message: `${path}:4: unknown event type "model.explode" (a newer armstudy, or not a run record); skipped`,
      },
      {
        kind: "invalid_event",
        line: 6,
        message: `${path}:6: event "assistant.text" is not a valid run-record event: field final: Invalid input: expected boolean, received undefined; skipped`,
      },
      { kind: "invalid_event", line: 7, message: `${path}:7: value is not a valid run-record event: event: Invalid input: expected object, received array; skipped` },
    ]);
  });

  it("reports a truncated last line (an interrupted writer) and keeps the lines before it", async () => {
    const path = join(dir, "run.jsonl");
    const full = line(SAMPLE_EVENTS[3]);
    writeFileSync(path, `${line(SAMPLE_EVENTS[0])}\n${line(SAMPLE_EVENTS[1])}\n${full.slice(0, full.length - 7)}`);
    expect(await readRecordFile(path)).toEqual({
      events: [parsed[0], parsed[1]],
      warnings: [
        {
          kind: "truncated",
          line: 3,
          message: `${path}:3: last line is cut off (no newline, not valid JSON): the writer was probably interrupted; skipped`,
        },
      ],
    });
  });

  it("accepts a complete last line without a newline, CRLF endings and a BOM", async () => {
    const path = join(dir, "run.jsonl");
    writeFileSync(path, `\uFEFF${line(SAMPLE_EVENTS[0])}\r\n\r\n${line(SAMPLE_EVENTS[1])}\r\n${line(SAMPLE_EVENTS[5])}`);
    expect(await readRecordFile(path)).toEqual({ events: [parsed[0], parsed[1], parsed[5]], warnings: [] });
  });

  it("does not split on U+2028/U+2029 (unlike readline)", async () => {
    const event = { t: 0, type: "assistant.text", text: "a\u2028b\u2029c\u0085d", final: false };
    const text = `${JSON.stringify(event)}\n`;
    expect(text.includes("\u2028")).toBe(true);
    const { events, warnings } = await readRecordFile(chunksOf(Buffer.from(text), []));
    expect({ events, warnings }).toEqual({ events: [event], warnings: [] });
  });

  it("skips an over-long line without keeping it, and reads on", async () => {
    const long = { t: 0, type: "note", level: "info", text: "x".repeat(500) };
    const text = `${line(SAMPLE_EVENTS[0])}\n${JSON.stringify(long)}\n${line(SAMPLE_EVENTS[1])}\n`;
    const bytes = Buffer.from(text);
    const cuts = Array.from({ length: 60 }, (_, i) => i * 17);
    expect(await readRecordFile(chunksOf(bytes, cuts), { maxLineBytes: 300, label: "big.jsonl" })).toEqual({
      events: [parsed[0], parsed[1]],
      warnings: [
        {
          kind: "too_long",
          line: 2,
          message: `big.jsonl:2: line of ${JSON.stringify(long).length} bytes is longer than the 300-byte limit; skipped`,
        },
      ],
    });
  });

  it("reports a line that is not UTF-8", async () => {
    const bytes = Buffer.concat([Buffer.from(`${line(SAMPLE_EVENTS[0])}\n`), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), Buffer.from(`${line(SAMPLE_EVENTS[1])}\n`)]);
    expect(await readRecordFile(chunksOf(bytes, []))).toEqual({
      events: [parsed[0], parsed[1]],
      warnings: [{ kind: "invalid_utf8", line: 2, message: "record:2: line is not valid UTF-8; skipped" }],
    });
  });

  it("reads a stream cut into one-byte chunks, multi-byte characters included", async () => {
    const bytes = Buffer.from(SAMPLE_EVENTS.map((event) => `${line(event)}\n`).join(""));
    const cuts = Array.from({ length: bytes.length }, (_, i) => i);
    expect(await readRecordFile(chunksOf(bytes, cuts))).toEqual({ events: parsed, warnings: [] });
  });

  it("streams: yields the first event before the source has ended", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* slow(): AsyncGenerator<string> {
      yield `${line(SAMPLE_EVENTS[0])}\n`;
      await gate;
      yield `${line(SAMPLE_EVENTS[1])}\n`;
    }
    const iterator = readRecord(slow());
    expect((await iterator.next()).value).toEqual(parsed[0]);
    release();
    expect((await iterator.next()).value).toEqual(parsed[1]);
    expect((await iterator.next()).done).toBe(true);
  });

  it("fuzz: any mix of events, garbage and blank lines, cut anywhere, yields the events in order and one warning per bad line", async () => {
    const garbage = fc.oneof(
      fc.string({ unit: "binary", maxLength: 30 }).map((s) => `#${s.replace(/\n/g, " ")}`),
      fc.string({ unit: "grapheme", maxLength: 10 }).map((s) => JSON.stringify({ t: 1, type: `bogus.${s}` })),
      fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== "object" || v === null || Array.isArray(v)).map((v) => JSON.stringify(v) ?? "null"),
    );
    const item = fc.oneof(
      { arbitrary: arbitraryEvent.map((event) => ({ kind: "event" as const, event })), weight: 3 },
      { arbitrary: garbage.map((text) => ({ kind: "garbage" as const, text })), weight: 1 },
      { arbitrary: fc.constantFrom("", " ", "\t", "\r").map((text) => ({ kind: "blank" as const, text })), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 25 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), async (items, cuts, trailingNewline) => {
        const texts = items.map((entry) => (entry.kind === "event" ? line(entry.event) : entry.text));
        let text = texts.join("\n");
        if (trailingNewline && texts.length > 0) text += "\n";
        const bytes = Buffer.from(text, "utf8");
        const { events, warnings } = await readRecordFile(
          chunksOf(
            bytes,
            cuts.map((cut) => (bytes.length === 0 ? 0 : cut % bytes.length)),
          ),
        );
        const expectedEvents = items.flatMap((entry) => (entry.kind === "event" ? [RunEvent.parse(entry.event)] : []));
        const expectedLines = items.flatMap((entry, index) => (entry.kind === "garbage" ? [index + 1] : []));
        expect(events).toEqual(expectedEvents);
        expect(warnings.map((warning: RecordWarning) => warning.line)).toEqual(expectedLines);
        const lastIsGarbage = items.at(-1)?.kind === "garbage" && !trailingNewline;
        expect(warnings.filter((warning) => warning.kind === "truncated").length).toBeLessThanOrEqual(lastIsGarbage ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });
});
