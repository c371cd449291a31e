/**
 * The real pieces the study runner composes: the arm loader, the model factory, our agent loop or
 * a real client's driver, and the per-run metrics. The CLI builds these; tests may pass their own
 * at the same boundary (runner.ts `StudyDeps`).
 */
import { runMetrics } from "../measure/metrics.ts";
import { runAgent } from "../run/agent.ts";
import type { AgentRunner } from "../run/agent-contract.ts";
import { loadArms } from "../run/arms/load.ts";
import { type ClientName, clientBinary } from "../run/drivers/clients.ts";
import { createDriver } from "../run/drivers/driver.ts";
import { personaEndpoint } from "../run/drivers/endpoints.ts";
import { createModelClient } from "../run/models/spec.ts";
import { liveMapper } from "../sessions/live.ts";
import type { StudyArm, StudyDeps } from "./runner.ts";

export interface DefaultDepsOptions {
  /** The environment model keys are read from (the CLI passes its io.env). */
  env: Record<string, string | undefined>;
  /** Where `npm run agents:install` put the real clients is resolved against this; default process.cwd(). */
  cwd?: string;
}

function driverFor(client: ClientName, options: DefaultDepsOptions): AgentRunner {
  const env = options.env as NodeJS.ProcessEnv;
  const persona = personaEndpoint(client);
  return createDriver(client, {
    // Not installed: spawning the bare name fails fast, and the run records a harness error.
    bin: clientBinary(client, env, options.cwd ?? process.cwd()) ?? client,
    mapper: liveMapper,
    endpoint: async (run) => {
      if (!run.model.isTestDouble) {
        throw new Error(`arm ${run.arm.name} drives the ${client} client; pointing it at model ${run.model.id} is not supported by this build — use a scripted: model`);
      }
      return persona(run);
    },
    baseEnv: { PATH: env.PATH },
  });
}

function agentFor(arm: StudyArm, options: DefaultDepsOptions): AgentRunner {
  switch (arm.agent) {
    case "armstudy":
      return (run) => runAgent({ ...run, env: options.env as NodeJS.ProcessEnv });
    case "codex":
    case "claude":
    case "pi":
      return driverFor(arm.agent, options);
    default: {
      const unknown: never = arm.agent;
      throw new Error(`unknown agent kind ${String(unknown)} for arm ${arm.name}`);
    }
  }
}

export function defaultStudyDeps(options: DefaultDepsOptions): StudyDeps {
  return {
    loadArms: async (armsDir, names, cwd) => loadArms(armsDir, names, { cwd }),
    createModel: (spec, context) => createModelClient(spec, { env: options.env, cwd: context.cwd, seed: context.seed, runIndex: context.runIndex }),
    agentFor: (arm) => agentFor(arm, options),
    measure: (events, acceptance) => runMetrics(events, { acceptance }),
  };
}
