/**
 * The run-record reader: streams events out of a JSONL record (a file, a stream or any async
 * iterable of chunks) without loading it whole. A bad line is reported as a warning naming its
 * line number, and reading goes on. Lines are framed on LF bytes only (a CR before the LF is JSON
 * whitespace and harmless); U+2028/U+2029 inside a line are text, never a line break, which is
 * why this does not use node's readline.
 *
 * Memory is bounded by the longest line kept (`maxLineBytes`): a longer line is skipped, without
 * being buffered, and reported.
 */
import { createReadStream } from "node:fs";
import { describeEventIssues, RunEvent } from "./record.ts";

export type RecordWarningKind = "invalid_json" | "invalid_event" | "invalid_utf8" | "truncated" | "too_long";

export interface RecordWarning {
  kind: RecordWarningKind;
  /** 1-based line number in the source. */
  line: number;
  /** What is wrong, naming the source, the line and (for events) the field. */
  message: string;
}

export interface ReadRecordOptions {
  /** Called for every bad line; reading continues. Default: ignore (use `readRecordFile` to collect). */
  onWarning?: (warning: RecordWarning) => void;
  /** Lines longer than this many bytes are skipped with a `too_long` warning. Default 16 MiB. */
  maxLineBytes?: number;
  /** Names the source in warnings; defaults to the path, or `record`. */
  label?: string;
  signal?: AbortSignal;
}

export type RecordSource = string | AsyncIterable<Uint8Array | string>;

const LF = 0x0a;
const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Splits a byte stream into LF-framed lines, keeping at most `maxLineBytes` of one line.
 * Yields `{ bytes, line, complete }`; `bytes` is null for a line that was too long.
 */
async function* frameLines(
  chunks: AsyncIterable<Uint8Array | string>,
  maxLineBytes: number,
): AsyncGenerator<{ bytes: Buffer | null; line: number; complete: boolean; length: number }> {
  let parts: Buffer[] = [];
  let partBytes = 0;
  let overflow = false;
  let line = 1;
  for await (const chunk of chunks) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start <= buffer.length) {
      const end = buffer.indexOf(LF, start);
      const stop = end === -1 ? buffer.length : end;
      const piece = buffer.subarray(start, stop);
      if (!overflow) {
        if (partBytes + piece.length > maxLineBytes) {
          overflow = true;
          parts = [];
        } else if (piece.length > 0) {
          // Copy: the source may reuse its chunk buffers.
          parts.push(Buffer.from(piece));
        }
      }
      partBytes += piece.length;
      if (end === -1) break;
      yield { bytes: overflow ? null : Buffer.concat(parts, partBytes), line, complete: true, length: partBytes };
      parts = [];
      partBytes = 0;
      overflow = false;
      line += 1;
      start = end + 1;
    }
  }
  if (partBytes > 0) yield { bytes: overflow ? null : Buffer.concat(parts, partBytes), line, complete: false, length: partBytes };
}

function sourceChunks(source: RecordSource, signal: AbortSignal | undefined): AsyncIterable<Uint8Array | string> {
  if (typeof source === "string") return createReadStream(source, { highWaterMark: 64 * 1024, signal });
  return source;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(RunEvent.options.map((option) => option.shape.type.value));

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Yields the valid events of a record in order; bad lines go to `onWarning`. */
export async function* readRecord(source: RecordSource, options: ReadRecordOptions = {}): AsyncGenerator<RunEvent> {
  const label = options.label ?? (typeof source === "string" ? source : "record");
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const warn = (kind: RecordWarningKind, line: number, text: string) =>
    options.onWarning?.({ kind, line, message: `${label}:${line}: ${text}` });

  for await (const framed of frameLines(sourceChunks(source, options.signal), maxLineBytes)) {
    options.signal?.throwIfAborted();
    const { bytes, line, complete, length } = framed;
    if (bytes === null) {
      warn("too_long", line, `line of ${length} bytes is longer than the ${maxLineBytes}-byte limit; skipped`);
      continue;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      warn("invalid_utf8", line, "line is not valid UTF-8; skipped");
      continue;
    }
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim().length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (!complete) warn("truncated", line, "last line is cut off (no newline, not valid JSON): the writer was probably interrupted; skipped");
      else warn("invalid_json", line, `not valid JSON (${(error as Error).message}); skipped`);
      continue;
    }
    const type = typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
    if (typeof type === "string" && !KNOWN_TYPES.has(type)) {
      warn("invalid_event", line, `unknown event type ${JSON.stringify(type)} (a newer armstudy, or not a run record); skipped`);
      continue;
    }
    const parsed = RunEvent.safeParse(value);
    if (!parsed.success) {
      const type =
        typeof value === "object" && value !== null && "type" in value ? `event ${JSON.stringify((value as { type: unknown }).type)}` : "value";
      warn("invalid_event", line, `${type} is not a valid run-record event: ${describeEventIssues(parsed.error.issues, 3)}; skipped`);
      continue;
    }
    yield parsed.data;
  }
}

/** Reads a whole record into memory with its warnings: for tests, small records and validation. */
export async function readRecordFile(
  source: RecordSource,
  options: Omit<ReadRecordOptions, "onWarning"> = {},
): Promise<{ events: RunEvent[]; warnings: RecordWarning[] }> {
  const events: RunEvent[] = [];
  const warnings: RecordWarning[] = [];
  for await (const event of readRecord(source, { ...options, onWarning: (warning) => warnings.push(warning) })) events.push(event);
  return { events, warnings };
}
