/**
 * The sandbox's vocabulary: what was found on this machine (`Sandbox`), what one sandboxed command
 * asks for (`SandboxSpec`), and the per-run limits. Everything the agent's code runs — the shell
 * tool, the acceptance checks, the real clients — goes through `sandboxCommand` with these.
 */
import type { GroupSupport, RunGroup } from "./cgroup.ts";

/**
 * Resource limits. With a cgroup per run (cgroup.ts, ADR 0114) CPU time, memory and processes are
 * caps on the whole run; without one they are per-process rlimits (prlimit / bash `ulimit`).
 * The file size is always an rlimit.
 */
export interface SandboxLimits {
  /** RLIMIT_CPU: seconds of CPU time one process may use before it is killed. */
  cpuSeconds: number;
  /**
   * RLIMIT_DATA: bytes of private writable memory one process may map. Not RLIMIT_AS: node's
   * WebAssembly (undici's HTTP parser) reserves ~10 GiB of address space it never touches.
   */
  memoryBytes: number;
  /** RLIMIT_NPROC: processes and threads the sandbox's user may have at once. */
  processes: number;
  /** RLIMIT_FSIZE: the largest file a process may write, in bytes. */
  fileBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpuSeconds: 900,
  memoryBytes: 4 * 1024 ** 3,
  processes: 512,
  fileBytes: 1024 ** 3,
};

/** What this machine offers: bubblewrap that passed its self-test, or nothing (and why). */
export type Sandbox =
  | {
      kind: "bwrap";
      bin: string;
      version: string;
      limits: SandboxLimits;
      /** Whether a cgroup per run can be made here (probed once); absent: per-process limits. */
      groups?: GroupSupport;
    }
  | { kind: "none"; reason: string; /** True when the user turned it off (`--no-sandbox`). */ chosen: boolean };

/** `none`: a private network namespace with only its own loopback; `host`: the machine's network. */
export type SandboxNetwork = "none" | "host";

export interface SandboxSpec {
  /** The run's cgroup: the command joins it before it starts, and the per-process CPU, memory and process rlimits are left out. */
  group?: RunGroup;
  /**
   * With a group: after joining it, wait for one line on stdin before starting (stdin is then
   * /dev/null). Joining waits for the kernel (an RCU grace period); commands made ready together
   * wait for it together, and each starts when the caller writes its line.
   */
  gated?: boolean;
  /** The program and its arguments, run inside. */
  argv: readonly string[];
  /**
   * Set when `argv` is `["bash", "-c", COMMAND]`: the limits are then set by bash's own `ulimit`
   * in front of COMMAND instead of by a prlimit process, one exec fewer per shell call.
   */
  bashCommand?: string;
  /** The work directory: the only writable place (besides `writable`), and the command's cwd. */
  dir: string;
  network: SandboxNetwork;
  /** Variables the command gets on top of the allow-list (sandbox/env.ts); never the parent's. */
  env?: Record<string, string>;
  /** More folders bound read-only at the same path (the fixture's object store, a client's install). */
  readable?: readonly string[];
  /** More folders bound writable at the same path (a real client's temp home, the bridge socket folder). */
  writable?: readonly string[];
  /** A folder to use as $HOME (bound writable); default a private, empty tmpfs. */
  home?: string;
  /**
   * Start a run's long-lived shell launcher (launcher.ts) instead of `argv`, reading each call's
   * command from `inbox` (bound read-only). Only as root: elsewhere the calls would share the
   * launcher's user and could tamper with it, so the caller runs each call on its own.
   */
  launcher?: { inbox: string };
}

/** A spawnable command: give it to `child_process.spawn(file, args, { env, ... })` as is. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** The per-run sandbox choice the study hands to the agent, the tools and the checks. */
export interface RunSandbox {
  sandbox: Sandbox;
  network: SandboxNetwork;
  /** Folders armstudy (never the agent) chose to bind read-only, e.g. the object store the clone borrows from. */
  readable: readonly string[];
  /** The run's cgroup (runAgent makes one per run where it can); absent: per-process limits. */
  group?: RunGroup;
  /** Why this run has no group although the machine offers them (making it failed). */
  groupError?: string;
}

/** Which kind of limits a run has: its own cgroup, or per-process rlimits and why. */
export function limitsKindOf(run: RunSandbox): { limitsKind: "cgroup" | "ulimit"; limitsReason?: string } {
  if (run.group !== undefined) return { limitsKind: "cgroup" };
  const support = run.sandbox.kind === "bwrap" ? run.sandbox.groups : undefined;
  const reason = run.groupError ?? (support?.kind === "ulimit" ? support.reason : "no cgroup was made for this run");
  return { limitsKind: "ulimit", limitsReason: reason };
}

/** What `run.start` records about the sandbox a run had. */
export interface SandboxNote {
  kind: "bwrap" | "none";
  version?: string;
  network: SandboxNetwork | "unconfined";
  limits?: SandboxLimits;
  /** `cgroup`: CPU, memory and processes capped for the whole run; `ulimit`: per process (and why). */
  limitsKind?: "cgroup" | "ulimit";
  limitsReason?: string;
  /** For `none`: why there was none. */
  reason?: string;
}

export function describeSandbox(run: RunSandbox): SandboxNote {
  return run.sandbox.kind === "bwrap"
    ? { kind: "bwrap", version: run.sandbox.version, network: run.network, limits: run.sandbox.limits, ...limitsKindOf(run) }
    : { kind: "none", network: "unconfined", reason: run.sandbox.reason };
}
