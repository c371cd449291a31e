/**
 * Small readers over our own markdown, for the tests that hold the docs to the code: fenced
 * blocks, tables, code spans, and whether a path a doc names exists in the repository.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface FencedBlock {
  /** The info string's first word (`sh`, `ts`, `yaml`…), "" when none. */
  lang: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Top-level fenced code blocks (``` or ~~~, as in CommonMark); an unclosed fence runs to the end. */
export function fencedBlocks(text: string): FencedBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: FencedBlock[] = [];
  let open: { char: string; size: number; lang: string; line: number; body: string[] } | null = null;
  lines.forEach((line, index) => {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open === null) {
      if (fence && !(fence[1]?.startsWith("`") && fence[2]?.includes("`"))) {
        open = { char: fence[1]?.[0] ?? "`", size: fence[1]?.length ?? 3, lang: (fence[2] ?? "").trim().split(/\s+/)[0] ?? "", line: index + 1, body: [] };
      }
      return;
    }
    if (fence && fence[1]?.[0] === open.char && (fence[1]?.length ?? 0) >= open.size && (fence[2] ?? "").trim() === "") {
      blocks.push({ lang: open.lang, body: open.body.join("\n"), line: open.line });
      open = null;
      return;
    }
    open.body.push(line);
  });
  if (open !== null) {
    const last = open as { lang: string; body: string[]; line: number };
    blocks.push({ lang: last.lang, body: last.body.join("\n"), line: last.line });
  }
  return blocks;
}

/** The text with every fenced block blanked out (line count kept), so prose readers skip code. */
export function withoutFences(text: string): string {
  const lines = text.split(/\r?\n/);
  let inside: { char: string; size: number } | null = null;
  return lines
    .map((line) => {
      const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (inside === null) {
        if (fence && !(fence[1]?.startsWith("`") && fence[2]?.includes("`"))) {
          inside = { char: fence[1]?.[0] ?? "`", size: fence[1]?.length ?? 3 };
          return "";
        }
        return line;
      }
      if (fence && fence[1]?.[0] === inside.char && (fence[1]?.length ?? 0) >= inside.size && (fence[2] ?? "").trim() === "") inside = null;
      return "";
    })
    .join("\n");
}

/** Splits one table row into its cells (outer pipes dropped; `\|` and pipes inside code spans kept). */
export function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let inCode = false;
  const body = row.trim().replace(/^\|/, "").replace(/\|$/, "");
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i];
    if (ch === "\\" && body[i + 1] === "|") {
      cell += "|";
      i += 1;
    } else if (ch === "`") {
      inCode = !inCode;
      cell += ch;
    } else if (ch === "|" && !inCode) {
      cells.push(cell.trim());
      cell = "";
    } else {
      cell += ch;
    }
  }
  cells.push(cell.trim());
  return cells;
}

/** Every table in the text (outside fences): its header cells and its body rows as cells. */
export function tables(text: string): Array<{ header: string[]; rows: string[][]; line: number }> {
  const lines = withoutFences(text).split("\n");
  const found: Array<{ header: string[]; rows: string[][]; line: number }> = [];
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const head = lines[i] ?? "";
    const rule = lines[i + 1] ?? "";
    if (!head.trim().startsWith("|") || !/^\s*\|?\s*:?-{3,}/.test(rule)) continue;
    const rows: string[][] = [];
    let j = i + 2;
    while (j < lines.length && (lines[j] ?? "").trim().startsWith("|")) {
      rows.push(tableCells(lines[j] ?? ""));
      j += 1;
    }
    found.push({ header: tableCells(head), rows, line: i + 1 });
    i = j - 1;
  }
  return found;
}

/** The contents of every inline code span in a piece of prose. */
export function codeSpans(text: string): string[] {
  return [...text.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)].map((match) => (match[2] ?? "").trim());
}

/** Folders a repository path in our docs may start with. */
const REPO_PREFIX = /^(src|test|docs|arms|fixtures|scripts|bin|\.ci)\//;

/** Looks like a path into the repository (and not a placeholder such as `runs/<arm>/…`). */
export function isRepoPath(span: string): boolean {
  return REPO_PREFIX.test(span) && !/[\s<>{}$]/.test(span) && !span.includes("…");
}

/**
 * True when the path exists under `root`. A `*` in a segment matches any run of characters in one
 * name, and the pattern must match at least one entry. A trailing `/` must be a folder.
 */
export function repoPathExists(path: string, root: string = ROOT): boolean {
  const wantsDir = path.endsWith("/");
  const segments = path.replace(/\/+$/, "").split("/");
  let current = [root];
  for (const segment of segments) {
    const next: string[] = [];
    for (const dir of current) {
      if (!segment.includes("*")) {
        const candidate = join(dir, segment);
        if (existsSync(candidate)) next.push(candidate);
        continue;
      }
      const pattern = new RegExp(`^${segment.split("*").map((part) => part.replace(/[.+?^$()[\]{}|\\]/g, "\\$&")).join("[^/]*")}$`);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
      for (const name of readdirSync(dir)) if (pattern.test(name)) next.push(join(dir, name));
    }
    current = next;
    if (current.length === 0) return false;
  }
  return wantsDir ? current.some((candidate) => statSync(candidate).isDirectory()) : true;
}
