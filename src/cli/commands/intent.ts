/**
 * `armstudy intent`: the per-run freshness stamp on `.build-loop/intent.md`. `freshness` is
 * advisory and always exits 0, whatever it finds (even a bad flag: the verdict is `unchecked`);
 * `stamp` writes the current run id into the file.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { uncheckedFreshness } from "../../core/envelope/intent.ts";
import { EnvelopeFileError } from "../../study/envelope/files.ts";
import { checkIntentFreshness, intentPath, stampIntentFile } from "../../study/envelope/intent.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";

const USAGE = [
  "armstudy intent freshness --run-id ID [--workdir DIR] [--json]",
  "       armstudy intent stamp --run-id ID [--workdir DIR]",
  "",
  "freshness: is DIR/.build-loop/intent.md stamped for this run? fresh | stale | unstamped | missing |",
  "           unchecked. Advisory: always exits 0. DIR defaults to the current directory.",
  "stamp:     puts <!-- intent_run_id: ID --> on the file's first line, replacing older stamps.",
].join("\n");

const OPTIONS = { "run-id": { type: "string" }, workdir: { type: "string" }, json: { type: "boolean" } } as const;

async function freshness(args: string[], io: CliIO): Promise<number> {
  let values: { "run-id"?: string; workdir?: string; json?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    // Advisory to the end: a bad flag is reported as an unchecked verdict, not an exit code.
    const json = args.includes("--json");
    const result = { ...uncheckedFreshness("", `${error instanceof Error ? error.message : String(error)}; usage: ${USAGE.split("\n")[0]}`), file: null };
    io.stdout(json ? `${JSON.stringify(result)}\n` : `${result.message}\n`);
    return 0;
  }
  const workdir = resolve(io.cwd, values.workdir ?? ".");
  const runId = values["run-id"];
  const problem = runId === undefined ? "--run-id is required" : positionals.length > 0 ? `unexpected argument ${JSON.stringify(positionals[0])}` : null;
  const result =
    problem !== null || runId === undefined
      ? { ...uncheckedFreshness(runId ?? "", `${problem ?? ""}; usage: ${USAGE.split("\n")[0]}`), file: intentPath(workdir) }
      : await checkIntentFreshness(workdir, runId);
  io.stdout(values.json === true ? `${JSON.stringify(result)}\n` : `${result.message}\n`);
  return 0;
}

async function stamp(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args, options: OPTIONS, allowPositionals: true, strict: true }, USAGE);
  const runId = values["run-id"];
  if (runId === undefined) throw new UsageError(`--run-id is required\nusage: ${USAGE}`);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}\nusage: ${USAGE}`);
  try {
    const { file, previous } = await stampIntentFile(resolve(io.cwd, values.workdir ?? "."), runId);
    const was = previous.length === 0 ? "was unstamped" : `was stamped ${previous.join(", ")}`;
    io.stdout(values.json === true ? `${JSON.stringify({ file, run_id: runId, previous })}\n` : `stamped ${file} for run ${runId} (${was})\n`);
    return 0;
  } catch (error) {
    if (error instanceof EnvelopeFileError) throw new InputError(error.message, error.file);
    throw error;
  }
}

const command: Command = {
  name: "intent",
  summary: "Stamp .build-loop/intent.md with the run id, and check whether it belongs to this run.",
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === "freshness") return freshness(rest, io);
    if (sub === "stamp") return stamp(rest, io);
    throw new UsageError(`${sub === undefined ? "missing subcommand" : `unknown subcommand "${sub}"`}: use freshness or stamp\nusage: ${USAGE}`);
  },
};

export default command;
