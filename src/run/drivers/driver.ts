/**
 * Runs a real agent client as one study run: its temp home written, the handoff as its prompt,
 * the work directory as cwd, stdin closed, the whole process group killed on timeout or abort;
 * its stdout event stream mapped to run-record events as the lines arrive.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentRunner, AgentRunOptions, AgentRunOutcome } from "../agent-contract.ts";
import { type ClientProcessResult, runClientProcess } from "./client-process.ts";
import type { ClientName } from "./clients.ts";
import type { StreamMapperFactory } from "./contract.ts";
import { CLIENT_LAUNCH } from "./offline-setup.ts";
import { type CheckNote, type SessionImporter, sessionCheck } from "./session-check.ts";
import type { RunEvent } from "../record.ts";
import { describeSandbox, type SandboxNetwork } from "../sandbox/types.ts";
import { HARD_CAP } from "../agent.ts";
import { type ClientCapHit, ClientCaps } from "./client-caps.ts";
import type { ProviderFault } from "./provider-forward.ts";

/** Where a client's model requests go: a persona server, a cassette proxy or a real endpoint. */
export interface Endpoint {
  baseUrl: string;
  /** The model id the client asks for. */
  model: string;
  apiKey: string;
  close(): Promise<void>;
  /** How the client must be started to reach `baseUrl` (a private network namespace); default as is. */
  wrap?: (command: { bin: string; args: string[] }) => { bin: string; args: string[] };
  /** In a sandbox: which network, how to start the client (behind the bridge), and what else to bind. */
  sandboxed?: {
    network: SandboxNetwork;
    wrap?: (command: { bin: string; args: string[] }) => { bin: string; args: string[] };
    readable: string[];
    writable: string[];
  };
  /** Facts about the endpoint the record keeps (which network the client ran on), as `note` events. */
  notes?: CheckNote[];
  /** A real provider behind armstudy's forwarder: what it saw of the provider's faults (ADR 0129). */
  provider?: {
    lastFault(): ProviderFault | null;
    watch(listener: (fault: ProviderFault) => void): void;
    /** This many failed model requests in a row end the run as `error`. */
    giveUpAfter: number;
  };
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
  /** Imports the client's own session file to cross-check the event stream (session-check.ts); none: no check. */
  importSession?: SessionImporter;
  /** Folders the client needs to read inside the sandbox (its install folder). */
  readable?: string[];
}

/** Which event stream each client prints, as the importers name the formats. */
export const STREAM_FORMAT: Record<ClientName, string> = { codex: "codex-exec", claude: "claude-stream", pi: "pi-json" };

/** How the client's process ended, as the run's outcome. */
function processOutcome(client: ClientName, bin: string, timeoutMs: number, result: ClientProcessResult, aborted: boolean): AgentRunOutcome {
  const wallMs = result.wallMs;
  if (result.timedOut) return { status: "timeout", reason: `${client} ran past ${timeoutMs} ms; its process group was killed`, wallMs };
  if (aborted) return { status: "aborted", reason: "the run was aborted; the client's process group was killed", wallMs };
  if (result.exitCode === 0) return { status: "completed", wallMs };
  if (result.exitCode === null && result.signal === null) return { status: "error", reason: `${client} could not be started from ${bin} (not installed? \`npm run agents:install\`)`, wallMs };
  return { status: "error", reason: `${client} exited with ${result.exitCode ?? result.signal}: ${result.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 500)}`, wallMs };
}

/** Why a run ended on a provider fault, in words for the record and the report. */
function providerFaultReason(client: ClientName, fault: ProviderFault, stopped: boolean): string {
  const count = fault.inARow === 1 ? "its last model request failed" : `its last ${fault.inARow} model requests failed`;
  return `the provider failed (${fault.cause}): ${count}; the latest: ${fault.message}${stopped ? `; armstudy stopped ${client}` : ""}`;
}

export function createDriver(client: ClientName, config: DriverConfig): AgentRunner {
  return async (run: AgentRunOptions): Promise<AgentRunOutcome> => {
    // Token and cost caps are watched on the client's own usage reports; a cap that cannot apply throws first.
    const caps = new ClientCaps(run.limits, run.pricer);
    const capStop = new AbortController();
    let capHit: ClientCapHit | null = null;
    // Caps apply while the client's output is being read; what its end adds changes no outcome.
    let watching = true;
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
    const seen: RunEvent[] = [];
    const boxed = run.sandbox?.sandbox.kind === "bwrap" ? run.sandbox : undefined;
    let network: SandboxNetwork = "none";
    const emit = async (given: RunEvent): Promise<void> => {
      // The record says which sandbox the client had (the stream mapper knows nothing of it).
      const event: RunEvent =
        given.type === "run.start" && run.sandbox !== undefined
          ? { ...given, sandbox: { ...describeSandbox(run.sandbox), ...(boxed !== undefined ? { network } : {}) } }
          : given;
      seen.push(event);
      await run.onEvent(event);
      const hit = watching ? caps.see(event, run.model.id) : null;
      if (hit !== null) {
        capHit = hit;
        const decision: RunEvent = { t: event.t, type: "policy.decision", policy: HARD_CAP, decision: "settle", reason: hit.reason, status: hit.status };
        seen.push(decision);
        await run.onEvent(decision);
        capStop.abort(new Error(hit.reason));
      }
    };
    const flush = async (): Promise<void> => {
      for (const event of mapper.drain()) await emit(event);
    };
    const timeoutMs = Math.min(config.timeoutMs ?? 30 * 60_000, run.limits?.maxWallMs ?? Number.POSITIVE_INFINITY);
    try {
      try {
        endpoint = await config.endpoint(run);
        network = endpoint.sandboxed?.network ?? "none";
      } catch (error) {
        // No endpoint, no run: the record still closes, with the reason.
        const reason = `could not open the model endpoint for ${client}: ${error instanceof Error ? error.message : String(error)}`;
        await flush();
        await mapper.finish({ status: "error", reason });
        await flush();
        return { status: "error", reason, wallMs: clock() - started };
      }
      await flush();
      // Failed provider requests are counted (the client's own stream reports its retries, where it
      // does, so they are not recorded twice); too many in a row stop the client.
      const gaveUp = new AbortController();
      let fatal: ProviderFault | null = null;
      const faults = new Map<string, number>();
      const provider = endpoint.provider;
      provider?.watch((fault) => {
        faults.set(fault.cause, (faults.get(fault.cause) ?? 0) + 1);
        if (fault.inARow >= provider.giveUpAfter && fatal === null) {
          fatal = fault;
          gaveUp.abort();
        }
      });
      const signal = AbortSignal.any([...(run.signal !== undefined ? [run.signal] : []), gaveUp.signal, capStop.signal]);
      const launch = CLIENT_LAUNCH[client]({ baseUrl: endpoint.baseUrl, home, prompt: run.handoff, model: endpoint.model, apiKey: endpoint.apiKey });
      const plain = { bin: config.bin, args: launch.args };
      const command = boxed !== undefined ? (endpoint.sandboxed?.wrap?.(plain) ?? plain) : (endpoint.wrap?.(plain) ?? plain);
      const result = await runClientProcess({
        bin: command.bin,
        launch: { ...launch, args: command.args },
        cwd: run.dir,
        timeoutMs,
        baseEnv: config.baseEnv ?? { PATH: process.env.PATH },
        now: clock,
        ...(boxed !== undefined
          ? {
              sandbox: {
                run: boxed,
                network,
                readable: [...(config.readable ?? []), ...(endpoint.sandboxed?.readable ?? [])],
                writable: endpoint.sandboxed?.writable ?? [],
                home,
              },
            }
          : {}),
        signal,
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
      watching = false;
      if (failure !== null) throw failure;
      // The provider failed on the last model request (or too often): a fault, whatever the client made of it.
      const fault = run.signal?.aborted ? null : (fatal ?? provider?.lastFault() ?? null);
      const cap = capHit as ClientCapHit | null;
      const outcome: AgentRunOutcome =
        cap !== null
          ? { status: cap.status, reason: `${cap.reason}; the client's process group was killed`, wallMs: result.wallMs }
          : fault !== null
            ? { status: "error", cause: fault.cause, reason: providerFaultReason(client, fault, fatal !== null), wallMs: result.wallMs }
            : processOutcome(client, config.bin, timeoutMs, result, run.signal?.aborted === true);
      await mapper.finish(outcome.reason !== undefined ? { status: outcome.status, reason: outcome.reason } : { status: outcome.status });
      // The endpoint's notes and the session-file cross-check go in just before run.end.
      const tail = mapper.drain();
      const end = tail.at(-1)?.type === "run.end" ? tail.pop() : undefined;
      for (const event of tail) await emit(event);
      const notes = [...(endpoint.notes ?? [])];
      if (faults.size > 0) notes.push({ level: "warning", text: `provider: ${[...faults].map(([cause, count]) => `${count} × ${cause}`).join(", ")} among the model requests armstudy's forwarder saw` });
      if (config.importSession !== undefined) notes.push(await sessionCheck({ client, sessionDir: launch.sessionDir, events: seen, importSession: config.importSession }));
      for (const note of notes) await emit({ t: end?.t ?? clock(), type: "note", level: note.level, text: note.text });
      if (end !== undefined) await emit(end);
      return outcome;
    } finally {
      await endpoint?.close();
      await rm(home, { recursive: true, force: true });
    }
  };
}
