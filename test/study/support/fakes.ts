/**
 * A small study world for runner tests: a real fixture folder (materialised as a real git repo by
 * the runner), real acceptance checks, and deps that fake only at the agent boundary — an agent that
 * edits the worktree and emits a run record, the way the scripted model would.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelClient } from "../../../src/core/model.ts";
import type { MetricsView } from "../../../src/render/results.ts";
import type { AgentRunner } from "../../../src/run/agent-contract.ts";
import type { RunEvent } from "../../../src/run/record.ts";
import type { StudyArm, StudyDeps } from "../../../src/study/runner.ts";
import { parseStudyFile, type StudySpec } from "../../../src/study/study-file.ts";

export function makeStudyWorld(root: string, overrides: Record<string, unknown> = {}): StudySpec {
  const fixture = join(root, "fixture");
  mkdirSync(join(fixture, "checks"), { recursive: true });
  writeFileSync(join(fixture, "README.md"), "# fixture\n");
  writeFileSync(join(fixture, "checks", "one.sh"), "test -f one.txt\n");
  writeFileSync(join(fixture, "checks", "two.sh"), "test -f two.txt\n");
  mkdirSync(join(root, "arms"), { recursive: true });
  writeFileSync(join(root, "handoff.md"), "1. Make one.txt.\n2. Make two.txt.\n");
  writeFileSync(
    join(root, "checks.yaml"),
    "checks:\n  - id: B1\n    command: sh checks/one.sh\n  - id: B2\n    command: sh checks/two.sh\n",
  );
  return parseStudyFile(
    {
      repo: { fixture: "../fixture" },
      handoff: "../handoff.md",
      checks: "../checks.yaml",
      arms: ["diligent", "lazy", "asker"],
      model: "fake:double",
      runs: 2,
      seed: 7,
      ...overrides,
    },
    join(root, "arms", "tiny.study.yaml"),
  );
}

const fakeModel = (spec: string): ModelClient => ({
  id: spec,
  isTestDouble: spec.startsWith("fake:"),
  complete: async () => ({ text: "", toolCalls: [], stop: "end_turn", usage: { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" } }),
});

function arm(name: string): StudyArm {
  return {
    name,
    dir: `/arms/${name}`,
    description: `the ${name} arm`,
    agent: "armstudy",
    prompt: {
      text: `prompt of ${name}`,
      stablePrefix: `prefix of ${name}`,
      prefixHash: `hash-${name}`,
      prefixTokens: 100 + name.length,
      sections: [
        { id: "identity", chars: 40, tokens: 10, stable: true },
        { id: "reporting", chars: 90 + name.length, tokens: 90 + name.length, stable: true },
      ],
    },
    policies: [{ name: name === "diligent" ? "goal" : "none" }],
  };
}

/** diligent makes both files; lazy makes one and claims done; asker makes one and asks. */
export const fakeAgent =
  (delayMs = 0): AgentRunner =>
  async (options) => {
    const clock = options.clock ?? (() => 0);
    const emit = (event: RunEvent): void | Promise<void> => options.onEvent(event);
    await emit({ t: clock(), type: "run.start", arm: options.arm.name, runIndex: options.runIndex, seed: options.seed, model: options.model.id, testDouble: true, prefixHash: "h", prefixTokens: 1, source: "armstudy" });
    const steps = options.arm.name === "diligent" ? ["one", "two"] : ["one"];
    for (const [i, step] of steps.entries()) {
      await emit({ t: clock(), type: "tool.call", id: `c${i}`, name: "write_file", arguments: { path: `${step}.txt` } });
      if (delayMs > 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, delayMs);
          options.signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("aborted"));
          });
        });
      }
      writeFileSync(join(options.dir, `${step}.txt`), `${step} of run ${options.runIndex}\n`);
      await emit({ t: clock(), type: "tool.result", id: `c${i}`, ok: true, output: "written" });
    }
    const text = options.arm.name === "asker" ? "Made one.txt. Should I go on with two.txt?" : "Done: every step is complete.";
    await emit({ t: clock(), type: "assistant.text", text, final: true });
    await emit({ t: clock(), type: "reply.end", reason: "no_tool_call" });
    await emit({ t: clock(), type: "run.end", status: "completed", wallMs: clock() });
    return { status: "completed", wallMs: clock() };
  };

/** A stand-in for the metrics module's output, computed from the same record (only what tests read). */
export function fakeMeasure(events: readonly RunEvent[], acceptance: { passed: number; failed: number }): MetricsView {
  const toolCalls = events.filter((e) => e.type === "tool.call").length;
  const final = events.find((e) => e.type === "assistant.text" && e.final);
  const text = final && final.type === "assistant.text" ? final.text : null;
  const claimed = text !== null && /complete/.test(text);
  const asks = text !== null && /\?$/.test(text);
  return {
    toolCalls,
    toolCallsBeforeReplyEnd: toolCalls,
    toolCallsPerReply: [toolCalls],
    claimedComplete: claimed,
    claimSource: claimed ? "report_first_line" : null,
    falseCompletion: claimed && acceptance.failed > 0,
    permissionStop: asks && acceptance.failed > 0,
    firstReportLine: text,
    claimChecks: { count: 0, done: 0, continue: 0, acceptedUnchecked: 0, shieldRejected: 0, agreesWithAcceptance: null },
    tokens: { prefix: 100, input: 1000 + toolCalls * 10, cachedInput: 0, output: 50 * toolCalls, reasoning: 0, total: 1100 + toolCalls * 60, source: "counted" },
    costUsd: null,
    repeatedIdenticalCalls: 0,
    readsPerDistinctFile: null,
    maxReadsOfOneFile: 0,
    compactions: 0,
    timeToFirstTextMs: null,
    toolCallsPerVisibleText: toolCalls,
    wallMs: 10,
    modelMs: 5,
    toolMs: 5,
  };
}

export function fakeDeps(options: { delayMs?: number } = {}): StudyDeps {
  return {
    loadArms: async (_dir, names) => names.map(arm),
    createModel: (spec) => fakeModel(spec),
    agentFor: () => fakeAgent(options.delayMs ?? 0),
    measure: (events, acceptance) => fakeMeasure(events, acceptance),
  };
}

/** A clock that ticks 1 ms per reading: deterministic timings, whatever the machine. */
export const tickingClock = (): (() => () => number) => () => {
  let now = 0;
  return () => (now += 1);
};
