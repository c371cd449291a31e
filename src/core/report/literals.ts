/**
 * The words every match of an expression contains, read from its source (docs/decisions/0237): the gate a row of the
 * analyzer's table gets when none is written for it (gates.ts). A text that holds none of the words cannot match, so the
 * row's expression is neither compiled nor run on it.
 *
 * Each part of the expression is read as what it consumes: `exact`, every string it can consume (lower-cased, when they
 * are few), or else `needs`, strings one of which every match of it contains. A sequence joins the exact strings of
 * neighbouring parts (an assertion — `\b`, `^`, a look-around — consumes nothing, so its neighbours stay adjacent) and
 * needs the most selective of its runs; an alternation needs one of its alternatives' words; a part that may repeat zero
 * times needs nothing. Only ASCII characters are kept (each lower-cases to one ASCII character, so a text that holds a
 * match holds its words lower-cased in the text lower-cased); any other character, a class of more than four characters,
 * `.`, `\d`, `\w`, a back-reference consumes something unknown and breaks a run. Under /iu, "s" and "k" also break a
 * run ("ſ" and the Kelvin sign fold to them). What the reader does not know (a construct it cannot parse) gives no words:
 * the row then runs on every text, as before. A derived gate can only be weaker than the expression, never stronger.
 */

/** Most exact strings a part keeps before it is read as needing words; most words a gate holds. */
const EXACT_LIMIT = 32;
const NEEDS_LIMIT = 256;

interface Info {
  /** Every string the part can consume, lower-cased; undefined when unknown or too many. */
  exact: ReadonlySet<string> | undefined;
  /** Strings one of which every match of the part contains; undefined when none is known. */
  needs: ReadonlySet<string> | undefined;
}

const EMPTY: Info = { exact: new Set([""]), needs: undefined };
const UNKNOWN: Info = { exact: undefined, needs: undefined };

/** What a part requires: its exact strings when it cannot consume nothing, else its needs. */
function needsOf(info: Info): ReadonlySet<string> | undefined {
  if (info.exact !== undefined && !info.exact.has("")) return info.exact;
  return info.needs;
}

/** The more selective of two requirements: the longer shortest word, then fewer words. */
function better(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  if (b === undefined || b.has("")) return a;
  if (a === undefined) return b;
  const shortest = (set: ReadonlySet<string>): number => Math.min(...[...set].map((word) => word.length));
  const [sa, sb] = [shortest(a), shortest(b)];
  if (sa !== sb) return sa > sb ? a : b;
  return b.size < a.size ? b : a;
}

function product(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> | undefined {
  if (a.size * b.size > EXACT_LIMIT) return undefined;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

/** A sequence of parts: runs of exact parts joined, the best requirement of the runs and the other parts. */
function sequence(parts: readonly Info[]): Info {
  let run: ReadonlySet<string> = new Set([""]);
  let whole = true;
  let needs: ReadonlySet<string> | undefined;
  for (const part of parts) {
    if (part.exact !== undefined) {
      const joined = product(run, part.exact);
      if (joined !== undefined) run = joined;
      else {
        needs = better(needs, run);
        run = part.exact;
        whole = false;
      }
    } else {
      needs = better(better(needs, run), part.needs);
      run = new Set([""]);
      whole = false;
    }
  }
  needs = better(needs, run);
  return whole ? { exact: run, needs } : { exact: undefined, needs };
}

function alternation(alternatives: readonly Info[]): Info {
  let exact: Set<string> | undefined = new Set();
  let needs: Set<string> | undefined = new Set();
  for (const alternative of alternatives) {
    if (exact !== undefined && alternative.exact !== undefined) for (const word of alternative.exact) exact.add(word);
    else exact = undefined;
    const own = needsOf(alternative);
    if (needs !== undefined && own !== undefined) for (const word of own) needs.add(word);
    else needs = undefined;
  }
  if (exact !== undefined && exact.size > EXACT_LIMIT) exact = undefined;
  if (needs !== undefined && needs.size > NEEDS_LIMIT) needs = undefined;
  return { exact, needs };
}

function repeated(info: Info, min: number, max: number): Info {
  if (min === 0) return max === 1 && info.exact !== undefined ? { exact: new Set([...info.exact, ""]), needs: undefined } : UNKNOWN;
  let exact: ReadonlySet<string> | undefined;
  if (min === max && info.exact !== undefined) {
    exact = info.exact;
    for (let n = 1; n < min && exact !== undefined; n += 1) exact = product(exact, info.exact);
  }
  return { exact, needs: needsOf(info) };
}

class Unreadable extends Error {}

/** A recursive-descent reader of an expression's source, as the RegExp constructor reads it with these flags. */
class Reader {
  private at = 0;
  private readonly fold: boolean;
  private readonly unicode: boolean;
  constructor(
    private readonly source: string,
    flags: string,
  ) {
    this.fold = flags.includes("i");
    this.unicode = flags.includes("u") || flags.includes("v");
    if (flags.includes("v")) throw new Unreadable("v flag");
  }

  whole(): Info {
    const info = this.disjunction();
    if (this.at !== this.source.length) throw new Unreadable(`stray ${this.source[this.at]}`);
    return info;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.at + offset];
  }

  private disjunction(): Info {
    const alternatives = [this.alternative()];
    while (this.peek() === "|") {
      this.at += 1;
      alternatives.push(this.alternative());
    }
    return alternatives.length === 1 ? (alternatives[0] as Info) : alternation(alternatives);
  }

  private alternative(): Info {
    const parts: Info[] = [];
    while (this.at < this.source.length && this.peek() !== "|" && this.peek() !== ")") parts.push(this.quantified(this.atom()));
    return sequence(parts);
  }

  private quantified(info: Info): Info {
    const ch = this.peek();
    let min: number;
    let max: number;
    if (ch === "*") [min, max] = [0, Infinity];
    else if (ch === "+") [min, max] = [1, Infinity];
    else if (ch === "?") [min, max] = [0, 1];
    else if (ch === "{") {
      const bound = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (bound === null) return info;
      min = Number(bound[1]);
      max = bound[2] === undefined ? min : bound[3] === "" ? Infinity : Number(bound[3]);
      this.at += bound[0].length - 1;
    } else return info;
    this.at += 1;
    if (this.peek() === "?") this.at += 1;
    return repeated(info, min, max);
  }

  /** One character consumed: its lower-cased self when the gate can rely on it, else unknown. */
  private char(code: number): Info {
    if (code >= 128) return UNKNOWN;
    const lower = String.fromCharCode(code).toLowerCase();
    if (this.fold && this.unicode && (lower === "s" || lower === "k")) return UNKNOWN;
    return { exact: new Set([lower]), needs: undefined };
  }

  private atom(): Info {
    const ch = this.peek() as string;
    this.at += 1;
    switch (ch) {
      case "^":
      case "$":
        return EMPTY;
      case ".":
        return UNKNOWN;
      case "(":
        return this.group();
      case "[":
        return this.charClass();
      case "\\":
        return this.escape();
      case "*":
      case "+":
      case "?":
        throw new Unreadable("nothing to repeat");
      default:
        if ((ch === "{" || ch === "}" || ch === "]") && this.unicode) throw new Unreadable(`lone ${ch}`);
        return this.char(ch.charCodeAt(0));
    }
  }

  private group(): Info {
    let look = false;
    if (this.peek() === "?") {
      const kind = this.peek(1);
      if (kind === ":") this.at += 2;
      else if (kind === "=" || kind === "!") [this.at, look] = [this.at + 2, true];
      else if (kind === "<" && (this.peek(2) === "=" || this.peek(2) === "!")) [this.at, look] = [this.at + 3, true];
      else if (kind === "<") {
        const end = this.source.indexOf(">", this.at);
        if (end === -1) throw new Unreadable("group name");
        this.at = end + 1;
      } else throw new Unreadable(`group (?${kind}`);
    }
    const inner = this.disjunction();
    if (this.peek() !== ")") throw new Unreadable("unclosed group");
    this.at += 1;
    // A look-around consumes nothing: its neighbours stay adjacent, and what it reads is not required.
    return look ? EMPTY : inner;
  }

  /** An escape outside a class. */
  private escape(): Info {
    const ch = this.peek();
    if (ch === undefined) throw new Unreadable("trailing backslash");
    if (ch === "b" || ch === "B") {
      this.at += 1;
      return EMPTY;
    }
    if (/[1-9]/.test(ch) || ch === "k" || ch === "d" || ch === "D" || ch === "w" || ch === "W" || ch === "s" || ch === "S" || ch === "p" || ch === "P") {
      this.skipClassEscape();
      return UNKNOWN;
    }
    return this.char(this.escapedCode());
  }

  /** Skips a back-reference, a class escape or a property escape (all consume something unknown). */
  private skipClassEscape(): void {
    const ch = this.peek() as string;
    this.at += 1;
    if (/[1-9]/.test(ch)) while (/[0-9]/.test(this.peek() ?? "")) this.at += 1;
    else if ((ch === "k" || ch === "p" || ch === "P") && (ch === "k" || this.unicode) && (this.peek() === "<" || this.peek() === "{")) {
      const end = this.source.indexOf(ch === "k" ? ">" : "}", this.at);
      if (end === -1) throw new Unreadable("unclosed name");
      this.at = end + 1;
    } else if (ch === "k" || ch === "p" || ch === "P") throw new Unreadable(`\\${ch}`);
  }

  /** The code unit (or code point) of a character escape, after the backslash. */
  private escapedCode(): number {
    const ch = this.peek() as string;
    this.at += 1;
    const controls: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12 };
    if (ch in controls) return controls[ch] as number;
    if (ch === "0" && !/[0-9]/.test(this.peek() ?? "")) return 0;
    if (ch === "x" || ch === "u") {
      if (ch === "u" && this.unicode && this.peek() === "{") {
        const end = this.source.indexOf("}", this.at);
        if (end === -1) throw new Unreadable("\\u{");
        const code = Number.parseInt(this.source.slice(this.at + 1, end), 16);
        this.at = end + 1;
        return code;
      }
      const digits = this.source.slice(this.at, this.at + (ch === "x" ? 2 : 4));
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== (ch === "x" ? 2 : 4)) throw new Unreadable(`\\${ch}`);
      this.at += digits.length;
      return Number.parseInt(digits, 16);
    }
    if (ch === "c" || /[0-9]/.test(ch)) throw new Unreadable(`\\${ch}`);
    // An identity escape (`\.`, `\/`, `\-`, `\'`): the character itself. Under u only syntax characters may be escaped.
    if (this.unicode && !/[\^$\\.*+?()[\]{}|/-]/.test(ch)) throw new Unreadable(`\\${ch} under u`);
    return ch.codePointAt(0) as number;
  }

  /**
   * A class: a few single characters (after folding) read as those characters; anything else (negated, a range or
   * escape of many, more than four) consumes something unknown.
   */
  private charClass(): Info {
    let negated = false;
    if (this.peek() === "^") [this.at, negated] = [this.at + 1, true];
    const codes: number[] = [];
    let wide = false;
    while (this.peek() !== "]") {
      if (this.peek() === undefined) throw new Unreadable("unclosed class");
      const start = this.classAtom();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
        this.at += 1;
        const end = this.classAtom();
        if (start === undefined || end === undefined) throw new Unreadable("class range of a class");
        if (end - start > 4) wide = true;
        else for (let code = start; code <= end; code += 1) codes.push(code);
      } else if (start === undefined) wide = true;
      else codes.push(start);
    }
    this.at += 1;
    if (negated || wide || codes.length === 0) return UNKNOWN;
    const exact = new Set<string>();
    for (const code of codes) {
      const info = this.char(code);
      if (info.exact === undefined) return UNKNOWN;
      for (const word of info.exact) exact.add(word);
    }
    return exact.size > 4 ? UNKNOWN : { exact, needs: undefined };
  }

  /** One character of a class (its code), or undefined for a class escape (`\d`, `\w`, `\s`, `\p{…}`). */
  private classAtom(): number | undefined {
    const ch = this.peek() as string;
    if (ch !== "\\") {
      const code = ch.codePointAt(0) as number;
      this.at += this.unicode && code > 0xffff ? 2 : 1;
      return code;
    }
    this.at += 1;
    const next = this.peek();
    if (next === undefined) throw new Unreadable("trailing backslash");
    if ("dDwWsS".includes(next) || ((next === "p" || next === "P") && this.unicode)) {
      this.skipClassEscape();
      return undefined;
    }
    if (next === "b") {
      this.at += 1;
      return 8;
    }
    if (next === "-") {
      this.at += 1;
      return 45;
    }
    return this.escapedCode();
  }
}

/**
 * Words one of which the text lower-cased holds wherever `pattern` matches it, or undefined when none are known (the
 * whole expression may match nothing, or the reader does not know a construct).
 */
export function requiredWords(pattern: RegExp): string[] | undefined {
  let info: Info;
  try {
    info = new Reader(pattern.source, pattern.flags).whole();
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
  const needs = needsOf(info);
  if (needs === undefined || needs.size === 0 || needs.has("")) return undefined;
  return fewestWords([...needs]);
}

/** Longest word a gate keeps: a longer one is cut to its start, which any text holding it also holds. */
const WORD_LIMIT = 12;

/**
 * The same requirement in fewer, shorter words: each word cut to WORD_LIMIT characters, and a word dropped when another
 * of the set is part of it (a text holding the longer holds the shorter). It admits every text the longer list admits.
 */
export function fewestWords(words: readonly string[]): string[] {
  const cut = [...new Set(words.map((word) => word.slice(0, WORD_LIMIT)))].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const kept: string[] = [];
  for (const word of cut) if (!kept.some((shorter) => word.includes(shorter))) kept.push(word);
  return kept.sort();
}

/** The source of src/core/report/derived-gates.ts: each expression (`/source/flags`) with the words its matches need. */
export function derivedGatesModule(patterns: readonly RegExp[]): string {
  const entries = patterns.flatMap((pattern) => {
    const words = requiredWords(pattern);
    return words === undefined ? [] : [`  [${JSON.stringify(String(pattern))}, ${JSON.stringify(words)}],`];
  });
  return [
    "// Written by scripts/derived-gates.ts from the rows of patterns.ts that have no written gate (docs/decisions/0237).",
    "// Never edited by hand; test/core/report/derived-gates.test.ts fails until it is rewritten after a row changes.",
    "",
    "/** Each expression (`/source/flags`) and words one of which every match of it contains (literals.ts). */",
    "export const DERIVED_GATES: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([",
    ...entries,
    "]);",
    "",
  ].join("\n");
}
