/**
 * A cassette miss is armstudy's fault, not the agent's: the study stops with the miss named, no
 * run is scored, and no worktree is left behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runAgent } from "../../src/run/agent.ts";
import { CASSETTE_VERSION } from "../../src/run/models/cassette.ts";
import { HarnessFaultError } from "../../src/run/models/fault.ts";
import { createModelClient } from "../../src/run/models/spec.ts";
import { runStudy } from "../../src/study/runner.ts";
import { fakeDeps, makeStudyWorld, tickingClock } from "./support/fakes.ts";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("a harness fault during a study", () => {
  it("stops the study with the cassette miss and scores no run", async () => {
    const root = mkdtempSync(join(tmpdir(), "armstudy-fault-"));
    temps.push(root);
    const cassettes = join(root, "cassettes");
    mkdirSync(cassettes);
    // A recording of some other model: valid, but it holds no answer for these requests.
    writeFileSync(join(cassettes, "manifest.json"), JSON.stringify({ version: CASSETTE_VERSION, model: "scripted:other", testDouble: true }));
    const outDir = join(root, "out");
    const worktreeRoot = join(root, "worktrees");
    const deps = {
      ...fakeDeps(),
      createModel: (_spec: string, context: { cwd: string; seed: number; runIndex: number }) => createModelClient(`replay:${cassettes}`, { env: {}, cwd: root, seed: context.seed, runIndex: context.runIndex }),
      agentFor: () => runAgent,
    };
    const study = runStudy({ spec: makeStudyWorld(root), deps, outDir, cacheRoot: join(root, ".armstudy"), worktreeRoot, cwd: root, clockFactory: tickingClock(), arms: ["lazy"], runs: 2 });
    const error = await study.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(HarnessFaultError);
    expect([(error as HarnessFaultError).code, (error as HarnessFaultError).exitCode, (error as Error).message.startsWith("[CASSETTE_MISS] ")]).toEqual(["CASSETTE_MISS", 2, true]);
    // Neither run has a result (so --resume redoes them once the cassette is recorded); no worktree is left.
    expect([existsSync(join(outDir, "runs/lazy/run-1/result.json")), existsSync(join(outDir, "runs/lazy/run-2/result.json"))]).toEqual([false, false]);
    expect(readdirSync(worktreeRoot)).toEqual([]);
  });
});
