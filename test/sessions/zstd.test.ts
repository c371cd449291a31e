/**
 * Codex's cold rollouts are `.jsonl.zst`: read through the same importer, streaming. A real rollout
 * compressed with the zstd CLI reads to exactly the events of the plain file; a file cut short keeps
 * what it had and says so; bytes that are not zstd are a named error; a bomb (a few KiB that stand
 * for hundreds of MiB) is read in bounded memory; random bytes never throw anything else.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { importSessionFile } from "../../src/sessions/import.ts";
import { ZstdError, decompressZstd } from "../../src/sessions/zstd.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const NAME = "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl";
const PLAIN = join(ROOT, "fixtures/sessions/codemie-code", NAME);
const COMPRESSED = join(ROOT, "fixtures/sessions/compressed", `${NAME}.zst`);
const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "armstudy-zstd-"));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

async function* chunks(bytes: Uint8Array, size = 4096): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

/** A zstd frame of `blocks` RLE blocks of 128 KiB of `byte` each (4 bytes a block): a decompression bomb. */
function rleBomb(blocks: number, byte: number): Buffer {
  const header = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]); // magic; no content size; 128 KiB window
  const block = (last: boolean): Buffer => {
    const word = (131072 << 3) | (1 << 1) | (last ? 1 : 0);
    return Buffer.from([word & 0xff, (word >> 8) & 0xff, (word >> 16) & 0xff, byte]);
  };
  return Buffer.concat([header, ...Array.from({ length: blocks }, (_, i) => block(i === blocks - 1))]);
}

describe(".jsonl.zst sessions", () => {
  it("a real Codex rollout compressed with zstd reads to the same events as the plain file", async () => {
    const [plain, compressed] = await Promise.all([importSessionFile(PLAIN), importSessionFile(COMPRESSED)]);
    expect({ format: compressed.format, events: compressed.events.length }).toEqual({ format: "codex", events: plain.events.length });
    expect(compressed.events).toEqual(plain.events);
  });

  it("decompresses byte for byte, whatever the chunking", async () => {
    const bytes = readFileSync(COMPRESSED);
    const expected = readFileSync(PLAIN);
    for (const size of [1, 7, 4096, 1 << 20]) {
      const out = await collect(decompressZstd(chunks(bytes, size)));
      expect({ size, equal: out.equals(expected) }).toEqual({ size, equal: true });
    }
  }, 60_000);

  it("a file cut short keeps every event before the cut, with a warning saying so", async () => {
    const bytes = readFileSync(COMPRESSED);
    const file = join(temp(), `${NAME}.zst`);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const { events } = await importSessionFile(file);
    const warnings = events.flatMap((e) => (e.type === "note" && e.level === "warning" ? [e.text] : []));
    expect(warnings.at(-1)).toEqual(`the compressed file ends inside a zstd frame after ${Math.floor(bytes.length / 2)} bytes (cut short?): the session is read up to there`);
    expect(events.filter((e) => e.type === "tool.call").length).toBeGreaterThan(10);
    expect(events.at(-1)?.type).toEqual("run.end");
  });

  it("bytes that are not zstd are a ZstdError naming the offset", async () => {
    await expect(collect(decompressZstd(chunks(Buffer.from('{"type":"session_meta"}\n'.repeat(50)))))).rejects.toEqual(new ZstdError("not a readable zstd stream at byte 0 (invalid zstd data)"));
  });

  it("a bomb is read lazily in parts of at most one block: 2 GiB in 64 KiB, and the first MiB costs one read", async () => {
    const bomb = rleBomb(16384, 0x61);
    let reads = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const part of chunks(bomb, 65536)) {
        reads += 1;
        yield part;
      }
    }
    let taken = 0;
    let largest = 0;
    for await (const part of decompressZstd(counted())) {
      taken += part.length;
      largest = Math.max(largest, part.length);
      if (taken >= 1 << 20) break;
    }
    expect({ reads, taken, largest }).toEqual({ reads: 1, taken: 1 << 20, largest: 131072 });
  });

  it("a bomb of 256 MiB decompresses to every byte", async () => {
    let total = 0;
    for await (const part of decompressZstd(chunks(rleBomb(2048, 0x61), 65536))) total += part.length;
    expect(total).toEqual(2048 * 131072);
  });

  it("two frames with a skippable frame between decompress to both contents", async () => {
    const one = readFileSync(COMPRESSED);
    const skippable = Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 5, 0, 0, 0]), Buffer.from("hello")]);
    const out = await collect(decompressZstd(chunks(Buffer.concat([one, skippable, one]), 1000)));
    const plain = readFileSync(PLAIN);
    expect(out.equals(Buffer.concat([plain, plain]))).toEqual(true);
  });

  it("a 20-byte frame that asks for a 1 GiB window is refused before anything is allocated", async () => {
    const size = Buffer.alloc(8);
    size.writeBigUInt64LE(1n << 30n);
    const word = (10 << 3) | (1 << 1) | 1;
    const frame = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0]), size, Buffer.from([word & 0xff, (word >> 8) & 0xff, (word >> 16) & 0xff, 0x61])]);
    const before = process.memoryUsage().arrayBuffers;
    await expect(collect(decompressZstd(chunks(frame)))).rejects.toEqual(new ZstdError("a zstd frame at byte 0 asks for a 1024 MiB window, over the 128 MiB limit"));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("random bytes either decompress or fail as ZstdError, never another throw", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.boolean(), async (random, withMagic) => {
        const bytes = withMagic ? Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), random]) : Buffer.from(random);
        try {
          await collect(decompressZstd(chunks(bytes, 64), { onCutShort: () => undefined }));
        } catch (error) {
          expect(error).toBeInstanceOf(ZstdError);
        }
      }),
      { numRuns: 400 },
    );
  });
});
