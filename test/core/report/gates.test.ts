/**
 * The analyzer's cheap gates (src/core/report/gates.ts, docs/decisions/0187): a gate must match wherever its row's
 * pattern does, and a row whose pattern changes must have its gate read again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GateText, ROW_GATES, admits, admitsText } from "../../../src/core/report/gates.ts";
import { REPORT_PATTERNS, type ReportPattern } from "../../../src/core/report/patterns.ts";
import { REPLIES_DIR, replyFiles } from "./labelled.ts";
import { HELD_OUT_SPLITS, SEALED_SPLITS, committedSplit } from "./split.ts";
import { seededRng } from "../../../src/core/random.ts";

const rowOf = (id: string): ReportPattern => {
  const row = REPORT_PATTERNS.find((candidate) => candidate.id === id);
  if (row === undefined) throw new Error(`no row ${id}`);
  return row;
};

/** FNV-1a over a pattern's flags and source: a short pin of exactly what the gate was written from. */
function fingerprint(pattern: RegExp): string {
  let hash = 0x811c9dc5;
  const text = `/${pattern.source}/${pattern.flags}`;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}


/** The words and marks a pattern spells out (runs of letters, digits, apostrophes, hyphens, and the emoji). */
function wordsOf(pattern: RegExp): string[] {
  const source = pattern.source.replace(/\\[bBdDsSwW]/g, " ");
  return [...new Set(source.match(/[A-Za-z0-9'-]{2,}|[❌⏳🚧⬜✅]/gu) ?? [])];
}

/** Texts made of the gated rows' own words, spaces, punctuation and the other rows' words: many match some row. */
function generatedTexts(count: number): string[] {
  const random = seededRng(20261202);
  const words = [...new Set([...ROW_GATES.keys()].flatMap((id) => wordsOf(rowOf(id).pattern)))];
  const glue = [" ", " ", " ", ", ", ". ", "; ", " - ", "\n", " the ", " I'll ", " of ", " / ", " 3 ", " [ ] ", "| "];
  const texts: string[] = [];
  for (let n = 0; n < count; n += 1) {
    let text = "";
    const length = 2 + Math.floor(random() * 8);
    for (let k = 0; k < length; k += 1) {
      const word = words[Math.floor(random() * words.length)] as string;
      text += (random() < 0.2 ? word.toUpperCase() : word) + (glue[Math.floor(random() * glue.length)] as string);
    }
    texts.push(text);
  }
  return texts;
}

/** Dev replies only (no split's held-out portion, and no sealed split's reply, 0223): their lines, as a row would read them. */
function devLines(): string[] {
  const heldOut = new Set([...HELD_OUT_SPLITS, ...SEALED_SPLITS].flatMap((spec) => committedSplit(spec)));
  return replyFiles()
    .filter((file) => !heldOut.has(file))
    .flatMap((file) => readFileSync(join(REPLIES_DIR, file), "utf8").split("\n"));
}

describe("the analyzer's cheap gates", () => {
  it("are pinned to the patterns they were written from: a changed row fails here until its gate is read again", () => {
    expect(Object.fromEntries([...ROW_GATES.keys()].map((id) => [id, fingerprint(rowOf(id).pattern)]))).toEqual({
      "unfinished.count-of": "836452b8",
      "unfinished.remaining": "04ce6b88",
      "unfinished.next": "b0004f45",
      "unfinished.count": "f2e41ff7",
      "unfinished.errors-left": "18511fc4",
      "unfinished.fails": "7423915e",
      "unfinished.word": "28a1bac1",
      "unfinished.not": "e08f29fd",
      "unfinished.blocked": "2602be39",
      "unfinished.pending": "e2e63dc6",
      "unfinished.still": "093d7a93",
      "unfinished.deferred": "6da5c3bd",
      "unfinished.except": "3ea3f2de",
      "unfinished.handed-back": "919fa858",
      "mark.progress": "d9aefb25",
      "unfinished.waits-on-person": "fbbb691a",
      "reason.waits-on-person": "fbbb691a",
      "next.waits-on-person": "fbbb691a",
      "unfinished.waits-on-report": "784ea2bc",
      "reason.waits-on-report": "784ea2bc",
      "next.waits-on-report": "784ea2bc",
      "unfinished.awaits-result": "8b203b38",
      "unfinished.target": "bb83a40f",
      "reason.cause": "962c9480",
      "reason.status": "3c04be69",
      "unfinished.blocker": "47a4315f",
      "reason.blocker": "47a4315f",
      "next.step": "dc2094cf",
    });
  });

  it("gate only clause rows: an expression with its row's flags, or lower-case ASCII words for a row read with /i alone", () => {
    for (const [id, gate] of ROW_GATES) {
      const row = rowOf(id);
      if (gate instanceof RegExp) expect({ id, scope: row.scope, flags: gate.flags }).toEqual({ id, scope: "clause", flags: row.pattern.flags });
      else expect({ id, scope: row.scope, flags: row.pattern.flags, odd: gate.filter((word) => !/^[\x20-\x40\x5b-\x7e]+$/.test(word)) }).toEqual({ id, scope: "clause", flags: "i", odd: [] });
    }
  });

  it("match wherever their row's pattern matches: every dev line, and generated texts of the rows' own words", () => {
    const texts = [...devLines(), ...generatedTexts(40_000)];
    const misses: string[] = [];
    let matched = 0;
    for (const [id, gate] of ROW_GATES) {
      const pattern = new RegExp(rowOf(id).pattern.source, `${rowOf(id).pattern.flags}m`);
      for (const text of texts) {
        if (!pattern.test(text)) continue;
        matched += 1;
        if (!admits(gate, text, () => text.toLowerCase())) misses.push(`${id}: ${text.slice(0, 120)}`);
      }
    }
    expect(misses).toEqual([]);
    // The texts exercise the rows: thousands of matches, so the check above can fail.
    expect(matched).toBeGreaterThan(5000);
  });

  it("turn the rows away from text that cannot fire them", () => {
    const text = "Done.\n- ok\nB3 next";
    const lowered = (): string => text.toLowerCase();
    // Every gate but the next-step row's, which "B3 next" can fire.
    expect([...ROW_GATES].filter(([, gate]) => !admits(gate, text, lowered)).map(([id]) => id)).toEqual([...ROW_GATES.keys()].filter((id) => id !== "next.step"));
    // One that can fire the next rows passes their gates, in any case.
    const next = "B3 IS NEXT";
    expect([...ROW_GATES].filter(([, gate]) => admits(gate, next, () => next.toLowerCase())).map(([id]) => id)).toEqual(["unfinished.next", "next.step"]);
    // A closing tag's or a path's slash is no count ("3/4 tasks" is).
    expect(["see </proposed_plan>", "src/core/a.ts", "3/4 tasks"].map((line) => admits(ROW_GATES.get("unfinished.count-of") as readonly string[], line, () => line.toLowerCase()))).toEqual([false, false, true]);
  });

  it("read in one pass (docs/decisions/0194), admit exactly what the gates read word by word admit", () => {
    const texts = [...devLines(), ...generatedTexts(20_000), "B3 IS NEXT", "I'LL finish", "İ'll", "a\u0130 not"];
    const differ: string[] = [];
    let admitted = 0;
    for (const text of texts) {
      // The automaton's one pass, and each gate's words searched (a process's first short texts, docs/decisions/0237).
      const [once, wordByWord] = [new GateText(text, true), new GateText(text, false)];
      for (const [id, gate] of ROW_GATES) {
        const expected = admits(gate, text, () => text.toLowerCase());
        if (expected) admitted += 1;
        if (admitsText(gate, once) !== expected || admitsText(gate, wordByWord) !== expected) differ.push(`${id}: ${text.slice(0, 120)}`);
      }
    }
    expect(differ).toEqual([]);
    // Both answers occur many times, so the comparison can fail.
    expect(admitted).toBeGreaterThan(20_000);
    expect(texts.length * ROW_GATES.size - admitted).toBeGreaterThan(20_000);
  });
});
