/**
 * The plan classifier per MiB on three inputs (goal ≤ 5 ms each): a realistic plan reply, 1 MiB of
 * short lines, and adversarial text (unmatched backtick runs, fences opened and left open, tag
 * fragments, a tag on every line, a tag in code on every line) and, since round 5, short tag-dense lines (`<p` on every
 * line, a tag line followed by `<pz` lines or by ```x``` lines, tags separated by blank lines; docs/decisions/0159).
 * Peers in the same run: a regex tag scan (fast, and wrong about tags in code) and the classifier as it was at the
 * round-3 baseline commit and at the end of round 4, each read from git.
 * `npm run bench -- classifier`
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classifyPlanReply } from "../../src/core/plan/classify.ts";
import { classifierInputs } from "./lib/classifier-inputs.ts";
import { cpuMedian, cpuNow, machineLine, median, ms, table, type Row } from "./lib/report.ts";

const MiB = 1024 * 1024;
const BASELINE = "e13d8b1";
/** The classifier at the end of round 4 (ADR 0138), before the short-line changes of ADR 0159. */
const ROUND_4 = "c678fed";

const inputs = classifierInputs();

/** The CPU ms of each of `fs`, medians of `runs` after `warmups`, the functions taking turns within each run. */
function interleavedMedians(fs: ReadonlyArray<() => void>, runs: number, warmups: number): number[] {
  for (let i = 0; i < warmups; i += 1) for (const f of fs) f();
  const times = fs.map((): number[] => []);
  for (let i = 0; i < runs; i += 1) {
    fs.forEach((f, k) => {
      const start = cpuNow();
      f();
      times[k]?.push(cpuNow() - start);
    });
  }
  return times.map((values) => median(values));
}

function regexTagScan(text: string): number {
  return (text.match(/<\/?(?:proposed_plan|plan_blocked|plan_clarification)>/g) ?? []).length;
}

// The classifier at a commit, for a before/after peer; null outside a git checkout.
const scratch = mkdtempSync(join(tmpdir(), "bench-classifier-"));
async function classifierAt(commit: string): Promise<((text: string) => unknown) | null> {
  try {
    const root = join(import.meta.dirname, "../..");
    const dir = join(scratch, commit);
    mkdirSync(dir);
    for (const file of ["classify.ts", "fence.ts"]) {
      writeFileSync(join(dir, file), execFileSync("git", ["-C", root, "show", `${commit}:src/core/plan/${file}`], { encoding: "utf8" }));
    }
    return ((await import(join(dir, "classify.ts"))) as { classifyPlanReply: (text: string) => unknown }).classifyPlanReply;
  } catch {
    return null;
  }
}
const baseline = await classifierAt(BASELINE);
const round4 = await classifierAt(ROUND_4);

console.log(machineLine());
console.log("");
const rows: Row[] = [];
for (const [name, text] of Object.entries(inputs)) {
  const mib = text.length / MiB;
  // Ours and the round-4 peer interleaved run by run: measured one after the other on a shared
  // machine, the same code read up to 8 % apart (docs/decisions/0159).
  const [ours = 0, last = null] = interleavedMedians([() => void classifyPlanReply(text), ...(round4 === null ? [] : [() => void round4(text)])], 30, 5).map((value) => value / mib);
  const regex = cpuMedian(() => void regexTagScan(text), 30, 5) / mib;
  const before = baseline === null ? null : cpuMedian(() => void baseline?.(text), 10, 2) / mib;
  for (const peer of [baseline, round4]) if (peer !== null && JSON.stringify(peer(text)) !== JSON.stringify(classifyPlanReply(text))) throw new Error(`${name}: a peer classifier disagrees`);
  rows.push({
    figure: `\`classifyPlanReply\`, ${name} (${text.split("\n").length.toLocaleString("en")} lines)`,
    value: `${ms(ours, 2)}/MiB`,
    goal: "≤ 5 ms/MiB",
    met: ours <= 5,
    peer: `regex tag scan ${ms(regex, 2)}/MiB${before === null ? "" : `; baseline ${BASELINE} ${ms(before, 2)}/MiB (${(before / ours).toFixed(1)}× ours)`}${last === null ? "" : `; round 4 ${ROUND_4} ${ms(last, 2)}/MiB (${(last / ours).toFixed(1)}× ours)`}`,
  });
}
rmSync(scratch, { recursive: true, force: true });
console.log(table(rows));
console.log("");
console.log(`Process CPU time, medians of 30 runs after 5 warm-ups, ours and round 4 taking turns within each run (the baseline: 10 after 2); both peer classifiers give the same results as ours on every input.`);
