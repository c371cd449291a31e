/**
 * Command start-up: `armstudy analyze` of a small real session (it counts the session's prompt, so
 * it loads the o200k table) against `armstudy --help` (no counting) and `jq -c .` of the same file
 * when jq is installed, each in fresh processes. Goal: analyze < 0.5 s. `npm run bench -- startup`
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { machineLine, median, table, type Row } from "./lib/report.ts";

const ROOT = join(import.meta.dirname, "../..");
const SESSION = "fixtures/sessions/claude-agent-sdk-gleam/basic_query.ndjson";
const RUNS = 7;

/** Median wall seconds, CPU seconds (user + sys of the child) and peak RSS of a command. */
function measure(file: string, args: string[]): { wall: number; cpu: number; rssMb: number } | null {
  const walls: number[] = [];
  const cpus: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS + 1; i += 1) {
    const started = performance.now();
    const out = spawnSync("/usr/bin/time", ["-f", "%U %S %M", file, ...args], { cwd: ROOT, encoding: "utf8" });
    const wall = (performance.now() - started) / 1000;
    if (out.error !== undefined || out.status !== 0) return null;
    const [user, sys, kb] = (out.stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
    if (i === 0) continue; // warm the file cache and tsx's transform cache
    walls.push(wall);
    cpus.push((user ?? 0) + (sys ?? 0));
    rss.push((kb ?? 0) / 1024);
  }
  return { wall: median(walls), cpu: median(cpus), rssMb: median(rss) };
}

const analyze = measure(process.execPath, ["bin/armstudy.js", "analyze", SESSION]);
const help = measure(process.execPath, ["bin/armstudy.js", "--help"]);
const jq = measure("jq", ["-c", ".", SESSION]);
if (analyze === null || help === null) throw new Error("armstudy did not run (is /usr/bin/time installed?)");
const shown = (m: { wall: number; cpu: number; rssMb: number }): string => `${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s CPU, ${m.rssMb.toFixed(0)} MB`;
const rows: Row[] = [
  {
    figure: `\`armstudy analyze ${SESSION}\``,
    value: shown(analyze),
    goal: "< 0.5 s",
    met: analyze.wall < 0.5,
    peer: `\`armstudy --help\` ${shown(help)}${jq === null ? "; jq not installed" : `; \`jq -c .\` ${shown(jq)}`}`,
  },
];
console.log(machineLine());
console.log("");
console.log(table(rows));
console.log("");
console.log(`Medians of ${RUNS} fresh processes after one warm-up; wall time includes Node and tsx start-up, which \`--help\` shows alone.`);
