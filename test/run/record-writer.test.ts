import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RunEvent } from "../../src/run/record.ts";
import { RecordWriter, RecordWriterError, serializeEvent } from "../../src/run/record-writer.ts";
import { SAMPLE_EVENTS } from "./record-events.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "armstudy-record-writer-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const lines = (path: string): string[] => readFileSync(path, "utf8").split("\n");

describe("RecordWriter", () => {
  it("writes one validated event per LF-terminated line, defaults filled", async () => {
    const path = join(dir, "run.jsonl");
    const writer = await RecordWriter.open(path);
    for (const event of SAMPLE_EVENTS) await writer.write(event);
    await writer.close();
    const written = lines(path);
    expect(written.at(-1)).toBe("");
    expect(written.slice(0, -1).map((line) => JSON.parse(line))).toEqual(SAMPLE_EVENTS.map((event) => RunEvent.parse(event)));
    expect(writer.written).toBe(SAMPLE_EVENTS.length);
  });

  it("fills schema defaults into the line (testDouble, purpose)", () => {
    const line = serializeEvent({ t: 0, type: "model.request", round: 1, input: 3, cachedInput: 0, output: 1, reasoning: 0, usageSource: "counted", durationMs: 2 });
    expect(JSON.parse(line)).toEqual({
      t: 0,
      type: "model.request",
      round: 1,
      input: 3,
      cachedInput: 0,
      output: 1,
      reasoning: 0,
      usageSource: "counted",
      durationMs: 2,
      purpose: "agent",
    });
  });

  it("hands each line to the OS before write resolves (readable before close)", async () => {
    const path = join(dir, "run.jsonl");
    const writer = await RecordWriter.open(path);
    await writer.write(SAMPLE_EVENTS[0]!);
    expect(lines(path)).toEqual([JSON.stringify(RunEvent.parse(SAMPLE_EVENTS[0])), ""]);
    await writer.write(SAMPLE_EVENTS[1]!);
    expect(lines(path)).toHaveLength(3);
    await writer.close();
  });

  it("rejects an invalid event naming its field, and writes nothing for it", async () => {
    const path = join(dir, "run.jsonl");
    const writer = await RecordWriter.open(path);
    await writer.write(SAMPLE_EVENTS[0]!);
    const bad = { t: 1, type: "user.message", text: "hi", kind: "shout" } as unknown as RunEvent;
    await expect(writer.write(bad)).rejects.toMatchObject({
      code: "RECORD_INVALID_EVENT",
      message: 'invalid run-record event (type user.message): field kind: Invalid option: expected one of "handoff"|"continuation"|"nudge"|"person"',
    });
    await writer.write(SAMPLE_EVENTS[1]!);
    await writer.close();
    expect(lines(path).filter(Boolean).map((line) => JSON.parse(line).type)).toEqual(["run.start", "user.message"]);
  });

  it("keeps call order when writes are not awaited", async () => {
    const path = join(dir, "run.jsonl");
    const writer = await RecordWriter.open(path);
    const events = Array.from({ length: 200 }, (_, i) => ({ t: i, type: "note" as const, level: "info" as const, text: `n${i}` }));
    const pending = events.map((event) => writer.write(event));
    await writer.close();
    await Promise.all(pending);
    expect(lines(path).filter(Boolean).map((line) => JSON.parse(line).text)).toEqual(events.map((event) => event.text));
  });

  it("on abort finishes the queued lines, closes, and refuses later writes", async () => {
    const path = join(dir, "run.jsonl");
    const controller = new AbortController();
    const writer = await RecordWriter.open(path, { signal: controller.signal });
    const queued = [writer.write(SAMPLE_EVENTS[0]!), writer.write(SAMPLE_EVENTS[1]!), writer.write(SAMPLE_EVENTS[2]!)];
    controller.abort();
    expect(writer.isClosed).toBe(true);
    await Promise.all(queued);
    await expect(writer.write(SAMPLE_EVENTS[3]!)).rejects.toMatchObject({ code: "RECORD_CLOSED" });
    await writer.close(); // idempotent
    const text = readFileSync(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text.split("\n").filter(Boolean).map((line) => JSON.parse(line).type)).toEqual(["run.start", "user.message", "model.request"]);
  });

  it("an already-aborted signal gives a closed writer and an empty file", async () => {
    const path = join(dir, "run.jsonl");
    const writer = await RecordWriter.open(path, { signal: AbortSignal.abort() });
    await expect(writer.write(SAMPLE_EVENTS[0]!)).rejects.toBeInstanceOf(RecordWriterError);
    expect(readFileSync(path, "utf8")).toBe("");
  });

  it("appends with append, truncates by default, refuses an existing file with exclusive", async () => {
    const path = join(dir, "run.jsonl");
    writeFileSync(path, `${JSON.stringify(RunEvent.parse(SAMPLE_EVENTS[0]))}\n`);
    const appender = await RecordWriter.open(path, { append: true });
    await appender.write(SAMPLE_EVENTS[1]!);
    await appender.close();
    expect(lines(path).filter(Boolean)).toHaveLength(2);

    await expect(RecordWriter.open(path, { exclusive: true })).rejects.toMatchObject({ code: "RECORD_IO" });

    const truncating = await RecordWriter.open(path);
    await truncating.write(SAMPLE_EVENTS[2]!);
    await truncating.close();
    expect(lines(path).filter(Boolean).map((line) => JSON.parse(line).type)).toEqual(["model.request"]);
  });

  it("names the path when the file cannot be opened", async () => {
    const path = join(dir, "missing", "run.jsonl");
    await expect(RecordWriter.open(path)).rejects.toMatchObject({ code: "RECORD_IO", message: expect.stringMatching(/^cannot open run record .*missing\/run\.jsonl: ENOENT/) });
  });

  it("writes to a stream and leaves it open unless asked to end it", async () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    const writer = RecordWriter.toStream(stream);
    await writer.write(SAMPLE_EVENTS[0]!);
    await writer.write(SAMPLE_EVENTS[5]!);
    await writer.close();
    expect(stream.writableEnded).toBe(false);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(`${JSON.stringify(RunEvent.parse(SAMPLE_EVENTS[0]))}\n${JSON.stringify(SAMPLE_EVENTS[5])}\n`);

    const ended = new PassThrough();
    ended.resume();
    const closing = RecordWriter.toStream(ended, { end: true });
    await closing.close();
    expect(ended.writableEnded).toBe(true);
  });
});
