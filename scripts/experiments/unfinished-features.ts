/**
 * Features of a final reply for the unfinished reader (docs/decisions/0197): word unigrams and bigrams of its status
 * zones — the first two statements, the last three prose lines, and every status line (a heading or label, a table row,
 * a line opening with a mark or with "I"/"we") — kept apart per zone, plus a few shape features, plus (optionally) the
 * analyzer's rows that fired. Pure and linear: the reply is read through the analyzer's window and reader, and every
 * line a zone takes is cut to a fixed length first.
 */
import { readProse } from "../../src/core/report/read.ts";
import { replyWindow } from "../../src/core/report/window.ts";

/** Characters of one line a zone reads: status words sit at a line's start. */
export const LINE_CAP = 240;

/** Lines that state a status (the analyzer's status-line shape, docs/decisions/0196), read past the opening zone. */
const STATUS_LINE = /^\W{0,4}(?:I|we)\b|^\s*\||^\W{0,4}[❌⏳🚧✅⚠]|^[^\n]{1,80}:\s*$|^(?![ \t]*(?:[-*+]|\d{1,9}[.)])\s)[^\n]{1,60}(?<![.!?,;:])$/u;

/** Lower-cased words, every number as `0`, with `?` and the progress marks as tokens of their own. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}']+|[?✅❌⏳🚧⚠]/gu)) {
    const word = match[0].replace(/^'+|'+$/g, "");
    if (word !== "") out.push(/^\p{N}+$/u.test(word) ? "0" : word);
  }
  return out;
}

export interface Zones {
  first: string[];
  last: string[];
  status: string[];
}

/** The zones' lines, each cut to LINE_CAP. */
export function zonesOf(text: string): Zones {
  const prose = readProse(replyWindow(text).text);
  const cap = (line: string): string => (line.length > LINE_CAP ? line.slice(0, LINE_CAP) : line);
  const status: string[] = [];
  for (let i = 2; i < prose.statements.length; i += 1) {
    const line = cap(prose.statements[i] as string);
    if (STATUS_LINE.test(line)) status.push(line);
  }
  return { first: prose.statements.slice(0, 2).map(cap), last: prose.lines.slice(-3).map(cap), status };
}

/** Every feature name of a reply, each once and sorted: `f:`/`l:`/`s:` words and bigrams, `shape:…`, and `r:` per row given. */
export function unfinishedFeatures(text: string, rows: readonly string[] = []): string[] {
  const zones = zonesOf(text);
  const names = new Set<string>();
  const add = (prefix: string, lines: readonly string[]): void => {
    for (const line of lines) {
      const words = tokens(line);
      for (let i = 0; i < words.length; i += 1) {
        names.add(`${prefix}:${words[i]}`);
        if (i + 1 < words.length) names.add(`${prefix}:${words[i]} ${words[i + 1]}`);
      }
    }
  };
  add("f", zones.first);
  add("l", zones.last);
  add("s", zones.status);
  const lastLine = zones.last.at(-1) ?? "";
  if (lastLine.trimEnd().endsWith("?")) names.add("shape:endsWithQuestion");
  if (zones.status.length === 0) names.add("shape:noStatusLines");
  if (zones.status.length > 8) names.add("shape:manyStatusLines");
  for (const row of rows) names.add(`r:${row}`);
  return [...names].sort();
}
