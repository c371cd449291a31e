/**
 * o200k's pre-tokenizer (ADR 0131): where the pre-token that starts at a given offset ends,
 * exactly as gpt-tokenizer's split regex would match it there. ASCII text is scanned by hand,
 * which is several times cheaper than the regex (the regex was three quarters of counting new
 * text); wherever the answer depends on a character beyond ASCII (a letter, mark, digit or space
 * of another script could extend or end the piece), that one piece is left to the regex; a
 * symbol or punctuation mark beyond ASCII is read as ASCII punctuation (ADR 0132).
 * test/core/tokens/pretokenize.test.ts checks every piece against the regex with fast-check.
 *
 * The regex's alternatives, tried in order at the offset (ASCII reading):
 *  1. [^\r\n L N]? [Lu]* [Ll]+ ('s|'t|'re|'ve|'m|'ll|'d)?    a word, lower case after any capitals
 *  2. [^\r\n L N]? [Lu]+ [Ll]* (contraction)?                 a word in capitals
 *  3. N{1,3}                                                  up to three digits
 *  4. " "? [^\s L N]+ [\r\n/]*                                punctuation, then line breaks and /
 *  5. \s* [\r\n]+                                             white space up to its last line break
 *  6. \s+ (?!\S)                                              white space but the last before text
 *  7. \s+                                                     one white space before text
 */
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";

const OTHER = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const BREAK = 4; // \r \n
const SPACE = 5; // \t \v \f and " "
const NON_ASCII = 6;

/** The class of each ASCII code unit. */
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c += 1) {
  CLASS[c] = c >= 65 && c <= 90 ? UPPER : c >= 97 && c <= 122 ? LOWER : c >= 48 && c <= 57 ? DIGIT : c === 10 || c === 13 ? BREAK : c === 32 || (c >= 9 && c <= 12) ? SPACE : OTHER;
}

/**
 * Code units beyond ASCII that every rule reads as ASCII punctuation: not a letter, mark, digit or
 * white space (\p{L}, \p{M}, \p{N}, \s) and not half of a surrogate pair, such as — → × ✓.
 * Known by one test each on first sight (0 unknown, 1 such a unit, 2 anything else); the rest are
 * left to the regex. In a run's texts these were nearly every piece the regex split, at ~30 µs a
 * piece with its compiled code gone cold.
 */
const WIDE = new Uint8Array(0x10000);
const DECIDED_BEYOND_ASCII = /[\p{L}\p{M}\p{N}\s]/u;

function wideClass(c: number): number {
  let known = WIDE[c] as number;
  if (known === 0) {
    known = (c >= 0xd800 && c <= 0xdfff) || DECIDED_BEYOND_ASCII.test(String.fromCharCode(c)) ? 2 : 1;
    WIDE[c] = known;
  }
  return known === 1 ? OTHER : NON_ASCII;
}

/** The class at `i` (< text.length: a read past the end would cost the optimized code its bounds check). */
function at(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 128 ? (CLASS[c] as number) : wideClass(c);
}

/** Where a contraction ('s, 't, 're, 've, 'm, 'll, 'd in either case) that starts at `i` ends, or `i`. */
function contraction(text: string, i: number): number {
  const n = text.length;
  if (i + 1 >= n || text.charCodeAt(i) !== 39) return i;
  // Lower case by setting bit 5; no code unit beyond ASCII lands on an ASCII letter that way.
  const a = text.charCodeAt(i + 1) | 0x20;
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return i + 2; // s d m t
  if (i + 2 >= n) return i;
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) return i + 3; // ll ve re
  return i;
}

export class PreTokenizer {
  private readonly split = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);

  /** The end of the pre-token that starts at `from` (< text.length). */
  end(text: string, from: number): number {
    const end = this.ascii(text, from);
    return end >= 0 ? end : this.byRegex(text, from);
  }

  private byRegex(text: string, from: number): number {
    const split = this.split;
    split.lastIndex = from;
    const match = split.exec(text) as RegExpExecArray;
    return match.index + match[0].length;
  }

  /** The piece's end by the rules above, or -1 where a character beyond ASCII decides it. */
  private ascii(text: string, i: number): number {
    const n = text.length;
    const c = at(text, i);
    if (c === NON_ASCII) return -1;
    // 1 and 2: a word, with one leading character that is not a line break, letter or digit.
    let j = c === OTHER || c === SPACE ? i + 1 : i;
    if (j < n) {
      let k = j;
      let cls = at(text, k);
      if (cls === UPPER || cls === LOWER) {
        while (k < n && (cls = at(text, k)) === UPPER) k += 1;
        const uppers = k - j;
        while (k < n && (cls = at(text, k)) === LOWER) k += 1;
        // A mark or letter of another script would carry the word on.
        if (k < n && cls === NON_ASCII) return -1;
        return uppers > 0 || k > j ? contraction(text, k) : -1;
      }
      if (cls === NON_ASCII && j > i) return -1;
    }
    if (c === DIGIT) {
      let k = i + 1;
      while (k < n && k < i + 3) {
        const cls = at(text, k);
        if (cls === NON_ASCII) return -1;
        if (cls !== DIGIT) break;
        k += 1;
      }
      return k;
    }
    // 4: punctuation, after at most one space.
    j = text.charCodeAt(i) === 32 ? i + 1 : i;
    if (j < n && at(text, j) === OTHER) {
      let k = j + 1;
      let cls = OTHER;
      while (k < n && (cls = at(text, k)) === OTHER) k += 1;
      if (k < n && cls === NON_ASCII) return -1;
      while (k < n) {
        const code = text.charCodeAt(k);
        if (code !== 10 && code !== 13 && code !== 47) break;
        k += 1;
      }
      return k;
    }
    if (j < n && j > i && at(text, j) === NON_ASCII) return -1;
    if (c !== SPACE && c !== BREAK) return -1; // not reached for ASCII: every class is handled
    // 5, 6, 7: a run of white space.
    let e = i;
    let lastBreak = -1;
    let cls = c;
    while (e < n && ((cls = at(text, e)) === SPACE || cls === BREAK)) {
      if (cls === BREAK) lastBreak = e;
      e += 1;
    }
    if (e < n && cls === NON_ASCII) return -1;
    if (lastBreak >= 0) return lastBreak + 1;
    if (e === n) return e;
    return e - i >= 2 ? e - 1 : e;
  }
}
