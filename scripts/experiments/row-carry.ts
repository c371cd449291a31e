/**
 * The carry screen (docs/decisions/0243): over the dev replies only, how many repositories each analyzer row fires in,
 * whether the labels there agree with the way it pushes, and what dev reads of each repository without the rows that
 * fire in that repository alone. Dev only: the names of every held-out split (`HELD_OUT_SPLITS`: 1–7, 10, 11), of any
 * sealed split and every reply numbered 3400–3599 (split 12, sealed for the next session) are dropped from labels.yaml's
 * keys before any reply text is read, and `assertDevOnly` fails the run if one reaches the analyzer.
 * Run: `node --import tsx scripts/experiments/row-carry.ts [--owner] [--rows] [--moved]`: `--owner` counts owners (the part of
 * the repository before "/") instead of repositories, `--rows` adds the table of every row, `--moved` lists the replies
 * the proxy moves, with the rows of the field that fired.
 *
 * Rows are switched off by taking them out of the exported REPORT_PATTERNS array for one repository's replies and
 * putting them back: the analyzer loops over that array at each call, so nothing in src/ changes. The rows the analyzer
 * adds outside the table (permission.edit-consent, complete.edit-block, steps.subset, the content notes) cannot be
 * switched off so; the run says which of them are one-repository rows.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { REPORT_PATTERNS, type ReportPattern, analyzeFinalReport, explainFinalReport } from "../../src/core/report/analyze.ts";
import { type LabelledReply, REPLIES_DIR, labelledReply } from "../../test/core/report/labelled.ts";
import { SEALED_SPLITS, committedSplit, withoutSealed } from "../../test/core/report/split.ts";
import { CARRY_FIELDS, type CarryField, type FiredReply, REPO_BUCKETS, type RowTarget, bucketsByField, carryRows, carryingRows, confusion, devNames, oneRepoRows, outsideSealedRange, ownRepoOnly } from "./row-carry-screen.ts";
import { assertDevOnly, heldOutNames, projectsFromSources } from "./unfinished-data.ts";

/** The rows explainFinalReport can name that are not in REPORT_PATTERNS, with the group they feed. */
const ADDED_ROWS = [
  { id: "permission.edit-consent", group: "permission" },
  { id: "complete.edit-block", group: "complete" },
  { id: "steps.subset", group: "steps" },
  { id: "review.no-claim", group: "content" },
  { id: "findings.no-claim", group: "content" },
  { id: "midtask.no-state", group: "content" },
  { id: "answer.no-state", group: "content" },
  { id: "document.no-state", group: "content" },
  { id: "outside.no-state", group: "content" },
];

const labels = parse(readFileSync(join(REPLIES_DIR, "labels.yaml"), "utf8")) as Record<string, Record<string, unknown>>;
// Names only, before any text: held-out splits, sealed splits and the 3400–3599 range are one set the guard checks.
const blocked = new Set([...heldOutNames(), ...SEALED_SPLITS.flatMap((spec) => committedSplit(spec)), ...Object.keys(labels).filter((file) => !outsideSealedRange(file))]);
const names = devNames(withoutSealed(Object.keys(labels).map((file) => ({ file }))).map(({ file }) => file), blocked);
assertDevOnly(names.map((file) => ({ file })), blocked);
const dev: LabelledReply[] = names.map((file) => labelledReply(file, labels[file] as Record<string, unknown>));
assertDevOnly(dev, blocked);
const projects = projectsFromSources(readFileSync(join(REPLIES_DIR, "SOURCES.md"), "utf8"), new Set(dev.map((r) => r.file)));
// `--owner` groups by the part before "/" (several dev repositories share an owner, whose way of working may carry).
const byOwner = process.argv.includes("--owner");
const repoOf = (file: string): string => {
  const repo = projects.get(file) ?? "unknown";
  return byOwner ? (repo.split("/")[0] as string) : repo;
};
/** The group projectsFromSources gives the written replies. */
const WRITTEN = "written";

const optionsOf = (reply: LabelledReply) => (reply.steps === undefined ? {} : { steps: reply.steps });
const labelsOf = (reply: LabelledReply): Record<CarryField, boolean> => Object.fromEntries(CARRY_FIELDS.map((field) => [field, reply.expected[field] === true])) as Record<CarryField, boolean>;
type Verdicts = Record<CarryField, boolean>;
const verdicts = (reply: LabelledReply): Verdicts => {
  const got = analyzeFinalReport(reply.text, undefined, optionsOf(reply));
  return Object.fromEntries(CARRY_FIELDS.map((field) => [field, got[field]])) as Verdicts;
};

const fired: FiredReply[] = dev.map((reply) => ({ file: reply.file, repo: repoOf(reply.file), ids: explainFinalReport(reply.text, optionsOf(reply)).map((hit) => hit.id), labels: labelsOf(reply) }));
const full = new Map(dev.map((reply) => [reply.file, verdicts(reply)]));

// The table, switched off and on in place (see the header).
const table = REPORT_PATTERNS as ReportPattern[];
const original = [...table];
function withRowsOff<T>(off: ReadonlySet<string>, run: () => T): T {
  table.splice(0, table.length, ...original.filter((row) => !off.has(row.id)));
  try {
    return run();
  } finally {
    table.splice(0, table.length, ...original);
  }
}

const rows = carryRows([...original.map(({ id, group }) => ({ id, group })), ...ADDED_ROWS], fired);
const targets = new Map<string, RowTarget>(rows.map((row) => [row.id, row.target]));
const oneRepo = oneRepoRows(rows);
const tableIds = new Set(original.map((row) => row.id));
const repos = [...new Set(fired.map((reply) => reply.repo))];

const fmt = (c: { tp: number; fp: number; fn: number }): string => `${c.tp}/${c.fp}/${c.fn}`;
const scoreOf = (replies: readonly LabelledReply[], got: ReadonlyMap<string, Verdicts>, field: CarryField) => confusion(replies.map((reply) => ({ got: (got.get(reply.file) as Verdicts)[field], want: reply.expected[field] === true })));
const out: string[] = [];

out.push(`dev replies: ${dev.length} from ${repos.length} ${byOwner ? "owners (read \"repository\" below as owner)" : "repositories"} (written replies one group); blocked names: ${blocked.size}`);
out.push(`dev, full analyzer (TP/FP/FN): ${CARRY_FIELDS.map((field) => `${field} ${fmt(scoreOf(dev, full, field))}`).join(", ")}`);
out.push("");
const carrying = carryingRows(rows);
const carryingReal = carryingRows(rows, 2, WRITTEN);
for (const [title, except, keep] of [["written replies one group", undefined, carrying], ["written replies not counted: real repositories only", WRITTEN, carryingReal]] as const) {
  out.push(`## Rows per field by the number of dev repositories they fire in (${title})`);
  out.push("");
  out.push(`| field | rows | ${REPO_BUCKETS.map((b) => `${b} repos`).join(" | ")} | ≥2 agreeing repos |`);
  out.push(`|---|---:|${REPO_BUCKETS.map(() => "---:").join("|")}|---:|`);
  const buckets = bucketsByField(rows, except);
  for (const field of CARRY_FIELDS) {
    const of = rows.filter((row) => row.target.field === field);
    out.push(`| ${field} | ${of.length} | ${REPO_BUCKETS.map((b) => buckets[field][b]).join(" | ")} | ${of.filter((row) => keep.has(row.id)).length} |`);
  }
  out.push("");
}
out.push("## One-repository rows (id: repository, replies, label agrees)");
out.push("");
for (const field of CARRY_FIELDS) {
  const of = rows.filter((row) => row.target.field === field && oneRepo.has(row.id));
  out.push(`- ${field}: ${of.map((row) => `${row.id}${tableIds.has(row.id) ? "" : "*"} (${oneRepo.get(row.id)}, ${row.replies}, ${row.agree})`).join("; ") || "none"}`);
}
out.push("(* added outside REPORT_PATTERNS: cannot be switched off without a change to src)");
out.push("");

// The proxy from explain output: replies whose every fired row for a field is a one-repository row.
const own = ownRepoOnly(fired, targets, oneRepo);
out.push("## Replies whose rows for a field all fire in their own repository only (explain output)");
out.push("");
// Of those, the ones resting on a row outside the table, which the proxy below cannot switch off.
const fixedOneRepo = new Set([...oneRepo.keys()].filter((id) => !tableIds.has(id)));
const onFixed = (field: CarryField): FiredReply[] => fired.filter((reply) => {
  const ids = reply.ids.filter((id) => targets.get(id)?.field === field);
  return ids.length > 0 && ids.every((id) => oneRepo.has(id)) && ids.some((id) => fixedOneRepo.has(id));
});
const restsOnFixed = (field: CarryField): string => {
  const replies = onFixed(field);
  const which = process.argv.includes("--moved") && replies.length > 0 ? ` (${replies.map((reply) => `${reply.file}: ${reply.ids.filter((id) => targets.get(id)?.field === field).join(", ")}`).join("; ")})` : "";
  return `${replies.length}${which}`;
};
out.push("| field | replies with a row for it | only one-repository rows | of those, label agrees with the push | of those, on a row outside the table |");
out.push("|---|---:|---:|---:|---:|");
for (const field of CARRY_FIELDS) out.push(`| ${field} | ${own[field].withRows} | ${own[field].ownOnly} | ${own[field].pushedRight} | ${restsOnFixed(field)} |`);
out.push("");

// The leave-one-repository-out proxy: each repository's replies scored with the rows that fire only there switched off.
const loo = new Map<string, Verdicts>();
const movedBy: string[] = [];
const movedLines: string[] = [];
for (const repo of repos) {
  const off = new Set([...oneRepo].filter(([id, where]) => where === repo && tableIds.has(id)).map(([id]) => id));
  const mine = dev.filter((reply) => repoOf(reply.file) === repo);
  const got = off.size === 0 ? mine.map((reply) => [reply.file, full.get(reply.file) as Verdicts] as const) : withRowsOff(off, () => mine.map((reply) => [reply.file, verdicts(reply)] as const));
  for (const [file, v] of got) loo.set(file, v);
  const moved = got.filter(([file, v]) => CARRY_FIELDS.some((field) => v[field] !== (full.get(file) as Verdicts)[field])).length;
  if (process.argv.includes("--moved")) for (const [file, v] of got) for (const field of CARRY_FIELDS) if (v[field] !== (full.get(file) as Verdicts)[field]) movedLines.push(`${file} ${field} ${(full.get(file) as Verdicts)[field]} → ${v[field]}: ${(fired.find((r) => r.file === file) as FiredReply).ids.filter((id) => targets.get(id)?.field === field).join(", ")}`);
  if (moved > 0) movedBy.push(`${repo} (${off.size} rows off, ${moved} of ${mine.length} replies moved)`);
}
out.push("## Leave-one-repository-out proxy (each repository's dev replies without the rows that fire only there)");
out.push("");
out.push("| field | full (TP/FP/FN) | own-repository rows off | change |");
out.push("|---|---|---|---|");
for (const field of CARRY_FIELDS) {
  const a = scoreOf(dev, full, field);
  const b = scoreOf(dev, loo, field);
  out.push(`| ${field} | ${fmt(a)} | ${fmt(b)} | TP ${b.tp - a.tp >= 0 ? "+" : ""}${b.tp - a.tp}, FP ${b.fp - a.fp >= 0 ? "+" : ""}${b.fp - a.fp}, FN ${b.fn - a.fn >= 0 ? "+" : ""}${b.fn - a.fn} |`);
}
out.push("");
out.push(`repositories whose replies moved: ${movedBy.join("; ") || "none"}`);
if (movedLines.length > 0) out.push("", ...movedLines.map((line) => `- ${line}`));
out.push("");

// What the screen a later round could adopt would leave: only table rows with ≥ 2 agreeing repositories kept (rows of
// filler and other fields stay; rows outside the table cannot be switched off).
const screenOff = (keep: ReadonlySet<string>): Set<string> => new Set(rows.filter((row) => tableIds.has(row.id) && !keep.has(row.id)).map((row) => row.id));
const offAll = screenOff(carrying);
const offReal = screenOff(carryingReal);
const screened = withRowsOff(offAll, () => new Map(dev.map((reply) => [reply.file, verdicts(reply)])));
const screenedReal = withRowsOff(offReal, () => new Map(dev.map((reply) => [reply.file, verdicts(reply)])));
out.push("## Dev with only the rows that fire in ≥ 2 agreeing repositories");
out.push("");
out.push(`| field | full (TP/FP/FN) | screened, written one group (${offAll.size} table rows off) | screened, real repositories only (${offReal.size} off) |`);
out.push("|---|---|---|---|");
for (const field of CARRY_FIELDS) out.push(`| ${field} | ${fmt(scoreOf(dev, full, field))} | ${fmt(scoreOf(dev, screened, field))} | ${fmt(scoreOf(dev, screenedReal, field))} |`);
out.push("");
out.push(`off, written one group: ${[...offAll].join(", ")}`);
out.push(`off as well, real repositories only: ${[...offReal].filter((id) => !offAll.has(id)).join(", ") || "none"}`);
out.push("");

// The table is whole again: the full figures come back.
const again = new Map(dev.map((reply) => [reply.file, verdicts(reply)]));
if (dev.some((reply) => CARRY_FIELDS.some((field) => (again.get(reply.file) as Verdicts)[field] !== (full.get(reply.file) as Verdicts)[field]))) throw new Error("row-carry: the table was not restored");

if (process.argv.includes("--rows")) {
  out.push("## Every row (field, push, replies fired on, scored on, label agrees, repositories, agreeing repositories; per repository agree/scored [of fired])");
  out.push("");
  out.push("| row | field | push | replies | scored | agree | repos | agreeing | per repository |");
  out.push("|---|---|---|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    const per = [...row.repos].sort((a, b) => b[1].fires - a[1].fires).map(([repo, t]) => `${repo} ${t.agree}/${t.scored}${t.scored === t.fires ? "" : ` of ${t.fires}`}`).join(", ");
    out.push(`| ${row.id} | ${row.target.field} | ${row.target.pushes} | ${row.replies} | ${row.scored} | ${row.agree} | ${row.repos.size} | ${row.agreeingRepos} | ${per} |`);
  }
}
console.log(out.join("\n"));
