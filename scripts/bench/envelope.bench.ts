/**
 * Envelope checks: what armstudy's parser rules cost on top of the work nobody can skip. Peers in
 * the same run:
 *
 * - `yaml.parse` of the envelope text (the floor for reading the file) against `parseEnvelopeText`;
 * - `EnvelopeShape.safeParse` alone (zod shape only) against `checkEnvelope` (shape + rules 2–7 +
 *   ledger lint + warnings);
 * - `JSON.parse` of every line against `summarizeCostLedger` on a 10,000-task cost ledger.
 *
 * Inputs: worked example 2 (a rich UI envelope) and a large envelope (400 files, 60 attested
 * dimensions with ledger entries, 40 novel decisions of 3 options). `npm run bench -- envelope`
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Bench } from "tinybench";
import { parse } from "yaml";
import { checkEnvelope } from "../../src/core/envelope/check.ts";
import { completionRow, dispatchRow, ledgerLine, summarizeCostLedger } from "../../src/core/envelope/cost-ledger.ts";
import { parseEnvelopeText } from "../../src/core/envelope/document.ts";
import { renderEnvelopeYaml } from "../../src/core/envelope/emit.ts";
import { extractSynthesisDimensions } from "../../src/core/envelope/plan.ts";
import { type Envelope, EnvelopeShape } from "../../src/core/envelope/schema.ts";

const FIXTURES = join(import.meta.dirname, "../../fixtures/envelopes");
const richText = readFileSync(join(FIXTURES, "example-2-rich.yaml"), "utf8");
const richPlan = extractSynthesisDimensions(readFileSync(join(FIXTURES, "plans/notification-settings.md"), "utf8"));

function large(): Envelope {
  const dimensions = Array.from({ length: 60 }, (_, index) => `dimension_${index}`);
  const option = (id: string) => ({ id, summary: `option ${id}`, user_impact: "none — internal-only change", performance: "no measurable change", speed: "~30 min", cost: "$0" });
  return {
    branch: "feat/large",
    commit_sha: "pending",
    files_changed: Array.from({ length: 400 }, (_, index) => `src/module-${index}/file.ts`),
    loc_added: 12000,
    loc_removed: 3400,
    f_criteria: Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`F${index + 1}`, index % 7 === 0 ? "fail" : "pass"])),
    synthesis_attestation: Object.fromEntries(dimensions.map((name, index) => [name, index % 5 === 0 ? { status: "deviated" as const, deviation_reason: "repo precedent" } : "applied" as const])),
    decision_ledger: dimensions.map((dimension) => ({ dimension, owner: "plan", locked_value: "secondary", alternatives_rejected: ["primary"], evidence_file: "src/a.ts", on_new_decision: "flag" })),
    novel_decisions: Array.from({ length: 40 }, (_, index) => ({
      decision_id: `d${index}`,
      decision: "Which way?",
      options: [option("A"), option("B"), option("C")],
      recommended_default: "B",
      confidence: "med",
      reasoning: "Because.",
    })),
    notes: "Large envelope for the benchmark.",
    wall_clock_seconds: 3600,
    task_id: "t-0000beef",
    status: "completed",
    capabilities_used: [],
    capabilities_rejected: [],
    downstream_iterate_outcome: null,
    merge_plan: null,
  };
}
const largeEnvelope = large();
const largeText = renderEnvelopeYaml(largeEnvelope);
const largePlan = { dimensions: Object.keys(largeEnvelope.synthesis_attestation), source: "front-matter" as const, line: 2 };
const richRaw = parseEnvelopeText(richText).envelope;

const lines: string[] = [];
for (let index = 0; index < 10_000; index++) {
  const taskId = `t-${index.toString(16).padStart(8, "0")}`;
  lines.push(ledgerLine(dispatchRow({ taskId, at: "2026-05-20T10:00:00Z", chunk: `c${index % 12}` })));
  if (index % 10 !== 0) {
    const raw = { ...largeEnvelope, task_id: taskId };
    lines.push(ledgerLine(completionRow({ envelope: raw, verdict: checkEnvelope(raw).verdict, at: "2026-05-20T10:05:00Z" })));
  }
}
const ledgerText = lines.join("");

console.log(`inputs: rich envelope ${richText.length} B; large envelope ${(largeText.length / 1024).toFixed(0)} KiB; cost ledger ${lines.length} rows, ${(ledgerText.length / 1024 / 1024).toFixed(1)} MiB`);

const bench = new Bench({ iterations: 60, warmupIterations: 10, time: 0 });
bench
  .add("parseEnvelopeText · rich", () => parseEnvelopeText(richText))
  .add("peer: yaml.parse · rich", () => parse(richText))
  .add("checkEnvelope +plan +ledger · rich", () => checkEnvelope(richRaw, { plan: richPlan, checkLedger: true }))
  .add("peer: EnvelopeShape.safeParse · rich", () => EnvelopeShape.safeParse(richRaw))
  .add("parseEnvelopeText · large", () => parseEnvelopeText(largeText))
  .add("peer: yaml.parse · large", () => parse(largeText))
  .add("checkEnvelope +plan +ledger · large", () => checkEnvelope(largeEnvelope, { plan: largePlan, checkLedger: true }))
  .add("peer: EnvelopeShape.safeParse · large", () => EnvelopeShape.safeParse(largeEnvelope))
  .add("summarizeCostLedger · 19k rows", () => summarizeCostLedger(ledgerText))
  .add("peer: JSON.parse per line · 19k rows", () => {
    for (const line of ledgerText.split("\n")) if (line !== "") JSON.parse(line);
  });
await bench.run();

// Medians, not means: the machine is shared.
const median = (task: string): number => {
  const found = bench.tasks.find((t) => t.name === task);
  return (found?.result as { latency?: { p50?: number } } | undefined)?.latency?.p50 ?? Number.NaN;
};
console.table(bench.tasks.map((task) => ({ task: task.name, "median ms/run": median(task.name).toFixed(3) })));
const ratio = (ours: string, peer: string): string => `${ours}: ${median(ours).toFixed(3)} ms, ${(median(ours) / median(peer)).toFixed(2)}× ${peer.replace(/^peer: /, "")}`;
for (const size of ["rich", "large"]) {
  console.log(ratio(`parseEnvelopeText · ${size}`, `peer: yaml.parse · ${size}`));
  console.log(ratio(`checkEnvelope +plan +ledger · ${size}`, `peer: EnvelopeShape.safeParse · ${size}`));
}
console.log(ratio("summarizeCostLedger · 19k rows", "peer: JSON.parse per line · 19k rows"));
