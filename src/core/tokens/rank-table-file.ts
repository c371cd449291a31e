/**
 * The compact file form of a rank table (ADR 0162): its three arrays byte for byte behind a small
 * header, so a process maps them as typed arrays instead of parsing gpt-tokenizer's 2.4 MB rank
 * list and hashing 200 000 tokens. Pure: the caller reads the bytes and says which rank list they
 * must have been built from; anything that does not match is refused, never half-used.
 *
 * Layout (uint32 fields in the writer's byte order, checked by ORDER_MARK):
 *   magic "ASRANKS1" · ORDER_MARK · tokens · poolBytes · slots · maxTokenBytes · sourceBytes
 *   · source (UTF-8, zero-padded to 4) · starts (int32 × tokens+1) · slots (int32) · pool (bytes)
 */
import type { RankTableParts } from "./rank-table.ts";

const MAGIC = "ASRANKS1";
const ORDER_MARK = 0x01020304;
const HEADER_BYTES = MAGIC.length + 6 * 4;

/** The file bytes of a table built from the rank list named `source`. */
export function encodeRankTable(parts: RankTableParts, source: string): Uint8Array {
  const sourceBytes = new TextEncoder().encode(source);
  const sourceRoom = align4(sourceBytes.length);
  const tokens = parts.starts.length - 1;
  const startsAt = HEADER_BYTES + sourceRoom;
  const slotsAt = startsAt + parts.starts.byteLength;
  const poolAt = slotsAt + parts.slots.byteLength;
  const out = new Uint8Array(poolAt + parts.pool.length);
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
  const header = new Uint32Array(out.buffer, MAGIC.length, 6);
  header.set([ORDER_MARK, tokens, parts.pool.length, parts.slots.length, parts.maxTokenBytes, sourceBytes.length]);
  out.set(sourceBytes, HEADER_BYTES);
  out.set(new Uint8Array(parts.starts.buffer, parts.starts.byteOffset, parts.starts.byteLength), startsAt);
  out.set(new Uint8Array(parts.slots.buffer, parts.slots.byteOffset, parts.slots.byteLength), slotsAt);
  out.set(parts.pool, poolAt);
  return out;
}

/**
 * The table's arrays read back from `bytes` (views into them, not copies, when they are 4-byte
 * aligned), or why they cannot be used: another format, another byte order, another rank list
 * than `source`, or arrays that do not fit together (a truncated or damaged file).
 */
export function decodeRankTable(bytes: Uint8Array, source: string): { parts: RankTableParts } | { problem: string } {
  if (bytes.length < HEADER_BYTES) return { problem: `${bytes.length} bytes is shorter than the header` };
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return { problem: "not a rank-table file of this format" };
  // Typed-array views need 4-byte alignment; a misaligned buffer is copied once.
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  const header = new Uint32Array(bytes.buffer, bytes.byteOffset + MAGIC.length, 6);
  const [order, tokens, poolBytes, slotCount, maxTokenBytes, sourceLength] = header as unknown as [number, number, number, number, number, number];
  if (order !== ORDER_MARK) return { problem: "written on a machine of the other byte order" };
  if (HEADER_BYTES + sourceLength > bytes.length) return { problem: "truncated in its header" };
  const written = new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + sourceLength));
  if (written !== source) return { problem: `built from ${JSON.stringify(written)}, not from ${JSON.stringify(source)}` };
  const startsAt = bytes.byteOffset + HEADER_BYTES + align4(sourceLength);
  const slotsAt = startsAt + (tokens + 1) * 4;
  const poolAt = slotsAt + slotCount * 4;
  if (poolAt + poolBytes - bytes.byteOffset !== bytes.length) return { problem: `${bytes.length} bytes, but its header describes ${poolAt + poolBytes - bytes.byteOffset}` };
  const starts = new Int32Array(bytes.buffer, startsAt, tokens + 1);
  const slots = new Int32Array(bytes.buffer, slotsAt, slotCount);
  const pool = new Uint8Array(bytes.buffer, poolAt, poolBytes);
  // Cheap structural checks (~1 ms): a damaged file must not make a lookup read out of bounds.
  if (slotCount === 0 || (slotCount & (slotCount - 1)) !== 0) return { problem: `${slotCount} slots is not a power of two` };
  if (starts[0] !== 0 || starts[tokens] !== poolBytes) return { problem: "token starts do not span the pool" };
  for (let r = 0; r < tokens; r++) {
    const length = starts[r + 1]! - starts[r]!;
    if (length < 0 || length > maxTokenBytes) return { problem: `rank ${r} has ${length} bytes` };
  }
  for (let i = 0; i < slotCount; i++) {
    const r = slots[i]!;
    if (r < -1 || r >= tokens) return { problem: `slot ${i} holds rank ${r}` };
  }
  return { parts: { maxTokenBytes, pool, starts, slots } };
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
