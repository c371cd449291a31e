import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadChecks, parseChecks, runAcceptance, runCheck } from "../../src/study/checks.ts";

const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "armstudy-checks-"));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("parseChecks", () => {
  it("accepts a list or { checks }, with command or run and seconds or milliseconds", () => {
    expect(parseChecks({ checks: [{ id: "B1", command: "true", timeoutMs: 500 }, { id: "B2", run: "false", timeout: 2, title: "two" }] }, "c.yaml")).toEqual([
      { id: "B1", command: "true", timeoutMs: 500 },
      { id: "B2", command: "false", description: "two", timeoutMs: 2000 },
    ]);
    expect(parseChecks([{ id: "B1", command: "true" }], "c.yaml")).toEqual([{ id: "B1", command: "true" }]);
  });

  it("names the file and field of a bad check", () => {
    expect(() => parseChecks({ checks: [{ id: "B1" }] }, "fixtures/tasks/stockbook/checks.yaml")).toThrow(
      "fixtures/tasks/stockbook/checks.yaml: field checks.0: give the check a `command` to run",
    );
    expect(() => parseChecks({ checks: [{ id: "B1", command: "a" }, { id: "B1", command: "b" }] }, "c.yaml")).toThrow(
      'c.yaml: field checks.1.id: "B1" is used twice; ids must be unique.',
    );
    // A timeout past 24 h is refused by field, not handed to a timer that would fire at once (ADR 0084).
    expect(() => parseChecks({ checks: [{ id: "B1", command: "a", timeoutMs: 3e9 }] }, "c.yaml")).toThrow("c.yaml: field checks.0.timeoutMs: must be at most 24 hours (86400000 ms)");
    expect(() => parseChecks({ checks: [{ id: "B1", command: "a", timeout: 100000 }] }, "c.yaml")).toThrow("c.yaml: field checks.0.timeout: must be at most 24 hours (86400 s)");
  });

  it("names an unreadable file", async () => {
    await expect(loadChecks("/nonexistent/x.checks.yaml")).rejects.toThrow(
      "cannot read acceptance checks /nonexistent/x.checks.yaml: ENOENT. Fix the study file's `checks` path.",
    );
    const dir = temp();
    writeFileSync(join(dir, "bad.yaml"), "checks: [\n");
    await expect(loadChecks(join(dir, "bad.yaml"))).rejects.toThrow(/bad\.yaml: not valid YAML/);
  });
});

describe("runCheck", () => {
  it("takes the exit code as the truth and keeps the output", async () => {
    const dir = temp();
    const pass = await runCheck({ id: "ok", command: "echo fine; exit 0" }, { cwd: dir, timeoutMs: 10_000 });
    const fail = await runCheck({ id: "no", command: "echo broken >&2; exit 3" }, { cwd: dir, timeoutMs: 10_000 });
    expect({ ...pass, durationMs: 0 }).toEqual({ id: "ok", command: "echo fine; exit 0", passed: true, exitCode: 0, signal: null, timedOut: false, durationMs: 0, output: "fine\n" });
    expect({ ...fail, durationMs: 0 }).toEqual({ id: "no", command: "echo broken >&2; exit 3", passed: false, exitCode: 3, signal: null, timedOut: false, durationMs: 0, output: "broken\n" });
  });

  it("runs in the worktree", async () => {
    const dir = temp();
    writeFileSync(join(dir, "marker"), "");
    expect((await runCheck({ id: "cwd", command: "test -f marker" }, { cwd: dir, timeoutMs: 10_000 })).passed).toEqual(true);
  });

  it("kills the whole process group on timeout, children included", async () => {
    const dir = temp();
    const started = performance.now();
    // The child outlives its parent shell unless the group is killed; it would create `late` after 3 s.
    const result = await runCheck({ id: "slow", command: "(sleep 3; touch late) & sleep 30", timeoutMs: 300 }, { cwd: dir, timeoutMs: 10_000 });
    expect(performance.now() - started).toBeLessThan(2500);
    expect({ passed: result.passed, timedOut: result.timedOut, signal: result.signal, exitCode: result.exitCode }).toEqual({ passed: false, timedOut: true, signal: "SIGKILL", exitCode: null });
    expect(result.output).toEqual("\n[armstudy: check timed out after 300 ms; its process group was killed]");
    await new Promise((r) => setTimeout(r, 3500));
    expect(existsSync(join(dir, "late"))).toEqual(false);
  });

  it("gives the check only the allow-listed environment (no key, no custom name)", async () => {
    const dir = temp();
    const env = { PATH: process.env.PATH, OPENAI_API_KEY: "sk-x", GH_PAT: "t", VISIBLE: "1", LANG: "C" };
    const result = await runCheck({ id: "env", command: 'test -z "$OPENAI_API_KEY$GH_PAT$VISIBLE" && test "$LANG" = C' }, { cwd: dir, timeoutMs: 10_000, env });
    expect(result.passed).toEqual(true);
  });

  it("counts passed and failed checks in order", async () => {
    const dir = temp();
    const result = await runAcceptance(
      [
        { id: "B1", command: "true" },
        { id: "B2", command: "false" },
        { id: "B3", command: "true" },
      ],
      { cwd: dir, timeoutMs: 10_000 },
    );
    expect({ passed: result.passed, failed: result.failed, ids: result.checks.map((c) => `${c.id}:${c.passed}`) }).toEqual({
      passed: 2,
      failed: 1,
      ids: ["B1:true", "B2:false", "B3:true"],
    });
  });
});

describe("runAcceptance, concurrently", () => {
  // A waits (up to ~3 s) for a file that B writes: both pass only if B runs while A is waiting.
  const waiter = { id: "A", command: "i=0; while [ ! -f b.ready ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done; test -f b.ready" };
  const writer = { id: "B", command: "touch b.ready" };

  it("runs independent checks at the same time, results in the file's order, exit codes kept", async () => {
    const dir = temp();
    const result = await runAcceptance([waiter, writer, { id: "C", command: "exit 3" }], { cwd: dir, timeoutMs: 20_000, concurrency: 2 });
    expect(result.checks.map((c) => ({ id: c.id, passed: c.passed, exitCode: c.exitCode }))).toEqual([
      { id: "A", passed: true, exitCode: 0 },
      { id: "B", passed: true, exitCode: 0 },
      { id: "C", passed: false, exitCode: 3 },
    ]);
    expect([result.passed, result.failed]).toEqual([2, 1]);
  });

  it("runs a file marked sequential: true one check at a time, in order", async () => {
    const dir = temp();
    const checks = parseChecks({ sequential: true, checks: [waiter, writer] }, "c.yaml");
    expect(checks).toEqual([
      { ...waiter, sequential: true },
      { ...writer, sequential: true },
    ]);
    const result = await runAcceptance(checks, { cwd: dir, timeoutMs: 20_000, concurrency: 2 });
    // A ran alone, so B's file did not exist yet.
    expect(result.checks.map((c) => `${c.id}:${c.passed}`)).toEqual(["A:false", "B:true"]);
  });

  it("starts no check after an abort", async () => {
    const dir = temp();
    const abort = new AbortController();
    abort.abort();
    const result = await runAcceptance([writer, { id: "C", command: "true" }], { cwd: dir, timeoutMs: 10_000, concurrency: 2, signal: abort.signal });
    expect(result).toEqual({ passed: 0, failed: 0, checks: [] });
    // In a cgroup the checks were made ready (spawned, waiting for their go); a dropped one never runs its command.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(join(dir, "b.ready"))).toBe(false);
  });
});
