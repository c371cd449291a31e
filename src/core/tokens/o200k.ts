/**
 * o200k counting over gpt-tokenizer's own data: its pre-tokenizer regex and its rank list
 * (index = rank). The merge is ours (bpe-merge.ts) so that no pre-token costs the square of its
 * length. The rank list is a 2.4 MB module: it is loaded on the first count, not at import, so a
 * command that never counts never pays for it.
 */
import { createRequire } from "node:module";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { BpeMerger } from "./bpe-merge.ts";
import { buildRankTable, type RankTable } from "./rank-table.ts";

/** Pieces up to this many UTF-16 units are remembered by text (most repeat: words, indents). */
const CACHED_PIECE_CHARS = 48;
const PIECE_CACHE_ENTRIES = 50_000;

/**
 * One pre-token longer than this is counted in pieces of this size (cut at a character
 * boundary), so a 100 MB run with no break costs ~20 bytes of merge state per byte of one piece
 * (~340 MB) at most, not per byte of the run; the count is then flagged as not exact.
 */
export const MAX_EXACT_PIECE_BYTES = 16 * 1024 * 1024;

export class O200kEncoder {
  private readonly split = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);
  private readonly merger: BpeMerger;
  private readonly pieceCounts = new Map<string, number>();
  private readonly encoder = new TextEncoder();
  private bytes = new Uint8Array(4096);

  constructor(
    private readonly table: RankTable,
    private readonly maxExactPieceBytes = MAX_EXACT_PIECE_BYTES,
  ) {
    this.merger = new BpeMerger(table);
  }

  /** The o200k count of `text` as plain text: special-token markers are ordinary characters. */
  count(text: string): { tokens: number; exact: boolean } {
    const split = this.split;
    split.lastIndex = 0;
    let tokens = 0;
    let exact = true;
    for (let match = split.exec(text); match !== null; match = split.exec(text)) {
      const piece = match[0];
      // 3 bytes per UTF-16 unit at most, so shorter pieces cannot be over the limit.
      const limit = this.maxExactPieceBytes;
      if (piece.length * 3 > limit && Buffer.byteLength(piece) > limit) {
        exact = false;
        for (const part of cutPiece(piece, limit)) tokens += this.countPiece(part);
      } else {
        tokens += this.countPiece(piece);
      }
    }
    return { tokens, exact };
  }

  private countPiece(piece: string): number {
    const cacheable = piece.length <= CACHED_PIECE_CHARS;
    if (cacheable) {
      const known = this.pieceCounts.get(piece);
      if (known !== undefined) return known;
    }
    if (this.bytes.length < piece.length * 3) this.bytes = new Uint8Array(piece.length * 3);
    const length = this.encoder.encodeInto(piece, this.bytes).written;
    const tokens = this.table.rank(this.bytes, 0, length) >= 0 ? 1 : this.merger.count(this.bytes, length);
    if (cacheable) {
      if (this.pieceCounts.size >= PIECE_CACHE_ENTRIES) this.pieceCounts.clear();
      this.pieceCounts.set(piece, tokens);
    }
    // A huge piece's buffer is not kept for the rest of the process.
    if (this.bytes.length > 1 << 20) this.bytes = new Uint8Array(4096);
    return tokens;
  }
}

/** A piece in runs of at most `limit` UTF-8 bytes, never splitting a surrogate pair. */
function* cutPiece(piece: string, limit: number): Generator<string> {
  // A UTF-16 unit is at most 3 bytes, so this many units always fit.
  const step = Math.max(2, Math.floor(limit / 3));
  for (let from = 0; from < piece.length; ) {
    let to = Math.min(piece.length, from + step);
    const last = piece.charCodeAt(to - 1);
    if (to < piece.length && last >= 0xd800 && last <= 0xdbff) to -= 1;
    yield piece.slice(from, to);
    from = to;
  }
}

let sharedTable: RankTable | undefined;
let shared: O200kEncoder | undefined;

/**
 * The o200k rank table, built on first use (~0.1 s: loading gpt-tokenizer's rank list and
 * hashing it). A synchronous require, because counting is synchronous and the list is package
 * data, not a file armstudy reads.
 */
export function o200kRankTable(): RankTable {
  if (sharedTable === undefined) {
    const require = createRequire(import.meta.url);
    const path = require.resolve("gpt-tokenizer/bpeRanks/o200k_base");
    const ranks = (require(path) as { default: (string | number[])[] }).default;
    sharedTable = buildRankTable(ranks);
    // The table holds its own copy; letting the module go frees the list's ~200 000 strings.
    delete require.cache[path];
  }
  return sharedTable;
}

/** The process's one o200k encoder. */
export function o200k(): O200kEncoder {
  shared ??= new O200kEncoder(o200kRankTable());
  return shared;
}
