/** `armstudy gate DIR [--fail-if EXPR]... [--fail-if-worse-than BASE] [--github]`: CI gates on a finished study. */
import { resolve } from "node:path";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";
import { GATE_OPTIONS, GATE_USAGE, applyGates, hasGates, validateGates } from "../gate-flags.ts";
import type { CliIO } from "../io.ts";

const USAGE_LINE = "armstudy gate DIR [--fail-if EXPR]... [--fail-if-worse-than BASELINE_DIR] [--github]";
const USAGE = `${USAGE_LINE}\n\n${GATE_USAGE}\n\nExit 0 when every gate passes, 1 when one fires, 2 when a gate or folder cannot be read.`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args, options: GATE_OPTIONS, allowPositionals: true, strict: true }, USAGE_LINE);
  if (positionals.length !== 1) throw new UsageError(`name one results folder\nusage: ${USAGE_LINE}`);
  if (!hasGates(values)) throw new UsageError(`give at least one --fail-if or --fail-if-worse-than\nusage: ${USAGE_LINE}`);
  validateGates(values);
  return applyGates(resolve(io.cwd, positionals[0] as string), values, io);
}

const command: Command = { name: "gate", summary: "Fail CI on study metrics: thresholds, or worse than a baseline study", usage: USAGE, run };
export default command;
