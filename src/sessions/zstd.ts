/**
 * Codex compresses cold rollouts to `.jsonl.zst` (codex-rs/rollout/src/compression.rs), and Node 20
 * has no zstd: the bytes are decompressed here with fzstd (pure JavaScript), streaming, so a session
 * file is read the same whether it is compressed or not.
 *
 * A tiny file can stand for gigabytes (a block of one repeated byte is 4 bytes for 128 KiB), and
 * the decompressor hands over every block a push completes before returning. So the input is fed
 * in small slices and the output handed on after each: at most ~8 MiB is ever waiting, whatever
 * the ratio, and the line reader's own limits apply to what comes out. The decompressor also
 * allocates a frame's whole window up front, and a 20-byte header can ask for 2 GiB: frame headers
 * are read here first, and a window over 128 MiB (zstd's own default limit) is refused.
 */
import { Decompress } from "fzstd";

/** Bytes pushed per step: 256 B can complete at most 64 blocks (8 MiB) and still reads at ~230 MB/s. */
const SLICE_BYTES = 256;

/** zstd's default decompression limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT = 27): the CLI refuses more without --memory. */
export const MAX_WINDOW_BYTES = 128 * 1024 * 1024;

const ZSTD_MAGIC = 0xfd2fb528;

/**
 * Walks the frame structure of a zstd stream as its bytes arrive — frame headers, block headers,
 * checksums, skippable frames — without decompressing, so a frame's window size is known before
 * its bytes reach the decompressor. Returns an error message for a window over the limit.
 */
class FrameScanner {
  /** Bytes still to skip (a block's payload, a checksum, a skippable frame). */
  private skip = 0;
  private held: number[] = [];
  private state: "magic" | "descriptor" | "header" | "block" | "skippable" = "magic";
  private headerBytes = 0;
  private checksum = false;

  /** Reads `bytes` (whose first byte is at stream offset `offset`); an error message, or null. */
  scan(bytes: Uint8Array, offset: number): string | null {
    for (let at = 0; at < bytes.length; ) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, bytes.length - at);
        this.skip -= n;
        at += n;
        continue;
      }
      this.held.push(bytes[at] as number);
      at += 1;
      const problem = this.step(offset + at);
      if (problem !== null) return problem;
    }
    return null;
  }

  private step(offset: number): string | null {
    const h = this.held;
    switch (this.state) {
      case "magic": {
        if (h.length < 4) return null;
        const magic = ((h[0] as number) | ((h[1] as number) << 8) | ((h[2] as number) << 16) | ((h[3] as number) << 24)) >>> 0;
        this.held = [];
        if (magic === ZSTD_MAGIC) this.state = "descriptor";
        else if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) this.state = "skippable";
        else return null; // not zstd: the decompressor says so, with its own words
        return null;
      }
      case "skippable":
        if (h.length < 4) return null;
        this.skip = ((h[0] as number) | ((h[1] as number) << 8) | ((h[2] as number) << 16) | ((h[3] as number) << 24)) >>> 0;
        this.held = [];
        this.state = "magic";
        return null;
      case "descriptor": {
        const flags = h[0] as number;
        const single = (flags >> 5) & 1;
        const sizeFlag = flags >> 6;
        const dictFlag = flags & 3;
        this.checksum = ((flags >> 2) & 1) === 1;
        this.headerBytes = 1 + (single ? 0 : 1) + (dictFlag === 3 ? 4 : dictFlag) + (sizeFlag === 0 ? single : 1 << sizeFlag);
        this.state = "header";
        return this.step(offset);
      }
      case "header": {
        if (h.length < this.headerBytes) return null;
        const flags = h[0] as number;
        const single = (flags >> 5) & 1;
        let window: number;
        if (single) {
          const sizeFlag = flags >> 6;
          const sizeBytes = sizeFlag === 0 ? 1 : 1 << sizeFlag;
          const at = this.headerBytes - sizeBytes;
          window = 0;
          for (let i = sizeBytes - 1; i >= 0; i--) window = window * 256 + (h[at + i] as number);
          if (sizeFlag === 1) window += 256;
        } else {
          const descriptor = h[1] as number;
          const base = 2 ** (10 + (descriptor >> 3));
          window = base + (base / 8) * (descriptor & 7);
        }
        this.held = [];
        if (window > MAX_WINDOW_BYTES) return `a zstd frame at byte ${offset - this.headerBytes - 4} asks for a ${Math.round(window / 2 ** 20)} MiB window, over the ${MAX_WINDOW_BYTES / 2 ** 20} MiB limit`;
        this.state = "block";
        return null;
      }
      case "block": {
        if (h.length < 3) return null;
        const word = (h[0] as number) | ((h[1] as number) << 8) | ((h[2] as number) << 16);
        this.held = [];
        const last = word & 1;
        const type = (word >> 1) & 3;
        const size = word >>> 3;
        this.skip = type === 1 ? 1 : size;
        if (last) {
          this.skip += this.checksum ? 4 : 0;
          this.state = "magic";
        }
        return null;
      }
    }
  }
}

/** A compressed file that cannot be read: corrupt, cut short, or not zstd at all. */
export class ZstdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZstdError";
  }
}

/** fzstd's code for input that ends inside a frame (ZstdErrorCode.UnexpectedEOF). */
const UNEXPECTED_EOF = 5;

export interface ZstdOptions {
  /** The stream ended inside a frame (a file cut short): everything before it was handed on. */
  onCutShort?: (compressedBytes: number) => void;
}

/**
 * The decompressed bytes of a zstd stream, as they come. Throws ZstdError naming the byte offset
 * for data that is not zstd; a stream cut short ends with what it had, and says so through onCutShort.
 */
export async function* decompressZstd(source: AsyncIterable<Uint8Array | string>, options: ZstdOptions = {}): AsyncGenerator<Uint8Array> {
  let ready: Uint8Array[] = [];
  let offset = 0;
  let sawBytes = false;
  const frames = new FrameScanner();
  const decoder = new Decompress((chunk) => {
    if (chunk.length > 0) ready.push(chunk);
  });
  const push = (slice: Uint8Array, final: boolean): boolean => {
    try {
      decoder.push(slice, final);
      return true;
    } catch (error) {
      if (final && (error as { code?: number }).code === UNEXPECTED_EOF && options.onCutShort !== undefined) {
        options.onCutShort(offset);
        return false;
      }
      const cause = error instanceof Error ? error.message : String(error);
      throw new ZstdError(`not a readable zstd stream at byte ${offset} (${cause})`);
    }
  };
  for await (const part of source) {
    const bytes = typeof part === "string" ? Buffer.from(part) : part;
    if (bytes.length > 0) sawBytes = true;
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      const slice = bytes.subarray(at, at + SLICE_BYTES);
      const tooLarge = frames.scan(slice, offset);
      if (tooLarge !== null) throw new ZstdError(tooLarge);
      push(slice, false);
      offset += slice.length;
      if (ready.length > 0) {
        const out = ready;
        ready = [];
        yield* out;
      }
    }
  }
  if (!sawBytes) return;
  push(new Uint8Array(0), true);
  yield* ready;
}
