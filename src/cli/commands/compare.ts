/**
 * `armstudy compare A B [--pair ARM_A:ARM_B]... [--json]`: two studies side by side, every metric
 * both have with B − A and its interval, printed as markdown fit for a pull-request comment.
 */
import { resolve } from "node:path";
import { compareStudies, renderComparisonMarkdown } from "../../render/compare.ts";
import { loadResults } from "../../render/results.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";

const USAGE_LINE = "armstudy compare A B [--pair ARM_A:ARM_B]... [--json]";
const USAGE = [
  USAGE_LINE,
  "",
  "A, B     two results folders (the same folder twice compares two of its arms with --pair)",
  "--pair   compare arm ARM_A of A with arm ARM_B of B (repeatable); default: every arm both ran",
  "--json   the comparison as JSON (default: markdown fit for a pull-request comment)",
].join("\n");

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    { args, options: { pair: { type: "string", multiple: true }, json: { type: "boolean" } }, allowPositionals: true, strict: true },
    USAGE_LINE,
  );
  if (positionals.length !== 2) throw new UsageError(`name two results folders\nusage: ${USAGE_LINE}`);
  const [a, b] = await Promise.all(positionals.map((dir) => loadResults(resolve(io.cwd, dir))));
  if (a === undefined || b === undefined) throw new UsageError(USAGE_LINE);
  const pairs = values.pair?.map((text): [string, string] => {
    const match = /^([^:]+):([^:]+)$/.exec(text);
    if (match === null) throw new UsageError(`--pair ${text}: give ARM_A:ARM_B\nusage: ${USAGE_LINE}`);
    const [, armA, armB] = match as unknown as [string, string, string];
    for (const [arm, results, side] of [[armA, a, "A"], [armB, b, "B"]] as const) {
      if (!results.meta.arms.some((entry) => entry.name === arm)) throw new UsageError(`--pair ${text}: study ${side} (${positionals[side === "A" ? 0 : 1]}) has no arm "${arm}"`);
    }
    return [armA, armB];
  });
  const comparison = compareStudies(a, b, pairs);
  if (comparison.pairs.length === 0) throw new UsageError(`the two studies share no arm; name arms to compare with --pair ARM_A:ARM_B\nusage: ${USAGE_LINE}`);
  if (values.json === true) io.stdout(`${JSON.stringify(comparison, null, 2)}\n`);
  else io.stdout(renderComparisonMarkdown(comparison, { a: positionals[0] as string, b: positionals[1] as string }));
  return 0;
}

const command: Command = { name: "compare", summary: "Two studies (or two arms across them) side by side, with differences and intervals", usage: USAGE, run };
export default command;
