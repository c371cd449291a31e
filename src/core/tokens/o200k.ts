/**
 * o200k counting over gpt-tokenizer's own data: its pre-tokenizer regex and its rank list
 * (index = rank). The merge is ours (bpe-merge.ts) so that no pre-token costs the square of its
 * length, and so is the split of ASCII text (pretokenize.ts, exactly the regex's). The table is made on the first count, not at import, so a
 * command that never counts never pays for it: mapped from a compact copy when a table source is
 * set (ADR 0162), else built from the list, a 2.4 MB module.
 */
import { createRequire } from "node:module";
import { BpeMerger } from "./bpe-merge.ts";
import { PieceCounts } from "./piece-counts.ts";
import { PreTokenizer } from "./pretokenize.ts";
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

/** How many leading pre-tokens a shape remembers: where a join may fall back into step. */
const HEAD_PIECES = 4;

/**
 * A text's count plus where its pre-tokens start and end at both edges: what joining it to other
 * texts needs. Joined to text after it, only its last pre-token can change (a trimmed text ends
 * in a non-space, and the only o200k pieces that reach past such an end are the one that ends
 * there); joined after other text, its split falls back into step at one of its first boundaries.
 */
export interface TextShape {
  tokens: number;
  exact: boolean;
  /** End offsets of the first HEAD_PIECES pre-tokens (fewer for a shorter text). */
  headEnds: number[];
  /** Tokens of the pre-tokens up to and including each of headEnds. */
  headTokens: number[];
  /** Where the last pre-token starts, and its tokens. */
  tailStart: number;
  tailTokens: number;
}

export class O200kEncoder {
  private readonly pre = new PreTokenizer();
  private readonly merger: BpeMerger;
  private readonly pieceCounts = new PieceCounts(PIECE_CACHE_ENTRIES);
  private readonly encoder = new TextEncoder();
  private bytes = new Uint8Array(4096);
  // Tokens of each pair of ASCII units, 0 until first seen.
  private readonly pairs = new Uint8Array(128 * 128);

  constructor(
    private readonly table: RankTable,
    private readonly maxExactPieceBytes = MAX_EXACT_PIECE_BYTES,
  ) {
    this.merger = new BpeMerger(table);
  }

  /** The o200k count of `text` as plain text: special-token markers are ordinary characters. */
  count(text: string): { tokens: number; exact: boolean } {
    const pre = this.pre;
    let tokens = 0;
    let exact = true;
    for (let from = 0; from < text.length; ) {
      const end = pre.end(text, from);
      let piece = this.pieceAt(text, from, end);
      if (piece < 0) {
        exact = false;
        piece = -piece - 1;
      }
      tokens += piece;
      from = end;
    }
    return { tokens, exact };
  }

  /** The count of `text` with its edges (see TextShape). */
  shape(text: string): TextShape {
    const pre = this.pre;
    const shape: TextShape = { tokens: 0, exact: true, headEnds: [], headTokens: [], tailStart: 0, tailTokens: 0 };
    for (let from = 0; from < text.length; ) {
      const end = pre.end(text, from);
      let piece = this.pieceAt(text, from, end);
      if (piece < 0) {
        shape.exact = false;
        piece = -piece - 1;
      }
      shape.tokens += piece;
      if (shape.headEnds.length < HEAD_PIECES) {
        shape.headEnds.push(end);
        shape.headTokens.push(shape.tokens);
      }
      shape.tailStart = from;
      shape.tailTokens = piece;
      from = end;
    }
    return shape;
  }

  /**
   * The exact count of `parts.join(separator)` (given as `joined`) from the parts' shapes: each
   * part's own count, corrected at every join by re-reading the pre-tokens from the last one of
   * the part before to where the split falls back into step with the part after. A join that never
   * falls back into step is read to the end, which is the same as counting the rest directly.
   */
  countJoined(joined: string, shapes: readonly TextShape[], lengths: readonly number[], separator: string): number {
    const offsets: number[] = [];
    let offset = 0;
    for (const length of lengths) {
      offsets.push(offset);
      offset += length + separator.length;
    }
    const before = (shape: TextShape, boundary: number): number => (boundary === 0 ? 0 : (shape.headTokens[shape.headEnds.indexOf(boundary)] as number));
    const pre = this.pre;
    let total = 0;
    let i = 0;
    let boundary = 0; // the split of `joined` is in step with part i's own split at this offset in it
    for (;;) {
      const shape = shapes[i] as TextShape;
      if (i === shapes.length - 1) return total + shape.tokens - before(shape, boundary);
      let from = (offsets[i] as number) + boundary;
      if (boundary <= shape.tailStart) {
        total += shape.tokens - before(shape, boundary) - shape.tailTokens;
        from = (offsets[i] as number) + shape.tailStart;
      }
      let j = i + 1;
      for (;;) {
        if (from >= joined.length) return total;
        const end = pre.end(joined, from);
        const piece = this.pieceAt(joined, from, end);
        from = end;
        total += piece < 0 ? -piece - 1 : piece;
        if (end >= joined.length) return total;
        while (j < shapes.length - 1 && end > (offsets[j] as number) + (lengths[j] as number)) j += 1;
        const at = end - (offsets[j] as number);
        if (at === 0 || (at > 0 && (shapes[j] as TextShape).headEnds.includes(at))) {
          i = j;
          boundary = at;
          break;
        }
      }
    }
  }

  /**
   * The count of the pre-token text[from, end); past the exactness limit, -(count + 1) so the
   * caller can flag it. A short one is looked up where it lies, sliced out only when new.
   */
  private pieceAt(text: string, from: number, end: number): number {
    const length = end - from;
    // One ASCII unit is one byte, always a token; two are one token if the pair is one, else two.
    // A fifth of a text's pieces are one unit and a tenth two: no table to touch for them.
    const first = text.charCodeAt(from);
    if (length === 1 && first < 128) return 1;
    if (length === 2 && first < 128) {
      const second = text.charCodeAt(from + 1);
      if (second < 128) return this.asciiPair(first, second);
    }
    // 3 bytes per UTF-16 unit at most, so shorter pieces cannot be over the limit.
    if (length <= CACHED_PIECE_CHARS && length * 3 <= this.maxExactPieceBytes) {
      const known = this.pieceCounts.find(text, from, end);
      if (known >= 0) return known;
      const tokens = this.countPiece(text.slice(from, end));
      this.pieceCounts.add(text, from, end, tokens);
      return tokens;
    }
    return this.countOrCut(text.slice(from, end));
  }

  private countOrCut(piece: string): number {
    const limit = this.maxExactPieceBytes;
    if (piece.length * 3 <= limit || Buffer.byteLength(piece) <= limit) return this.countPiece(piece);
    let tokens = 0;
    for (const part of cutPiece(piece, limit)) tokens += this.countPiece(part);
    return -tokens - 1;
  }

  /** The tokens of two ASCII units: 1 if the two bytes are a token, else 2 (decided on first sight). */
  private asciiPair(first: number, second: number): number {
    const at = (first << 7) | second;
    let tokens = this.pairs[at] as number;
    if (tokens === 0) {
      this.bytes[0] = first;
      this.bytes[1] = second;
      tokens = this.table.rank(this.bytes, 0, 2) >= 0 ? 1 : 2;
      this.pairs[at] = tokens;
    }
    return tokens;
  }

  /** Forgets remembered piece counts (benchmarks use it to time cold counts). */
  clearPieceCache(): void {
    this.pieceCounts.clear();
  }

  /** A piece's count by its bytes: one token when it is one, else the merge. */
  private countPiece(piece: string): number {
    if (this.bytes.length < piece.length * 3) this.bytes = new Uint8Array(piece.length * 3);
    const length = this.encoder.encodeInto(piece, this.bytes).written;
    const tokens = this.table.rank(this.bytes, 0, length) >= 0 ? 1 : this.merger.count(this.bytes, length);
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
let tableSource: (() => RankTable | null) | undefined;

/**
 * Where the first count takes the table from instead of building it (ADR 0162): the CLI and its
 * workers read the committed compact table (src/run/o200k-table-file.ts), since core reads no
 * files. The source answers null when it cannot serve the list this process has; the table is then
 * built from that list, so the counts are the same either way.
 */
export function setO200kTableSource(source: () => RankTable | null): void {
  tableSource = source;
}

/**
 * gpt-tokenizer's o200k rank list (index = rank). A synchronous require, because counting is
 * synchronous and the list is package data, not a file armstudy reads. The module is dropped from
 * require's cache: a built table holds its own copy, so the list's ~200 000 strings can go.
 */
export function o200kRankList(): (string | number[])[] {
  const require = createRequire(import.meta.url);
  const path = require.resolve("gpt-tokenizer/bpeRanks/o200k_base");
  const ranks = (require(path) as { default: (string | number[])[] }).default;
  delete require.cache[path];
  return ranks;
}

/**
 * The o200k rank table, on first use: from the table source when one is set and can serve it
 * (a few ms), else built from the rank list (~0.1 s: loading the list and hashing it).
 */
export function o200kRankTable(): RankTable {
  sharedTable ??= tableSource?.() ?? buildRankTable(o200kRankList());
  return sharedTable;
}

/** The process's one o200k encoder. */
export function o200k(): O200kEncoder {
  shared ??= new O200kEncoder(o200kRankTable());
  return shared;
}
