/** Hand-built results for renderer tests: a study folder's content without running anything. */
import type { ArmMeta, LoadedResults, MetricsView, RunResult, StudyMeta } from "../../src/render/results.ts";

export function armMeta(name: string, overrides: Partial<ArmMeta> = {}): ArmMeta {
  return {
    name,
    description: `the ${name} arm`,
    agent: "armstudy",
    model: "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml",
    testDouble: true,
    policies: [{ name: name === "goal" ? "goal" : "none" }],
    goal: name === "goal" ? { rounds: 30, hours: 8 } : null,
    prefix: { hash: `${name}-hash-0123456789`, tokens: 1000 + name.length, chars: 4000, sections: [{ id: "identity", chars: 400, tokens: 100 }, { id: "reporting", chars: 3600, tokens: 900 + name.length }] },
    ...overrides,
  };
}

export function metrics(overrides: Partial<MetricsView> = {}): MetricsView {
  return {
    toolCalls: 10,
    toolCallsBeforeReplyEnd: 10,
    toolCallsPerReply: [10],
    claimedComplete: true,
    claimSource: "report_first_line",
    falseCompletion: false,
    permissionStop: false,
    firstReportLine: "Done.",
    claimChecks: { count: 0, done: 0, continue: 0, acceptedUnchecked: 0, shieldRejected: 0, agreesWithAcceptance: null },
    tokens: { prefix: 1000, input: 20_000, cachedInput: 0, output: 1000, reasoning: 0, total: 21_000, source: "counted" },
    costUsd: null,
    repeatedIdenticalCalls: 0,
    readsPerDistinctFile: 1,
    maxReadsOfOneFile: 1,
    compactions: 0,
    timeToFirstTextMs: 100,
    toolCallsPerVisibleText: 10,
    wallMs: 1000,
    modelMs: 100,
    toolMs: 900,
    ...overrides,
  };
}

export function result(arm: string, runIndex: number, passed: number, m: Partial<MetricsView> = {}, extra: Partial<RunResult> = {}): RunResult {
  const checks = ["B1", "B2", "B3"].map((id, i) => ({ id, command: `check ${id}`, passed: i < passed, exitCode: i < passed ? 0 : 1, signal: null, timedOut: false, durationMs: 5, output: "" }));
  return {
    schema: "armstudy.result/1",
    arm,
    runIndex,
    seed: 100 + runIndex,
    model: "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml",
    testDouble: true,
    agent: "armstudy",
    status: "completed",
    reason: null,
    error: null,
    acceptance: { passed, failed: 3 - passed, checks },
    diff: { stat: "", files: passed, insertions: passed * 10, deletions: 0 },
    metrics: metrics(m),
    files: { record: "record.jsonl", patch: "diff.patch" },
    timing: { worktreeMs: 1, agentMs: 1, checksMs: 1, diffMs: 1, cleanupMs: 1 },
    ...extra,
  };
}

export function meta(arms: ArmMeta[], runsPerArm: number, overrides: Partial<StudyMeta> = {}): StudyMeta {
  const planned: Array<{ arm: string; runIndex: number }> = [];
  for (let i = 1; i <= runsPerArm; i += 1) for (const arm of arms) planned.push({ arm: arm.name, runIndex: i });
  return {
    schema: "armstudy.study/1",
    study: "default",
    description: "",
    studyFile: "arms/default.study.yaml",
    repo: { source: "fixture:fixtures/tasks/stockbook/repo", commit: "612ab6355846aaaabbbbccccddddeeeeffff0000" },
    handoff: { file: "fixtures/tasks/stockbook/handoff.md", sha256: "abc" },
    checks: [{ id: "B1", command: "check B1" }, { id: "B2", command: "check B2" }, { id: "B3", command: "check B3" }],
    seed: 1,
    runsPerArm,
    model: "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml",
    arms,
    limits: {},
    shard: null,
    planned,
    ...overrides,
  };
}

/** Three arms, three runs each, shaped like the default study: ordinary stops early and claims done. */
export function threeArms(): LoadedResults {
  const arms = [armMeta("old-build"), armMeta("ordinary"), armMeta("goal")];
  const results: RunResult[] = [];
  for (let i = 1; i <= 3; i += 1) {
    results.push(result("old-build", i, 3, { toolCalls: 30, toolCallsBeforeReplyEnd: 9, firstReportLine: "All 3 steps are done." }));
    results.push(result("ordinary", i, 1, { toolCalls: 9, toolCallsBeforeReplyEnd: 9, falseCompletion: true, firstReportLine: i === 2 ? "Done | with `code` and a pipe" : "Done: the handoff is complete." }));
    results.push(
      result("goal", i, 3, {
        toolCalls: 36,
        toolCallsBeforeReplyEnd: 10 + i,
        claimSource: "goal_complete",
        claimChecks: { count: 2, done: 1, continue: 1, acceptedUnchecked: 0, shieldRejected: 0, agreesWithAcceptance: true },
        firstReportLine: "All 3 steps are done; each check passes.",
      }),
    );
  }
  return { dir: "/r", meta: meta(arms, 3), results, missing: [] };
}
