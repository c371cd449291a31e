/**
 * `armstudy envelope`: check an implementer envelope against build-loop's contract, and keep the
 * cost ledger that correlates dispatches with returned envelopes. Logic lives in
 * src/core/envelope (pure) and src/study/envelope (files).
 */
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { completionRow, dispatchRow, LedgerRowError, newTaskId } from "../../core/envelope/cost-ledger.ts";
import { renderLedgerSummary, renderVerdict } from "../../core/envelope/render.ts";
import { appendLedgerRow, readLedgerSummary } from "../../study/envelope/cost-ledger.ts";
import { checkEnvelopeDocument, EnvelopeFileError, parseEnvelopeFileText, readEnvelopeFile, readPlanFile } from "../../study/envelope/files.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CliIO } from "../io.ts";

const USAGE = [
  "armstudy envelope check FILE [--plan PLAN] [--check-ledger] [--json]",
  "       armstudy envelope ledger LEDGER [--json]",
  "       armstudy envelope ledger append LEDGER --dispatch [--task-id ID] [--chunk ID] [--model NAME] [--meta KEY=VALUE ...] [--json]",
  "       armstudy envelope ledger append LEDGER --complete ENVELOPE [--task-id ID] [--plan PLAN] [--check-ledger] [--json]",
  "",
  "check:  FILE is YAML with the envelope: wrapper, JSON, or a reply with a fenced yaml block (- reads stdin).",
  "        Exit 0: well-formed (the route is printed), 1: malformed (reasons printed), 2: unreadable.",
  "        --plan reads the plan's synthesis_dimensions (front matter or a fenced yaml block);",
  "        without it the dimensions are inferred from the attestation. --check-ledger lints decision_ledger.",
  "ledger: summarises a cost-ledger JSONL file (exit 1 when it has problems); `append` adds one row:",
  "        a dispatch row (prints the task id, generated when --task-id is absent) or a completion row",
  "        for a returned envelope, correlated by task_id.",
].join("\n");

function parse(args: string[], options: NonNullable<ParseArgsConfig["options"]>): { values: Record<string, unknown>; positionals: string[] } {
  return parseCommandArgs({ args, options, allowPositionals: true, strict: true }, USAGE);
}

function inputError(error: unknown): never {
  if (error instanceof EnvelopeFileError) throw new InputError(error.message, error.file);
  if (error instanceof LedgerRowError) throw new InputError(error.message);
  throw error;
}

function onePositional(positionals: string[], what: string): string {
  if (positionals.length !== 1 || positionals[0] === undefined) {
    throw new UsageError(`expected exactly one ${what}, got ${positionals.length === 0 ? "none" : positionals.map((p) => JSON.stringify(p)).join(" ")}\nusage: ${USAGE}`);
  }
  return positionals[0];
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

async function runCheck(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { plan: { type: "string" }, "check-ledger": { type: "boolean" }, json: { type: "boolean" } });
  const file = onePositional(positionals, "envelope FILE");
  const planFile = str(values.plan);
  try {
    const plan = planFile === undefined ? undefined : await readPlanFile(resolve(io.cwd, planFile), planFile);
    const document = file === "-" ? parseEnvelopeFileText(await io.readStdin(), "-") : await readEnvelopeFile(resolve(io.cwd, file), file);
    const { verdict } = checkEnvelopeDocument(document, plan, values["check-ledger"] === true);
    io.stdout(values.json === true ? `${JSON.stringify({ file, ...verdict }, null, 2)}\n` : renderVerdict(file, verdict));
    return verdict.route === "malformed" ? 1 : 0;
  } catch (error) {
    return inputError(error);
  }
}

function metaPairs(raw: unknown): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of Array.isArray(raw) ? raw : []) {
    const text = String(item);
    const at = text.indexOf("=");
    if (at <= 0) throw new UsageError(`--meta takes KEY=VALUE; got ${JSON.stringify(text)}`);
    pairs[text.slice(0, at)] = text.slice(at + 1);
  }
  return pairs;
}

async function runAppend(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, {
    dispatch: { type: "boolean" },
    complete: { type: "string" },
    "task-id": { type: "string" },
    chunk: { type: "string" },
    model: { type: "string" },
    meta: { type: "string", multiple: true },
    plan: { type: "string" },
    "check-ledger": { type: "boolean" },
    json: { type: "boolean" },
  });
  const ledger = resolve(io.cwd, onePositional(positionals, "LEDGER file"));
  const complete = str(values.complete);
  if ((values.dispatch === true) === (complete !== undefined)) throw new UsageError(`give exactly one of --dispatch or --complete ENVELOPE\nusage: ${USAGE}`);
  const at = new Date().toISOString();
  const taskId = str(values["task-id"]);
  try {
    if (values.dispatch === true) {
      const chunk = str(values.chunk);
      const model = str(values.model);
      const row = dispatchRow({ taskId: taskId ?? newTaskId(randomBytes(4)), at, meta: metaPairs(values.meta), ...(chunk === undefined ? {} : { chunk }), ...(model === undefined ? {} : { model }) });
      await appendLedgerRow(ledger, row);
      io.stdout(values.json === true ? `${JSON.stringify(row)}\n` : `${row.task_id}\n`);
      return 0;
    }
    const envelopeFile = complete ?? "";
    const planFile = str(values.plan);
    const plan = planFile === undefined ? undefined : await readPlanFile(resolve(io.cwd, planFile), planFile);
    const document = await readEnvelopeFile(resolve(io.cwd, envelopeFile), envelopeFile);
    const { verdict } = checkEnvelopeDocument(document, plan, values["check-ledger"] === true);
    const row = completionRow({ envelope: document.envelope, verdict, at, envelopePath: envelopeFile, ...(taskId === undefined ? {} : { taskId }) });
    await appendLedgerRow(ledger, row);
    io.stdout(values.json === true ? `${JSON.stringify(row)}\n` : `${row.task_id} ${row.route}\n`);
    return 0;
  } catch (error) {
    return inputError(error);
  }
}

async function runLedger(args: string[], io: CliIO): Promise<number> {
  if (args[0] === "append") return runAppend(args.slice(1), io);
  const { values, positionals } = parse(args, { json: { type: "boolean" } });
  const file = onePositional(positionals, "LEDGER file");
  try {
    const summary = await readLedgerSummary(resolve(io.cwd, file));
    io.stdout(values.json === true ? `${JSON.stringify({ file, ...summary }, null, 2)}\n` : renderLedgerSummary(file, summary));
    return summary.problems.length > 0 ? 1 : 0;
  } catch (error) {
    return inputError(error);
  }
}

const command: Command = {
  name: "envelope",
  summary: "Check implementer envelopes against build-loop's envelope contract; keep the cost ledger.",
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === "check") return runCheck(rest, io);
    if (sub === "ledger") return runLedger(rest, io);
    throw new UsageError(`${sub === undefined ? "missing subcommand" : `unknown subcommand "${sub}"`}: use check or ledger\nusage: ${USAGE}`);
  },
};

export default command;
