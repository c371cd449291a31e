/**
 * `armstudy report …`. Two forms share the name:
 *
 * - `armstudy report analyze [FILE|-] [--json]`: the final-report analysis of one reply
 *   (src/core/report/analyze.ts). Exit 0 for any reply; 2 when the input cannot be read.
 * - `armstudy report DIR`: re-render a study's report from its saved results; any first argument
 *   other than `analyze` goes to `renderStudyReport`, which calls the study command's re-render.
 */
import { type FinalReportAnalysis, analyzeFinalReport } from "../../core/report/analyze.ts";
import { parseCommandArgs, readReply } from "../args.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";

const ANALYZE_USAGE = `armstudy report analyze [FILE|-] [--json]

Analyzes one final reply (read from FILE, or standard input when FILE is - or absent): its first
line, whether it claims completion or states unfinished work (with a reason and a next step),
whether it ends by asking permission or on a filler line, its headings, characters and o200k
tokens. --json prints the result object. Exit 0 for any reply; 2 when the input cannot be read.`;

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
  ];
  return rows.map(([name, value]) => `${`${name}:`.padEnd(20)}${value}\n`).join("");
}

async function analyzeReply(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs({ args, allowPositionals: true, strict: true, options: { json: { type: "boolean", default: false } } }, ANALYZE_USAGE);
  const [file, ...extra] = parsed.positionals;
  if (extra.length > 0) throw new UsageError(`analyze reads one reply; got ${extra.length + 1} files\nusage: ${ANALYZE_USAGE}`);
  const analysis = analyzeFinalReport(await readReply(file, io));
  io.stdout(parsed.values.json ? `${JSON.stringify(analysis, null, 2)}\n` : renderAnalysis(analysis));
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
