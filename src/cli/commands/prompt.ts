/**
 * `armstudy prompt show --arm NAME`: prints exactly the system prompt the arm's model sees (the
 * compiled text, followed by one newline). Budgets are not checked here; `armstudy budget` does.
 */
import { resolve } from "node:path";
import { PackError } from "../../core/prompt/errors.ts";
import { loadArm } from "../../run/arms/load.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";

const USAGE = [
  "armstudy prompt show --arm NAME [--arms DIR] [--input NAME=VALUE]... [--stable]",
  "",
  "  --arm NAME          the arm whose prompt to print",
  "  --arms DIR          the arms folder (default: arms)",
  "  --input NAME=VALUE  a value for {{NAME}} placeholders and render functions (repeatable)",
  "  --stable            print only the stable prefix (the provider-cache identity)",
  "",
  "Prints the compiled prompt exactly as the model sees it, then one newline. Problems such as a",
  "missing input are reported on stderr; the exit code is 0 unless the input is bad (2).",
].join("\n");

const OPTIONS = {
  arm: { type: "string" },
  arms: { type: "string" },
  input: { type: "string", multiple: true },
  stable: { type: "boolean" },
} as const;

async function run(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "show") throw new UsageError(`${sub === undefined ? "missing subcommand" : `unknown subcommand "${sub}"`}\nusage: ${USAGE}`);
  const { values } = parseCommandArgs({ args: rest, options: OPTIONS, allowPositionals: false, strict: true }, USAGE);
  if (values.arm === undefined) throw new UsageError(`--arm is required\nusage: ${USAGE}`);
  const inputs: Record<string, string> = {};
  for (const pair of values.input ?? []) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--input ${JSON.stringify(pair)} is not NAME=VALUE\nusage: ${USAGE}`);
    inputs[pair.slice(0, at)] = pair.slice(at + 1);
  }

  try {
    const arm = await loadArm(resolve(io.cwd, values.arms ?? "arms"), values.arm, { cwd: io.cwd, budgetsFile: null, inputs });
    if (arm.prompt === null) {
      throw new InputError(`${arm.file}: agent: a ${arm.agent} arm runs the client with its own prompt; armstudy has no prompt to show for it.`, arm.file);
    }
    io.stdout(`${values.stable === true ? arm.prompt.stablePrefix : arm.prompt.text}\n`);
    for (const v of arm.prompt.violations) io.stderr(`armstudy prompt: ${v.message}\n`);
    return 0;
  } catch (error) {
    if (error instanceof PackError) throw new InputError(error.message, error.file);
    throw error;
  }
}

const command: Command = {
  name: "prompt",
  summary: "Print the system prompt an arm's model sees (armstudy prompt show --arm NAME).",
  usage: USAGE,
  run,
};

export default command;
