/**
 * The real pieces the study runner composes: the arm loader, the model factory, our agent loop or
 * a real client's driver, and the per-run metrics. The CLI builds these; tests may pass their own
 * at the same boundary (runner.ts `StudyDeps`).
 */
import { runMetrics } from "../measure/metrics.ts";
import { runAgent } from "../run/agent.ts";
import type { AgentRunner } from "../run/agent-contract.ts";
import { loadArms } from "../run/arms/load.ts";
import { createModelClient } from "../run/models/spec.ts";
import type { StudyArm, StudyDeps } from "./runner.ts";

export interface DefaultDepsOptions {
  /** The environment model keys are read from (the CLI passes its io.env). */
  env: Record<string, string | undefined>;
}

function agentFor(arm: StudyArm, env: Record<string, string | undefined>): AgentRunner {
  if (arm.agent === "armstudy") return (options) => runAgent({ ...options, env: env as NodeJS.ProcessEnv });
  return async () => {
    throw new Error(`arm ${arm.name} runs the ${arm.agent} client, and no driver for it is installed in this build`);
  };
}

export function defaultStudyDeps(options: DefaultDepsOptions): StudyDeps {
  return {
    loadArms: async (armsDir, names, cwd) => loadArms(armsDir, names, { cwd }),
    createModel: (spec, context) => createModelClient(spec, { env: options.env, cwd: context.cwd, seed: context.seed, runIndex: context.runIndex }),
    agentFor: (arm) => agentFor(arm, options.env),
    measure: (events, acceptance) => runMetrics(events, { acceptance }),
  };
}
