/**
 * LF framing over a byte stream, by hand. Node's readline is not used: it also breaks lines on
 * U+2028 / U+2029, which are legal inside JSON strings and common in real session logs.
 *
 * Memory is bounded: only the current partial line is kept between chunks, and a line longer than
 * `maxLineBytes` is skipped (reported with its number) instead of growing without limit.
 */

export interface Line {
  /** 1-based line number in the stream. */
  lineNo: number;
  /** The line's text without its LF (and without a trailing CR). */
  text: string;
}

export interface OverlongLine {
  lineNo: number;
  /** Bytes in the skipped line. */
  bytes: number;
  overlong: true;
}

export interface LineOptions {
  /** Lines longer than this are skipped and reported; default 64 MiB. */
  maxLineBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;

function decode(buffer: Buffer, start: number, end: number): string {
  if (end > start && buffer[end - 1] === CR) end -= 1;
  return buffer.toString("utf8", start, end);
}

/**
 * Yields each line of `chunks` (an fs/child-process stream or any async iterable of bytes or
 * text). A line split across chunks is joined before decoding, so a multi-byte character cut in
 * half by a chunk boundary decodes correctly. The last line needs no trailing LF.
 */
export async function* readLines(
  chunks: AsyncIterable<Uint8Array | string>,
  options: LineOptions = {},
): AsyncGenerator<Line | OverlongLine> {
  const maxLineBytes = options.maxLineBytes ?? 64 * 1024 * 1024;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let lineNo = 0;

  for await (const chunk of chunks) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (;;) {
      const lf = buffer.indexOf(LF, start);
      if (lf === -1) break;
      lineNo += 1;
      if (skipping) {
        yield { lineNo, bytes: pendingBytes + (lf - start), overlong: true };
        skipping = false;
        pendingBytes = 0;
      } else if (pendingBytes === 0) {
        if (lf - start > maxLineBytes) yield { lineNo, bytes: lf - start, overlong: true };
        else yield { lineNo, text: decode(buffer, start, lf) };
      } else {
        pending.push(buffer.subarray(start, lf));
        const joined = Buffer.concat(pending, pendingBytes + (lf - start));
        pending = [];
        pendingBytes = 0;
        if (joined.length > maxLineBytes) yield { lineNo, bytes: joined.length, overlong: true };
        else yield { lineNo, text: decode(joined, 0, joined.length) };
      }
      start = lf + 1;
    }
    if (start < buffer.length) {
      const rest = buffer.length - start;
      if (skipping || pendingBytes + rest > maxLineBytes) {
        // Too long to keep: drop what we hold and remember only the size.
        skipping = true;
        pending = [];
        pendingBytes += rest;
      } else {
        // Copy: the caller may reuse its chunk buffer after we return.
        pending.push(Buffer.from(buffer.subarray(start)));
        pendingBytes += rest;
      }
    }
  }
  if (skipping) {
    yield { lineNo: lineNo + 1, bytes: pendingBytes, overlong: true };
  } else if (pendingBytes > 0) {
    const joined = Buffer.concat(pending, pendingBytes);
    yield { lineNo: lineNo + 1, text: decode(joined, 0, joined.length) };
  }
}
