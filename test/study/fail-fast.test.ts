/**
 * Fail fast (ADR 0081): two runs in a row that end with the same fault stop the study; different
 * faults, or a result between them, do not. Faked only at the agent boundary (real worktrees,
 * real checks, real results folder).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentRunner } from "../../src/run/agent-contract.ts";
import { runStudy } from "../../src/study/runner.ts";
import { readRunResult } from "../../src/render/results.ts";
import { fakeAgent, fakeDeps, makeStudyWorld, tickingClock } from "./support/fakes.ts";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An agent whose run i ends with causes[i - 1] (null: a normal run). */
function agentWith(causes: ReadonlyArray<string | null>): AgentRunner {
  const normal = fakeAgent();
  return async (options) => {
    const cause = causes[options.runIndex - 1] ?? null;
    if (cause === null) return normal(options);
    await options.onEvent({ t: 0, type: "run.end", status: "error", reason: `${cause} happened`, cause, wallMs: 0 });
    return { status: "error", reason: `${cause} happened`, cause, wallMs: 0 };
  };
}

async function studyWith(causes: ReadonlyArray<string | null>) {
  const root = mkdtempSync(join(tmpdir(), "armstudy-failfast-"));
  temps.push(root);
  const outDir = join(root, "out");
  const outcome = await runStudy({
    spec: makeStudyWorld(root),
    deps: { ...fakeDeps(), agentFor: () => agentWith(causes) },
    outDir,
    cacheRoot: join(root, ".armstudy"),
    worktreeRoot: join(root, "worktrees"),
    cwd: root,
    clockFactory: tickingClock(),
    arms: ["lazy"],
    runs: causes.length,
  });
  const results = await Promise.all(causes.map((_, i) => readRunResult(outDir, "lazy", i + 1)));
  return { outcome, statuses: results.map((r) => (r === null ? null : `${r.status}${r.cause ? ` ${r.cause}` : ""}`)) };
}

describe("fail fast", () => {
  it("stops after two runs in a row with the same fault; the rest stay unstarted", async () => {
    const { outcome, statuses } = await studyWith(["model.timeout", "model.timeout", null, null]);
    expect([outcome.failFast, outcome.errors, outcome.errorCauses, outcome.interrupted]).toEqual([
      { cause: "model.timeout", runs: [{ arm: "lazy", runIndex: 1 }, { arm: "lazy", runIndex: 2 }], message: "model.timeout happened" },
      2,
      { "model.timeout": 2 },
      false,
    ]);
    expect(statuses).toEqual(["error model.timeout", "error model.timeout", null, null]);
  });

  it("goes on when the faults differ or a result comes between them", async () => {
    const { outcome, statuses } = await studyWith(["model.timeout", "model.http_5xx", "model.timeout", null, "model.timeout"]);
    expect([outcome.failFast, outcome.errors, outcome.errorCauses]).toEqual([null, 4, { "model.timeout": 3, "model.http_5xx": 1 }]);
    expect(statuses).toEqual(["error model.timeout", "error model.http_5xx", "error model.timeout", "completed", "error model.timeout"]);
  });
});
