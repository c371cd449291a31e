/**
 * The shell tool: runs one command with bash in the work directory. The command gets its own
 * process group (spawned detached), so on a timeout, an abort, or when it returns, the whole group
 * — every child and grandchild it started — is killed with one signal. Output (stdout and stderr
 * interleaved in arrival order) is collected in bounded memory and capped with the middle elided.
 * It runs inside the run's sandbox (src/run/sandbox/): only the work directory is writable, the
 * environment is an allow-list, the network is off, and every process it started ends with it.
 * Within a run the calls share one sandbox (`RunShell`, ADR 0113) with the same guarantees.
 */
import { spawn } from "node:child_process";
import { z } from "zod";
import { killGroup } from "../process-group.ts";
import { defaultRunSandbox, type RunSandbox, sandboxCommand } from "../sandbox/index.ts";
import type { RunShell } from "../sandbox/run-shell.ts";
import { parseArgs } from "./args.ts";
import { HeadTailCollector } from "./output.ts";
import { DEFAULT_OUTPUT_LIMIT, DEFAULT_SHELL_TIMEOUT_MS, type Tool, type ToolContext, type ToolOutcome } from "./types.ts";

/** Longest timeout a model may ask for. */
export const MAX_SHELL_TIMEOUT_MS = 30 * 60_000;
/** How long to wait for the output pipes to close once the command has exited. */
const PIPE_GRACE_MS = 2_000;

const ShellArgs = z.object({
  command: z.string().min(1),
  timeout_seconds: z.number().positive().optional(),
});

export interface ShellResult {
  exitCode: number | null;
  /** Set when the command did not finish on its own. */
  killed: "timeout" | "aborted" | null;
  output: string;
}

/** Runs `command` in `cwd` and always leaves no process of its group behind. */
export function runCommand(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; outputLimit: number; signal?: AbortSignal; sandbox?: RunSandbox; runShell?: RunShell },
): Promise<ShellResult> {
  const run = options.sandbox ?? defaultRunSandbox(options.env);
  if (options.runShell?.serves(run, options.cwd, options.env, command) === true) return inRunShell(options.runShell, command, options);
  const wrapped = sandboxCommand(run.sandbox, { argv: ["bash", "-c", command], bashCommand: command, dir: options.cwd, network: run.network, readable: run.readable }, options.env);
  return new Promise((resolve) => {
    const collector = new HeadTailCollector(options.outputLimit);
    let killed: ShellResult["killed"] = null;
    let settled = false;
    const child = spawn(wrapped.file, wrapped.args, {
      cwd: options.cwd,
      env: wrapped.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = child.pid;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => collector.push(chunk));
    child.stderr.on("data", (chunk: string) => collector.push(chunk));

    const timer = setTimeout(() => {
      killed = "timeout";
      killGroup(pid);
    }, options.timeoutMs);
    const onAbort = () => {
      killed ??= "aborted";
      killGroup(pid);
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    const finish = (exitCode: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({ exitCode, killed, output: collector.text() });
    };
    child.on("error", (error) => {
      collector.push(`armstudy: could not start bash: ${error.message}\n`);
      finish(null);
    });
    // The main process ended: end whatever it left running in its group, so a background child
    // cannot outlive the call or hold the output pipes open.
    child.on("exit", (code) => {
      killGroup(pid);
      // A process that left the group (setsid) may still hold the pipes; do not wait on it forever.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(killed === null ? code : null);
      }, PIPE_GRACE_MS).unref();
    });
    child.on("close", (code) => finish(killed === null ? code : null));
  });
}

/** The same call in the run's shared sandbox. */
async function inRunShell(shell: RunShell, command: string, options: { timeoutMs: number; outputLimit: number; signal?: AbortSignal }): Promise<ShellResult> {
  const collector = new HeadTailCollector(options.outputLimit);
  const result = await shell.call(command, { timeoutMs: options.timeoutMs, onOutput: (text) => collector.push(text), ...(options.signal === undefined ? {} : { signal: options.signal }) });
  return { exitCode: result.exitCode, killed: result.killed, output: collector.text() };
}

function describe(result: ShellResult, timeoutMs: number): string {
  const head =
    result.killed === "timeout"
      ? `timed out after ${Math.round(timeoutMs / 100) / 10} s; the command and its child processes were killed`
      : result.killed === "aborted"
        ? "stopped: the run was aborted; the command and its child processes were killed"
        : `exit code: ${result.exitCode ?? "none"}`;
  return result.output === "" ? `${head}\n(no output)` : `${head}\n${result.output}`;
}

export const shellTool: Tool = {
  spec: {
    name: "shell",
    description:
      "Run a bash command in the work directory and return its exit code and output (stdout and stderr together). The command is killed, with every process it started, after `timeout_seconds` (default 120); processes it leaves running in the background are ended when it returns. Long output keeps its beginning and end.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The bash command line to run." },
        timeout_seconds: { type: "number", exclusiveMinimum: 0, description: "Kill the command after this many seconds (default 120)." },
      },
      required: ["command"],
      additionalProperties: false,
    },
  },
  async run(args, context: ToolContext): Promise<ToolOutcome> {
    const { command, timeout_seconds: timeoutSeconds } = parseArgs("shell", ShellArgs, args);
    const timeoutMs = Math.min(
      timeoutSeconds === undefined ? (context.shellTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS) : timeoutSeconds * 1000,
      MAX_SHELL_TIMEOUT_MS,
    );
    const result = await runCommand(command, {
      cwd: context.dir,
      env: context.env,
      timeoutMs,
      ...(context.sandbox === undefined ? {} : { sandbox: context.sandbox }),
      ...(context.runShell === undefined ? {} : { runShell: context.runShell }),
      outputLimit: context.outputLimit ?? DEFAULT_OUTPUT_LIMIT,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    return {
      ok: result.exitCode === 0,
      output: describe(result, timeoutMs),
      exitCode: result.exitCode,
      isCommand: true,
    };
  },
};
