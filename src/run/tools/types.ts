/**
 * The shape every tool shares. A tool is a JSON-schema description the model sees plus a handler
 * that runs inside one work directory. Handlers report a failure the model should read (a missing
 * file, a refused path, a failing command) as `ok: false` with a message, never as a throw: the
 * agent loop sends the outcome back to the model and records it.
 */
import type { ToolSpec } from "../../core/model.ts";
import type { TodoItem } from "../../core/policies/contract.ts";
import type { RunShell } from "../sandbox/run-shell.ts";
import type { RunSandbox } from "../sandbox/types.ts";

export interface ToolContext {
  /** The work directory, as given; handlers resolve it to its real path before confining. */
  dir: string;
  /** The run's environment; `shell` takes only the allow-listed locale and terminal names from it (src/run/sandbox/env.ts). */
  env: NodeJS.ProcessEnv;
  /** Where `shell` runs; default the machine's sandbox with no network (src/run/sandbox/default.ts). */
  sandbox?: RunSandbox;
  /** The run's shared shell sandbox (ADR 0113), used when it was opened for `dir`, `env` and `sandbox`; else each call gets its own. */
  runShell?: RunShell;
  signal?: AbortSignal;
  /** Default `shell` timeout in milliseconds (120 000 unless set). */
  shellTimeoutMs?: number;
  /** Characters of output a tool returns before the middle is elided (default 20 000). */
  outputLimit?: number;
}

export interface ToolOutcome {
  ok: boolean;
  /** What the model reads back. */
  output: string;
  /** For `shell`: the command's exit code, or null when it was killed. */
  exitCode?: number | null;
  /** Paths (relative to the work directory) the call wrote. */
  changedFiles?: string[];
  /** For `update_plan`: the list as the model set it. */
  plan?: TodoItem[];
  /** For `ask_user`: the question, kept for the record. */
  question?: string;
  /** True for a call that ran a command, so its exit code means pass or fail. */
  isCommand?: boolean;
}

export interface Tool {
  spec: ToolSpec;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** A failure a handler reports to the model; the toolbox turns it into `ok: false`. */
export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

export type ToolErrorCode =
  | "TOOL_BAD_ARGUMENTS"
  | "TOOL_PATH_REFUSED"
  | "TOOL_NOT_FOUND"
  | "TOOL_IO"
  | "TOOL_EDIT_NO_MATCH"
  | "TOOL_EDIT_AMBIGUOUS"
  | "TOOL_BAD_PATTERN"
  | "TOOL_UNKNOWN";

export const DEFAULT_OUTPUT_LIMIT = 20_000;
export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
