/**
 * Killing a real `armstudy study` process halfway — politely (SIGTERM) and hard (SIGKILL) — and
 * finishing it with --resume: no run lost or doubled, and no worktree left behind. The child gets
 * its own TMPDIR, so its worktrees are told apart from those of tests running beside it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { listWorktrees, materialiseFixture } from "../../src/study/git.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const RUNS = 4;
const resultFiles = (out: string): string[] =>
  Array.from({ length: RUNS }, (_, i) => join(out, `runs/ordinary/run-${i + 1}/result.json`)).filter((file) => existsSync(file));

function startStudy(out: string, childTmp: string, resume: boolean): ChildProcess {
  const args = ["--import", "tsx", "src/cli/main.ts", "study", "--arm", "ordinary", "--runs", String(RUNS), "--out", out, ...(resume ? ["--resume"] : [])];
  return spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: childTmp }, stdio: ["ignore", "pipe", "pipe"] });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolveExit) => child.on("exit", (code, signal) => resolveExit({ code, signal, stdout })));
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error("timed out waiting for the study to make progress");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("kill halfway, then --resume", () => {
  it("finishes with every run exactly once and git worktree list clean", async () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-kill-"));
    temps.push(dir);
    const childTmp = join(dir, "tmp");
    mkdirSync(childTmp);
    const out = join(dir, "results");
    const { repoPath } = await materialiseFixture(join(ROOT, "fixtures/tasks/stockbook/repo"), join(ROOT, ".armstudy"));
    // Run folders (clones) under the child's worktree root, and any worktree registered in the fixture cache.
    const root = join(childTmp, "armstudy-worktrees");
    const ours = async (): Promise<string[]> => [
      ...(await listWorktrees(repoPath)).filter((path) => path.startsWith(childTmp)),
      ...(existsSync(root) ? readdirSync(root).filter((name) => !name.endsWith(".armstudy-git")) : []),
    ];

    // 1. SIGTERM after the first finished run: in-flight worktrees are removed before it exits.
    const first = startStudy(out, childTmp, false);
    const firstExit = exited(first);
    await waitFor(() => resultFiles(out).length >= 1, 120_000);
    first.kill("SIGTERM");
    const term = await firstExit;
    expect({ code: term.code, interruptedLine: term.stdout.includes("interrupted; finish with:") }).toEqual({ code: 130, interruptedLine: true });
    expect(await ours()).toEqual([]);
    const afterTerm = resultFiles(out).length;
    expect(afterTerm).toBeLessThan(RUNS);

    // 2. SIGKILL mid-run: nothing can clean up, so the next start prunes what it left.
    const second = startStudy(out, childTmp, true);
    const secondExit = exited(second);
    await waitFor(() => resultFiles(out).length >= afterTerm + 1, 120_000);
    // Wait until the next run's worktree exists, so the kill really leaves one behind.
    await waitFor(() => existsSync(root) && readdirSync(root).length > 0, 60_000);
    second.kill("SIGKILL");
    await secondExit;
    const afterKill = resultFiles(out).length;
    const leftBehind = await ours();
    expect(leftBehind.length).toEqual(1);

    // 3. Resume to the end.
    const third = await exited(startStudy(out, childTmp, true));
    expect({ code: third.code }).toEqual({ code: 0 });
    expect(third.stdout.split("\n")[0]).toEqual("removed 1 worktree(s) left by an earlier study that did not finish");
    expect(third.stdout.split("\n").find((line) => line.startsWith("resuming:"))).toEqual(
      `resuming: ${afterKill} of ${RUNS} runs already finished, ${RUNS - afterKill} to run → ${out}`,
    );
    expect(resultFiles(out).length).toEqual(RUNS);
    for (let i = 1; i <= RUNS; i += 1) {
      const events = readFileSync(join(out, `runs/ordinary/run-${i}/record.jsonl`), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { type: string; runIndex?: number });
      expect({ run: i, starts: events.filter((e) => e.type === "run.start").map((e) => e.runIndex), ends: events.filter((e) => e.type === "run.end").length }).toEqual({
        run: i,
        starts: [i],
        ends: 1,
      });
    }
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    expect(summary.runs).toEqual({ planned: RUNS, finished: RUNS, scored: RUNS, errors: 0, errorCauses: {}, missing: [] });
    // The SIGKILLed study left its lock behind; the resume took it over (its pid was dead) and released it.
    expect(existsSync(join(out, "study.lock"))).toEqual(false);
    expect(await ours()).toEqual([]);
  });
});
