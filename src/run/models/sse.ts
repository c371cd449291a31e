/**
 * A server-sent-events parser (the WHATWG event-stream rules): lines end in CRLF, LF or CR; a
 * blank line dispatches the event; `data:` lines join with LF; a `:` line is a comment; one space
 * after the colon is dropped. Incremental over text chunks, with a bound on one event's size.
 * At the end of the stream a pending event with data is dispatched (lenient: some servers close
 * right after the last `data:` line).
 */

export interface SseEvent {
  /** The `event:` field, or "message". */
  event: string;
  data: string;
}

export class SseError extends Error {
  readonly code = "SSE_TOO_LARGE";
}

export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private dataSize = 0;
  private event = "";
  private skipLf = false;

  constructor(private readonly maxEventChars = 32 * 1024 * 1024) {}

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (text.length === 0) return out;
    let input = text;
    if (this.skipLf && input.startsWith("\n")) input = input.slice(1);
    this.skipLf = false;
    this.buffer += input;
    let start = 0;
    // Positions of the next LF / CR at or after `start`; -1 stays -1 (the buffer is fixed here).
    let lf = this.buffer.indexOf("\n");
    let cr = this.buffer.indexOf("\r");
    for (;;) {
      if (lf !== -1 && lf < start) lf = this.buffer.indexOf("\n", start);
      if (cr !== -1 && cr < start) cr = this.buffer.indexOf("\r", start);
      let end: number;
      if (lf === -1 && cr === -1) break;
      if (cr === -1 || (lf !== -1 && lf < cr)) end = lf;
      else end = cr;
      const line = this.buffer.slice(start, end);
      let next = end + 1;
      if (this.buffer[end] === "\r") {
        if (next < this.buffer.length) {
          if (this.buffer[next] === "\n") next += 1;
        } else {
          // A CR at the very end: a following LF belongs to it.
          this.skipLf = true;
        }
      }
      start = next;
      this.line(line, out);
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length + this.dataSize > this.maxEventChars) {
      throw new SseError(`an event-stream event exceeds ${this.maxEventChars} characters`);
    }
    return out;
  }

  /** Ends the stream: returns a last event whose blank line never came, if any. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer.length > 0) this.line(this.buffer, out);
    this.buffer = "";
    if (this.data.length > 0) this.dispatch(out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line.length === 0) {
      this.dispatch(out);
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      this.data.push(value);
      this.dataSize += value.length + 1;
      if (this.dataSize > this.maxEventChars) throw new SseError(`an event-stream event exceeds ${this.maxEventChars} characters`);
    } else if (field === "event") {
      this.event = value;
    }
    // `id` and `retry` do not matter to a one-shot completion stream.
  }

  private dispatch(out: SseEvent[]): void {
    if (this.data.length > 0) out.push({ event: this.event || "message", data: this.data.join("\n") });
    this.data = [];
    this.dataSize = 0;
    this.event = "";
  }
}
