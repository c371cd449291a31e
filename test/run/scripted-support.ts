/**
 * Helpers for the scripted-persona and agent-loop tests: a real temp git repo holding the fixture,
 * a fake clock, a LoadedArm built by hand, and the acceptance checks run after an agent stops.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { readFileSync } from "node:fs";
import type { LoadedArm, PolicySpec } from "../../src/run/arms/types.ts";
import { runCommand } from "../../src/run/tools/index.ts";
import { RunEvent } from "../../src/run/record.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const FIXTURE_REPO = path.join(ROOT, "fixtures/tasks/stockbook/repo");
/** The stockbook task's check files: outside the repo, given to the agent at checks/ as a study does. */
export const CHECK_FILES = path.join(ROOT, "fixtures/tasks/stockbook/checks");
export const HANDOFF_FILE = path.join(ROOT, "fixtures/tasks/stockbook/handoff.md");
export const HANDOFF = readFileSync(HANDOFF_FILE, "utf8");
export const PERSONAS = path.join(ROOT, "fixtures/tasks/stockbook/personas");
export const CHECKS: Array<{ id: string; command: string }> = (
  parseYaml(readFileSync(path.join(ROOT, "fixtures/tasks/stockbook/checks.yaml"), "utf8")) as { checks: Array<{ id: string; command: string }> }
).checks;

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "armstudy fixture",
  GIT_AUTHOR_EMAIL: "fixture@armstudy.invalid",
  GIT_COMMITTER_NAME: "armstudy fixture",
  GIT_COMMITTER_EMAIL: "fixture@armstudy.invalid",
  GIT_AUTHOR_DATE: "2025-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2025-01-01T00:00:00Z",
};

/**
 * A fresh git repository holding the fixture project, committed with a fixed author and date, with
 * the task's check files copied to checks/ (not committed), as a study gives them to the agent.
 */
export async function fixtureRepo(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-fixture-")));
  await cp(FIXTURE_REPO, dir, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env: GIT_ENV, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture");
  await cp(CHECK_FILES, path.join(dir, "checks"), { recursive: true });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A clock that advances one millisecond per reading: timings become a function of the events. */
export function fakeClock(): () => number {
  let now = 0;
  return () => {
    now += 1;
    return now;
  };
}

export function testArm(policies: PolicySpec[] = [{ name: "none" }], extra: Partial<LoadedArm> = {}): LoadedArm {
  const text = "You are a careful coding agent. Finish the request, run its checks, and report plainly.";
  return {
    name: "test-arm",
    dir: ROOT,
    description: "a hand-built arm for tests",
    agent: "armstudy",
    prompt: { text, stablePrefix: text, prefixHash: "0".repeat(64), prefixTokens: 17 },
    policies,
    ...extra,
  };
}

/** Runs every acceptance check in `dir`; true where the check passes. */
export async function acceptance(dir: string): Promise<Record<string, boolean>> {
  const result: Record<string, boolean> = {};
  for (const check of CHECKS) {
    const outcome = await runCommand(check.command, { cwd: dir, env: process.env, timeoutMs: 60_000, outputLimit: 2_000 });
    result[check.id] = outcome.exitCode === 0;
  }
  return result;
}

/** Collects events, validating each against the run-record schema as it arrives. */
export function collector(): { events: RunEvent[]; onEvent: (event: RunEvent) => void } {
  const events: RunEvent[] = [];
  return {
    events,
    onEvent: (event) => {
      RunEvent.parse(event);
      events.push(event);
    },
  };
}
