/**
 * Endpoints a driven client can talk to.
 *
 * - `personaEndpoint` serves the run's own ModelClient (normally the scripted test double) over the
 *   client's wire protocol on 127.0.0.1, one server per run, so a real Codex, Claude Code or pi
 *   binary plays the handoff offline. The persona is offered our tool specs (it plays through the
 *   client's tools, renamed by the server); every request is logged (keys redacted) into the run's
 *   folder as `requests.jsonl`; the usage each reply reports is the persona server's o200k count of
 *   what the client sent. With a loopback-only network namespace available, the client runs inside
 *   one and reaches the server through a Unix-socket bridge (netns.ts).
 * - `providerEndpoint` points the client at a real provider named by a model spec, through
 *   armstudy's forwarder on 127.0.0.1 (provider-forward.ts): the client's own prompt and tools go to
 *   the real model, its usage is the provider's, and a provider that fails is a named fault.
 * - `driverEndpoint` picks between them by the run's model (a `ProviderModel` goes to the provider).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ModelClient, ModelReply, ModelRequest, ToolSpec } from "../../core/model.ts";
import type { AgentRunOptions } from "../agent-contract.ts";
import { processRequestCounter } from "../agent-tokens.ts";
import { CLIENT_PROFILES } from "../models/server/client-profiles.ts";
import { startPersonaServer } from "../models/server/persona-server.ts";
import { DEFAULT_RETRY, PROVIDER_COMPAT } from "../models/openai-compatible.ts";
import { ModelSpecError, createModelClient, parseModelSpec } from "../models/spec.ts";
import type { ClientName } from "./clients.ts";
import { type SpecOrigin, keyHostProblem, urlKeyProblem } from "../secrets/key-host.ts";
import { secretsFromEnv } from "../secrets/redact.ts";
import type { Endpoint } from "./driver.ts";
import { type NetworkMode, openLoopbackBridge } from "./netns.ts";
import { startProviderForward } from "./provider-forward.ts";
import type { CheckNote } from "./session-check.ts";

/** The file the persona server's request log is written to, beside the run's record. */
export const REQUEST_LOG_FILE = "requests.jsonl";

/** The usage source the study labels a persona-served run's tokens with (docs/metrics.md). */
export const PERSONA_USAGE_SOURCE = "persona-server";

export interface PersonaEndpointOptions {
  /** The tools offered to the persona, in our vocabulary (default none: it plays without todo or goal tools). */
  tools?: ToolSpec[];
  /**
   * Where the client runs: `namespace` starts it in a private loopback-only network namespace behind
   * a bridge; `host` runs it on the host network and notes why. Unset: host, and no note.
   */
  network?: NetworkMode;
  /** Report the persona server's o200k count of each client request as the reply's usage (default true). */
  countClientRequests?: boolean;
  /** Where the bridge's Unix socket folder goes; default the system temp dir. */
  tempRoot?: string;
}

/**
 * Wraps the persona so the usage it reports to the client is our o200k count of the request the
 * client actually sent (its own system prompt, tools and history) and of the reply, instead of
 * the persona's count of its own, translated conversation. The wire hands the client's request
 * over just before the server asks the persona (same tick), so `last` always belongs to this call.
 */
function countingPersona(persona: ModelClient, last: () => ModelRequest | null): ModelClient {
  const counter = processRequestCounter();
  return {
    id: persona.id,
    isTestDouble: persona.isTestDouble,
    async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
      const sent = last();
      const reply = await persona.complete(request, signal);
      if (sent === null) return reply;
      return { ...reply, usage: { input: counter.request(sent), cachedInput: 0, output: counter.reply(reply), reasoning: 0, source: "counted" } };
    },
  };
}

export function personaEndpoint(client: ClientName, toolsOrOptions: ToolSpec[] | PersonaEndpointOptions = {}): (run: AgentRunOptions) => Promise<Endpoint> {
  const options: PersonaEndpointOptions = Array.isArray(toolsOrOptions) ? { tools: toolsOrOptions } : toolsOrOptions;
  return async (run) => {
    const base = CLIENT_PROFILES[client];
    let lastClientRequest: ModelRequest | null = null;
    const profile =
      options.countClientRequests === false
        ? base
        : {
            ...base,
            wire: {
              ...base.wire,
              toModelRequest: (body: Record<string, unknown>) => {
                lastClientRequest = base.wire.toModelRequest(body);
                return lastClientRequest;
              },
            },
          };
    const persona = options.countClientRequests === false ? run.model : countingPersona(run.model, () => lastClientRequest);
    const server = await startPersonaServer({ profile, persona, workDir: run.dir, tools: options.tools ?? [] });
    const notes: CheckNote[] = [
      {
        level: "info",
        text: `model endpoint: the persona server on 127.0.0.1 played ${run.model.id} over ${client}'s own wire protocol; the usage in this record is its o200k count of each request the client sent, not a model's`,
      },
    ];
    let bridge: Awaited<ReturnType<typeof openLoopbackBridge>> | null = null;
    const boxed = run.sandbox?.sandbox.kind === "bwrap";
    try {
      if (boxed) {
        // The sandbox has a private network with its own loopback: the bridge runs inside it.
        bridge = await openLoopbackBridge(Number(new URL(server.url).port), options.tempRoot);
        notes.push({ level: "info", text: "network: the client ran in the bubblewrap sandbox with a private network (loopback only); it reached the persona server through a Unix-socket bridge" });
      } else if (options.network?.kind === "namespace") {
        bridge = await openLoopbackBridge(Number(new URL(server.url).port), options.tempRoot);
        notes.push({ level: "info", text: "network: the client ran in a private network namespace with loopback only (unshare -n); it reached the persona server through a Unix-socket bridge" });
      } else if (options.network?.kind === "host") {
        notes.push({ level: "info", text: `network: the client ran on the host network, not in a loopback-only namespace, because ${options.network.reason}` });
      }
    } catch (error) {
      await server.close();
      throw error;
    }
    const opened = bridge;
    return {
      baseUrl: opened?.baseUrl ?? server.url,
      model: "persona",
      // The key is a placeholder the persona server never checks; real keys never reach a client here.
      apiKey: "armstudy-persona",
      notes,
      ...(opened !== null && !boxed ? { wrap: opened.wrap } : {}),
      ...(opened !== null && boxed ? { sandboxed: { network: "none" as const, wrap: opened.inside, readable: [opened.bridgeDir], writable: [opened.socketDir] } } : {}),
      close: async () => {
        await opened?.close();
        await server.close();
        if (run.artifactsDir !== undefined) {
          await writeFile(join(run.artifactsDir, REQUEST_LOG_FILE), server.requests.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
        }
      },
    };
  };
}

/** Which API family a provider speaks, and so which clients can use it. */
export type ProviderFamily = "openai" | "anthropic";

/** The API family each client's wire protocol belongs to (codex: Responses, pi: Chat Completions, claude: Messages). */
export const CLIENT_FAMILY: Record<ClientName, ProviderFamily> = { codex: "openai", claude: "anthropic", pi: "openai" };

/** A real provider a client talks to directly. */
export interface ProviderTarget {
  family: ProviderFamily;
  /** The spec's kind and model, as reports name it (no URL, no key). */
  id: string;
  model: string;
  /** Without the trailing `/v1`: the launch data adds it (offline-setup.ts). */
  baseUrl: string;
  /** The variable holding the key; null when the provider takes none (ollama). */
  keyEnv: string | null;
  /** True when a run cannot start without the key. */
  keyRequired: boolean;
}

const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function withoutV1(spec: string, baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  if (!trimmed.endsWith("/v1")) {
    throw new ModelSpecError("MODEL_SPEC", `model spec "${spec}": a driven client adds /v1 to its base URL itself, so the base URL must end in /v1 (got ${baseUrl})`);
  }
  return trimmed.slice(0, -"/v1".length);
}

/**
 * The provider a spec names for a driven client, or null when the spec is not a provider (a
 * `scripted:`, `replay:` or `record:` spec: those are served by the persona server). Besides every
 * HTTP form of src/run/models/spec.ts, drivers accept `anthropic:MODEL[@BASE_URL][#KEY_ENV]` (key
 * from ANTHROPIC_API_KEY by default), which only the claude client can use.
 */
export function parseProviderSpec(spec: string): ProviderTarget | null {
  if (spec.startsWith("anthropic:")) {
    let rest = spec.slice("anthropic:".length);
    let keyEnv = "ANTHROPIC_API_KEY";
    const hash = rest.lastIndexOf("#");
    if (hash !== -1) {
      keyEnv = rest.slice(hash + 1);
      if (!ENV_NAME.test(keyEnv)) throw new ModelSpecError("MODEL_SPEC", `model spec "${spec}": "#${keyEnv}" is not an environment variable name (letters, digits, _)`);
      rest = rest.slice(0, hash);
    }
    const at = rest.indexOf("@http");
    const model = at === -1 ? rest : rest.slice(0, at);
    if (model.length === 0) throw new ModelSpecError("MODEL_SPEC", `model spec "${spec}": the model name is empty. Form: anthropic:MODEL[@BASE_URL][#KEY_ENV]`);
    let baseUrl = ANTHROPIC_BASE_URL;
    if (at !== -1) {
      const raw = rest.slice(at + 1);
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ModelSpecError("MODEL_SPEC", `model spec "${spec}": base URL "${raw}" is not a URL`);
      }
      if (url.username || url.password) throw new ModelSpecError("MODEL_SPEC", `model spec "${spec}": the base URL carries credentials; put the key in an environment variable and name it with #ENV`);
      // Claude Code adds /v1/messages to ANTHROPIC_BASE_URL itself.
      baseUrl = raw.replace(/\/+$/, "").replace(/\/v1$/, "");
    }
    return { family: "anthropic", id: `anthropic:${model}`, model, baseUrl, keyEnv, keyRequired: true };
  }
  const parsed = parseModelSpec(spec);
  switch (parsed.kind) {
    case "openai":
    case "openai-compatible":
    case "ollama": {
      const compat = PROVIDER_COMPAT[parsed.kind];
      return {
        family: "openai",
        id: `${parsed.kind}:${parsed.model}`,
        model: parsed.model,
        baseUrl: withoutV1(spec, parsed.baseUrl),
        keyEnv: parsed.keyEnv ?? compat.defaultKeyEnv ?? null,
        keyRequired: compat.keyRequired || parsed.keyEnv !== undefined,
      };
    }
    case "scripted":
    case "replay":
    case "record":
      return null;
    default: {
      const unknown: never = parsed;
      throw new Error(`unhandled model spec ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * The run's model when the client talks to a real provider itself: it carries the provider and
 * is never asked for a reply (the client asks the provider directly), so `complete` only explains.
 */
/** The study's request settings a provider run's forwarder applies (ADR 0082, 0129). */
export interface ProviderRequests {
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** The client's run ends as `error` after 1 + maxRetries model requests in a row have failed. */
  maxRetries?: number;
}

export class ProviderModel implements ModelClient {
  readonly isTestDouble = false;
  readonly id: string;

  constructor(
    readonly provider: ProviderTarget,
    readonly requests: ProviderRequests = {},
  ) {
    this.id = provider.id;
  }

  async complete(): Promise<ModelReply> {
    return {
      text: "",
      toolCalls: [],
      stop: "error",
      usage: { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" },
      errorMessage: `${this.id} is reached by the driven client itself; armstudy's own loop cannot call it through this model`,
    };
  }
}

export interface DriverModelOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  seed?: number;
  runIndex?: number;
  /** Where the spec came from; a key goes to another host only from the command line (ADR 0083). */
  origin?: SpecOrigin;
  /** The study's request timeouts and retries, for a provider run's forwarder. */
  requests?: ProviderRequests;
}

/** The provider's own base URL for a provider spec (its key may always go there). */
function ownBaseUrl(spec: string): string | undefined {
  if (spec.startsWith("anthropic:")) return ANTHROPIC_BASE_URL;
  const parsed = parseModelSpec(spec);
  return parsed.kind === "openai" || parsed.kind === "openai-compatible" || parsed.kind === "ollama" ? PROVIDER_COMPAT[parsed.kind].defaultBaseUrl : undefined;
}

/**
 * The model of a run of a driven client: a provider spec becomes a ProviderModel (its key checked
 * now, so a study fails before any run starts), anything else the ModelClient the spec names,
 * which the persona server will serve. A provider the client cannot speak to is a ModelSpecError.
 */
export async function createDriverModel(client: ClientName, spec: string, options: DriverModelOptions): Promise<ModelClient> {
  const provider = parseProviderSpec(spec);
  if (provider === null) {
    return createModelClient(spec, {
      env: options.env,
      cwd: options.cwd,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.runIndex !== undefined ? { runIndex: options.runIndex } : {}),
      ...(options.origin !== undefined ? { origin: options.origin } : {}),
    });
  }
  const wanted = CLIENT_FAMILY[client];
  if (provider.family !== wanted) {
    const hint = wanted === "anthropic" ? "anthropic:MODEL[@BASE_URL][#KEY_ENV]" : "openai:MODEL or openai-compatible:MODEL@BASE_URL[#KEY_ENV]";
    throw new ModelSpecError("MODEL_SPEC", `model spec "${spec}": the ${client} client speaks the ${wanted === "anthropic" ? "Anthropic Messages" : "OpenAI"} API, so it needs ${hint} (or a scripted: persona)`);
  }
  if (provider.keyRequired && provider.keyEnv !== null && (options.env[provider.keyEnv] ?? "").length === 0) {
    throw new ModelSpecError("MODEL_KEY_MISSING", `model spec "${spec}" needs an API key in the environment variable ${provider.keyEnv}; set it and run again`);
  }
  if (provider.keyEnv !== null && (options.env[provider.keyEnv] ?? "").length > 0) {
    const inUrl = urlKeyProblem(provider.baseUrl, secretsFromEnv(options.env).map((secret) => secret.value));
    if (inUrl !== null) throw new ModelSpecError("MODEL_SPEC", `model spec "${spec}": ${inUrl}`);
    const host = keyHostProblem({ baseUrl: provider.baseUrl, ownBaseUrl: ownBaseUrl(spec), keyEnv: provider.keyEnv, origin: options.origin ?? "study-file" });
    if (host !== null) throw new ModelSpecError("MODEL_KEY_HOST", `model spec "${spec}": ${host}`);
  }
  return new ProviderModel(provider, options.requests);
}

/** The forwarder for a provider run, with the study's timeouts; its faults reach the driver (ADR 0129). */
async function forwardFor(model: ProviderModel) {
  const { connectTimeoutMs, idleTimeoutMs, maxRetries } = model.requests;
  const forward = await startProviderForward(model.provider.baseUrl, {
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
  });
  const provider = { lastFault: forward.lastFault, watch: forward.watch, giveUpAfter: 1 + (maxRetries ?? DEFAULT_RETRY.maxRetries) };
  return { forward, provider };
}

/**
 * Opens the client's connection to a real provider (no sandbox): the client talks to the forwarder
 * on 127.0.0.1, which sends its requests on to the provider; the key is read from the environment now.
 */
export async function providerEndpoint(client: ClientName, model: ProviderModel, env: Record<string, string | undefined>): Promise<Endpoint> {
  const { forward, provider } = await forwardFor(model);
  const target = model.provider;
  return {
    baseUrl: `http://127.0.0.1:${forward.port}`,
    model: target.model,
    apiKey: target.keyEnv === null ? "none" : (env[target.keyEnv] ?? ""),
    notes: [{ level: "info", text: `model endpoint: ${client} talked to ${new URL(target.baseUrl).host} as ${target.id}, through armstudy's forwarder; the usage in this record is what the provider reported to the client` }],
    provider,
    close: () => forward.close(),
  };
}

/**
 * The same for a sandboxed client: its network is private and empty, and the bridge carries its
 * requests to armstudy's forwarder, which sends them on to the provider's base URL and nowhere else.
 */
export async function sandboxedProviderEndpoint(client: ClientName, model: ProviderModel, env: Record<string, string | undefined>, tempRoot?: string): Promise<Endpoint> {
  const { forward, provider } = await forwardFor(model);
  const target = model.provider;
  let bridge: Awaited<ReturnType<typeof openLoopbackBridge>>;
  try {
    bridge = await openLoopbackBridge(forward.port, tempRoot);
  } catch (error) {
    await forward.close();
    throw error;
  }
  const host = new URL(target.baseUrl).host;
  return {
    baseUrl: bridge.baseUrl,
    model: target.model,
    apiKey: target.keyEnv === null ? "none" : (env[target.keyEnv] ?? ""),
    notes: [
      { level: "info", text: `model endpoint: ${client} talked to ${host} as ${target.id}, through armstudy's forwarder; the usage in this record is what the provider reported to the client` },
      { level: "info", text: `network: the client ran in the bubblewrap sandbox with a private network (loopback only); a Unix-socket bridge carried its requests to ${host} and nowhere else` },
    ],
    sandboxed: { network: "none", wrap: bridge.inside, readable: [bridge.bridgeDir], writable: [bridge.socketDir] },
    provider,
    close: async () => {
      await bridge.close();
      await forward.close();
    },
  };
}

export interface DriverEndpointOptions extends PersonaEndpointOptions {
  /** The environment provider keys are read from. */
  env: Record<string, string | undefined>;
}

/** A ProviderModel run goes to its provider; any other model is served by the persona server. */
export function driverEndpoint(client: ClientName, options: DriverEndpointOptions): (run: AgentRunOptions) => Promise<Endpoint> {
  const persona = personaEndpoint(client, options);
  return async (run) => {
    if (!(run.model instanceof ProviderModel)) return persona(run);
    return run.sandbox?.sandbox.kind === "bwrap"
      ? sandboxedProviderEndpoint(client, run.model, options.env, options.tempRoot)
      : providerEndpoint(client, run.model, options.env);
  };
}

/** True when a driven run's usage came from the persona server rather than a provider. */
export function personaServed(agent: string, model: ModelClient): boolean {
  return agent !== "armstudy" && !(model instanceof ProviderModel);
}
