/**
 * What running one agent takes and returns, whether the agent is our own loop (agent.ts) or a
 * real client driven as a process (drivers/). The study runner calls either through this shape.
 */
import type { ModelClient, Usage } from "../core/model.ts";
import type { RunEvent } from "./record.ts";
import type { LoadedArm } from "./arms/types.ts";
import type { RunSandbox } from "./sandbox/types.ts";

export interface AgentRunOptions {
  arm: LoadedArm;
  /** For our own loop: the model. For drivers: the model spec the client is pointed at. */
  model: ModelClient;
  /** The work directory (a fresh worktree); tools are confined to it. */
  dir: string;
  handoff: string;
  runIndex: number;
  seed: number;
  /** Receives every run-record event in order; the caller writes them (JSONL) or keeps them. */
  onEvent: (event: RunEvent) => void | Promise<void>;
  /** Injected clock in milliseconds; defaults to performance.now-based time at the caller. */
  clock?: () => number;
  /** Hard caps so no run can hang a study. */
  limits?: RunLimits;
  /**
   * USD for one request's usage on a model, null when the model has no price. Injected (the price
   * table lives in measure/, above run/); needed only with `limits.maxCostUsd`.
   */
  pricer?: RequestPricer;
  signal?: AbortSignal;
  /** Context windows the study declares, by model id; they win over the built-in table (ADR 0103). */
  contextWindows?: Readonly<Record<string, number>>;
  /** While a tool runs, a `heartbeat` event every this many ms (real time); default 10 s (ADR 0101). */
  heartbeatMs?: number;
  /** A folder for the run's extra files beside its record (a driver's request log); none: keep none. */
  artifactsDir?: string;
  /** Where the agent's commands run (the shell tool, a real client); default the machine's sandbox, no network. */
  sandbox?: RunSandbox;
}

/** The run's hard caps: model requests, wall time, tokens (all requests), cost in USD. */
export interface RunLimits {
  maxRounds?: number;
  maxWallMs?: number;
  maxTokens?: number;
  maxCostUsd?: number;
}

export type RequestPricer = (model: string, usage: Usage) => number | null;

export interface AgentRunOutcome {
  /** The settled status recorded in `run.end`. */
  status: string;
  reason?: string;
  /** With status `error`: the named fault (`model.timeout`, …; ADR 0081). */
  cause?: string;
  wallMs: number;
}

export type AgentRunner = (options: AgentRunOptions) => Promise<AgentRunOutcome>;
