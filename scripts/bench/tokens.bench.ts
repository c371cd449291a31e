/**
 * o200k counting and prompt compilation, each figure beside its goal and a peer measured in the
 * same run (ADR 0088). `npm run bench -- tokens`
 *
 * 1. Ordinary text, cold (every cache cleared before each count): armstudy against raw
 *    gpt-tokenizer in alternating rounds (ADR 0009), and js-tiktoken. Goal: ≤ 1.05× gpt-tokenizer.
 * 2. One long pre-token: 1 MB of one repeated character. Goal: < 1 s. gpt-tokenizer and
 *    js-tiktoken are quadratic there, so they are measured on the longest runs they finish quickly,
 *    with armstudy on the same runs (counts compared).
 * 3. Start-up: a fresh process that imports the counter and counts one word, against the same
 *    process with gpt-tokenizer's counter, over a process that imports nothing (CPU and RSS).
 * 4. compile(): a cold compile against a recompile after one section changed. Goal: ≥ 5× faster,
 *    and each section counted once.
 *
 * Times are process CPU time.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { clearMergeCache, countTokens as rawCount } from "gpt-tokenizer/encoding/o200k_base";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { compile } from "../../src/core/prompt/compile.ts";
import type { PromptPack, PromptSection } from "../../src/core/prompt/types.ts";
import { seededRng } from "../../src/core/random.ts";
import { TokenCounter, contentHash, countTokens } from "../../src/core/tokens.ts";
import { o200k } from "../../src/core/tokens/o200k.ts";
import { loadArm } from "../../src/run/arms/load.ts";
import { cpuMedian, machineLine, median, ms, table, type Row } from "./lib/report.ts";

const WORDS =
  "the agent reads each file before it changes it and runs the checks after every edit so the person sees what changed why it changed and how it was tested a reply that stops early says so on its first line with the reason and the next step budget prefix cache section report token harness worktree handoff acceptance".split(
    " ",
  );

const SYLLABLES = "ba be bi bo ca ce co da de di do fa fe ga ge go ha he hi la le li lo ma me mi mo na ne ni no pa pe po ra re ri ro sa se si so ta te ti to va ve vi wa we ya yo za ze str tion ment ness able ing".split(" ");

function markdown(bytes: number, rand: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  // Mostly real words, some made-up ones: thousands of distinct words, as in real prose.
  const word = (): string => (rand() < 0.7 ? pick(WORDS) : Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(SYLLABLES)).join(""));
  const sentence = (): string => {
    const words = Array.from({ length: 6 + Math.floor(rand() * 14) }, word);
    const first = words[0] ?? "the";
    words[0] = first[0]?.toUpperCase() + first.slice(1);
    if (rand() < 0.2) words.splice(2, 0, `\`${pick(WORDS)}()\``);
    if (rand() < 0.1) words.splice(4, 0, `[${pick(WORDS)}](https://example.org/${pick(WORDS)})`);
    return `${words.join(" ")}.`;
  };
  const parts: string[] = [];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    n += 1;
    const block =
      n % 9 === 1
        ? `## ${pick(WORDS)} ${pick(WORDS)} ${n}`
        : n % 5 === 0
          ? Array.from({ length: 3 + Math.floor(rand() * 4) }, () => `- ${sentence()}`).join("\n")
          : Array.from({ length: 2 + Math.floor(rand() * 5) }, sentence).join(" ");
    parts.push(block);
    size += Buffer.byteLength(block) + 2;
  }
  return parts.join("\n\n").slice(0, bytes);
}

function mixedCode(bytes: number, rand: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const syllables = (): string => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(SYLLABLES)).join("");
  const ident = (): string => `${syllables()}${pick(WORDS)[0]?.toUpperCase() ?? ""}${pick(WORDS).slice(1)}${Math.floor(rand() * 100)}`;
  const strings = ["Réessayer plus tard", "请稍后再试", "もう一度お試しください", "Повторите попытку", "✅ done", "🚀 shipped", "<|endoftext|>", "naïve café"];
  const chunks = [
    () => `export function ${ident()}(${ident()}: number, ${ident()}: string): Promise<void> {\n  const ${ident()} = await fetch(\`/api/\${${ident()}}\`);\n  if (!${ident()}.ok) throw new Error("${pick(strings)}");\n  return ${ident()}.json();\n}\n`,
    () => `def ${ident()}(self, ${ident()}=None):\n    """${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}."""\n    for i in range(${Math.floor(rand() * 1000)}):\n        self.${ident()}[i] = ${rand().toFixed(6)}\n    return "${pick(strings)}"\n`,
    () => `#define ${ident().toUpperCase()} 0x${Math.floor(rand() * 0xffffff).toString(16)}\nstatic inline int ${ident()}(struct ${ident()} *p) { return p->${ident()} << ${Math.floor(rand() * 8)}; }\n`,
    () => `  "${ident()}": { "message": "${pick(strings)}", "count": ${Math.floor(rand() * 1e6)}, "ratio": ${rand().toFixed(4)} },\n`,
    () => `my $${ident()} = qr/^\\s*(${pick(WORDS)}|${pick(WORDS)})\\s*=\\s*(\\d+)$/; # ${pick(WORDS)}\n`,
  ];
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const chunk = pick(chunks)();
    parts.push(chunk);
    size += Buffer.byteLength(chunk);
  }
  return parts.join("");
}

const rand = seededRng(0x5eed);
const texts = { "md100k": markdown(100_000, rand), "mixed1m": mixedCode(1_000_000, rand) };
const PLAIN = { disallowedSpecial: new Set<string>() };
const tiktoken = new Tiktoken(o200kBase);
const ours = (text: string): number => countTokens(text);
const coldOurs = (): void => o200k().clearPieceCache();
const rows: Row[] = [];
const notes: string[] = [];

// 1. Ordinary text.
for (const [name, text] of Object.entries(texts)) {
  const counts = [ours(text), rawCount(text, PLAIN), tiktoken.encode(text, [], []).length];
  if (new Set(counts).size !== 1) throw new Error(`${name}: counts differ ${counts.join(" / ")}`);
  const runs = text.length > 500_000 ? 3 : 9;
  const ratios: number[] = [];
  const oursMs: number[] = [];
  const rawMs: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const a = (): number => cpuMedian(() => void ours(text), runs, 1, coldOurs);
    const b = (): number => cpuMedian(() => void rawCount(text, PLAIN), runs, 1, () => clearMergeCache());
    const [x, y] = round % 2 === 0 ? [a(), b()] : (([q, p]) => [p, q])([b(), a()]);
    oursMs.push(x as number);
    rawMs.push(y as number);
    ratios.push((x as number) / (y as number));
  }
  const peer = cpuMedian(() => void tiktoken.encode(text, [], []), 2, 1);
  const hash = cpuMedian(() => void contentHash(text), 10, 2);
  const ratio = median(ratios);
  rows.push({
    figure: `cold count, ${name} (${Buffer.byteLength(text).toLocaleString("en")} bytes, ${counts[0]?.toLocaleString("en")} tokens)`,
    value: `${ms(median(oursMs))} = ${ratio.toFixed(2)}× gpt-tokenizer`,
    goal: "≤ 1.05× gpt-tokenizer",
    met: ratio <= 1.05,
    peer: `gpt-tokenizer ${ms(median(rawMs))} (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}); js-tiktoken ${ms(peer)}; sha-256 key ${ms(hash, 2)}`,
  });
}

// 2. One long pre-token.
const MB = 1_000_000;
for (const unit of ["a", " ", "=", "`"]) {
  const big = unit.repeat(MB);
  const oursBig = cpuMedian(() => void ours(big), 3, 1, coldOurs);
  const gptSize = 20_000;
  const tikSize = 2_000;
  const gptText = unit.repeat(gptSize);
  const tikText = unit.repeat(tikSize);
  if (ours(gptText) !== rawCount(gptText, PLAIN) || ours(tikText) !== tiktoken.encode(tikText, [], []).length) throw new Error(`${JSON.stringify(unit)}: counts differ`);
  const gpt = cpuMedian(() => void rawCount(gptText, PLAIN), 1, 0, () => clearMergeCache());
  const tik = cpuMedian(() => void tiktoken.encode(tikText, [], []), 1, 0);
  const oursGpt = cpuMedian(() => void ours(gptText), 3, 1, coldOurs);
  const oursTik = cpuMedian(() => void ours(tikText), 3, 1, coldOurs);
  rows.push({
    figure: `1 MB of ${JSON.stringify(unit)} (one pre-token, ${ours(big).toLocaleString("en")} tokens)`,
    value: ms(oursBig, 0),
    goal: "< 1 000 ms",
    met: oursBig < 1000,
    peer: `20 000 chars: gpt-tokenizer ${ms(gpt, 0)} (≈ ${((gpt * (MB / gptSize) ** 2) / 60_000).toFixed(0)} min at 1 MB if quadratic), armstudy ${ms(oursGpt, 1)}; 2 000 chars: js-tiktoken ${ms(tik, 0)}, armstudy ${ms(oursTik, 2)}`,
  });
}

// 3. Start-up, in fresh processes.
function startup(body: string): { cpu: number; rss: number } {
  const samples: { cpu: number; rss: number }[] = [];
  for (let i = 0; i < 5; i += 1) {
    const script = `${body}\nconst u = process.cpuUsage(); console.log(JSON.stringify({ cpu: (u.user + u.system) / 1000, rss: process.memoryUsage().rss / 1e6 }));`;
    const out = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: import.meta.dirname, encoding: "utf8" });
    if (out.status !== 0) throw new Error(`start-up probe failed: ${out.stderr}`);
    samples.push(JSON.parse(out.stdout.trim().split("\n").at(-1) as string) as { cpu: number; rss: number });
  }
  return { cpu: median(samples.map((s) => s.cpu)), rss: median(samples.map((s) => s.rss)) };
}
const empty = startup("");
const importOnly = startup(`await import("../../src/core/tokens.ts");`);
const first = startup(`const { countTokens } = await import("../../src/core/tokens.ts"); countTokens("hello");`);
// What the CLI, its workers and the library entry do (ADR 0162): the first count maps the committed compact table.
const mapped = startup(`(await import("../../src/run/o200k-table-file.ts")).useO200kTableFile(); const { countTokens } = await import("../../src/core/tokens.ts"); countTokens("hello");`);
const gptFirst = startup(`const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base"); countTokens("hello");`);
rows.push(
  {
    figure: "start-up: import the counter, count nothing (CPU / RSS over an empty process)",
    value: `+${ms(importOnly.cpu - empty.cpu, 0)} / +${(importOnly.rss - empty.rss).toFixed(0)} MB`,
    goal: "no tokenizer loaded (< 50 ms, < 20 MB)",
    met: importOnly.cpu - empty.cpu < 50 && importOnly.rss - empty.rss < 20,
    peer: `empty process ${ms(empty.cpu, 0)} / ${empty.rss.toFixed(0)} MB`,
  },
  {
    figure: "start-up: import and count one word",
    value: `+${ms(first.cpu - empty.cpu, 0)} / +${(first.rss - empty.rss).toFixed(0)} MB`,
    peer: `gpt-tokenizer +${ms(gptFirst.cpu - empty.cpu, 0)} / +${(gptFirst.rss - empty.rss).toFixed(0)} MB`,
  },
  {
    figure: "start-up: import and count one word, table mapped from data/o200k-rank-table.bin (the CLI, its workers, the library entry)",
    value: `+${ms(mapped.cpu - empty.cpu, 0)} / +${(mapped.rss - empty.rss).toFixed(0)} MB`,
    peer: `built from the rank list (row above) +${ms(first.cpu - empty.cpu, 0)} / +${(first.rss - empty.rss).toFixed(0)} MB`,
  },
);

// 4. compile(): the bundled old-build arm, and the 100 KB markdown cut into 25 sections.
const oldBuild = (await loadArm(join(import.meta.dirname, "../../arms"), "old-build", { budgetsFile: null })).pack;
if (oldBuild === null || oldBuild === undefined) throw new Error("old-build has no pack");
const bigSections: PromptSection[] = Array.from({ length: 25 }, (_, i) => ({
  id: `s${i}`,
  order: i,
  stable: true,
  cut: "never",
  budget: {},
  source: { kind: "markdown", text: texts.md100k.slice(i * 4000, (i + 1) * 4000) },
  origin: `s${i}.md`,
}));
const packs: Record<string, { pack: PromptPack; change: string }> = {
  "old-build arm": { pack: oldBuild, change: "todo" },
  "100 KB pack (25 sections)": { pack: { name: "big", sections: bigSections }, change: "s12" },
};
function edited(pack: PromptPack, id: string, i: number): PromptPack {
  return {
    ...pack,
    sections: pack.sections.map((s) => (s.id === id && s.source.kind === "markdown" ? { ...s, source: { kind: "markdown", text: `${s.source.text}\nRevision ${i}: one more sentence.` } } : s)),
  };
}
for (const [name, { pack, change }] of Object.entries(packs)) {
  const cold = cpuMedian(() => void compile(pack, {}, { counter: new TokenCounter() }), 15, 3, coldOurs);
  const counter = new TokenCounter();
  compile(pack, {}, { counter });
  const sections = counter.stats().misses;
  let edit = 0;
  const before = counter.stats().misses;
  const again = cpuMedian(() => void compile(edited(pack, change, (edit += 1)), {}, { counter }), 15, 3, coldOurs);
  const perRecompile = (counter.stats().misses - before) / (15 + 3);
  const speedup = cold / again;
  rows.push({
    figure: `compile, ${name}: one-section recompile vs cold`,
    value: `${speedup.toFixed(1)}× faster (${ms(again, 3)} vs ${ms(cold, 3)})`,
    goal: "≥ 5×",
    met: speedup >= 5,
    peer: `texts counted: ${sections} cold (one per section), ${perRecompile} per recompile`,
  });
}

console.log(machineLine());
console.log("");
console.log(table(rows));
console.log("");
console.log(
  "Process CPU time; medians. Ordinary text: 7 alternating rounds (order flipped each round), caches cleared before every count, counts equal for all three counters. Long runs: counts compared with gpt-tokenizer at 20 000 characters and js-tiktoken at 2 000, where each finishes in seconds (both merge loops are quadratic in the run's length). Start-up: medians of 5 fresh `node --import tsx` processes.",
);
for (const note of notes) console.log(note);
