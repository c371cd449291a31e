/**
 * The dev misses of the unfinished fields, one block each, with the reply's project and the rows that fired
 * (docs/decisions/0233): what round 10's unfinished rules were read from. Dev only: the held-out names (splits 1–7 and
 * 10, `HELD_OUT_SPLITS`) and any sealed split are dropped before a reply's text is read (`loadDevReplies`), a reply
 * numbered 3200–3399 (split 11's range, sealed this round) is dropped by name too, and `assertDevOnly` runs again on
 * what is analysed.
 *
 *   node --import tsx scripts/experiments/unfinished-misses.ts [field …] [--text] [--summary]
 *
 * Fields default to statesUnfinished and givesReasonAndNext; `--text` prints each missed reply's text, `--summary`
 * prints only the TP/FP/FN of every field and the misses per project.
 */
import { type BooleanField, BOOLEAN_FIELDS, analyzeReply, score } from "../../test/core/report/labelled.ts";
import { explainFinalReport } from "../../src/core/report/analyze.ts";
import { assertDevOnly, devCorpus } from "./unfinished-data.ts";

/** Split 11's reply numbers: sealed this round, so never read here even once it is in labels.yaml. */
const SPLIT_11_RANGE = { first: 3200, last: 3399 };

function inSplit11Range(file: string): boolean {
  const number = Number.parseInt(file, 10);
  return number >= SPLIT_11_RANGE.first && number <= SPLIT_11_RANGE.last;
}

const args = process.argv.slice(2);
const showText = args.includes("--text");
const summaryOnly = args.includes("--summary");
const asked = args.filter((arg) => !arg.startsWith("--")) as BooleanField[];
for (const field of asked) if (!BOOLEAN_FIELDS.includes(field)) throw new Error(`unknown field ${field}`);
const fields: readonly BooleanField[] = asked.length > 0 ? asked : ["statesUnfinished", "givesReasonAndNext"];

const { heldOut, dev: loaded, group } = devCorpus();
const projectOf = new Map(loaded.map((reply, i) => [reply.file, group[i] as string]));
const dev = loaded.filter((reply) => !inSplit11Range(reply.file));
assertDevOnly(dev, heldOut);
if (dev.some((reply) => inSplit11Range(reply.file))) throw new Error("a split-11 reply reached the dev misses");

console.log(`dev replies: ${dev.length} (held-out names dropped: ${heldOut.size})`);
for (const s of score(dev)) console.log(`  ${s.field.padEnd(20)} TP ${s.tp} FP ${s.fp} FN ${s.fn}`);

const perProject = new Map<string, number>();
for (const reply of dev) {
  const got = analyzeReply(reply);
  const wrong = fields.filter((field) => got[field] !== reply.expected[field]);
  if (wrong.length === 0) continue;
  const project = projectOf.get(reply.file) ?? "unknown";
  perProject.set(project, (perProject.get(project) ?? 0) + 1);
  if (summaryOnly) continue;
  console.log(`\n=== ${reply.file}  [${project}]`);
  for (const field of wrong) console.log(`  ${field}: analyzer ${got[field]}, label ${reply.expected[field]}${reply.knownMiss[field] === undefined ? "" : ` — knownMiss: ${reply.knownMiss[field]}`}`);
  for (const hit of explainFinalReport(reply.text, reply.steps === undefined ? {} : { steps: reply.steps })) console.log(`  row ${hit.id}: ${hit.clause}`);
  if (showText) console.log(`--- text\n${reply.text}\n---`);
}
console.log(`\nreplies missed on ${fields.join(", ")}, per project:`);
for (const [project, count] of [...perProject].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) console.log(`  ${String(count).padStart(3)} ${project}`);
