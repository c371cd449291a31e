/**
 * A run's one shell sandbox (RunShell, ADR 0113) against a sandbox per call: the same output and
 * exit code for the same commands, timeouts and aborts that kill the call and leave the next one
 * working, calls one after another even when asked at once, and the per-call path after close.
 * Real bubblewrap, real commands. The end-of-call reader is fuzzed over every way to cut a stream.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallEndReader, markerStartAtEnd } from "../../src/run/sandbox/call-end.ts";
import { probeSandbox } from "../../src/run/sandbox/probe.ts";
import { RunShell } from "../../src/run/sandbox/run-shell.ts";
import type { RunSandbox } from "../../src/run/sandbox/types.ts";
import { runCommand, type ShellResult } from "../../src/run/tools/shell.ts";

const sandbox = probeSandbox({ env: process.env });
const run: RunSandbox = { sandbox, network: "none", readable: [] };
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: "C.UTF-8" };
let temp: string;
let dir: string;
let shell: RunShell;

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), "armstudy-run-shell-test-"));
  dir = mkdtempSync(join(temp, "work-"));
  const opened = RunShell.open(run, dir, env);
  if (opened === null) throw new Error("a run's sandbox needs bubblewrap and root");
  shell = opened;
});

afterAll(() => {
  shell.close();
  rmSync(temp, { recursive: true, force: true });
});

function call(command: string, extra: { timeoutMs?: number; signal?: AbortSignal; shared?: boolean } = {}): Promise<ShellResult> {
  return runCommand(command, {
    cwd: dir,
    env,
    sandbox: run,
    timeoutMs: extra.timeoutMs ?? 30_000,
    outputLimit: 100_000,
    ...(extra.shared === false ? {} : { runShell: shell }),
    ...(extra.signal === undefined ? {} : { signal: extra.signal }),
  });
}

describe.skipIf(sandbox.kind !== "bwrap")("a run's one shell sandbox", () => {
  it("gives the same output and exit code as a sandbox per call", async () => {
    const commands = [
      "env | sort; echo \"$SHLVL\"; id; pwd; umask; ulimit -t -d -u -f",
      "echo out; echo err >&2; exit 3",
      "kill -9 $$",
      "printf 'no newline'",
      "setsid sleep 100 & echo started",
      "cat missing-file",
      "touch made && ls",
    ];
    const shared: ShellResult[] = [];
    const own: ShellResult[] = [];
    for (const command of commands) {
      own.push(await call(command, { shared: false }));
      rmSync(join(dir, "made"), { force: true });
      shared.push(await call(command));
      rmSync(join(dir, "made"), { force: true });
    }
    expect(shared).toEqual(own);
    expect(own.map((result) => result.exitCode)).toEqual([0, 3, 137, 0, 0, 1, 0]);
  });

  it("a timeout kills the call and the next call runs in a new sandbox", async () => {
    const started = Date.now();
    const timedOut = await call("echo begun; sleep 30", { timeoutMs: 400 });
    const next = await call("echo again");
    expect({ timedOut, quick: Date.now() - started < 10_000, next }).toEqual({
      timedOut: { exitCode: null, killed: "timeout", output: "begun\n" },
      quick: true,
      next: { exitCode: 0, killed: null, output: "again\n" },
    });
  });

  it("an abort kills the call, also one aborted before it starts", async () => {
    const controller = new AbortController();
    const pending = call("sleep 30", { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const already = new AbortController();
    already.abort();
    expect([await pending, await call("echo never", { signal: already.signal }), await call("echo after")]).toEqual([
      { exitCode: null, killed: "aborted", output: "" },
      { exitCode: null, killed: "aborted", output: "" },
      { exitCode: 0, killed: null, output: "after\n" },
    ]);
  });

  it("runs calls asked at once one after another, each with its own output", async () => {
    const results = await Promise.all([call("sleep 0.3; echo first"), call("echo second; exit 4"), call("echo third >&2")]);
    expect(results).toEqual([
      { exitCode: 0, killed: null, output: "first\n" },
      { exitCode: 4, killed: null, output: "second\n" },
      { exitCode: 0, killed: null, output: "third\n" },
    ]);
  });

  it("after close it serves nothing, and a call takes a sandbox of its own", async () => {
    const other = RunShell.open(run, dir, env);
    other?.close();
    const result = await runCommand("echo own", { cwd: dir, env, sandbox: run, timeoutMs: 30_000, outputLimit: 1000, ...(other === null ? {} : { runShell: other }) });
    expect({ serves: other?.serves(run, dir, env, "echo own"), result }).toEqual({ serves: false, result: { exitCode: 0, killed: null, output: "own\n" } });
  });
});

describe("the end of a call in a launcher's stream", () => {
  const marker = "armstudy-call-end-0123456789abcdef0123456789abcdef";

  it("passes every byte before the marker on, whatever the chunks, and reads the exit code after it", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "r", "m", "x", "\n", "é", "armstudy-call-end-", " ") }), fc.integer({ min: 0, max: 255 }), fc.array(fc.nat(), { maxLength: 6 }), (output, code, cuts) => {
        const stream = `${output}${marker} ${code}\n`;
        const points = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
        let seen = "";
        const reader = new CallEndReader(marker, (text) => {
          seen += text;
        });
        let from = 0;
        for (const point of [...points, stream.length]) {
          reader.push(stream.slice(from, point));
          from = point;
        }
        expect({ seen, trailer: reader.trailer }).toEqual({ seen: output, trailer: ` ${code}` });
      }),
    );
  });

  it("gives up what it held when the stream ends without a marker", () => {
    let seen = "";
    const reader = new CallEndReader(marker, (text) => {
      seen += text;
    });
    reader.push("line\narmstudy-call");
    const held = seen;
    reader.flush();
    expect({ held, seen, done: reader.done, start: markerStartAtEnd("ends with arm", marker) }).toEqual({ held: "line\n", seen: "line\narmstudy-call", done: false, start: 3 });
  });
});
