/**
 * Comparing a sharded study with the unsharded one. Sharding must not change a run, but a run's real
 * tools print their own timings (`node --test` writes `duration_ms: 1.078286`), and the next request's
 * input tokens count that output: two studies of the same runs can differ there by a token, sharded or
 * not. So a run's steps are compared without those two token figures, and the merge is compared byte
 * for byte once the shards hold the unsharded study's run folders.
 */
import { cpSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadResults } from "../../../src/render/results.ts";

/** Every run's metrics, keyed by task/arm#run, without the input-token figures real tool output moves. */
export async function runSteps(dir: string): Promise<Record<string, unknown>> {
  const { results } = await loadResults(dir);
  const steps: Record<string, unknown> = {};
  for (const result of results) {
    const { input: _input, total: _total, ...tokens } = result.metrics.tokens;
    steps[`${result.task}/${result.arm}#${result.runIndex}`] = { seed: result.seed, status: result.status, metrics: { ...result.metrics, tokens } };
  }
  return steps;
}

/** Replaces each shard's run folders with the unsharded study's copies of the same runs. */
export function adoptRuns(whole: string, shards: readonly string[]): void {
  for (const shard of shards) {
    for (const run of runFolders(join(shard, "runs"))) {
      rmSync(join(shard, "runs", run), { recursive: true });
      cpSync(join(whole, "runs", run), join(shard, "runs", run), { recursive: true });
    }
  }
}

/** Run folders (`task/arm/run-N` or `arm/run-N`) under a study's runs folder. */
function runFolders(runs: string, prefix = ""): string[] {
  return readdirSync(join(runs, prefix), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      return entry.name.startsWith("run-") ? [path] : runFolders(runs, path);
    });
}
