/**
 * The goal loop's pure costs on a long run (40 replies, 440 tool calls, ~780 kB of output), each
 * against a peer in the same run:
 *
 * - The evidence shield (`applyEvidenceShield`, outputs normalised once) against checking each
 *   quote with `quoteFound` (outputs normalised per quote), on the worst case: four invented quotes
 *   and the real one last.
 * - The claim-check digest (`digestTranscript`, bounded to 24 000 characters) against serialising
 *   the whole run view (what sending "everything" would cost to build).
 * - A whole 30-round goal through the combined control (`createTurnEndControl`, reducer, prompts)
 *   against the `none` control over the same replies: the per-reply cost of the goal machinery.
 *
 * `npm run bench -- goal`. Medians: the machine is shared.
 */
import { Bench } from "tinybench";
import { applyEvidenceShield, digestTranscript, evidenceOutputs, quoteFound } from "../../src/core/goal/index.ts";
import type { ReplyView, RunView } from "../../src/core/policies/contract.ts";
import { createTurnEndControl } from "../../src/core/policies/index.ts";

const output = (i: number) => `${`line ${i} of the test log with some padding text\n`.repeat(40)}Tests  ${i} passed (${i})`;
const replies: ReplyView[] = Array.from({ length: 40 }, (_, r) => ({
  index: r,
  text: `Reply ${r}: more work done.`,
  endReason: "no_tool_call",
  startedAtMs: r * 60_000,
  endedAtMs: r * 60_000 + 50_000,
  tokens: { input: 40_000, output: 800 },
  toolCalls: Array.from({ length: 11 }, (_, c) => ({
    id: `${r}-${c}`,
    name: "shell",
    arguments: { command: `npm test -- part${c}` },
    ok: true,
    exitCode: 0,
    output: output(r * 11 + c),
    changedFiles: c === 0,
    isCommand: true,
  })),
}));
const view: RunView = { handoff: "Implement the feature.", replies, todos: [], elapsedMs: 40 * 60_000, continuations: 39 };
const outputs = evidenceOutputs(view);
const quotes = ["invented line one of proof", "invented line two of proof", "invented line three here", "invented line four here", "Tests  3 passed (3)"];

/** Drives a control over the 30 first replies, as the loop would (no claims: every reply continues). */
function driveControl(specs: Parameters<typeof createTurnEndControl>[0]): number {
  const control = createTurnEndControl(specs);
  let state = control.initialState();
  state = control.onRunStart?.({ ...view, replies: [] }, state).state ?? state;
  let decisions = 0;
  for (let i = 1; i <= 31; i++) {
    const out = control.onReplyEnd({ ...view, replies: replies.slice(0, i) }, state);
    state = out.state;
    decisions++;
    if (out.decision.kind === "settle") break;
  }
  return decisions;
}

const bench = new Bench({ iterations: 30, warmupIterations: 3, time: 0 });
bench
  .add("applyEvidenceShield (normalise once)", () => {
    applyEvidenceShield({ verdict: "done", reason: "", evidence: quotes }, outputs);
  })
  .add("peer: quoteFound per quote", () => {
    quotes.some((quote) => quoteFound(quote, outputs));
  })
  .add("digestTranscript (24 000 chars)", () => {
    digestTranscript(view);
  })
  .add("peer: JSON.stringify(view)", () => {
    JSON.stringify(view);
  })
  .add("goal control, 31 replies", () => {
    driveControl([{ name: "goal" }]);
  })
  .add("peer: none control, 31 replies", () => {
    driveControl([{ name: "none" }]);
  });
await bench.run();

const median = (task: string): number => {
  const found = bench.tasks.find((t) => t.name === task);
  return (found?.result as { latency?: { p50?: number } } | undefined)?.latency?.p50 ?? Number.NaN;
};
console.log(`run: ${replies.length} replies, ${outputs.length} tool calls, ${(outputs.join("").length / 1000).toFixed(0)} kB of output; goal decisions over the run: ${driveControl([{ name: "goal" }])}`);
console.table(bench.tasks.map((task) => ({ task: task.name, "median ms/run": median(task.name).toFixed(3) })));
const ratio = (a: string, b: string) => (median(a) / median(b)).toFixed(2);
console.log(`shield / per-quote peer: ${ratio("applyEvidenceShield (normalise once)", "peer: quoteFound per quote")}×`);
console.log(`digest / serialise-everything peer: ${ratio("digestTranscript (24 000 chars)", "peer: JSON.stringify(view)")}×`);
console.log(`goal / none control over the same 31 replies: ${ratio("goal control, 31 replies", "peer: none control, 31 replies")}×; ${((median("goal control, 31 replies") / 31) * 1000).toFixed(0)} µs per reply end`);
