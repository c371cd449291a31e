/**
 * Session importers on a 200 MB Codex rollout made by repeating the real one
 * (fixtures/sessions/codemie-code/rollout-…11-26-55….jsonl) into a temp file that is deleted
 * afterwards. Tasks, one run, same file:
 *
 * - armstudy: `openSessionFile` + `MetricsAccumulator` — exactly what `armstudy analyze` does;
 * - peer `jq -c . >/dev/null` (when jq is installed; `apt-get install jq`);
 * - peer node: the same LF framing + `JSON.parse` per line, nothing else (the parse floor).
 *
 * Targets (issue 7): >= 50 MB/s, within 3x of jq, peak RSS growth < 64 MB.
 * `npm run bench -- sessions` (ARMSTUDY_BENCH_SESSION_MB=50 for a smaller file).
 */
import { spawnSync } from "node:child_process";
import { createReadStream, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import { MetricsAccumulator } from "../../src/measure/metrics.ts";
import { openSessionFile } from "../../src/sessions/import.ts";
import { readLines } from "../../src/sessions/lines.ts";

const MB = 1024 * 1024;
const targetMb = Number(process.env.ARMSTUDY_BENCH_SESSION_MB ?? 200);
const source = join(import.meta.dirname, "../../fixtures/sessions/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl");

const dir = mkdtempSync(join(tmpdir(), "armstudy-bench-sessions-"));
const file = join(dir, "rollout-x.jsonl");
const one = readFileSync(source);
const fd = openSync(file, "w");
let copies = 0;
while (copies * one.length < targetMb * MB) {
  writeSync(fd, one);
  copies += 1;
}
closeSync(fd);
const bytes = statSync(file).size;
const sizeMb = bytes / MB;
const lineCount = copies * (one.toString("utf8").split("\n").length - 1);

async function analyze(): Promise<number> {
  const session = await openSessionFile(file);
  const acc = new MetricsAccumulator();
  for await (const event of session.events) acc.add(event);
  return acc.result().toolCalls;
}

async function nodePeer(): Promise<number> {
  let n = 0;
  for await (const line of readLines(createReadStream(file, { highWaterMark: MB }))) {
    if ("text" in line && line.text.length > 0) {
      JSON.parse(line.text);
      n += 1;
    }
  }
  return n;
}

const jqAvailable = spawnSync("jq", ["--version"], { encoding: "utf8" }).status === 0;
function jq(): void {
  const result = spawnSync("sh", ["-c", `jq -c . "$1" >/dev/null`, "sh", file], { stdio: "ignore" });
  if (result.status !== 0) throw new Error(`jq exited ${result.status}`);
}

// Peak RSS growth of one analyze pass, sampled every 10 ms against the level before it started.
async function peakRssGrowth(): Promise<{ growthMb: number; toolCalls: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const toolCalls = await analyze();
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { growthMb: (peak - before) / MB, toolCalls };
}

try {
  process.stdout.write(`file: ${sizeMb.toFixed(1)} MB, ${copies} copies of the real rollout, ${lineCount.toLocaleString("en-US")} lines; jq ${jqAvailable ? "installed" : "NOT installed (peer skipped)"}\n\n`);
  const rss = await peakRssGrowth();
  const bench = new Bench({ iterations: 3, time: 0, warmup: false });
  bench.add("armstudy analyze (import + metrics)", analyze);
  bench.add("peer: node LF framing + JSON.parse", nodePeer);
  if (jqAvailable) bench.add("peer: jq -c . >/dev/null", jq);
  await bench.run();

  const mean = (name: string): number => {
    const task = bench.tasks.find((t) => t.name === name);
    const result = task?.result as { latency?: { mean: number } } | undefined;
    return result?.latency?.mean ?? Number.NaN;
  };
  const ours = mean("armstudy analyze (import + metrics)");
  const jqMs = jqAvailable ? mean("peer: jq -c . >/dev/null") : Number.NaN;
  const rows = bench.tasks.map((t) => {
    const ms = mean(t.name);
    return `| ${t.name} | ${(ms / 1000).toFixed(2)} | ${(sizeMb / (ms / 1000)).toFixed(1)} | ${(ms / ours).toFixed(2)} |`;
  });
  process.stdout.write(["| task | s/run (mean of 3) | MB/s | time ÷ armstudy |", "|---|---|---|---|", ...rows].join("\n"));
  process.stdout.write("\n\n");
  process.stdout.write(`armstudy: ${(sizeMb / (ours / 1000)).toFixed(1)} MB/s (target >= 50); `);
  process.stdout.write(jqAvailable ? `${(ours / jqMs).toFixed(2)}x jq's time (target <= 3); ` : "jq not installed, no jq ratio; ");
  process.stdout.write(`peak RSS growth ${rss.growthMb.toFixed(1)} MB (target < 64); ${rss.toolCalls} tool calls counted (${copies} x 105 = ${copies * 105})\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
