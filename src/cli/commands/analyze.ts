/**
 * `armstudy analyze FILE...`: per-run metrics of recorded sessions of real agents (Codex, Claude
 * Code, pi), the same metrics a study run gets. Logic: src/sessions (importers) and
 * src/measure/session-analysis.ts.
 */
import { resolve } from "node:path";
import { processTokenCounter } from "../../core/tokens.ts";
import { analyzeSessionFile, renderAnalysisTable, type SessionAnalysis } from "../../measure/session-analysis.ts";
import { SESSION_FORMATS, type SessionFormat } from "../../sessions/format.ts";
import { SessionFormatError } from "../../sessions/import.ts";
import { parseCommandArgs, prepareOutputFile } from "../args.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";

const USAGE = `armstudy analyze FILE... [--format auto|${SESSION_FORMATS.join("|")}] [--json] [--record OUT.jsonl]

Reads each session file (streamed) and prints its metrics: a table, or with --json one JSON object
(an array for several files). --format auto (the default) detects the format from the first lines
and says which it chose. --record writes the normalised run record (one FILE only).
Exit 0; 2 when a file is missing, empty or not a session format armstudy reads (the others are
still analysed).`;

const MAX_WARNINGS_SHOWN = 10;

const command: Command = {
  name: "analyze",
  summary: "Measure recorded sessions of real agents (Codex, Claude Code, pi) with the run metrics",
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      { args, allowPositionals: true, strict: true, options: { format: { type: "string", default: "auto" }, json: { type: "boolean", default: false }, record: { type: "string" } } },
      USAGE,
    );
    const format = values.format ?? "auto";
    if (format !== "auto" && !(SESSION_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`--format ${JSON.stringify(format)} is not a format armstudy reads; use one of auto, ${SESSION_FORMATS.join(", ")}`);
    }
    if (positionals.length === 0) throw new UsageError(`name at least one session FILE\nusage: ${USAGE}`);
    if (values.record !== undefined && positionals.length !== 1) {
      throw new UsageError(`--record writes one run record: give exactly one FILE (got ${positionals.length})`);
    }

    // Checked first, so a bad --record is not reported as a problem with the session file.
    if (values.record !== undefined) await prepareOutputFile("--record", resolve(io.cwd, values.record));
    const counter = processTokenCounter();
    const results: SessionAnalysis[] = [];
    let failed = 0;
    for (const file of positionals) {
      const path = resolve(io.cwd, file);
      try {
        const analysis = await analyzeSessionFile(path, {
          format: format as SessionFormat | "auto",
          counter,
          ...(values.record !== undefined ? { recordTo: resolve(io.cwd, values.record) } : {}),
        });
        results.push({ ...analysis, file });
        if (analysis.detectedBy !== null) io.stderr(`${file}: detected ${analysis.format} (${analysis.detectedBy})\n`);
        const shown = analysis.warningMessages.slice(0, MAX_WARNINGS_SHOWN);
        for (const warning of shown) io.stderr(`${file}: warning: ${warning}\n`);
        if (analysis.warnings > shown.length) io.stderr(`${file}: … and ${analysis.warnings - shown.length} more warnings (all in --json warningMessages, up to 200)\n`);
      } catch (error) {
        failed += 1;
        if (error instanceof SessionFormatError) io.stderr(`armstudy analyze: ${error.message}\n`);
        else if (error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "EISDIR" || error.code === "EACCES")) {
          io.stderr(`armstudy analyze: ${file}: cannot read (${String(error.code)}); check the path\n`);
        } else throw error;
      }
    }
    if (results.length > 0) {
      if (values.json) io.stdout(`${JSON.stringify(results.length === 1 && positionals.length === 1 ? results[0] : results, null, 2)}\n`);
      else io.stdout(renderAnalysisTable(results));
    }
    if (values.record !== undefined && results.length === 1) io.stderr(`run record written to ${values.record}\n`);
    return failed > 0 ? 2 : 0;
  },
};

export default command;
