/**
 * A stand-in for the armstudy process in the escape suite: started with secrets in its own initial
 * environment (what /proc/<pid>/environ shows), it runs one command through the shell tool's
 * `runCommand` — in the machine's sandbox, or with none (`--no-sandbox`) — and prints the output.
 *
 *   node --import tsx shell-child.ts DIR bwrap|none COMMAND
 */
import { runCommand } from "../../../src/run/tools/shell.ts";
import { probeSandbox } from "../../../src/run/sandbox/probe.ts";

const [dir, mode, command] = process.argv.slice(2);
if (dir === undefined || command === undefined || (mode !== "bwrap" && mode !== "none")) {
  process.stderr.write("usage: shell-child.ts DIR bwrap|none COMMAND\n");
  process.exit(2);
}
const sandbox = probeSandbox({ env: process.env, disabled: mode === "none" });
const result = await runCommand(command, { cwd: dir, env: process.env, timeoutMs: 30_000, outputLimit: 100_000, sandbox: { sandbox, network: "none", readable: [] } });
process.stdout.write(result.output);
