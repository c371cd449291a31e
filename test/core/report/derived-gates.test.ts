/**
 * The gates derived from the rows' expressions (src/core/report/literals.ts, derived-gates.ts, docs/decisions/0237): the
 * committed table is what the script writes, the reader's words are what every match contains, and every row has a gate.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DERIVED_GATES } from "../../../src/core/report/derived-gates.ts";
import { GATE_OF, GateText, ROW_GATES, admits, admitsText } from "../../../src/core/report/gates.ts";
import { derivedGatesModule, fewestWords, requiredWords } from "../../../src/core/report/literals.ts";
import { REPORT_PATTERNS } from "../../../src/core/report/patterns.ts";
import { seededRng } from "../../../src/core/random.ts";
import { REPLIES_DIR, replyFiles } from "./labelled.ts";
import { HELD_OUT_SPLITS, SEALED_SPLITS, committedSplit } from "./split.ts";

const ROOT = join(import.meta.dirname, "../../..");
const derivedRows = REPORT_PATTERNS.filter((row) => !ROW_GATES.has(row.id) && GATE_OF.has(row));

/** Dev replies only (no held-out or sealed split's reply): their lines, as a row would read them. */
function devLines(): string[] {
  const heldOut = new Set([...HELD_OUT_SPLITS, ...SEALED_SPLITS].flatMap((spec) => committedSplit(spec)));
  return replyFiles()
    .filter((file) => !heldOut.has(file))
    .flatMap((file) => readFileSync(join(REPLIES_DIR, file), "utf8").split("\n"));
}

/** Texts of every row's own words (in three cases), glue and marks, seeded: many match some row. */
function generatedTexts(count: number): string[] {
  const random = seededRng(20261202);
  const words = [...new Set(REPORT_PATTERNS.flatMap((row) => row.pattern.source.replace(/\\[bBdDsSwW]/g, " ").match(/[A-Za-z0-9'-]{2,}/g) ?? []))];
  const glue = [" ", " ", " ", ", ", ". ", "; ", " - ", "\n", " the ", " I'll ", " you ", " of ", "? ", "! ", ": ", " → ", "ſ", "\u212a", "İ"];
  const texts: string[] = [];
  for (let n = 0; n < count; n += 1) {
    let text = random() < 0.3 ? "- " : "";
    const length = 1 + Math.floor(random() * 9);
    for (let k = 0; k < length; k += 1) {
      const word = words[Math.floor(random() * words.length)] as string;
      const pick = random();
      text += (pick < 0.15 ? word.toUpperCase() : pick < 0.3 ? `${word[0]?.toUpperCase()}${word.slice(1)}` : word) + (glue[Math.floor(random() * glue.length)] as string);
    }
    texts.push(text);
  }
  return texts;
}

describe("the gates derived from the rows' expressions", () => {
  it("are exactly what scripts/derived-gates.ts writes from patterns.ts (else run it)", () => {
    const ungated = REPORT_PATTERNS.filter((row) => !ROW_GATES.has(row.id)).map((row) => row.pattern);
    expect(readFileSync(join(ROOT, "src/core/report/derived-gates.ts"), "utf8")).toBe(derivedGatesModule(ungated));
  });

  it("leave no row without a gate but complete.idiom (one alternative is ✅ alone, which a word cannot stand for)", () => {
    expect(REPORT_PATTERNS.filter((row) => !GATE_OF.has(row)).map((row) => row.id)).toEqual(["complete.idiom"]);
    expect(derivedRows.length).toBe(REPORT_PATTERNS.length - ROW_GATES.size - 1);
  });

  it("read what each part consumes: joined runs, alternatives, repeats, classes, assertions", () => {
    const read = (pattern: RegExp): string[] | undefined => requiredWords(pattern);
    expect(read(/\bnot (?:yet|now)\b/i)).toEqual(["not now", "not yet"]);
    // A part that may be absent needs nothing; one that repeats needs itself once, and is joined to nothing.
    expect(read(/(?:very )?done/)).toEqual(["done"]);
    expect(read(/(?:ab)+c/)).toEqual(["ab"]);
    expect(read(/(?:ab){2}c/)).toEqual(["ababc"]);
    expect(read(/x*/)).toBeUndefined();
    // An assertion consumes nothing: its neighbours stay joined; what a look-around reads is not required.
    expect(read(/^\W*ok(?=[.!])\b!/)).toEqual(["ok!"]);
    expect(read(/(?<!\bno )server/)).toEqual(["server"]);
    // `\s`, `.`, a class of many and a back-reference break a run; the longer run is kept.
    expect(read(/go\s+ahead/)).toEqual(["ahead"]);
    expect(read(/(a)b.cde\1/)).toEqual(["cde"]);
    expect(read(/[a-z]{2}tests/)).toEqual(["tests"]);
    // A class of a few characters is read as each of them; a negated one as anything.
    expect(read(/don[’']t/)).toEqual(["don"]);
    expect(read(/it[’']s/i)).toEqual(["it"]);
    expect(read(/[Ss]hip/)).toEqual(["ship"]);
    expect(read(/[^a]bc/)).toEqual(["bc"]);
    // Escapes: a character escape is the character; an identity escape its character.
    expect(read(/a\/b\.c\x41/)).toEqual(["a/b.ca"]);
    // An alternative with nothing required leaves the whole without words.
    expect(read(/done|\d+/)).toBeUndefined();
    // Under /iu "s" and "k" break a run ("ſ" and the Kelvin sign fold to them); under /i alone they do not.
    expect(read(/tasks/iu)).toEqual(["ta"]);
    expect(read(/tasks/i)).toEqual(["tasks"]);
    // A non-ASCII character breaks a run; what the reader does not know gives no words.
    expect(read(/✅ done/)).toEqual([" done"]);
    // (Modifiers, which this Node cannot compile, stand for any construct the reader does not know.)
    expect(read({ source: "a(?i:b)c", flags: "" } as RegExp)).toBeUndefined();
  });

  it("keep the fewest words: each cut to 12 characters, none holding another", () => {
    expect(fewestWords(["let me know if you like", "let me know how", "done", "all done", "ab"])).toEqual(["ab", "done", "let me know "]);
  });

  it("lower-case each ASCII character a match can stand for to the character lower-cased, but s and k under /iu", () => {
    const misses: string[] = [];
    for (const flags of ["", "i", "u", "iu"]) {
      for (let code = 0; code < 128; code += 1) {
        const lower = String.fromCharCode(code).toLowerCase();
        if (flags === "iu" && (lower === "s" || lower === "k")) continue;
        const one = new RegExp(`^\\x${code.toString(16).padStart(2, "0")}$`, flags);
        for (let unit = 0; unit < 0x10000; unit += 1) {
          const text = String.fromCharCode(unit);
          if (one.test(text) && text.toLowerCase() !== lower) misses.push(`${flags} ${code} ${unit}`);
        }
      }
    }
    expect(misses).toEqual([]);
    // The two the reader breaks on: "ſ" folds to s under /iu and does not lower-case to it.
    expect([/s/iu.test("ſ"), "ſ".toLowerCase() === "s", /s/i.test("ſ")]).toEqual([true, false, false]);
  });

  it("match wherever their row's expression matches: every dev line, and generated texts of the rows' own words", () => {
    const texts = [...devLines(), ...generatedTexts(40_000)];
    const misses: string[] = [];
    let matched = 0;
    for (const row of derivedRows) {
      const gate = GATE_OF.get(row) as readonly string[];
      const pattern = new RegExp(row.pattern.source, `${row.pattern.flags.replace("m", "")}m`);
      for (const text of texts) {
        if (!pattern.test(text)) continue;
        matched += 1;
        const lower = text.toLowerCase();
        if (!gate.some((word) => lower.includes(word))) misses.push(`${row.id}: ${text.slice(0, 120)}`);
      }
    }
    expect(misses).toEqual([]);
    // The texts exercise the rows: thousands of matches, so the check above can fail.
    expect(matched).toBeGreaterThan(5000);
  });

  it("read in one pass or word by word admit exactly what the words read one by one admit", () => {
    const texts = [...devLines().slice(0, 20_000), ...generatedTexts(5_000), "İ'll", "a\u0130 not"];
    const differ: string[] = [];
    let admitted = 0;
    for (const text of texts) {
      const [once, wordByWord] = [new GateText(text, true), new GateText(text, false)];
      for (const row of derivedRows) {
        const gate = GATE_OF.get(row) as readonly string[];
        const expected = admits(gate, text, () => text.toLowerCase());
        if (expected) admitted += 1;
        if (admitsText(gate, once) !== expected || admitsText(gate, wordByWord) !== expected) differ.push(`${row.id}: ${text.slice(0, 120)}`);
      }
    }
    expect(differ).toEqual([]);
    expect(admitted).toBeGreaterThan(20_000);
    expect(texts.length * derivedRows.length - admitted).toBeGreaterThan(20_000);
  });

  it("are keyed by the expression's text, so a changed row finds no stale gate", () => {
    const row = derivedRows[0];
    if (row === undefined) throw new Error("no derived row");
    expect(DERIVED_GATES.get(String(row.pattern))).toBe(GATE_OF.get(row));
    expect(DERIVED_GATES.get(String(new RegExp(`${row.pattern.source}x`, row.pattern.flags)))).toBeUndefined();
  });
});
