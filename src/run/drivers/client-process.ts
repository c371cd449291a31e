/**
 * Runs one real client process: its temp home written, stdin closed, the work directory as cwd,
 * and on timeout the whole process group killed so no grandchild outlives the run.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ClientLaunch } from "./offline-setup.ts";
import { isSecretName } from "../tools/env.ts";
import { killGroup } from "../process-group.ts";

export interface ClientProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  wallMs: number;
}

export interface ClientProcessOptions {
  bin: string;
  launch: ClientLaunch;
  cwd: string;
  timeoutMs: number;
  /** The variables the client inherits besides its own; API keys are never passed through. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Each complete stdout line, as it arrives (the event stream). */
  onLine?: (line: string) => void;
  /** Injected clock for wall time. */
  now?: () => number;
  /** Aborting kills the whole process group, as a timeout does. */
  signal?: AbortSignal;
}

export function clientEnv(base: NodeJS.ProcessEnv, own: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined && !isSecretName(name)) env[name] = value;
  return { ...env, ...own };
}


export async function runClientProcess(options: ClientProcessOptions): Promise<ClientProcessResult> {
  const now = options.now ?? (() => performance.now());
  for (const [path, text] of Object.entries(options.launch.files)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  const started = now();
  const child = spawn(options.bin, options.launch.args, {
    cwd: options.cwd,
    env: clientEnv(options.baseEnv ?? { PATH: process.env.PATH }, options.launch.env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      options.onLine?.(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, options.timeoutMs);
  const onAbort = (): void => killGroup(child.pid);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.on("close", (code, sig) => resolve([code, sig]));
    child.on("error", () => resolve([null, null]));
  });
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", onAbort);
  if (pending.length > 0) options.onLine?.(pending);
  // A client may leave helpers behind in its group even after a clean exit.
  killGroup(child.pid);
  return { exitCode, signal, stdout, stderr, timedOut, wallMs: now() - started };
}
