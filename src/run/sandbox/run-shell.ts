/**
 * One sandbox for a run's shell calls (ADR 0113). Bubblewrap's set-up (namespaces, mounts, the drop
 * to the run's user) was most of a sandboxed call's cost; a run now starts the sandbox once, at its
 * first call, with the launcher of launcher.ts inside, and each call is one fork and exec there.
 *
 * What a call sees is what a sandbox of its own gave it: the same root, environment, user, limits
 * (the same `ulimit` line in front of the command) and working directory; its output and exit code
 * as before; nothing it started outlives it (the launcher kills every other process of the
 * namespace before it reports the end). On a timeout or an abort the whole sandbox is killed — the
 * call and everything it started — and the next call starts a fresh one. `close` ends it with the
 * run. The acceptance checks never run here: they get a sandbox of their own each (study/checks.ts).
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { killGroup } from "../process-group.ts";
import { CallEndReader } from "./call-end.ts";
import { sandboxCommand, shellCallText } from "./command.ts";
import { LAUNCHER_COMMAND_FILE } from "./launcher.ts";
import { isRoot } from "./owner.ts";
import type { RunSandbox } from "./types.ts";

/** How long to wait for the pipes to close once a killed sandbox has exited. */
const PIPE_GRACE_MS = 2_000;

export interface RunShellCall {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Each piece of the call's output (stdout and stderr as they arrive). */
  onOutput: (text: string) => void;
}

export interface RunShellResult {
  exitCode: number | null;
  killed: "timeout" | "aborted" | null;
}

type Launcher = ChildProcessByStdio<Writable, Readable, Readable>;

interface Current {
  /** The sandbox the call runs in. */
  launcher: Launcher;
  out: CallEndReader;
  err: CallEndReader;
  settle: (result: RunShellResult) => void;
  killed: RunShellResult["killed"];
}

export class RunShell {
  private launcher: Launcher | null = null;
  private inbox: string | null = null;
  private current: Current | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly run: RunSandbox,
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * The run's shell sandbox, or null where calls keep a sandbox each: no bubblewrap, or not root
   * (without a user of its own the launcher would share the calls' user, who could then trace it).
   */
  static open(run: RunSandbox, dir: string, env: NodeJS.ProcessEnv): RunShell | null {
    if (run.sandbox.kind !== "bwrap" || !isRoot()) return null;
    return new RunShell(run, dir, env);
  }

  /** True when a call with these options would get exactly the sandbox this one was opened for. */
  serves(run: RunSandbox, dir: string, env: NodeJS.ProcessEnv, command: string): boolean {
    // A NUL cannot pass through the command file; such a call takes the per-call path (and its error).
    return !this.closed && run === this.run && dir === this.dir && env === this.env && !command.includes("\0");
  }

  /** Runs one call; calls are run one after another. */
  call(command: string, options: RunShellCall): Promise<RunShellResult> {
    const next = this.queue.then(() => this.runOne(command, options));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the sandbox and every process in it. */
  close(): void {
    this.closed = true;
    this.stop();
    if (this.inbox !== null) rmSync(this.inbox, { recursive: true, force: true });
    this.inbox = null;
  }

  private stop(): void {
    if (this.launcher !== null) killGroup(this.launcher.pid);
    this.launcher = null;
  }

  private start(): Launcher {
    if (this.run.sandbox.kind !== "bwrap") throw new Error("RunShell: no sandbox");
    this.inbox ??= mkdtempSync(join(tmpdir(), "armstudy-run-shell-"));
    const wrapped = sandboxCommand(this.run.sandbox, { argv: ["bash"], dir: this.dir, network: this.run.network, readable: this.run.readable, launcher: { inbox: this.inbox } }, this.env);
    const child = spawn(wrapped.file, wrapped.args, { cwd: this.dir, env: wrapped.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdin.on("error", () => undefined);
    // Output with no call of this sandbox running cannot be a call's: every process of one is gone by its end.
    const mine = (): Current | null => (this.current?.launcher === child ? this.current : null);
    child.stdout.on("data", (chunk: string) => mine()?.out.push(chunk));
    child.stderr.on("data", (chunk: string) => mine()?.err.push(chunk));
    child.stdout.on("data", () => this.settleIfEnded());
    child.stderr.on("data", () => this.settleIfEnded());
    let exitCode: number | null = null;
    const gone = (): void => {
      if (this.launcher === child) this.launcher = null;
      const current = this.current;
      if (current?.launcher !== child) return;
      current.out.flush();
      current.err.flush();
      // Killed by armstudy: no exit code, as for a call of its own. Otherwise bubblewrap's code (it failed to start).
      current.settle({ exitCode: current.killed === null ? exitCode : null, killed: current.killed });
    };
    child.on("error", (error) => {
      mine()?.err.push(`armstudy: could not start the sandbox: ${error.message}\n`);
      gone();
    });
    child.on("exit", (code) => {
      exitCode = code;
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        gone();
      }, PIPE_GRACE_MS).unref();
    });
    child.on("close", gone);
    this.launcher = child;
    return child;
  }

  private settleIfEnded(): void {
    const current = this.current;
    if (current === null || !current.out.done || !current.err.done) return;
    const code = Number.parseInt(current.out.trailer?.trim() ?? "", 10);
    current.settle({ exitCode: Number.isNaN(code) ? null : code, killed: null });
  }

  private runOne(command: string, options: RunShellCall): Promise<RunShellResult> {
    if (this.run.sandbox.kind !== "bwrap") throw new Error("RunShell: no sandbox");
    const limits = this.run.sandbox.limits;
    return new Promise((resolve) => {
      const launcher = this.launcher ?? this.start();
      const marker = `armstudy-call-end-${randomBytes(16).toString("hex")}`;
      let settled = false;
      const current: Current = {
        launcher,
        out: new CallEndReader(marker, options.onOutput),
        err: new CallEndReader(marker, options.onOutput),
        killed: null,
        settle: (result) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          if (this.current === current) this.current = null;
          resolve(result);
        },
      };
      this.current = current;
      // A killed call takes the whole sandbox with it; the next call starts another.
      const kill = (why: "timeout" | "aborted"): void => {
        current.killed ??= why;
        if (this.launcher === launcher) this.stop();
        else killGroup(launcher.pid);
      };
      const timer = setTimeout(() => kill("timeout"), options.timeoutMs);
      const onAbort = (): void => kill("aborted");
      options.signal?.addEventListener("abort", onAbort, { once: true });
      if (this.inbox === null) throw new Error("RunShell: no inbox");
      writeFileSync(join(this.inbox, LAUNCHER_COMMAND_FILE), shellCallText(limits, command));
      launcher.stdin.write(`${marker}\n`);
      if (options.signal?.aborted) onAbort();
    });
  }
}
