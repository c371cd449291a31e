/**
 * Features of a final reply for the learned-reader experiment (docs/decisions/0147): lower-cased
 * word unigrams and bigrams, kept apart per zone (first line, first three statements, last
 * paragraph, last sentence), since ADR 0072's questions are about where a thing is said, plus a few
 * shape features. Pure: text in, feature names out. The zones come from the analyzer's own reader
 * (readProse) so both readers see the same prose (fenced code skipped, inline code as CODE).
 */
import { readProse } from "../../src/core/report/read.ts";

export const ZONES = ["first", "head3", "lastPara", "lastSentence"] as const;
export type Zone = (typeof ZONES)[number];

/** Words, with every number as `0` (step ids and counts differ between projects; their presence does not). */
export function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}']+|[?✅❌]/gu) ?? []).map((word) => (/^\p{N}+$/u.test(word) ? "0" : word.replace(/^'+|'+$/g, ""))).filter((word) => word !== "");
}

/** The text of each zone. An empty reply has empty zones. */
export function zones(text: string): Record<Zone, string> {
  const prose = readProse(text);
  const lastStart = prose.paragraphStarts.at(-1) ?? 0;
  const lastPara = prose.lines.slice(lastStart).join(" ");
  // The last sentence of the last paragraph: split after . ! ? followed by a space.
  const sentences = lastPara.split(/(?<=[.!?])\s+/).filter((s) => s.trim() !== "");
  return {
    first: prose.statements[0] ?? "",
    head3: prose.statements.slice(0, 3).join(" "),
    lastPara,
    lastSentence: sentences.at(-1) ?? "",
  };
}

/** Shape features: how the reply is laid out, not what it says. */
export function shapeFeatures(text: string): string[] {
  const prose = readProse(text);
  const out: string[] = [];
  const z = zones(text);
  if (z.lastSentence.trim().endsWith("?")) out.push("shape:endsWithQuestion");
  if (/^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s/m.test(text)) out.push("shape:list");
  if (/^\s{0,3}(?:```|~~~)/m.test(text)) out.push("shape:fence");
  if (/^\s{0,3}\|.*\|\s*$/m.test(text)) out.push("shape:table");
  if (prose.headings.length > 0) out.push("shape:heading");
  if (prose.statements.length <= 2) out.push("shape:short");
  if (prose.statements.length > 12) out.push("shape:long");
  return out;
}

/** Every feature name of a reply, each once: `zone:word`, `zone:word word`, `shape:…`. */
export function replyFeatures(text: string): string[] {
  const z = zones(text);
  const names = new Set<string>();
  for (const zone of ZONES) {
    const words = tokens(z[zone]);
    for (let i = 0; i < words.length; i += 1) {
      names.add(`${zone}:${words[i]}`);
      if (i + 1 < words.length) names.add(`${zone}:${words[i]} ${words[i + 1]}`);
    }
  }
  for (const shape of shapeFeatures(text)) names.add(shape);
  return [...names].sort();
}

/** Feature names seen in at least `minCount` of the given replies' feature lists, sorted: the vocabulary. */
export function vocabulary(featureLists: readonly (readonly string[])[], minCount: number): string[] {
  const counts = new Map<string, number>();
  for (const list of featureLists) for (const name of list) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].filter(([, count]) => count >= minCount).map(([name]) => name).sort();
}

/**
 * A reply's features as a sparse row over a vocabulary: indices of the names present, each with the
 * value 1/√k (k = how many are present) so every row has length 1 and one learning rate suits
 * short and long replies alike.
 */
export interface SparseRow {
  index: number[];
  value: number[];
}

export function toRow(features: readonly string[], vocab: ReadonlyMap<string, number>): SparseRow {
  const index = features.map((name) => vocab.get(name)).filter((i): i is number => i !== undefined).sort((a, b) => a - b);
  const v = index.length === 0 ? 0 : 1 / Math.sqrt(index.length);
  return { index, value: index.map(() => v) };
}
