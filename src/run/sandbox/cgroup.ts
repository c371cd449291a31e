/**
 * Limits per run, not per process (ADR 0114): every sandbox of one run joins one cgroup (v1) with
 * a memory cap (`memory.limit_in_bytes`, and `memory.memsw.limit_in_bytes` where swap is
 * accounted), a task cap (`pids.max`) and a CPU-time cap that armstudy enforces itself from
 * `cpuacct.usage` (polled; over the cap, every process of the group is killed and the run's later
 * calls are refused). The groups sit under armstudy's own group in each hierarchy, so they are
 * also inside whatever limits armstudy itself has.
 *
 * Whether groups can be made is probed once per process (`probeGroups`): the three controllers
 * mounted, a test group made, written and removed. Where not (no cgroup v1, not root, read-only),
 * the sandbox keeps per-process `ulimit`s and the record says so (`limitsKind: "ulimit"`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunSandbox, SandboxLimits } from "./types.ts";

const CONTROLLERS = ["memory", "pids", "cpuacct"] as const;
type Controller = (typeof CONTROLLERS)[number];

/** Where per-run groups can be made, or why not. */
export type GroupSupport = { kind: "cgroup"; parents: Record<Controller, string>; memsw: boolean } | { kind: "ulimit"; reason: string };

/** The files a probe reads; a test points them elsewhere to see the fallback. */
export interface GroupProbeFiles {
  mounts: string;
  self: string;
}

const PROC_FILES: GroupProbeFiles = { mounts: "/proc/self/mounts", self: "/proc/self/cgroup" };

/** How often the CPU time of a run's group is read. */
export const CPU_POLL_MS = 200;

/** The prefix of every group armstudy makes: `armstudy-<pid>-<n>`. */
const GROUP_PREFIX = "armstudy-";

function read(path: string): string {
  return readFileSync(path, "utf8");
}

/** Each v1 controller's mount point (from the mounts table) joined with this process's own group in it. */
function parentsOf(files: GroupProbeFiles): Record<Controller, string> | string {
  const mounts = new Map<string, string>();
  for (const line of read(files.mounts).split("\n")) {
    const [, point, type, options] = line.split(" ");
    if (type !== "cgroup" || point === undefined || options === undefined) continue;
    for (const option of options.split(",")) if ((CONTROLLERS as readonly string[]).includes(option)) mounts.set(option, point);
  }
  const own = new Map<string, string>();
  for (const line of read(files.self).split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match === null) continue;
    for (const name of (match[1] ?? "").split(",")) own.set(name, match[2] ?? "/");
  }
  const parents: Partial<Record<Controller, string>> = {};
  for (const controller of CONTROLLERS) {
    const point = mounts.get(controller);
    if (point === undefined) return `no cgroup v1 ${controller} controller is mounted`;
    const path = own.get(controller) ?? "/";
    parents[controller] = path === "/" ? point : join(point, path);
  }
  return parents as Record<Controller, string>;
}

/** Removes groups left by armstudy processes that are gone (a crash or SIGKILL skipped their clean-up). */
function removeStale(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const match = new RegExp(`^${GROUP_PREFIX}(\\d+)-\\d+$`).exec(name);
    if (match === null || Number(match[1]) === process.pid) continue;
    try {
      process.kill(Number(match[1]), 0);
    } catch {
      try {
        rmdirSync(join(parent, name));
      } catch {
        // Still has processes, or not ours to remove: leave it.
      }
    }
  }
}

export function probeGroupsUncached(files: GroupProbeFiles = PROC_FILES): GroupSupport {
  let parents: Record<Controller, string> | string;
  try {
    parents = parentsOf(files);
  } catch (error) {
    return { kind: "ulimit", reason: `cannot read the cgroup tables (${(error as Error).message})` };
  }
  if (typeof parents === "string") return { kind: "ulimit", reason: parents };
  const made: string[] = [];
  try {
    for (const controller of CONTROLLERS) {
      const test = join(parents[controller], `${GROUP_PREFIX}${process.pid}-probe`);
      mkdirSync(test);
      made.push(test);
    }
    writeFileSync(join(made[0] as string, "memory.limit_in_bytes"), String(1024 ** 3));
    writeFileSync(join(made[1] as string, "pids.max"), "64");
    read(join(made[2] as string, "cpuacct.usage"));
    const memsw = existsSync(join(made[0] as string, "memory.memsw.limit_in_bytes"));
    for (const controller of CONTROLLERS) removeStale(parents[controller]);
    return { kind: "cgroup", parents, memsw };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { kind: "ulimit", reason: `cannot make a cgroup under ${parents.memory} (${code})` };
  } finally {
    for (const dir of made.reverse()) rmdirSync(dir);
  }
}

let cached: GroupSupport | null = null;

/** `probeGroupsUncached`, once per process. */
export function probeGroups(): GroupSupport {
  cached ??= probeGroupsUncached();
  return cached;
}

/** What a run's group stopped, for the call's result. */
export type GroupCap = "memory" | "processes" | "cpu";

interface Counters {
  oomKills: number;
  pidsRefused: number;
  cpu: boolean;
}

const open = new Set<RunGroup>();
let exitHook = false;

let serial = 0;

/** One run's cgroup: made at the run's start, removed at its end. */
export class RunGroup {
  private readonly dirs: Record<Controller, string>;
  private cpuOver = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    support: Extract<GroupSupport, { kind: "cgroup" }>,
    readonly limits: SandboxLimits,
  ) {
    serial += 1;
    const name = `${GROUP_PREFIX}${process.pid}-${serial}`;
    const dirs: Partial<Record<Controller, string>> = {};
    try {
      for (const controller of CONTROLLERS) {
        const dir = join(support.parents[controller], name);
        mkdirSync(dir);
        dirs[controller] = dir;
      }
      const memory = dirs.memory as string;
      writeFileSync(join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
      // memsw is memory plus swap: the same figure means no swap beyond the cap.
      if (support.memsw) writeFileSync(join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
      writeFileSync(join(dirs.pids as string, "pids.max"), String(limits.processes));
    } catch (error) {
      for (const dir of Object.values(dirs).reverse()) rmdirSync(dir);
      throw error;
    }
    this.dirs = dirs as Record<Controller, string>;
    this.timer = setInterval(() => this.checkCpu(), CPU_POLL_MS);
    this.timer.unref();
    open.add(this);
    if (!exitHook) {
      exitHook = true;
      process.once("exit", () => {
        for (const group of open) group.close();
      });
    }
  }

  /** A group for one run, or null where this sandbox keeps per-process limits. Throws only if making one fails after the probe said it could. */
  static open(support: GroupSupport | undefined, limits: SandboxLimits): RunGroup | null {
    return support?.kind === "cgroup" ? new RunGroup(support, limits) : null;
  }

  /** The `cgroup.procs` files a process writes its pid to, to join the group. */
  get joinFiles(): string[] {
    return CONTROLLERS.map((controller) => join(this.dirs[controller], "cgroup.procs"));
  }

  /** CPU time the group's processes used, living and gone, in nanoseconds. */
  cpuNanos(): number {
    return Number(read(join(this.dirs.cpuacct, "cpuacct.usage")).trim());
  }

  /** Host pids of the group's live processes (none once the group is gone). */
  pids(): number[] {
    let text: string;
    try {
      text = read(join(this.dirs.pids, "cgroup.procs"));
    } catch {
      return [];
    }
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map(Number);
  }

  /** True once the run's CPU time is used up: later calls are refused. */
  get exhausted(): GroupCap | null {
    if (this.closed) return null;
    if (!this.cpuOver) this.checkCpu();
    return this.cpuOver ? "cpu" : null;
  }

  counters(): Counters {
    const oom = /^oom_kill (\d+)$/m.exec(read(join(this.dirs.memory, "memory.oom_control")));
    const events = existsSync(join(this.dirs.pids, "pids.events")) ? /^max (\d+)$/m.exec(read(join(this.dirs.pids, "pids.events"))) : null;
    return { oomKills: Number(oom?.[1] ?? 0), pidsRefused: Number(events?.[1] ?? 0), cpu: this.cpuOver };
  }

  /** The caps the group hit since `before` (a call's start). */
  capsHitSince(before: Counters): GroupCap[] {
    if (this.closed) return [];
    this.checkCpu();
    const now = this.counters();
    const hit: GroupCap[] = [];
    if (now.oomKills > before.oomKills) hit.push("memory");
    if (now.pidsRefused > before.pidsRefused) hit.push("processes");
    if (now.cpu && !before.cpu) hit.push("cpu");
    return hit;
  }

  /** Kills every process in the group until none is left (a fork bomb is bounded by pids.max). */
  killAll(): void {
    for (let round = 0; round < 100; round += 1) {
      const pids = this.pids();
      if (pids.length === 0) return;
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Gone already.
        }
      }
    }
  }

  private checkCpu(): void {
    if (this.closed || this.cpuOver) return;
    let used: number;
    try {
      used = this.cpuNanos();
    } catch {
      return;
    }
    if (used < this.limits.cpuSeconds * 1e9) return;
    this.cpuOver = true;
    this.killAll();
  }

  /** Ends every process of the group and removes it; safe to call twice, never throws (a group left behind is removed by a later probe). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    open.delete(this);
    this.killAll();
    for (const controller of [...CONTROLLERS].reverse()) {
      const dir = this.dirs[controller];
      // A killed process leaves its group a moment after the signal: retry briefly.
      for (let attempt = 0; attempt < 200; attempt += 1) {
        try {
          rmdirSync(dir);
          break;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== "EBUSY") break;
          this.killAllIn(dir);
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        }
      }
    }
  }

  private killAllIn(dir: string): void {
    let text = "";
    try {
      text = read(join(dir, "cgroup.procs"));
    } catch {
      return;
    }
    for (const line of text.split("\n")) {
      if (line === "") continue;
      try {
        process.kill(Number(line), "SIGKILL");
      } catch {
        // Gone already.
      }
    }
  }
}

/** The sentence a call's result gets for each cap the run's group hit. */
export function capNotice(cap: GroupCap, limits: SandboxLimits, whose = "run's"): string {
  switch (cap) {
    case "memory":
      return `armstudy: the ${whose} memory cap (${Math.round(limits.memoryBytes / 1024 ** 2)} MiB over all its processes) was reached; the kernel killed one of its processes`;
    case "processes":
      return `armstudy: the ${whose} process cap (${limits.processes} processes and threads at once) was reached; new processes were refused`;
    case "cpu":
      return `armstudy: the ${whose} CPU-time cap (${limits.cpuSeconds} s over all its processes) is used up; every process of it was killed and further commands are refused`;
  }
}

/** `sh -c` that writes its own pid into each file, then execs the rest: a process joins the group before it starts anything. */
export function joinGroupArgs(files: readonly string[], file: string, args: readonly string[], gated = false): { file: string; args: string[] } {
  const start = gated ? 'read -r go || exit 125; exec "$@" </dev/null' : 'exec "$@"';
  const script = `n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; ${start}`;
  return { file: "/bin/sh", args: ["-c", script, "armstudy-join", String(files.length), ...files, file, ...args] };
}

/**
 * `run` with a cgroup of its own where this sandbox can make one (and `run` has none yet), and the
 * clean-up that removes it. Making it can still fail here (a full hierarchy, a racing clean-up):
 * the run then keeps per-process limits, and its record says why.
 */
export function withRunGroup(run: RunSandbox): { run: RunSandbox; close: () => void } {
  if (run.group !== undefined || run.sandbox.kind !== "bwrap") return { run, close: () => undefined };
  let group: RunGroup | null;
  try {
    group = RunGroup.open(run.sandbox.groups, run.sandbox.limits);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { run: { ...run, groupError: `cannot make this run's cgroup (${code})` }, close: () => undefined };
  }
  if (group === null) return { run, close: () => undefined };
  const made = group;
  return { run: { ...run, group: made }, close: () => made.close() };
}
