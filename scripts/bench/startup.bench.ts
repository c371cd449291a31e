/**
 * Command start-up: `armstudy analyze` of a small real session (it counts the session's prompt, so
 * it loads the o200k table) against `armstudy --help` (no counting) and `jq -c .` of the same file
 * when jq is installed, each in fresh processes, interleaved round by round so that a neighbour's
 * load falls on all three alike. Goal: analyze < 0.5 s. `npm run bench -- startup`
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { machineLine, median, table, type Row } from "./lib/report.ts";

const ROOT = join(import.meta.dirname, "../..");
const SESSION = "fixtures/sessions/claude-agent-sdk-gleam/basic_query.ndjson";
const RUNS = 11;

interface Sample {
  wall: number;
  cpu: number;
  rssMb: number;
}

/** Wall seconds, CPU seconds (user + sys of the child) and peak RSS of one run, or null when it failed. */
function once(file: string, args: string[]): Sample | null {
  const started = performance.now();
  const out = spawnSync("/usr/bin/time", ["-f", "%U %S %M", file, ...args], { cwd: ROOT, encoding: "utf8" });
  const wall = (performance.now() - started) / 1000;
  if (out.error !== undefined || out.status !== 0) return null;
  const [user, sys, kb] = (out.stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
  return { wall, cpu: (user ?? 0) + (sys ?? 0), rssMb: (kb ?? 0) / 1024 };
}

const commands: Record<string, [string, string[]]> = {
  analyze: [process.execPath, ["bin/armstudy.js", "analyze", SESSION]],
  help: [process.execPath, ["bin/armstudy.js", "--help"]],
  jq: ["jq", ["-c", ".", SESSION]],
};
const samples: Record<string, Sample[] | null> = { analyze: [], help: [], jq: [] };
// Round 0 warms the file cache and the CLI's cached build (ADR 0238) and is not kept.
for (let round = 0; round <= RUNS; round += 1) {
  for (const [name, [file, args]] of Object.entries(commands)) {
    if (samples[name] === null) continue;
    const sample = once(file, args);
    if (sample === null) samples[name] = null;
    else if (round > 0) samples[name]?.push(sample);
  }
}
const medians = (list: Sample[] | null): Sample | null =>
  list === null || list.length === 0 ? null : { wall: median(list.map((s) => s.wall)), cpu: median(list.map((s) => s.cpu)), rssMb: median(list.map((s) => s.rssMb)) };
const analyze = medians(samples.analyze ?? null);
const help = medians(samples.help ?? null);
const jq = medians(samples.jq ?? null);
if (analyze === null || help === null) throw new Error("armstudy did not run (is /usr/bin/time installed?)");
const shown = (m: Sample): string => `${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s CPU, ${m.rssMb.toFixed(0)} MB`;
const rows: Row[] = [
  {
    figure: `\`armstudy analyze ${SESSION}\``,
    value: `${shown(analyze)} (+${(analyze.cpu - help.cpu).toFixed(2)} s CPU, +${(analyze.rssMb - help.rssMb).toFixed(0)} MB over \`--help\`)`,
    goal: "< 0.5 s",
    met: analyze.wall < 0.5,
    peer: `\`armstudy --help\` ${shown(help)}${jq === null ? "; jq not installed" : `; \`jq -c .\` ${shown(jq)}`}`,
  },
];
console.log(machineLine());
console.log("");
console.log(table(rows));
console.log("");
console.log(
  `Medians of ${RUNS} rounds of fresh processes (analyze, --help, jq in turn) after one warm-up round; wall time includes Node's start-up and loading the CLI (its cached build, ADR 0238; the warm-up round builds it if a source changed), which \`--help\` shows alone. On a shared machine read the CPU columns.`,
);
