/**
 * The real pieces the study runner composes: the arm loader, the model factory, our agent loop or
 * a real client's driver, and the per-run metrics. The CLI builds these; tests may pass their own
 * at the same boundary (runner.ts `StudyDeps`).
 */
import { join } from "node:path";
import { runMetrics, runReportFacts } from "../measure/metrics.ts";
import { turnMessages } from "../measure/turns.ts";
import { runAgent } from "../run/agent.ts";
import type { AgentRunner } from "../run/agent-contract.ts";
import { loadArms } from "../run/arms/load.ts";
import { type ClientName, agentsDir, clientBinary } from "../run/drivers/clients.ts";
import { createDriver } from "../run/drivers/driver.ts";
import { PERSONA_USAGE_SOURCE, createDriverModel, driverEndpoint, personaServed } from "../run/drivers/endpoints.ts";
import { type NetworkMode, probeNetwork } from "../run/drivers/netns.ts";
import { createModelClient } from "../run/models/spec.ts";
import { createToolbox } from "../run/tools/index.ts";
import { importSessionFile, isSessionFormat } from "../sessions/import.ts";
import { liveMapper } from "../sessions/live.ts";
import type { StudyArm, StudyDeps } from "./runner.ts";

export interface DefaultDepsOptions {
  /** The environment model keys are read from (the CLI passes its io.env). */
  env: Record<string, string | undefined>;
  /** Where `npm run agents:install` put the real clients is resolved against this; default process.cwd(). */
  cwd?: string;
}

function driverFor(client: ClientName, options: DefaultDepsOptions, network: () => NetworkMode): AgentRunner {
  const env = options.env as NodeJS.ProcessEnv;
  return createDriver(client, {
    // Not installed: spawning the bare name fails fast, and the run ends as `error` (harness.client).
    bin: clientBinary(client, env, options.cwd ?? process.cwd()) ?? client,
    mapper: liveMapper,
    // The persona plays with our tools (renamed to the client's by the server); a provider spec goes to the provider.
    endpoint: driverEndpoint(client, { env: options.env, tools: createToolbox().specs(), network: network() }),
    importSession: async (path, format) => {
      if (!isSessionFormat(format)) throw new Error(`unknown session format ${format}`);
      return (await importSessionFile(path, { format })).events;
    },
    baseEnv: { PATH: env.PATH },
    // Inside the sandbox the client reads its own install folder and nothing else of the project.
    readable: [join(agentsDir(env, options.cwd ?? process.cwd()), client)],
  });
}

function agentFor(arm: StudyArm, options: DefaultDepsOptions, network: () => NetworkMode): AgentRunner {
  switch (arm.agent) {
    case "armstudy":
      return (run) => runAgent({ ...run, env: options.env as NodeJS.ProcessEnv });
    case "codex":
    case "claude":
    case "pi":
      return driverFor(arm.agent, options, network);
    default: {
      const unknown: never = arm.agent;
      throw new Error(`unknown agent kind ${String(unknown)} for arm ${arm.name}`);
    }
  }
}

export function defaultStudyDeps(options: DefaultDepsOptions): StudyDeps {
  // Whether driven clients can run in a loopback-only namespace: probed once, when first needed.
  let network: NetworkMode | null = null;
  const networkMode = (): NetworkMode => (network ??= probeNetwork({ env: options.env }));
  return {
    loadArms: async (armsDir, names, cwd) => loadArms(armsDir, names, { cwd }),
    createModel: (spec, context) => {
      const settings = { env: options.env, cwd: context.cwd, seed: context.seed, runIndex: context.runIndex, ...(context.origin ? { origin: context.origin } : {}) };
      const requests = context.requests;
      const http = requests
        ? {
            connectTimeoutMs: requests.connectTimeoutMs,
            idleTimeoutMs: requests.idleTimeoutMs,
            retry: { maxRetries: requests.maxRetries, baseDelayMs: requests.retryDelayMs },
          }
        : {};
      const onRetry = context.onRetry ? { onRetry: context.onRetry } : {};
      return context.agent === undefined || context.agent === "armstudy"
        ? createModelClient(spec, { ...settings, ...http, ...onRetry })
        : createDriverModel(context.agent, spec, {
            ...settings,
            ...(requests ? { requests: { connectTimeoutMs: requests.connectTimeoutMs, idleTimeoutMs: requests.idleTimeoutMs, maxRetries: requests.maxRetries } } : {}),
          });
    },
    agentFor: (arm) => agentFor(arm, options, networkMode),
    measure: (events, acceptance, context) => {
      // The checks' ids are the handoff's step ids, so a report naming only some steps done claims none.
      const steps = acceptance.checks.map((check) => check.id);
      const metrics = { ...runMetrics(events, { acceptance, steps }), report: runReportFacts(events, { acceptance, steps }), turnMessages: turnMessages(events) };
      if (context === undefined || !personaServed(context.arm.agent, context.model)) return metrics;
      // The persona server counted these tokens; no model was billed, so no cost either.
      return { ...metrics, tokens: { ...metrics.tokens, source: PERSONA_USAGE_SOURCE }, costUsd: null };
    },
  };
}
