/**
 * A small syntax highlighter for the diff: each patch line split into classed tokens (keyword,
 * string, comment, number) by a per-line scanner over C-family, shell and Python-like syntax.
 * Good enough to read a diff; it keeps no state across lines, so a block comment is coloured only
 * on lines that look like one. Pure: returns tokens, the page turns them into text nodes.
 */

export type TokenClass = "kw" | "str" | "com" | "num" | null;
export interface Token {
  text: string;
  cls: TokenClass;
}

export type PatchLineKind = "file" | "hunk" | "add" | "del" | "ctx" | "meta";
export interface PatchLine {
  kind: PatchLineKind;
  /** The +/-/space marker, or "" for header lines. */
  marker: string;
  tokens: Token[];
}

const KEYWORDS = new Set(
  (
    "abstract as async await break case catch class const continue debugger def default del delete do elif else enum export extends " +
    "false finally fn for from func function go if impl implements import in instanceof interface let match mod module mut new nil " +
    "none null package pass private protected pub public raise readonly return self static struct super switch this throw throws " +
    "true try type typeof undefined use var void while with yield True False None"
  ).split(" "),
);

/** Tokens of one line of code. */
export function highlightCode(line: string): Token[] {
  const tokens: Token[] = [];
  const push = (text: string, cls: TokenClass) => {
    if (text.length === 0) return;
    const last = tokens[tokens.length - 1];
    if (last !== undefined && last.cls === cls) last.text += text;
    else tokens.push({ text, cls });
  };
  const trimmed = line.trimStart();
  if (trimmed.startsWith("/*") || trimmed.startsWith("* ") || trimmed === "*" || trimmed.startsWith("*/")) {
    push(line, "com");
    return tokens;
  }
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    const rest = line.slice(i);
    if (rest.startsWith("//") || (c === "#" && (i === 0 || /\s/.test(line[i - 1] as string)))) {
      push(rest, "com");
      break;
    }
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === "\\" ? 2 : 1;
      push(line.slice(i, Math.min(j + 1, line.length)), "str");
      i = Math.min(j + 1, line.length);
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(rest);
    if (word) {
      push(word[0], KEYWORDS.has(word[0]) ? "kw" : null);
      i += word[0].length;
      continue;
    }
    const number = /^\d[\d_]*(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    if (number) {
      push(number[0], "num");
      i += number[0].length;
      continue;
    }
    push(c, null);
    i += 1;
  }
  return tokens;
}

/** A unified diff, line by line, with code lines highlighted. */
export function highlightPatch(patch: string): PatchLine[] {
  const lines = patch.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line): PatchLine => {
    if (line.startsWith("diff --git ") || line.startsWith("+++ ") || line.startsWith("--- ")) return { kind: "file", marker: "", tokens: [{ text: line, cls: null }] };
    if (line.startsWith("@@")) return { kind: "hunk", marker: "", tokens: [{ text: line, cls: null }] };
    if (line.startsWith("+")) return { kind: "add", marker: "+", tokens: highlightCode(line.slice(1)) };
    if (line.startsWith("-")) return { kind: "del", marker: "-", tokens: highlightCode(line.slice(1)) };
    if (line.startsWith(" ")) return { kind: "ctx", marker: " ", tokens: highlightCode(line.slice(1)) };
    return { kind: "meta", marker: "", tokens: [{ text: line, cls: null }] };
  });
}
