/**
 * `armstudy report …`. Two forms share the name:
 *
 * - `armstudy report analyze [FILE|-] [--steps B1,…] [--explain] [--json]`: the final-report analysis
 *   of one reply (src/core/report/analyze.ts). Exit 0 for any reply; 2 when the input cannot be
 *   read or --steps is malformed (the message names the bad id).
 * - `armstudy report DIR`: re-render a study's report from its saved results; any first argument
 *   other than `analyze` goes to `renderStudyReport`, which calls the study command's re-render.
 */
import { type FinalReportAnalysis, type PatternHit, analyzeFinalReport, explainFinalReport } from "../../core/report/analyze.ts";
import { parseCommandArgs, readReply } from "../args.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";

const ANALYZE_USAGE = `armstudy report analyze [FILE|-] [--steps B1,B2,…] [--explain] [--json]

Analyzes one final reply (read from FILE, or standard input when FILE is - or absent): its first
line, whether it claims completion or states unfinished work (with a reason and a next step),
whether it ends by asking permission or on a filler line, its headings, characters and o200k
tokens. --steps gives the handoff's step ids (as a study run has them): a reply that names only
some of them as done claims none. --explain adds the pattern rows that fired and the clause each
fired on. --json prints the result object. Exit 0 for any reply; 2 when the input cannot be read.`;

const STEP_ID = /^[A-Za-z]{1,4}[ -]?\d{1,3}$/;

/** `B1,B2,…` → ids; a malformed or repeated id is a usage error naming it. */
function parseSteps(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = value.split(",").map((id) => id.trim());
  const bad = ids.find((id) => !STEP_ID.test(id));
  if (bad !== undefined) throw new UsageError(`--steps: ${bad === "" ? "an empty id" : `"${bad}"`} is not a step id; give ids like B1,B2,B3 (letters then a number), separated by commas\nusage: ${ANALYZE_USAGE}`);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new UsageError(`--steps: "${repeated}" is given twice; list each step once\nusage: ${ANALYZE_USAGE}`);
  return ids;
}

function renderHits(hits: readonly PatternHit[]): string {
  if (hits.length === 0) return `${"rows:".padEnd(20)}(none fired)\n`;
  return hits.map((hit, i) => `${(i === 0 ? "rows:" : "").padEnd(20)}${hit.id}: ${JSON.stringify(hit.clause)}\n`).join("");
}

const USAGE = `${ANALYZE_USAGE}

armstudy report DIR [--json]: re-render report.md, report.html, summary.json and charts/ from a study's saved results.`;

function renderAnalysis(analysis: FinalReportAnalysis): string {
  const rows: Array<[string, string]> = [
    ["firstLine", analysis.firstLine],
    ["firstLineRaw", analysis.firstLineRaw],
    ["claimsComplete", String(analysis.claimsComplete)],
    ["statesUnfinished", String(analysis.statesUnfinished)],
    ["givesReasonAndNext", String(analysis.givesReasonAndNext)],
    ["asksPermission", String(analysis.asksPermission)],
    ["fillerEnding", String(analysis.fillerEnding)],
    ["headings", analysis.headings.length === 0 ? "(none)" : analysis.headings.map((heading) => JSON.stringify(heading)).join(", ")],
    ["chars", String(analysis.chars)],
    ["tokens", String(analysis.tokens)],
    // Only a reply longer than the analyzer's windows has an unread middle (docs/decisions/0135).
    ...(analysis.unreadChars > 0 ? [["unreadChars", `${analysis.unreadChars} (the middle of a long reply, not read)`] as [string, string]] : []),
  ];
  return rows.map(([name, value]) => `${`${name}:`.padEnd(20)}${value}\n`).join("");
}

async function analyzeReply(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(
    { args, allowPositionals: true, strict: true, options: { json: { type: "boolean", default: false }, explain: { type: "boolean", default: false }, steps: { type: "string" } } },
    ANALYZE_USAGE,
  );
  const steps = parseSteps(parsed.values.steps);
  const [file, ...extra] = parsed.positionals;
  if (extra.length > 0) throw new UsageError(`analyze reads one reply; got ${extra.length + 1} files\nusage: ${ANALYZE_USAGE}`);
  const text = await readReply(file, io);
  const options = steps === undefined ? {} : { steps };
  const analysis = analyzeFinalReport(text, undefined, options);
  const hits = parsed.values.explain ? explainFinalReport(text, options) : null;
  if (parsed.values.json) io.stdout(`${JSON.stringify(hits === null ? analysis : { ...analysis, rows: hits }, null, 2)}\n`);
  else io.stdout(renderAnalysis(analysis) + (hits === null ? "" : renderHits(hits)));
  return 0;
}

/** `armstudy report DIR`: re-renders a study report from its saved results (src/cli/commands/study.ts). */
async function renderStudyReport(args: string[], io: CliIO): Promise<number> {
  // Loaded on demand: `report analyze` does not pay for the renderer's imports (chart.js, canvas).
  return (await import("./study.ts")).rerenderStudyReport(args, io);
}

const command: Command = {
  name: "report",
  summary: "Analyze a final reply (report analyze FILE), or re-render a study report (report DIR)",
  usage: USAGE,
  async run(args, io) {
    const [first, ...rest] = args;
    if (first === "analyze") return analyzeReply(rest, io);
    return renderStudyReport(args, io);
  },
};

export default command;
