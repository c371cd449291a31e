/**
 * Model spec strings → ModelClient. One place parses every spec the CLI and study files accept:
 *
 *   openai:MODEL                              OpenAI, key from OPENAI_API_KEY
 *   openai-compatible:MODEL@BASE_URL[#ENV]    any Chat Completions server; key from env var ENV, if named
 *   ollama:MODEL[@BASE_URL]                   default base http://127.0.0.1:11434/v1, no key
 *   scripted:FILE                             the bundled deterministic test double (a persona file)
 *   replay:DIR                                recorded cassettes, no model
 *   record:DIR=INNER_SPEC                     any spec above, recording cassettes into DIR
 *
 * `openai:MODEL#ENV` also reads the key from ENV. Keys come from the environment only: never from
 * a file or an argument, and a base URL with credentials in it is refused.
 */
import { resolve } from "node:path";
import type { ModelClient, RetriedAttempt } from "../../core/model.ts";
import { createRecordingClient, createReplayClient } from "./cassette.ts";
import { OpenAICompatibleClient, PROVIDER_COMPAT, type ProviderKind, type RetryOptions, type Sleep } from "./openai-compatible.ts";
import { type SpecOrigin, keyHostProblem, urlKeyProblem } from "../secrets/key-host.ts";
import { secretsFromEnv } from "../secrets/redact.ts";

export type ModelSpec =
  | { kind: ProviderKind; model: string; baseUrl: string; keyEnv?: string }
  | { kind: "scripted"; file: string }
  | { kind: "replay"; dir: string }
  | { kind: "record"; dir: string; inner: Exclude<ModelSpec, { kind: "record" } | { kind: "replay" }> };

export class ModelSpecError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly code: "MODEL_SPEC" | "MODEL_KEY_MISSING" | "MODEL_KEY_HOST",
    message: string,
  ) {
    super(message);
    this.name = "ModelSpecError";
  }
}

const FORMS =
  "openai:MODEL, openai-compatible:MODEL@BASE_URL[#KEY_ENV], ollama:MODEL[@BASE_URL], scripted:FILE, replay:DIR, record:DIR=SPEC";
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function bad(spec: string, why: string): ModelSpecError {
  return new ModelSpecError("MODEL_SPEC", `model spec "${spec}": ${why}. Forms: ${FORMS}`);
}

/** Splits `REST#ENV` into the rest and the env var name. */
function splitKeyEnv(spec: string, rest: string): { rest: string; keyEnv?: string } {
  const hash = rest.lastIndexOf("#");
  if (hash === -1) return { rest };
  const keyEnv = rest.slice(hash + 1);
  if (!ENV_NAME.test(keyEnv)) throw bad(spec, `"#${keyEnv}" is not an environment variable name (letters, digits, _)`);
  return { rest: rest.slice(0, hash), keyEnv };
}

function checkBaseUrl(spec: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad(spec, `base URL "${raw}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw bad(spec, `base URL "${raw}" must start with http:// or https://`);
  const problem = urlKeyProblem(raw);
  if (problem !== null) throw bad(spec, problem);
  return raw.replace(/\/+$/, "");
}

/** Parses a spec string; throws ModelSpecError naming the spec and the accepted forms. */
export function parseModelSpec(spec: string): ModelSpec {
  const colon = spec.indexOf(":");
  if (colon <= 0) throw bad(spec, "it has no kind before a colon");
  const kind = spec.slice(0, colon);
  const rest = spec.slice(colon + 1);
  if (rest.length === 0) throw bad(spec, `nothing follows "${kind}:"`);
  switch (kind) {
    case "openai": {
      const { rest: model, keyEnv } = splitKeyEnv(spec, rest);
      if (model.length === 0) throw bad(spec, "the model name is empty");
      return { kind, model, baseUrl: PROVIDER_COMPAT.openai.defaultBaseUrl ?? "", ...(keyEnv ? { keyEnv } : {}) };
    }
    case "openai-compatible":
    case "ollama": {
      const { rest: body, keyEnv } = splitKeyEnv(spec, rest);
      // The base URL starts at the first "@http": model names may contain "@" or ":" (llama3:8b).
      const match = /^(.+?)@(https?:\/\/.*)$/.exec(body);
      const model = match ? match[1] : body;
      if (!model || model.length === 0) throw bad(spec, "the model name is empty");
      if (!match) {
        const fallback = PROVIDER_COMPAT[kind].defaultBaseUrl;
        if (fallback === undefined) throw bad(spec, "it needs @BASE_URL, such as @http://127.0.0.1:8080/v1");
        return { kind, model, baseUrl: fallback, ...(keyEnv ? { keyEnv } : {}) };
      }
      return { kind, model, baseUrl: checkBaseUrl(spec, match[2] ?? ""), ...(keyEnv ? { keyEnv } : {}) };
    }
    case "scripted":
      return { kind, file: rest };
    case "replay":
      return { kind, dir: rest };
    case "record": {
      const eq = rest.indexOf("=");
      if (eq <= 0 || eq === rest.length - 1) throw bad(spec, "record needs DIR=SPEC, such as record:cassettes/run1=openai:gpt-5");
      const inner = parseModelSpec(rest.slice(eq + 1));
      if (inner.kind === "record" || inner.kind === "replay") throw bad(spec, `record cannot wrap a ${inner.kind}: spec`);
      return { kind, dir: rest.slice(0, eq), inner };
    }
    default:
      throw bad(spec, `unknown kind "${kind}"`);
  }
}

export interface CreateModelClientOptions {
  /** The environment keys are read from (the CLI passes its io.env). */
  env: Record<string, string | undefined>;
  fetch?: typeof fetch;
  /** Relative FILE and DIR parts resolve against this. */
  cwd: string;
  /** For `scripted:`: the run's seed and index (same seed → same run). */
  seed?: number;
  runIndex?: number;
  /** HTTP adapters: stream or not (default: the provider's compat row), retry policy, sleep. */
  stream?: boolean;
  retry?: RetryOptions;
  sleep?: Sleep;
  now?: () => number;
  timeoutMs?: number;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  onRetry?: (retry: RetriedAttempt) => void;
  /**
   * Where the spec came from. A key goes to a host other than its provider's own only when the
   * spec was typed on the command line (ADR 0083). Default: "study-file", the strict one.
   */
  origin?: SpecOrigin;
}

/** The canonical id of a parsed HTTP spec, as reports show it (no URL, no key). */
function httpId(spec: Extract<ModelSpec, { baseUrl: string }>): string {
  return `${spec.kind}:${spec.model}`;
}

async function createFromSpec(spec: ModelSpec, text: string, options: CreateModelClientOptions): Promise<ModelClient> {
  switch (spec.kind) {
    case "openai":
    case "openai-compatible":
    case "ollama": {
      const compat = PROVIDER_COMPAT[spec.kind];
      const keyEnv = spec.keyEnv ?? compat.defaultKeyEnv;
      const apiKey = keyEnv ? options.env[keyEnv] : undefined;
      if (compat.keyRequired && (apiKey === undefined || apiKey.length === 0)) {
        throw new ModelSpecError("MODEL_KEY_MISSING", `model spec "${text}" needs an API key in the environment variable ${keyEnv}; set it and run again`);
      }
      if (spec.keyEnv && (apiKey === undefined || apiKey.length === 0)) {
        throw new ModelSpecError("MODEL_KEY_MISSING", `model spec "${text}" names the key variable ${spec.keyEnv}, which is not set`);
      }
      if (apiKey && keyEnv) {
        const secrets = secretsFromEnv(options.env).map((secret) => secret.value);
        const inUrl = urlKeyProblem(spec.baseUrl, secrets);
        if (inUrl !== null) throw bad(text, inUrl);
        const host = keyHostProblem({ baseUrl: spec.baseUrl, ownBaseUrl: compat.defaultBaseUrl, keyEnv, origin: options.origin ?? "study-file" });
        if (host !== null) throw new ModelSpecError("MODEL_KEY_HOST", `model spec "${text}": ${host}`);
      }
      return new OpenAICompatibleClient({
        id: httpId(spec),
        model: spec.model,
        baseUrl: spec.baseUrl,
        compat,
        ...(apiKey ? { apiKey } : {}),
        ...(options.stream !== undefined ? { stream: options.stream } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.retry ? { retry: options.retry } : {}),
        ...(options.sleep ? { sleep: options.sleep } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
        ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      });
    }
    case "scripted": {
      // Loaded lazily: the scripted double and its persona parser are only needed when asked for.
      const { createScriptedClient } = await import("./scripted.ts");
      return await createScriptedClient(resolve(options.cwd, spec.file), {
        seed: options.seed ?? 0,
        ...(options.runIndex !== undefined ? { runIndex: options.runIndex } : {}),
      });
    }
    case "replay":
      return createReplayClient(resolve(options.cwd, spec.dir));
    case "record": {
      const inner = await createFromSpec(spec.inner, text, options);
      return createRecordingClient(inner, resolve(options.cwd, spec.dir));
    }
    default: {
      const unknown: never = spec;
      throw new Error(`unhandled model spec ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Builds the client a spec names. Throws ModelSpecError (exit code 2) for a bad spec or a missing
 * key, CassetteError for a replay folder that holds no recording; the client itself never throws.
 */
export async function createModelClient(spec: string, options: CreateModelClientOptions): Promise<ModelClient> {
  return createFromSpec(parseModelSpec(spec), spec, options);
}
