/**
 * The dev replies asksPermission reads wrong, with the ending it read and the permission rows that fired
 * (docs/decisions/0231). Dev only: the held-out names (splits 1–7 and 10, and any split-11 list or reply numbered
 * 3200–3399, sealed this round) are dropped before any reply text is read, and `assertDevOnly` fails the run if one
 * reaches the scoring. Run: `node --import tsx scripts/experiments/permission-misses.ts [fn|fp|all] [--counts] [--dump FILE]`;
 * `--dump` writes every dev reply's five booleans and project as JSON, `--diff FILE` lists the replies whose fields moved
 * against such a dump (fixed or broken, by repository).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeFinalReport, explainFinalReport } from "../../src/core/report/analyze.ts";
import { BOOLEAN_FIELDS, REPLIES_DIR, score } from "../../test/core/report/labelled.ts";
import { assertDevOnly, heldOutNames, loadDevReplies, projectsFromSources } from "./unfinished-data.ts";

/** Splits 1–7 and 10, plus split 11 (sealed this round: its list if committed, and its whole number range). */
function allHeldOut(): ReadonlySet<string> {
  const names = new Set(heldOutNames());
  const split11 = join(REPLIES_DIR, "test-split-11.txt");
  if (existsSync(split11)) for (const line of readFileSync(split11, "utf8").split("\n")) if (line.trim() !== "" && !line.startsWith("#")) names.add(line.trim());
  const labels = readFileSync(join(REPLIES_DIR, "labels.yaml"), "utf8");
  for (const match of labels.matchAll(/^(3[23]\d\d-[^:\s]+\.md):/gm)) names.add(match[1] as string);
  return names;
}

const heldOut = allHeldOut();
const dev = loadDevReplies(heldOut).filter((reply) => !/^3[23]\d\d-/.test(reply.file));
assertDevOnly(dev, heldOut);
const projects = projectsFromSources(readFileSync(join(REPLIES_DIR, "SOURCES.md"), "utf8"), new Set(dev.map((r) => r.file)));
const mode = process.argv[2] ?? "all";
const countsOnly = process.argv.includes("--counts");

let tp = 0;
let fp = 0;
let fn = 0;
const out: string[] = [];
for (const reply of dev) {
  const options = reply.steps === undefined ? {} : { steps: reply.steps };
  const got = analyzeFinalReport(reply.text, undefined, options).asksPermission;
  const want = reply.expected.asksPermission;
  if (got && want) tp += 1;
  else if (got) fp += 1;
  else if (want) fn += 1;
  if (got === want || countsOnly) continue;
  const kind = want ? "FN" : "FP";
  if (mode !== "all" && mode.toUpperCase() !== kind) continue;
  const rows = explainFinalReport(reply.text, options).filter((hit) => hit.group === "permission" || hit.group === "continue");
  const tail = reply.text.trimEnd().slice(-700);
  out.push(`=== ${kind} ${reply.file} [${projects.get(reply.file) ?? "?"}]${reply.knownMiss.asksPermission ? ` knownMiss: ${reply.knownMiss.asksPermission}` : ""}\n${rows.map((hit) => `  row ${hit.id}: ${hit.clause}`).join("\n")}\n--- tail ---\n${tail}\n`);
}
console.log(out.join("\n"));
const argAfter = (flag: string): string | undefined => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const now: Record<string, { project: string; fields: boolean[] }> = {};
for (const reply of dev) {
  const got = analyzeFinalReport(reply.text, undefined, reply.steps === undefined ? {} : { steps: reply.steps });
  now[reply.file] = { project: projects.get(reply.file) ?? "?", fields: BOOLEAN_FIELDS.map((field) => got[field]) };
}
const dumpTo = argAfter("--dump");
if (dumpTo !== undefined) writeFileSync(dumpTo, JSON.stringify(now));
const diffFrom = argAfter("--diff");
if (diffFrom !== undefined) {
  const before = JSON.parse(readFileSync(diffFrom, "utf8")) as typeof now;
  const labelled = new Map(dev.map((reply) => [reply.file, reply]));
  for (const [file, { project, fields }] of Object.entries(now)) {
    const old = before[file];
    if (old === undefined) continue;
    BOOLEAN_FIELDS.forEach((field, i) => {
      if (old.fields[i] === fields[i]) return;
      const want = (labelled.get(file) as (typeof dev)[number]).expected[field];
      console.log(`${fields[i] === want ? "fixed " : "broken"} ${field.padEnd(18)} ${file} [${project}]`);
    });
  }
}
for (const s of score(dev)) console.log(`  ${s.field.padEnd(20)} TP ${s.tp} FP ${s.fp} FN ${s.fn}`);
console.log(`dev ${dev.length} replies: asksPermission TP ${tp} FP ${fp} FN ${fn}`);
