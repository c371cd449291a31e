/**
 * `armstudy analyze DIR` over a generated history: a temp folder laid out like the three clients'
 * roots (Codex `sessions/YYYY/MM/DD`, Claude Code `projects/<dir>`, pi `sessions/--<dir>--`), filled
 * with copies of the real bundled sessions (the Codex CLI rollout, the Claude Code transcripts, the
 * pi session with compactions) until it reaches the target size (default 1 GiB), deleted afterwards.
 *
 * Runs, each the real CLI in a child process writing CSV to /dev/null:
 * - `--workers 2` on the whole folder, and on a quarter of it (flat memory: peak RSS should not
 *   grow with the history);
 * - `--workers 1` on the whole folder;
 * - peer: `jq -c .` over the same files (when jq is installed; `apt-get install -y jq`).
 * Peak RSS is the child's own `maxRSS` (resourceUsage, worker threads included).
 *
 * Target (issue 19): >= 100 MB/s with two workers, flat memory.
 * `npm run bench -- history` (ARMSTUDY_BENCH_HISTORY_MB=256 for a smaller folder).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const MB = 1024 * 1024;
const targetMb = Number(process.env.ARMSTUDY_BENCH_HISTORY_MB ?? 1024);
const fixtures = join(import.meta.dirname, "../../fixtures/sessions");
const repo = join(import.meta.dirname, "../..");

const SOURCES: Array<{ from: string; to: (i: number) => string; withFolder?: string }> = [
  { from: "codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl", to: (i) => `codex/sessions/2026/${String(1 + (i % 12)).padStart(2, "0")}/${String(1 + (i % 28)).padStart(2, "0")}/rollout-${i}.jsonl` },
  { from: "codemie-code/session-196820da.jsonl", to: (i) => `claude/projects/-home-user-p${i % 17}/s-${i}.jsonl` },
  { from: "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl", to: (i) => `claude/projects/-home-user-p${i % 17}/e-${i}.jsonl`, withFolder: "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1" },
  { from: "claude-code-log/f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl", to: (i) => `claude/projects/-home-user-p${i % 17}/f-${i}.jsonl` },
  { from: "pi-mono/before-compaction.jsonl", to: (i) => `pi/sessions/--home-user-p${i % 13}--/2025-12-09_${i}.jsonl` },
];

function generate(root: string, mb: number): { files: number; bytes: number } {
  let bytes = 0;
  let files = 0;
  for (let i = 0; bytes < mb * MB; i += 1) {
    const s = SOURCES[i % SOURCES.length] as (typeof SOURCES)[number];
    const to = join(root, s.to(i));
    mkdirSync(join(to, ".."), { recursive: true });
    cpSync(join(fixtures, s.from), to);
    bytes += statSync(to).size;
    files += 1;
    if (s.withFolder !== undefined) {
      const folder = to.replace(/\.jsonl$/, "");
      cpSync(join(fixtures, s.withFolder), folder, { recursive: true });
      for (const f of readdirSync(join(folder, "subagents"))) bytes += statSync(join(folder, "subagents", f)).size;
    }
  }
  return { files, bytes };
}

/** The real CLI in a child process; its wall time and its own peak RSS (worker threads included). */
function analyze(dir: string, workers: number): { seconds: number; rssMb: number; sessions: number } {
  const script = `import { main } from ${JSON.stringify(join(repo, "src/cli/main.ts"))};
let lines = 0;
const io = { stdout: (t) => { for (const c of t) if (c === "\\n") lines += 1; }, stderr: () => {}, readStdin: async () => "", cwd: process.cwd(), env: process.env, isTTY: false };
const code = await main(["analyze", ${JSON.stringify(dir)}, "--csv", "--workers", "${workers}"], io);
process.stderr.write(JSON.stringify({ code, sessions: lines - 1, maxRss: process.resourceUsage().maxRSS }) + "\\n");`;
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: repo, encoding: "utf8", maxBuffer: 64 * MB });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const last = result.stderr.trim().split("\n").at(-1) ?? "";
  let parsed: { code: number; sessions: number; maxRss: number };
  try {
    parsed = JSON.parse(last) as typeof parsed;
  } catch {
    throw new Error(`analyze did not finish: ${result.stderr.slice(-2000)}`);
  }
  if (parsed.code !== 0) throw new Error(`analyze exited ${parsed.code}`);
  return { seconds, rssMb: parsed.maxRss / 1024, sessions: parsed.sessions };
}

function jq(dir: string): number | null {
  if (spawnSync("jq", ["--version"]).status !== 0) return null;
  const started = process.hrtime.bigint();
  const r = spawnSync("sh", ["-c", `find "$1" -name '*.jsonl' -print0 | xargs -0 jq -c . >/dev/null`, "sh", dir], { stdio: "ignore" });
  if (r.status !== 0) throw new Error(`jq exited ${r.status}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const root = mkdtempSync(join(tmpdir(), "armstudy-bench-history-"));
try {
  const quarter = join(root, "quarter");
  const whole = join(root, "whole");
  const small = generate(quarter, targetMb / 4);
  const big = generate(whole, targetMb);
  const sizeMb = big.bytes / MB;
  process.stdout.write(`folder: ${sizeMb.toFixed(0)} MB in ${big.files} session files (+ sub-agent files); quarter: ${(small.bytes / MB).toFixed(0)} MB in ${small.files}; ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} before\n\n`);
  const two = analyze(whole, 2);
  const twoQuarter = analyze(quarter, 2);
  const one = analyze(whole, 1);
  const jqSeconds = jq(whole);
  const rows = [
    `| armstudy analyze --workers 2 (whole) | ${sizeMb.toFixed(0)} | ${two.seconds.toFixed(1)} | ${(sizeMb / two.seconds).toFixed(1)} | ${two.rssMb.toFixed(0)} | ${two.sessions} |`,
    `| armstudy analyze --workers 2 (quarter) | ${(small.bytes / MB).toFixed(0)} | ${twoQuarter.seconds.toFixed(1)} | ${(small.bytes / MB / twoQuarter.seconds).toFixed(1)} | ${twoQuarter.rssMb.toFixed(0)} | ${twoQuarter.sessions} |`,
    `| armstudy analyze --workers 1 (whole) | ${sizeMb.toFixed(0)} | ${one.seconds.toFixed(1)} | ${(sizeMb / one.seconds).toFixed(1)} | ${one.rssMb.toFixed(0)} | ${one.sessions} |`,
    jqSeconds === null ? "| peer: jq -c . (not installed) | | | | | |" : `| peer: jq -c . over the same files | ${sizeMb.toFixed(0)} | ${jqSeconds.toFixed(1)} | ${(sizeMb / jqSeconds).toFixed(1)} | | |`,
  ];
  process.stdout.write(["| task | MB | s | MB/s | peak RSS MB | sessions |", "|---|---:|---:|---:|---:|---:|", ...rows].join("\n"));
  process.stdout.write(`\n\nload average after: ${loadavg().map((l) => l.toFixed(1)).join(" ")}\n`);
  process.stdout.write(`two workers: ${(sizeMb / two.seconds).toFixed(1)} MB/s (target >= 100); peak RSS ${two.rssMb.toFixed(0)} MB over ${sizeMb.toFixed(0)} MB vs ${twoQuarter.rssMb.toFixed(0)} MB over a quarter (flat when close)\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
