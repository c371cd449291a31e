/**
 * Runs one real client process: its temp home written, stdin closed, the work directory as cwd,
 * inside the run's sandbox when there is one (its home and the bridge's socket folder the only
 * other writable places), and on timeout the whole process group killed so no grandchild outlives
 * the run.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ClientLaunch } from "./offline-setup.ts";
import { isSecretName } from "../tools/env.ts";
import { killGroup } from "../process-group.ts";
import { sandboxCommand } from "../sandbox/command.ts";
import type { RunSandbox, SandboxNetwork } from "../sandbox/types.ts";

/** How the client is confined: the run's sandbox, its network, and what else it may read or write. */
export interface ClientSandbox {
  run: RunSandbox;
  network: SandboxNetwork;
  /** The client's install folder, the bridge script. */
  readable: string[];
  /** The bridge's socket folder. */
  writable: string[];
  /** The client's temp home (bound writable as $HOME). */
  home: string;
}

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
  /** Run the client in this sandbox; none: as a plain process with `clientEnv`. */
  sandbox?: ClientSandbox;
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
  const box = options.sandbox;
  const command =
    box === undefined
      ? { file: options.bin, args: options.launch.args, env: clientEnv(options.baseEnv ?? { PATH: process.env.PATH }, options.launch.env) }
      : sandboxCommand(
          box.run.sandbox,
          {
            argv: [options.bin, ...options.launch.args],
            dir: options.cwd,
            network: box.network,
            env: options.launch.env,
            readable: [...box.run.readable, ...box.readable],
            writable: box.writable,
            home: box.home,
            ...(box.run.group === undefined ? {} : { group: box.run.group }),
          },
          options.baseEnv ?? {},
        );
  const child = spawn(command.file, command.args, {
    cwd: options.cwd,
    env: command.env,
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
