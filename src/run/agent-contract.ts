/**
 * What running one agent takes and returns, whether the agent is our own loop (agent.ts) or a
 * real client driven as a process (drivers/). The study runner calls either through this shape.
 */
import type { ModelClient } from "../core/model.ts";
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
  limits?: { maxRounds?: number; maxWallMs?: number };
  signal?: AbortSignal;
  /** A folder for the run's extra files beside its record (a driver's request log); none: keep none. */
  artifactsDir?: string;
  /** Where the agent's commands run (the shell tool, a real client); default the machine's sandbox, no network. */
  sandbox?: RunSandbox;
}

export interface AgentRunOutcome {
  /** The settled status recorded in `run.end`. */
  status: string;
  reason?: string;
  /** With status `error`: the named fault (`model.timeout`, …; ADR 0081). */
  cause?: string;
  wallMs: number;
}

export type AgentRunner = (options: AgentRunOptions) => Promise<AgentRunOutcome>;
