/**
 * The viewer at scale, in headless Chromium. `npm run bench -- view`
 *
 * 1. A study of 1,000 runs: one real study (ordinary + goal, one run each, scripted test double)
 *    is run, then its two run folders are copied 500 times each under new run indices (the run
 *    index rewritten in result.json and record.jsonl), so every run has a real run's size. Measured:
 *    writing report.html (node), its size, and in Chromium the time from navigation until the run
 *    table holds all 1,000 rows and both charts are drawn (target < 2 s), then opening one run.
 * 2. A run of 5,000 steps (the goal run's rounds repeated): time until its first rows show and until
 *    every row is in the page, then a scroll from top to bottom, 600 px a frame, with each frame's
 *    time recorded (smooth: p95 near the 16.7 ms frame, no long frames); and the side-by-side of
 *    two such runs (alignment + first rows).
 * Medians of 5 page loads each. Needs /usr/bin/chromium.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { buildPageAssets } from "../../src/view/assets.ts";
import { writeStudyView } from "../../src/view/write.ts";
import { HAVE_CHROMIUM, launch } from "../../test/view/browser.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const LOADS = 5;
if (!HAVE_CHROMIUM) {
  process.stderr.write("view bench: /usr/bin/chromium is absent (apt-get install -y chromium); skipped\n");
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), "armstudy-bench-view-"));
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] as number;
const rows: string[][] = [];

async function realStudy(): Promise<string> {
  const out = join(work, "seed-study");
  const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
  const code = await main(["study", "--arm", "ordinary", "--arm", "goal", "--runs", "1", "--out", out], io);
  if (code !== 0) throw new Error(`the seed study failed: ${io.err.join("")}`);
  return out;
}

/** Copies run 1 of each arm to runs 1..perArm, rewriting the run index where it is recorded. */
function widen(seed: string, out: string, perArm: number): void {
  mkdirSync(out, { recursive: true });
  const meta = JSON.parse(readFileSync(join(seed, "study.json"), "utf8"));
  const arms: string[] = meta.arms.map((arm: { name: string }) => arm.name);
  meta.runsPerArm = perArm;
  meta.planned = [];
  for (let i = 1; i <= perArm; i += 1) for (const arm of arms) meta.planned.push({ arm, runIndex: i });
  writeFileSync(join(out, "study.json"), JSON.stringify(meta, null, 2));
  for (const arm of arms) {
    const from = join(seed, "runs", arm, "run-1");
    const result = JSON.parse(readFileSync(join(from, "result.json"), "utf8"));
    const record = readFileSync(join(from, "record.jsonl"), "utf8");
    const patch = readFileSync(join(from, "diff.patch"));
    for (let i = 1; i <= perArm; i += 1) {
      const to = join(out, "runs", arm, `run-${i}`);
      mkdirSync(to, { recursive: true });
      writeFileSync(join(to, "result.json"), JSON.stringify({ ...result, runIndex: i }));
      writeFileSync(join(to, "record.jsonl"), record.replace('"runIndex":1,', `"runIndex":${i},`));
      writeFileSync(join(to, "diff.patch"), patch);
    }
  }
}

/** A one-run study whose record repeats the goal run's middle until its timeline has `steps` steps (results fold into calls). */
function longRun(seed: string, out: string, arm: string, steps: number, salt: string): void {
  cpSync(seed, out, { recursive: true });
  const file = join(out, "runs", arm, "run-1", "record.jsonl");
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  const head = lines.slice(0, 4);
  const tail = lines.slice(-1);
  const middle = lines.slice(4, -1);
  const body: string[] = [];
  let shown = head.length + tail.length + 2; // + the acceptance checks and the diff
  for (let i = 0; shown < steps; i += 1) {
    const line = middle[i % middle.length] as string;
    if (!line.includes('"type":"tool.result"')) shown += 1;
    // Distinct call ids per lap, so results stay folded into their own calls; `salt` makes two runs differ now and then.
    body.push(line.replace(/"id":"(call_[^"]+)"/, `"id":"$1_${Math.floor(i / middle.length)}"`).replace(/"command":"node /, i % 97 === 0 ? `"command":"${salt}node ` : `"command":"node `));
  }
  writeFileSync(file, `${[...head, ...body, ...tail].join("\n")}\n`);
}

/** Scrolls the page from the top to the bottom, 600 px a frame, and returns each frame's time in ms. */
async function scrollFrames(page: import("playwright-core").Page): Promise<number[]> {
  // A string, not a function: tsx would wrap a function's inner closures in a helper the page lacks.
  return (await page.evaluate(`new Promise((done) => {
    window.scrollTo(0, 0);
    const times = [];
    let last = performance.now();
    const step = () => {
      const now = performance.now();
      times.push(now - last);
      last = now;
      const before = window.scrollY;
      window.scrollBy(0, 600);
      if (window.scrollY === before) done(times.slice(1));
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  })`)) as number[];
}

const seed = await realStudy();
const big = join(work, "study-1000");
widen(seed, big, 500);
const assets = await buildPageAssets();
let started = performance.now();
const bigHtml = await writeStudyView(big, assets);
const writeMs = performance.now() - started;
const bigBytes = statSync(bigHtml).size;

const { context, close } = await launch();
try {
  const page = await context.newPage();
  const opens: number[] = [];
  const runOpens: number[] = [];
  for (let i = 0; i < LOADS; i += 1) {
    await page.goto("about:blank");
    started = performance.now();
    await page.goto(pathToFileURL(bigHtml).href);
    await page.waitForFunction(() => document.querySelectorAll("table.runs tbody tr").length === 1000 && [...document.querySelectorAll("canvas")].length === 2 && [...document.querySelectorAll("canvas")].every((c) => (c as HTMLCanvasElement).width > 0));
    opens.push(performance.now() - started);
    started = performance.now();
    const link = page.locator('tr[data-key="goal/377"] a.runlink');
    if ((await link.count()) !== 1) throw new Error(`no goal/377 row; rows: ${(await page.locator("table.runs tbody tr").evaluateAll((trs) => trs.slice(0, 5).map((tr) => tr.getAttribute("data-key")))).join(", ")}`);
    await link.click();
    await page.waitForFunction(() => document.querySelectorAll(".timeline .step").length > 100);
    runOpens.push(performance.now() - started);
  }
  rows.push([`study of 1,000 runs: write report.html (node, page script built once before)`, `${writeMs.toFixed(0)} ms`, `${(bigBytes / 1024 / 1024).toFixed(1)} MiB`]);
  rows.push(["study of 1,000 runs: open from file:// until all 1,000 rows and both charts show", `${median(opens).toFixed(0)} ms`, `median of ${LOADS} (min ${Math.min(...opens).toFixed(0)}, max ${Math.max(...opens).toFixed(0)})`]);
  rows.push(["… then open goal run 377 (inflate its record, build its timeline)", `${median(runOpens).toFixed(0)} ms`, `median of ${LOADS}`]);

  const longA = join(work, "long-a");
  const longB = join(work, "long-b");
  longRun(seed, longA, "goal", 5000, "");
  longRun(seed, longB, "goal", 5000, "X=1 ");
  const longHtml = await writeStudyView(longA, assets);
  const firstRows: number[] = [];
  const allRows: number[] = [];
  let frames: number[] = [];
  for (let i = 0; i < LOADS; i += 1) {
    await page.goto("about:blank");
    started = performance.now();
    await page.goto(`${pathToFileURL(longHtml).href}#run/goal/1`);
    await page.waitForSelector(".timeline .step");
    firstRows.push(performance.now() - started);
    await page.waitForSelector(".timeline[data-complete]");
    allRows.push(performance.now() - started);
    if (i === LOADS - 1) frames = await scrollFrames(page);
  }
  const steps = await page.locator(".timeline .step").count();
  rows.push([`run of ${steps} steps: first rows on screen`, `${median(firstRows).toFixed(0)} ms`, `median of ${LOADS}`]);
  rows.push([`run of ${steps} steps: every row in the page`, `${median(allRows).toFixed(0)} ms`, `median of ${LOADS}`]);
  const scrollRow = (label: string, times: number[]) => [
    `run of ${steps} steps: scroll top to bottom, 600 px a frame (${times.length} frames)${label}`,
    `p50 ${quantile(times, 0.5).toFixed(1)} ms · p95 ${quantile(times, 0.95).toFixed(1)} ms · max ${Math.max(...times).toFixed(1)} ms`,
    `${times.filter((f) => f > 50).length} frames over 50 ms`,
  ];
  rows.push(scrollRow("", frames));
  // Peers, same page and run: containment on every row instead of per chunk of 100, and none at all.
  await page.addStyleTag({ content: ".chunk { content-visibility: visible !important; } .step { content-visibility: auto; contain-intrinsic-size: auto 31px; }" });
  rows.push(scrollRow(" · peer: content-visibility on every row", await scrollFrames(page)));
  await page.addStyleTag({ content: ".step { content-visibility: visible !important; }" });
  rows.push(scrollRow(" · peer: no content-visibility", await scrollFrames(page)));

  // Two long runs side by side: both in one study folder under two arms would need a second arm's
  // meta; the compare view takes any two runs of one page, so put B's record beside A's as run 2.
  cpSync(join(longB, "runs", "goal", "run-1"), join(longA, "runs", "goal", "run-2"), { recursive: true });
  const r2 = join(longA, "runs", "goal", "run-2", "result.json");
  writeFileSync(r2, JSON.stringify({ ...JSON.parse(readFileSync(r2, "utf8")), runIndex: 2 }));
  const pairHtml = await writeStudyView(longA, assets);
  const compares: number[] = [];
  for (let i = 0; i < LOADS; i += 1) {
    await page.goto("about:blank");
    started = performance.now();
    await page.goto(`${pathToFileURL(pairHtml).href}#compare/goal/1/goal/2`);
    await page.waitForSelector(".crow");
    compares.push(performance.now() - started);
  }
  const divergence = await page.locator(".crow.diverge").getAttribute("data-row");
  rows.push([`two ${steps}-step runs side by side: aligned, first rows on screen`, `${median(compares).toFixed(0)} ms`, `median of ${LOADS}; first divergence at row ${divergence}`]);
} finally {
  await close();
  rmSync(work, { recursive: true, force: true });
}

process.stdout.write(`\n| task | time | notes |\n|---|---:|---|\n${rows.map((row) => `| ${row.join(" | ")} |`).join("\n")}\n`);
