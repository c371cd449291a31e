/**
 * Held-out split 11 (docs/decisions/0228), step 2: the draw, as split10-draw.ts. Each group's candidates (split11-candidates.ts,
 * already sorted by ref, path and line) are shuffled with ONE mulberry32(20261225) stream taken over the groups in order
 * (Fisher–Yates, as test/core/report/split.ts draws a split), and the first `take` of each are kept. Writes the reply files
 * 3200– byte for byte and prints their SOURCES.md rows. Reads no labels and runs no analyzer.
 *
 *   npx tsx scripts/experiments/split11-draw.ts scripts/experiments/split11-groups.json <candidates.json> > rows.md
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { seededRng } from "../../src/core/random.ts";
import type { Candidate, Group } from "./split11-candidates.ts";

const REPLIES_DIR = join(import.meta.dirname, "../../fixtures/final-replies");

/** short: the file-name stem; take: how many of the shuffled candidates are kept; format: how the transcript was kept. */
type DrawGroup = Group & { short: string; take: number; format?: string };

function shuffled<T>(items: readonly T[], rng: () => number): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as T, order[i] as T];
  }
  return order;
}

function slug(text: string): string {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word !== "").slice(0, 3).join("-");
}

function agentColumn(candidate: Candidate, group: DrawGroup): string {
  if (group.kind === "claude-terminal") {
    const model = candidate.model !== "" ? `${candidate.model}, as the transcript's banner names it` : "model not recorded";
    return `Claude Code (${model}; ${group.format ?? "terminal transcript"})`;
  }
  const format = group.format ?? (candidate.agent === "Codex" ? "Entire checkpoint, Codex rollout JSONL" : "Entire checkpoint JSONL");
  return `${candidate.agent} (${candidate.model !== "" ? candidate.model : "model not recorded"}; ${format})`;
}

function pathColumn(candidate: Candidate): string {
  if (candidate.ref === "HEAD") return `\`${candidate.path}\``;
  const where = candidate.ref === "refs/heads/entire/checkpoints/v1" ? "branch `entire/checkpoints/v1`" : `ref \`${candidate.ref}\``;
  return `\`${candidate.path}\` (${where})`;
}

/** One split's draw: its seed and the reply numbers it may take, inclusive. */
export interface Draw {
  script: string;
  seed: number;
  first: number;
  last: number;
}

/** Draws from <groups.json> and <candidates.json> (the command line's two arguments), writes the replies, prints the rows. */
export function drawReplies({ script, seed: SEED, first: FIRST, last: LAST }: Draw): void {
  const [groupsFile, candidatesFile] = process.argv.slice(2);
  if (groupsFile === undefined || candidatesFile === undefined) throw new Error(`usage: ${script} <groups.json> <candidates.json>`);
  const groups = JSON.parse(readFileSync(groupsFile, "utf8")) as DrawGroup[];
  const candidates = JSON.parse(readFileSync(candidatesFile, "utf8")) as Candidate[];
  const rng = seededRng(SEED);
  let number = FIRST;
  const rows: string[] = [];
  for (const group of groups) {
    const pool = candidates.filter((candidate) => candidate.group === group.group);
    const drawn = shuffled(pool, rng).slice(0, group.take);
    for (const candidate of drawn) {
      if (number > LAST) throw new Error(`reply numbers run past ${LAST}`);
      const file = `${number}-${group.short}-${slug(candidate.text)}.md`;
      writeFileSync(join(REPLIES_DIR, file), candidate.text);
      rows.push(`| ${file} | ${agentColumn(candidate, group)} | ${candidate.line} | ${candidate.repo} | ${pathColumn(candidate)} | ${candidate.commit} | ${candidate.licence} |`);
      number += 1;
    }
    process.stderr.write(`${group.group}: ${drawn.length} of ${pool.length}\n`);
  }
  process.stdout.write(`${rows.join("\n")}\n`);
}

// Run as a command, not when split10-draw.ts or split12-draw.ts imports the draw.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) drawReplies({ script: "split11-draw.ts", seed: 20261225, first: 3200, last: 3399 });
