/**
 * `armstudy run`: one agent run of one arm in an existing directory, written as a run record —
 * the building block the study runner repeats. Thin: the arm loader, the model factory and the
 * agent loop (or, for a real-client arm, its driver) do the work.
 */
import { rename, rm, stat } from "node:fs/promises";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { PackError } from "../../core/prompt/errors.ts";
import { priceRequest } from "../../study/limits.ts";
import { loadArm } from "../../run/arms/load.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../../run/fs/utf8.ts";
import { PersonaError } from "../../run/models/scripted-persona.ts";
import { ModelSpecError } from "../../run/models/spec.ts";
import type { RunEvent } from "../../run/record.ts";
import { RecordWriter, serializeEvent } from "../../run/record-writer.ts";
import { defaultStudyDeps } from "../../study/deps.ts";
import { refuseForeignPersona } from "../../study/personas.ts";
import { probeSandbox } from "../../run/sandbox/probe.ts";
import { unsandboxedRefusal } from "../../run/sandbox/policy.ts";
import { isRoot, recordOwnership, restoreOwnership } from "../../run/sandbox/owner.ts";
import { parseCommandArgs, prepareOutputFile } from "../args.ts";
import type { Command } from "../command.ts";
import { InputError, UsageError } from "../errors.ts";
import { MAX_TIME_LIMIT_MS } from "../../core/limits.ts";
import { EXIT_FAULT } from "../exit-codes.ts";
import { createRedactor, secretsFromEnv } from "../../run/secrets/redact.ts";
import type { CliIO } from "../io.ts";

const USAGE =
  "armstudy run --arm NAME --model SPEC --dir DIR --handoff FILE [--out FILE] [--seed N] [--run-index N] [--arms-dir DIR] [--max-rounds N] [--max-minutes N] [--max-tokens N] [--max-cost-usd X] [--heartbeat-seconds N] [--no-sandbox]";

function integer(flag: string, value: string | undefined, fallback: number, min?: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || (min !== undefined && Number(value) < min)) {
    throw new UsageError(`--${flag} must be a whole number${min === undefined ? "" : ` >= ${min}`}, got "${value}"`);
  }
  return Number(value);
}

function positive(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new UsageError(`--${flag} must be a number > 0, got "${value}"`);
  return number;
}

async function requireDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) throw new InputError(`--dir ${dir} does not exist; give the work directory the agent should run in`, dir);
  if (!info.isDirectory()) throw new InputError(`--dir ${dir} is not a directory`, dir);
}

async function readHandoff(file: string): Promise<string> {
  try {
    const text = decodeUtf8Strict(await readFile(file));
    if (text.trim() === "") throw new InputError(`--handoff ${file} is empty; the handoff is the agent's first message`, file);
    return text;
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof NotUtf8Error) throw new InputError(`--handoff ${file}: ${error.message}; save it as UTF-8`, file);
    throw new InputError(`--handoff ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}); check the path`, file);
  }
}

/** Turns the loaders' own input errors into the CLI's exit-2 error. */
function asInputError(error: unknown): never {
  if (error instanceof PackError || error instanceof ModelSpecError || error instanceof PersonaError) {
    throw new InputError(error.message);
  }
  throw error;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs(
    {
      args,
      options: {
        arm: { type: "string" },
        model: { type: "string" },
        dir: { type: "string" },
        handoff: { type: "string" },
        out: { type: "string" },
        seed: { type: "string" },
        "run-index": { type: "string" },
        "arms-dir": { type: "string" },
        "max-rounds": { type: "string" },
        "max-minutes": { type: "string" },
        "max-tokens": { type: "string" },
        "max-cost-usd": { type: "string" },
        "heartbeat-seconds": { type: "string" },
        "no-sandbox": { type: "boolean" },
      },
      allowPositionals: false,
      strict: true,
    },
    USAGE,
  );
  const missing = (["arm", "model", "dir", "handoff"] as const).filter((name) => values[name] === undefined);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((name) => `--${name}`).join(", ")}\nusage: ${USAGE}`);
  const seed = integer("seed", values.seed, 0);
  const runIndex = integer("run-index", values["run-index"], 0, 0);
  const maxRounds = values["max-rounds"] === undefined ? undefined : integer("max-rounds", values["max-rounds"], 1, 1);
  const maxMinutes = positive("max-minutes", values["max-minutes"]);
  const maxTokens = values["max-tokens"] === undefined ? undefined : integer("max-tokens", values["max-tokens"], 1, 1);
  const maxCostUsd = positive("max-cost-usd", values["max-cost-usd"]);
  const heartbeatSeconds = positive("heartbeat-seconds", values["heartbeat-seconds"]);
  if (maxMinutes !== undefined && maxMinutes * 60_000 > MAX_TIME_LIMIT_MS) {
    throw new UsageError(`--max-minutes must be at most 24 hours (${MAX_TIME_LIMIT_MS / 60_000} minutes), got "${values["max-minutes"]}"`);
  }

  const dir = resolve(io.cwd, values.dir as string);
  await requireDirectory(dir);
  const handoff = await readHandoff(resolve(io.cwd, values.handoff as string));
  const armsDir = resolve(io.cwd, values["arms-dir"] ?? "arms");
  const arm = await loadArm(armsDir, values.arm as string, { cwd: io.cwd }).catch(asInputError);
  // The same pieces a study composes: our loop for agent: armstudy, a real client's driver otherwise.
  const deps = defaultStudyDeps({ env: io.env, cwd: io.cwd });
  const model = await Promise.resolve(deps.createModel(values.model as string, { cwd: io.cwd, seed, runIndex, agent: arm.agent, origin: "command-line" })).catch(asInputError);
  const runAgentOrClient = deps.agentFor(arm);
  const sandbox = probeSandbox({ env: io.env as NodeJS.ProcessEnv, disabled: values["no-sandbox"] === true });
  const refusal = unsandboxedRefusal(sandbox, { arm: arm.name, agent: arm.agent, modelSpec: values.model as string, testDouble: model.isTestDouble });
  if (refusal !== null) throw new InputError(refusal);

  // The record goes to FILE.partial while the run is going, and is renamed once it is closed.
  const out = values.out === undefined ? null : resolve(io.cwd, values.out);
  const partial = out === null ? null : `${out}.partial`;
  // The record's folder also receives the persona server's request log for real-client arms.
  if (out !== null) await prepareOutputFile("--out", out);
  await refuseForeignPersona(values.model as string, dir, io.cwd).catch(asInputError);
  const writer = partial === null ? null : await RecordWriter.open(partial);
  // Every secret the environment holds is redacted before an event is written (ADR 0083).
  const redact = createRedactor(secretsFromEnv(io.env));
  const onEvent = async (raw: RunEvent) => {
    const event = redact.value(raw);
    if (writer === null) io.stdout(serializeEvent(event));
    else await writer.write(event);
  };

  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error("interrupted by a signal"));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  // As root the sandbox hands the folder to a user of its own; the user's folder goes back to its owners however the run ends.
  const owned = isRoot() ? recordOwnership(dir) : null;
  let outcome;
  try {
    outcome = await runAgentOrClient({
      arm,
      model,
      dir,
      handoff,
      runIndex,
      seed,
      onEvent,
      signal: abort.signal,
      sandbox: { sandbox, network: "none", readable: [] },
      ...(out === null ? {} : { artifactsDir: dirname(out) }),
      limits: {
        ...(maxRounds === undefined ? {} : { maxRounds }),
        ...(maxMinutes === undefined ? {} : { maxWallMs: maxMinutes * 60_000 }),
        ...(maxTokens === undefined ? {} : { maxTokens }),
        ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
      },
      pricer: priceRequest,
      ...(heartbeatSeconds === undefined ? {} : { heartbeatMs: heartbeatSeconds * 1000 }),
    });
  } catch (error) {
    await writer?.close();
    if (partial !== null) await rm(partial, { force: true });
    throw error;
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    if (owned !== null) restoreOwnership(owned);
  }
  if (writer !== null && partial !== null && out !== null) {
    await writer.close();
    await rename(partial, out);
  }
  const where = out === null ? "" : `\nrecord: ${out}`;
  io.stderr(`armstudy run: ${arm.name} with ${model.id}${model.isTestDouble ? " (scripted test double)" : ""}: ${outcome.status}${outcome.reason ? ` — ${redact.text(outcome.reason)}` : ""}${where}\n`);
  // A fault (the model could not be used) has its own exit code, as in `armstudy study` (ADR 0081).
  if (outcome.status === "error" && outcome.cause !== undefined) return EXIT_FAULT;
  return outcome.status === "error" ? 1 : 0;
}

const command: Command = {
  name: "run",
  summary: "Run one agent (an arm's prompt and policies on a model) in an existing directory and write its run record.",
  usage: USAGE,
  run,
};

export default command;
