#!/usr/bin/env -S npx tsx
/** The CLI entry: argv → command. No logic lives here. */
import { pathToFileURL } from "node:url";
import { COMMANDS } from "./commands.ts";
import { InputError, UsageError } from "./errors.ts";
import { type CliIO, processIO } from "./io.ts";
import { createRedactor, secretsFromEnv } from "../run/secrets/redact.ts";

/** The same IO with every secret value of its environment redacted from what is printed (ADR 0083). */
function redacting(io: CliIO): CliIO {
  const redact = createRedactor(secretsFromEnv(io.env));
  return { ...io, stdout: (text) => io.stdout(redact.text(text)), stderr: (text) => io.stderr(redact.text(text)) };
}

function helpText(): string {
  const names = Object.keys(COMMANDS).sort();
  return [
    "armstudy: measure agent-harness design decisions",
    "",
    "usage: armstudy <command> [options]",
    "",
    "commands:",
    ...names.map((name) => `  ${name}`),
    "",
    "Run `armstudy <command> --help` for a command's options.",
    "",
  ].join("\n");
}

export async function main(argv: string[], rawIO: CliIO = processIO()): Promise<number> {
  const io = redacting(rawIO);
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(helpText());
    return name === undefined ? 2 : 0;
  }
  const load = COMMANDS[name];
  if (load === undefined) {
    io.stderr(`armstudy: unknown command "${name}". Known commands: ${Object.keys(COMMANDS).sort().join(", ")}.\n`);
    return 2;
  }
  // Any command may count: its first count then maps the committed o200k table (ADR 0162).
  // Loaded beside the command, so `--help` loads neither.
  const [command] = await Promise.all([load(), import("../run/o200k-table-file.ts").then((table) => table.useO200kTableFile())]);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${command.summary}\n\nusage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof InputError) {
      io.stderr(`armstudy ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    // Our error classes (and Node's system errors) carry a stable code and a message that names
    // the file or field: say it plainly. Anything else is a bug, and its stack trace helps.
    const coded = error as { code?: unknown; exitCode?: unknown; message?: unknown };
    if (error instanceof Error && typeof coded.code === "string") {
      io.stderr(`armstudy ${name}: ${error.message}\n`);
      return typeof coded.exitCode === "number" ? coded.exitCode : 1;
    }
    // Printed here rather than thrown, so the stack trace passes the same redaction as all output.
    io.stderr(`armstudy ${name}: unexpected failure (a bug; please report it):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

// Run when executed directly (tsx src/cli/main.ts ...), not when imported by tests or bin/.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await main(process.argv.slice(2));
}
