/**
 * A stand-in for the armstudy process in the escape suite: started with secrets in its own initial
 * environment (what /proc/<pid>/environ shows), it runs one command through the shell tool's
 * `runCommand` — in the machine's sandbox, or with none (`--no-sandbox`) — and prints the output.
 *
 *   node --import tsx shell-child.ts DIR bwrap|bwrap-run|none COMMAND
 *
 * `bwrap-run` runs it in a run's shared sandbox (RunShell, ADR 0113), as runAgent does.
 */
import { runCommand } from "../../../src/run/tools/shell.ts";
import { probeSandbox } from "../../../src/run/sandbox/probe.ts";
import { RunShell } from "../../../src/run/sandbox/run-shell.ts";

const [dir, mode, command] = process.argv.slice(2);
if (dir === undefined || command === undefined || (mode !== "bwrap" && mode !== "bwrap-run" && mode !== "none")) {
  process.stderr.write("usage: shell-child.ts DIR bwrap|bwrap-run|none COMMAND\n");
  process.exit(2);
}
const sandbox = probeSandbox({ env: process.env, disabled: mode === "none" });
const run = { sandbox, network: "none" as const, readable: [] };
const runShell = mode === "bwrap-run" ? RunShell.open(run, dir, process.env) : null;
if (mode === "bwrap-run" && runShell === null) {
  process.stderr.write("shell-child.ts: a run's sandbox needs bubblewrap and root\n");
  process.exit(2);
}
const result = await runCommand(command, { cwd: dir, env: process.env, timeoutMs: 30_000, outputLimit: 100_000, sandbox: run, ...(runShell === null ? {} : { runShell }) });
runShell?.close();
process.stdout.write(result.output);
