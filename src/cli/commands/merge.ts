/**
 * `armstudy merge DIR... [--out DIR] [--json]`: combines the results folders of a study's shards
 * (`armstudy study --shard i/n`) into one folder and renders its report.
 */
import { relative, resolve } from "node:path";
import { renderStudyReport } from "../../render/render.ts";
import { readStudyMeta } from "../../render/results.ts";
import { writeStudyView } from "../../view/write.ts";
import { mergeStudies } from "../../study/merge.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";
import { asInputError, stampOf } from "./study.ts";

const USAGE_LINE = "armstudy merge DIR... [--out DIR] [--json]";
const USAGE = [
  USAGE_LINE,
  "",
  "DIR    results folders of one study (its shards); each run must come from exactly one of them",
  "--out  the merged folder (default reports/<study>/<UTC stamp>-merged); must be new or empty",
  "--json print one JSON object at the end instead of text",
].join("\n");

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args, options: { out: { type: "string" }, json: { type: "boolean" } }, allowPositionals: true, strict: true }, USAGE_LINE);
  if (positionals.length === 0) throw new UsageError(`name the results folders to merge\nusage: ${USAGE_LINE}`);
  const shown = (path: string): string => {
    const rel = relative(io.cwd, path);
    return rel.startsWith("..") ? path : rel;
  };
  try {
    const dirs = positionals.map((dir) => resolve(io.cwd, dir));
    const first = await readStudyMeta(dirs[0] as string);
    const outDir = values.out !== undefined ? resolve(io.cwd, values.out) : resolve(io.cwd, "reports", first.study, `${stampOf(new Date())}-merged`);
    const merged = await mergeStudies(dirs, outDir, io.cwd);
    const rendered = await renderStudyReport(merged.outDir);
    const view = await writeStudyView(merged.outDir);
    if (values.json === true) {
      io.stdout(`${JSON.stringify({ outDir: merged.outDir, report: rendered.reportPath, view, summary: rendered.summaryPath, copied: merged.copied, missing: rendered.summary.runs.missing })}\n`);
    } else {
      for (const { dir, runs } of merged.copied) io.stdout(`${shown(dir)}: ${runs} run(s)\n`);
      for (const warning of rendered.summary.warnings) io.stdout(`warning: ${warning}\n`);
      io.stdout(`report: ${shown(rendered.reportPath)}\n`);
      io.stdout(`view: ${shown(view)}\n`);
    }
    return 0;
  } catch (error) {
    const input = asInputError(error);
    if (input) {
      // Name the folders as they were typed, not as they resolved.
      let message = input.message;
      for (const dir of positionals) message = message.split(resolve(io.cwd, dir)).join(dir);
      throw new InputError(message, input.file);
    }
    throw error;
  }
}

const command: Command = {
  name: "merge",
  summary: "Merge the results folders of a study's shards into one report.",
  usage: USAGE,
  run,
};

export default command;
