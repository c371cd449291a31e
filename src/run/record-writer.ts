/**
 * The run-record writer: an append-only JSONL stream, one validated event per line. Each `write`
 * validates the event, serialises it to exactly one line and hands the whole line to the OS before
 * it resolves, so a crash or an abort leaves a file whose every line is complete. Writes are
 * serialised in call order even when the caller does not await them.
 *
 * Framing is LF only. JSON.stringify escapes CR and LF inside strings, so an event can never span
 * two lines; U+2028/U+2029 stay literal (they are legal JSON) and readers must not split on them.
 */
import { open, type FileHandle } from "node:fs/promises";
import type { Writable } from "node:stream";
import { describeEventIssues, RunEvent } from "./record.ts";

export type RecordWriterErrorCode = "RECORD_INVALID_EVENT" | "RECORD_CLOSED" | "RECORD_IO";

export class RecordWriterError extends Error {
  constructor(
    readonly code: RecordWriterErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "RecordWriterError";
  }
}

export interface RecordWriterOptions {
  /** Append to an existing file instead of truncating it. Default: truncate. */
  append?: boolean;
  /** Refuse to write over an existing file (`wx`). Ignored with `append`. */
  exclusive?: boolean;
  /** Also fsync after every event: survives a machine crash, not only a process crash. Slower. */
  sync?: boolean;
  /**
   * When this aborts, the writer finishes the lines already queued, closes the file and refuses
   * later writes (`RECORD_CLOSED`). A caller that wants a closing `run.end` writes it and calls
   * `close()` itself instead.
   */
  signal?: AbortSignal;
  /** Names the target in error messages; defaults to the path, or `<stream>`. */
  label?: string;
}

/** Where whole lines go: a file handle or a writable stream. */
interface Sink {
  write(line: Buffer): Promise<void>;
  close(): Promise<void>;
}

function fileSink(handle: FileHandle, sync: boolean): Sink {
  return {
    async write(line) {
      let offset = 0;
      while (offset < line.length) {
        const { bytesWritten } = await handle.write(line, offset, line.length - offset);
        offset += bytesWritten;
      }
      if (sync) await handle.sync();
    },
    close: () => handle.close(),
  };
}

function streamSink(stream: Writable, endStream: boolean): Sink {
  return {
    write: (line) =>
      new Promise<void>((resolve, reject) => {
        stream.write(line, (error) => (error ? reject(error) : resolve()));
      }),
    close: () =>
      endStream
        ? new Promise<void>((resolve) => {
            stream.end(() => resolve());
          })
        : Promise.resolve(),
  };
}

/** Validates one event and returns its JSONL line (with defaults filled, ending in LF). */
export function serializeEvent(event: unknown): string {
  const parsed = RunEvent.safeParse(event);
  if (!parsed.success) {
    const type = typeof event === "object" && event !== null && "type" in event ? String((event as { type: unknown }).type) : "?";
    throw new RecordWriterError("RECORD_INVALID_EVENT", `invalid run-record event (type ${type}): ${describeEventIssues(parsed.error.issues, 5)}`);
  }
  return `${JSON.stringify(parsed.data)}\n`;
}

export class RecordWriter {
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private closing: Promise<void> | undefined;
  private failure: Error | undefined;
  private count = 0;
  private readonly onAbort = () => {
    void this.close().catch(() => undefined);
  };

  private constructor(
    private readonly sink: Sink,
    private readonly label: string,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (signal?.aborted) this.onAbort();
    else signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** Opens (creates or truncates, or appends to) a record file. */
  static async open(path: string, options: RecordWriterOptions = {}): Promise<RecordWriter> {
    const flags = options.append ? "a" : options.exclusive ? "wx" : "w";
    let handle: FileHandle;
    try {
      handle = await open(path, flags);
    } catch (error) {
      throw new RecordWriterError("RECORD_IO", `cannot open run record ${path}: ${(error as Error).message}`);
    }
    const writer = new RecordWriter(fileSink(handle, options.sync ?? false), options.label ?? path, options.signal);
    if (writer.closing) await writer.closing;
    return writer;
  }

  /** Writes to a stream (stdout, a socket, a PassThrough in tests). `end` closes the stream on `close()`. */
  static toStream(stream: Writable, options: Omit<RecordWriterOptions, "append" | "exclusive" | "sync"> & { end?: boolean } = {}): RecordWriter {
    return new RecordWriter(streamSink(stream, options.end ?? false), options.label ?? "<stream>", options.signal);
  }

  /** Events written so far. */
  get written(): number {
    return this.count;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Validates and appends one event. Resolves once the line is with the OS. Rejects with
   * `RECORD_INVALID_EVENT` (nothing written), `RECORD_CLOSED` or `RECORD_IO`.
   */
  write(event: RunEvent): Promise<void> {
    if (this.closed) {
      return Promise.reject(new RecordWriterError("RECORD_CLOSED", `run record ${this.label} is closed; event ${event.type} was not written`));
    }
    let line: Buffer;
    try {
      line = Buffer.from(serializeEvent(event), "utf8");
    } catch (error) {
      return Promise.reject(error);
    }
    const next = this.queue.then(async () => {
      if (this.failure) throw this.failure;
      try {
        await this.sink.write(line);
        this.count += 1;
      } catch (error) {
        this.failure = new RecordWriterError("RECORD_IO", `cannot write run record ${this.label}: ${(error as Error).message}`);
        throw this.failure;
      }
    });
    // Keep the chain alive after a failure; each caller still sees its own rejection.
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Finishes queued lines and closes the target. Idempotent. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    this.signal?.removeEventListener("abort", this.onAbort);
    this.closing = this.queue.then(() => this.sink.close());
    return this.closing;
  }
}
