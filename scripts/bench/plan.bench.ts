/**
 * The plan classifier and the final-report analyzer on 1 MB replies: a realistic plan reply and an
 * adversarial one (thousands of fences opened and closed, unclosed fences, stray and partial tags,
 * and one paragraph of unmatched backtick runs of distinct lengths, the input that makes a naive
 * code-span search quadratic). Peers in the same run:
 *
 * - a regex tag scan over the whole text (the pre-ADR-0077 substring count: fast, but it counts
 *   tags inside code, so it is wrong on purpose-built input);
 * - a naive code-aware classifier (per-line regexes, and a forward regex search from every
 *   backtick run for its closer), the obvious way to write the same rules.
 *
 * Target: classifyPlanReply < 10 ms on each 1 MB input; analyzeFinalReport ≤ 5 ms per MiB (issue 13). `npm run bench -- plan`
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Bench } from "tinybench";
import { classifyPlanReply } from "../../src/core/plan/classify.ts";
import { analyzeFinalReport } from "../../src/core/report/analyze.ts";
import { TokenCounter, countTokens } from "../../src/core/tokens.ts";

const MB = 1024 * 1024;

function realistic(): string {
  const step = [
    "1. **Read the importer.** `src/sessions/formats/pi.ts` parses v1–v3; keep `readLines()` as it is.",
    "   - Add a `branch` field to the entry type, and carry `parentId` through `normalize()`.",
    "   - Check: `npx vitest run test/sessions/pi` stays green.",
    "",
    "```ts",
    "export function normalize(entry: PiEntry): RunEvent[] {",
    "  return entry.type === \"message\" ? fromMessage(entry) : [];",
    "}",
    "```",
    "",
    "Risks: a session without ids (v1) has no tree; treat it as one branch. Quoting `<proposed_plan>` in a",
    "comment is fine, it is inline code.",
    "",
  ].join("\n");
  let body = "";
  while (body.length < MB - 200) body += step;
  return `Here is the plan.\n\n<proposed_plan>\n${body}</proposed_plan>\n\nTell me if the order matters.`;
}

function adversarial(): string {
  const parts: string[] = [];
  let size = 0;
  const push = (text: string): void => {
    parts.push(text);
    size += text.length + 1;
  };
  // One paragraph of unmatched backtick runs, lengths 1, 2, 3, … (about 1,000 runs, ~0.5 MB).
  const runs: string[] = [];
  for (let n = 1; runs.join(" ").length < MB / 2; n += 1) runs.push(`${"`".repeat(n)} <proposed_plan`);
  push(runs.join(" "));
  push("");
  // Fences opened and closed, fences that do not close, stray tags, near-fences and '<' noise.
  const noise = [
    "```",
    "<proposed_plan>",
    "~~~",
    "</plan_blocked>",
    "```",
    "    ```",
    "``x`` ```y``` <plan_blocked <proposed_plan>> </ <<<<",
    "~~~~",
    "```` ``` ~~~ <plan_clarification",
    "~~~~",
    "` `` ``` <proposed_plan> ` </proposed_plan> ``",
  ].join("\n");
  while (size < MB - 100) push(noise);
  push("```unclosed");
  push("<proposed_plan>");
  return parts.join("\n");
}

/** The regex tag scan peer: count tags anywhere, the rule ADR-0077 replaced. */
function regexTagScan(text: string): string {
  const tags = text.match(/<\/?(?:proposed_plan|plan_blocked|plan_clarification)>/g) ?? [];
  return tags.length === 0 ? "no_plan" : tags.length === 2 ? "plan_ready" : "invalid";
}

/** The naive code-aware peer: the same rules, written the obvious way. */
function naiveClassify(text: string): number {
  let tags = 0;
  let fence: { char: string; length: number } | null = null;
  let paragraph: string[] = [];
  const countTags = (s: string): void => {
    tags += (s.match(/<\/?(?:proposed_plan|plan_blocked|plan_clarification)>/g) ?? []).length;
  };
  const flush = (): void => {
    const body = paragraph.join("\n");
    paragraph = [];
    let cursor = 0;
    let outside = "";
    const runRe = /`+/g;
    let run: RegExpExecArray | null;
    while ((run = runRe.exec(body)) !== null) {
      const closer = new RegExp(`(?<!\`)\`{${run[0].length}}(?!\`)`, "g");
      closer.lastIndex = run.index + run[0].length;
      const found = closer.exec(body);
      if (found === null) continue;
      outside += body.slice(cursor, run.index);
      cursor = found.index + found[0].length;
      runRe.lastIndex = cursor;
    }
    countTags(outside + body.slice(cursor));
  };
  for (const line of text.split("\n")) {
    if (fence) {
      if (new RegExp(`^ {0,3}${fence.char === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`).test(line)) fence = null;
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})([^]*)$/.exec(line);
    if (open && !(open[1]!.startsWith("`") && open[2]!.includes("`"))) {
      flush();
      fence = { char: open[1]![0]!, length: open[1]!.length };
    } else if (line.trim() === "") flush();
    else paragraph.push(line);
  }
  flush();
  return tags;
}

const inputs = { "1 MB plan reply": realistic(), "1 MB adversarial": adversarial() };
for (const [name, text] of Object.entries(inputs)) {
  console.log(`${name}: ${(text.length / MB).toFixed(2)} MiB, ${text.split("\n").length} lines, classifyPlanReply → ${JSON.stringify({ ...classifyPlanReply(text), plan: undefined })}, regex peer → ${regexTagScan(text)}`);
}

// The labelled final replies: what a study actually feeds the analyzer, reply by reply.
const repliesDir = join(import.meta.dirname, "../../fixtures/final-replies");
const replies = readdirSync(repliesDir).filter((name) => /^\d{3}-.*\.md$/.test(name)).map((name) => readFileSync(join(repliesDir, name), "utf8"));

const counter = new TokenCounter();
for (const text of [...Object.values(inputs), ...replies]) counter.count(text);

const bench = new Bench({ iterations: 40, warmupIterations: 5, time: 0 });
for (const [name, text] of Object.entries(inputs)) {
  bench
    .add(`classifyPlanReply · ${name}`, () => {
      classifyPlanReply(text);
    })
    .add(`peer: regex tag scan · ${name}`, () => {
      regexTagScan(text);
    })
    .add(`analyzeFinalReport, tokens cached · ${name}`, () => {
      analyzeFinalReport(text, counter);
    });
}
bench
  .add(`classifyPlanReply · ${replies.length} labelled final replies`, () => {
    for (const reply of replies) classifyPlanReply(reply);
  })
  .add(`analyzeFinalReport, tokens cached · ${replies.length} labelled final replies`, () => {
    for (const reply of replies) analyzeFinalReport(reply, counter);
  });
await bench.run();

// The naive peer is slow on the adversarial input, so it runs a few times outside the table.
const naive: Record<string, number> = {};
for (const [name, text] of Object.entries(inputs)) {
  const runs = 3;
  const start = performance.now();
  for (let i = 0; i < runs; i += 1) naiveClassify(text);
  naive[name] = (performance.now() - start) / runs;
}
const tokensStart = performance.now();
countTokens(inputs["1 MB plan reply"]);
const tokensMs = performance.now() - tokensStart;

// Medians, not means: the machine is shared, and one descheduled iteration moves a mean by a lot.
const median = (task: string): number => {
  const found = bench.tasks.find((t) => t.name === task);
  return (found?.result as { latency?: { p50?: number } } | undefined)?.latency?.p50 ?? Number.NaN;
};
console.table(bench.tasks.map((task) => ({ task: task.name, "median ms/run": median(task.name).toFixed(2) })));
for (const name of Object.keys(inputs)) {
  const ours = median(`classifyPlanReply · ${name}`);
  console.log(
    `${name}: classifyPlanReply ${ours.toFixed(2)} ms (${ours < 10 ? "under" : "OVER"} the 10 ms target); ` +
      `regex tag scan ${(ours / median(`peer: regex tag scan · ${name}`)).toFixed(1)}× faster than ours; ` +
      `naive code-aware peer ${naive[name]!.toFixed(1)} ms = ${(naive[name]! / ours).toFixed(1)}× ours`,
  );
}
for (const [name, text] of Object.entries(inputs)) {
  const perMiB = median(`analyzeFinalReport, tokens cached · ${name}`) / (text.length / MB);
  // The warm counter finds a text over 64 Ki characters by its digest (~0.9 ms per MiB), included here; final-report.bench leaves it out.
  console.log(`${name}: analyzeFinalReport ${perMiB.toFixed(2)} ms per MiB (goal ≤ 5: ${perMiB <= 5 ? "meets" : "OVER"}; read on its first and last 24 KiB, ADR 0135)`);
}
console.log(`${replies.length} labelled replies (${(replies.join("").length / 1024).toFixed(0)} KiB): analyzeFinalReport ${((median(`analyzeFinalReport, tokens cached · ${replies.length} labelled final replies`) / replies.length) * 1000).toFixed(0)} µs per reply`);
console.log(`countTokens of the 1 MB plan reply, uncached: ${tokensMs.toFixed(0)} ms (analyzeFinalReport pays this once per new text)`);
