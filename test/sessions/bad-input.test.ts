import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runMetrics } from "../../src/measure/metrics.ts";
import { RunEvent } from "../../src/run/record.ts";
import { SESSION_FORMATS, type SessionFormat } from "../../src/sessions/format.ts";
import { importSessionFile, openSession, SessionFormatError } from "../../src/sessions/import.ts";
import { FIXTURES } from "./scan.ts";

const dir = mkdtempSync(join(tmpdir(), "armstudy-bad-input-"));
const SMALL_CLAUDE = readFileSync(join(FIXTURES, "codemie-code/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl"), "utf8");
const PI_EVENTS = readFileSync(join(FIXTURES, "offline-real-clients/pi-session.jsonl"), "utf8");

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function warnings(events: RunEvent[]): string[] {
  return events.flatMap((e) => (e.type === "note" && e.level === "warning" ? [e.text] : []));
}

async function events(chunks: Array<string | Uint8Array>, format?: SessionFormat): Promise<RunEvent[]> {
  async function* source() {
    for (const c of chunks) yield c;
  }
  const session = await openSession(source(), format === undefined ? {} : { format });
  const out: RunEvent[] = [];
  for await (const e of session.events) out.push(e);
  return out;
}

describe("bad input: a warning naming the line, never a crash, every good line still counted", () => {
  const lines = SMALL_CLAUDE.trimEnd().split("\n");
  const goodToolCalls = SMALL_CLAUDE.split("\n").filter((l) => l.includes('"type":"tool_use"')).length;

  it("a truncated last line", async () => {
    const extra = lines[lines.length - 1]!.slice(0, 50);
    const { events: got } = await importSessionFile(write("truncated.jsonl", `${SMALL_CLAUDE}${extra}`));
    expect(warnings(got)).toEqual([`line ${lines.length + 1}: not valid JSON (cut short, or not a JSON line): ${JSON.stringify(`${extra.slice(0, 60)}`)}; skipped`]);
    expect(runMetrics(got).toolCalls).toBe(goodToolCalls);
  });

  it("a line that is not JSON, and one that is JSON but not an object", async () => {
    const text = [lines[0], "this is not json", ...lines.slice(1, 5), "[1,2]", ...lines.slice(5)].join("\n");
    const { events: got } = await importSessionFile(write("garbage.jsonl", text));
    expect(warnings(got)).toEqual([`line 2: not valid JSON (cut short, or not a JSON line): "this is not json"; skipped`, "line 7: a JSON array, not an object; skipped"]);
    expect(runMetrics(got).toolCalls).toBe(goodToolCalls);
  });

  it("an unknown event type, reported once with its first line and how often it recurred", async () => {
    const text = [lines[0], '{"type":"brand-new-thing","x":1}', ...lines.slice(1), '{"type":"brand-new-thing"}'].join("\n");
    const { events: got } = await importSessionFile(write("unknown.jsonl", text));
    expect(warnings(got)).toEqual([
      'line 2: unknown Claude Code transcript line type "brand-new-thing" (line skipped)',
      'line 2: unknown Claude Code transcript line type "brand-new-thing" occurred 2 times in all (first at line 2); all skipped',
    ]);
    expect(runMetrics(got).toolCalls).toBe(goodToolCalls);
  });

  it("a file of the wrong format: a clear error that names the file and what it looks like", async () => {
    const path = write("claude-as-pi.jsonl", SMALL_CLAUDE);
    await expect(importSessionFile(path, { format: "pi" })).rejects.toThrow(
      new SessionFormatError("SESSION_FORMAT_MISMATCH", `${path}: not a pi file — it looks like claude (a "file-history-snapshot" line with transcript fields (sessionId/parentUuid)); use --format claude or --format auto`),
    );
    const other = write("other.jsonl", '{"hello":"world"}\n{"n":2}\n');
    await expect(importSessionFile(other)).rejects.toMatchObject({ code: "SESSION_UNKNOWN_FORMAT" });
  });

  it("an empty file: a clear error, not a crash", async () => {
    const path = write("empty.jsonl", "");
    await expect(importSessionFile(path)).rejects.toThrow(new SessionFormatError("SESSION_EMPTY", `${path}: the file is empty (no lines); nothing to import`));
    // Blank lines only are empty too.
    await expect(importSessionFile(write("blank.jsonl", "\n\n  \n"))).rejects.toMatchObject({ code: "SESSION_EMPTY" });
  });

  it("a record split across read chunks imports the same as one chunk", async () => {
    const bytes = Buffer.from(PI_EVENTS, "utf8");
    const whole = await events([bytes]);
    const split: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 7) split.push(bytes.subarray(i, i + 7));
    expect(await events(split)).toEqual(whole);
  });
});

/** Valid-shaped lines for each format: the right `type`s with random extra fields and values. */
const TYPES: Record<SessionFormat, string[]> = {
  codex: ["session_meta", "turn_context", "response_item", "event_msg", "compacted", "world_state"],
  "codex-exec": ["thread.started", "turn.started", "item.started", "item.completed", "turn.completed", "turn.failed", "error"],
  claude: ["user", "assistant", "system", "summary", "file-history-snapshot"],
  "claude-stream": ["system", "assistant", "user", "result", "stream_event"],
  pi: ["session", "message", "compaction", "model_change", "thinking_level_change"],
  "pi-json": ["session", "agent_start", "message_end", "auto_compaction_end", "agent_end"],
};

const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("v"), { maxLength: 3 }), fc.dictionary(fc.constantFrom("type", "role", "content", "text", "id", "name", "usage", "payload", "message", "item", "input_tokens", "output", "status", "stopReason", "timestamp", "call_id", "arguments", "info", "total_token_usage"), tie("v"), { maxKeys: 5 })),
})).v;

describe("fuzz: the readers never throw on arbitrary input", () => {
  it("arbitrary bytes: either a format error or events that all validate", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.constantFrom<SessionFormat | "auto">("auto", ...SESSION_FORMATS), async (bytes, format) => {
        async function* source() {
          yield bytes;
        }
        try {
          const session = await openSession(source(), { format });
          for await (const e of session.events) expect(RunEvent.safeParse(e).success).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(SessionFormatError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("arbitrary valid-shaped objects of each format: every event validates and a run.end closes the record", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SESSION_FORMATS),
        fc.array(fc.tuple(fc.nat(), fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 4 }), value), { minLength: 1, maxLength: 12 }),
        async (format, rows) => {
          const lines = rows.map(([i, extra, payload]) => {
            const type = TYPES[format][i % TYPES[format].length]!;
            return JSON.stringify({ ...extra, type, payload, message: payload, item: payload, usage: payload, timestamp: typeof payload === "string" ? payload : undefined });
          });
          async function* source() {
            yield `${lines.join("\n")}\n`;
          }
          const got: RunEvent[] = [];
          // detectLines 0: no format check, so every line reaches the format's mapper.
          const session = await openSession(source(), { format, detectLines: 0 });
          for await (const e of session.events) got.push(e);
          for (const e of got) expect(RunEvent.safeParse(e).success).toBe(true);
          expect(got.at(-1)?.type).toBe("run.end");
          expect(() => runMetrics(got)).not.toThrow();
        },
      ),
      { numRuns: 300 },
    );
  });
});
