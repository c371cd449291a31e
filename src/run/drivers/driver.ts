/**
 * Runs a real agent client as one study run: its temp home written, the handoff as its prompt,
 * the work directory as cwd, stdin closed, the whole process group killed on timeout or abort;
 * its stdout event stream mapped to run-record events as the lines arrive.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentRunner, AgentRunOptions, AgentRunOutcome } from "../agent-contract.ts";
import { runClientProcess } from "./client-process.ts";
import type { ClientName } from "./clients.ts";
import type { StreamMapperFactory } from "./contract.ts";
import { CLIENT_LAUNCH } from "./offline-setup.ts";

/** Where a client's model requests go: a persona server, a cassette proxy or a real endpoint. */
export interface Endpoint {
  baseUrl: string;
  /** The model id the client asks for. */
  model: string;
  apiKey: string;
  close(): Promise<void>;
}

export interface DriverConfig {
  /** The client's executable (`clientBinary(...)`, or a name on PATH). */
  bin: string;
  /** Maps the client's event stream (src/sessions/live.ts `liveMapper`). */
  mapper: StreamMapperFactory;
  /** Opens the endpoint this run's client talks to. */
  endpoint: (run: AgentRunOptions) => Promise<Endpoint>;
  /** Default 30 minutes; `limits.maxWallMs` of a run wins when smaller. */
  timeoutMs?: number;
  /** Variables the client inherits (API keys are always dropped); default PATH only. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Where temp homes go; default the system temp dir. */
  tempRoot?: string;
}

/** Which event stream each client prints, as the importers name the formats. */
export const STREAM_FORMAT: Record<ClientName, string> = { codex: "codex-exec", claude: "claude-stream", pi: "pi-json" };

export function createDriver(client: ClientName, config: DriverConfig): AgentRunner {
  return async (run: AgentRunOptions): Promise<AgentRunOutcome> => {
    const clock = run.clock ?? (() => performance.now());
    const started = clock();
    const home = await mkdtemp(join(config.tempRoot ?? tmpdir(), `armstudy-${client}-home-`));
    let endpoint: Endpoint | null = null;
    const mapper = config.mapper(STREAM_FORMAT[client], {
      start: {
        arm: run.arm.name,
        runIndex: run.runIndex,
        seed: run.seed,
        model: run.model.id,
        testDouble: run.model.isTestDouble,
        prefixHash: run.arm.prompt?.prefixHash ?? "",
        prefixTokens: run.arm.prompt?.prefixTokens ?? 0,
        cwd: run.dir,
      },
      clock,
      handoff: run.handoff,
    });
    // Lines arrive synchronously; mapping may wait (linked files), so it runs as one ordered chain.
    let chain: Promise<void> = Promise.resolve();
    let failure: unknown = null;
    const flush = async (): Promise<void> => {
      for (const event of mapper.drain()) await run.onEvent(event);
    };
    const timeoutMs = Math.min(config.timeoutMs ?? 30 * 60_000, run.limits?.maxWallMs ?? Number.POSITIVE_INFINITY);
    try {
      await flush();
      try {
        endpoint = await config.endpoint(run);
      } catch (error) {
        // No endpoint, no run: the record still closes, with the reason.
        const reason = `could not open the model endpoint for ${client}: ${error instanceof Error ? error.message : String(error)}`;
        await mapper.finish({ status: "error", reason });
        await flush();
        return { status: "error", reason, wallMs: clock() - started };
      }
      const launch = CLIENT_LAUNCH[client]({ baseUrl: endpoint.baseUrl, home, prompt: run.handoff, model: endpoint.model, apiKey: endpoint.apiKey });
      const result = await runClientProcess({
        bin: config.bin,
        launch,
        cwd: run.dir,
        timeoutMs,
        baseEnv: config.baseEnv ?? { PATH: process.env.PATH },
        now: clock,
        ...(run.signal !== undefined ? { signal: run.signal } : {}),
        onLine: (text) => {
          chain = chain.then(async () => {
            if (failure !== null) return;
            try {
              await mapper.line(text);
              await flush();
            } catch (error) {
              failure = error;
            }
          });
        },
      });
      await chain;
      if (failure !== null) throw failure;
      const outcome: AgentRunOutcome = result.timedOut
        ? { status: "timeout", reason: `${client} ran past ${timeoutMs} ms; its process group was killed`, wallMs: result.wallMs }
        : run.signal?.aborted
          ? { status: "aborted", reason: "the run was aborted; the client's process group was killed", wallMs: result.wallMs }
          : result.exitCode === 0
            ? { status: "completed", wallMs: result.wallMs }
            : result.exitCode === null && result.signal === null
              ? { status: "error", reason: `${client} could not be started from ${config.bin} (not installed? \`npm run agents:install\`)`, wallMs: result.wallMs }
              : { status: "error", reason: `${client} exited with ${result.exitCode ?? result.signal}: ${result.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 500)}`, wallMs: result.wallMs };
      await mapper.finish(outcome.reason !== undefined ? { status: outcome.status, reason: outcome.reason } : { status: outcome.status });
      await flush();
      return outcome;
    } finally {
      await endpoint?.close();
      await rm(home, { recursive: true, force: true });
    }
  };
}
