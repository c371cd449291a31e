/**
 * The OpenAI Chat Completions adapter: OpenAI itself, and every server that speaks the same wire
 * format (ollama, vLLM, llama.cpp server, LM Studio …). Tool calls, streaming (SSE) and
 * non-streaming answers, bounded retry with backoff on 429/5xx and network errors, a usage-limit
 * answer mapped to `stop: "usage_limit"`, and provider usage normalised to the ModelClient
 * contract (`input` includes cached input; `output` includes reasoning).
 *
 * `complete` never throws: every failure is a reply with `stop: "error"`, `"usage_limit"` or
 * `"aborted"` and a message that names the endpoint and what went wrong.
 *
 * Where providers differ, the difference is a row in `PROVIDER_COMPAT` below, never a branch on a
 * provider's name in the code.
 */
import {
  type Message,
  type ModelClient,
  type ModelReply,
  type ModelRequest,
  type StopReason,
  type RetriedAttempt,
  type ToolCall,
  type Usage,
  ZERO_USAGE,
} from "../../core/model.ts";
import { type FaultCause, statusFault } from "./fault.ts";
import { createHttpFetch } from "./http-transport.ts";
import { redactText, redactValue } from "../secrets/redact.ts";
import { SseParser } from "./sse.ts";

export type ProviderKind = "openai" | "openai-compatible" | "ollama";

/** How one kind of Chat Completions server differs from the others. Data, read by shared code. */
export interface ProviderCompat {
  /** Base URL used when the spec names none. */
  defaultBaseUrl?: string;
  /** Environment variable that holds the API key when the spec names none. */
  defaultKeyEnv?: string;
  /** Refuse to build a client when the key is missing (instead of sending no Authorization). */
  keyRequired: boolean;
  /** Which body field carries the output-token cap. */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** Send `stream_options: { include_usage: true }` so the last chunk carries usage. */
  streamUsage: boolean;
  /** Send `reasoning_effort` from `request.effort`. */
  reasoningEffort: boolean;
  /** Send `store: false` (providers that keep completions unless told not to). */
  storeFalse: boolean;
  /** Stream by default. */
  stream: boolean;
  /** Usage semantics: does the provider's prompt count include cached tokens, its completion count reasoning? */
  inputIncludesCached: boolean;
  outputIncludesReasoning: boolean;
  /** `error.code` / `error.type` values that mean the account's quota or plan is used up (not a transient rate limit). */
  usageLimitCodes: readonly string[];
  /** HTTP statuses that always mean a usage limit. */
  usageLimitStatuses: readonly number[];
}

const COMMON_USAGE_LIMIT_CODES = [
  "insufficient_quota",
  "usage_limit",
  "usage_limit_reached",
  "usage_limit_exceeded",
  "billing_hard_limit_reached",
  "billing_not_active",
  "quota_exceeded",
] as const;

export const PROVIDER_COMPAT: Record<ProviderKind, ProviderCompat> = {
  openai: {
    defaultBaseUrl: "https://api.openai.com/v1",
    defaultKeyEnv: "OPENAI_API_KEY",
    keyRequired: true,
    maxTokensField: "max_completion_tokens",
    streamUsage: true,
    reasoningEffort: true,
    storeFalse: true,
    stream: true,
    inputIncludesCached: true,
    outputIncludesReasoning: true,
    usageLimitCodes: COMMON_USAGE_LIMIT_CODES,
    usageLimitStatuses: [402],
  },
  // Any other server: only what every Chat Completions implementation accepts. The key, if any,
  // comes from the env var the spec names (`#NAME`): an OpenAI key is never sent to another host.
  "openai-compatible": {
    keyRequired: false,
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningEffort: false,
    storeFalse: false,
    stream: true,
    inputIncludesCached: true,
    outputIncludesReasoning: true,
    usageLimitCodes: COMMON_USAGE_LIMIT_CODES,
    usageLimitStatuses: [402],
  },
  // ollama ignores the key; older versions answer `finish_reason: "stop"` with tool calls, which
  // the shared rule "tool calls present → stop tool_calls" already covers.
  ollama: {
    defaultBaseUrl: "http://127.0.0.1:11434/v1",
    keyRequired: false,
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningEffort: false,
    storeFalse: false,
    stream: true,
    inputIncludesCached: true,
    outputIncludesReasoning: true,
    usageLimitCodes: COMMON_USAGE_LIMIT_CODES,
    usageLimitStatuses: [],
  },
};

/** `finish_reason` values seen across Chat Completions servers. Unknown values become an error reply naming them. */
const FINISH_REASONS: Record<string, StopReason> = {
  stop: "end_turn",
  eos: "end_turn",
  end_turn: "end_turn",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  tool_use: "tool_calls",
  length: "max_tokens",
  max_tokens: "max_tokens",
};

/** Finish reasons that are a provider-side refusal to answer: an error reply with this text. */
const FINISH_ERRORS: Record<string, string> = {
  content_filter: "the provider's content filter stopped the reply (finish_reason content_filter)",
};

export interface RetryOptions {
  /** Retries after the first attempt (so at most 1 + maxRetries requests). Default 4. */
  maxRetries?: number;
  /** First backoff; doubles per retry. Default 1000 ms. */
  baseDelayMs?: number;
  /** Cap on one backoff, and on a server's Retry-After. Default 30 000 ms. */
  maxDelayMs?: number;
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface OpenAICompatibleOptions {
  /** Client id for reports, such as `openai:gpt-5`. */
  id: string;
  model: string;
  /** Base URL ending before `/chat/completions`, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** The key, read from the environment by the caller; never from a file or an argument. */
  apiKey?: string;
  compat: ProviderCompat;
  /** Override the compat default. */
  stream?: boolean;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** Injected for tests: how to wait between retries. */
  sleep?: Sleep;
  /** Injected clock for `durationMs`. */
  now?: () => number;
  /** One attempt's time limit, including the whole stream. Default 10 minutes. */
  timeoutMs?: number;
  /** The TCP/TLS handshake must finish within this (default 10 s). Applies to the built-in transport, not to an injected `fetch`. */
  connectTimeoutMs?: number;
  /** An attempt with no byte from the server for this long (headers or body) is a timeout (default 180 s). */
  idleTimeoutMs?: number;
  /** Told of each retry as it is scheduled, so a study can say so at once instead of waiting in silence. */
  onRetry?: (retry: RetriedAttempt) => void;
}

/** A timeout is retried once at most: a server that went silent rarely answers the third time (ADR 0082). */
const MAX_TIMEOUT_RETRIES = 1;

/** Request timeouts when the study file sets none (ADR 0082, docs/study-files.md). */
export const DEFAULT_REQUEST_TIMEOUTS = { connectTimeoutMs: 10_000, idleTimeoutMs: 180_000 } as const;
/** Retries when the study file sets none. */
export const DEFAULT_RETRY = { maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000 } as const;
/** A non-streamed answer larger than this is garbage, not something to hold in memory. */
const MAX_ANSWER_CHARS = 32 * 1024 * 1024;

const MAX_ERROR_BODY_CHARS = 64 * 1024;
const MAX_MESSAGE_CHARS = 500;
/** A streamed tool-call index further than this past the known calls is treated as missing. */
const MAX_INDEX_GAP = 64;

/** Sleeps `ms`, waking early (resolved) when `signal` aborts. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

// ---------------------------------------------------------------------------------------------
// Wire types (only the fields read).

interface WireToolCall {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string | Record<string, unknown> };
}

interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  /** DeepSeek-style cache fields. */
  prompt_cache_hit_tokens?: number;
}

interface WireError {
  message?: string;
  code?: string | number | null;
  type?: string;
}

// ---------------------------------------------------------------------------------------------
// Request building.

function toWireMessage(message: Message): Record<string, unknown> {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant": {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content.length > 0 ? message.content : null,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        })),
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    default: {
      const unknown: never = message;
      throw new Error(`unknown message role in ${JSON.stringify(unknown)}`);
    }
  }
}

/** The Chat Completions body for a request (exported for tests and cassette tooling). */
export function buildRequestBody(request: ModelRequest, model: string, compat: ProviderCompat, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: request.messages.map(toWireMessage) };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.maxOutputTokens !== undefined) body[compat.maxTokensField] = request.maxOutputTokens;
  if (compat.reasoningEffort && request.effort !== undefined) body.reasoning_effort = request.effort;
  if (compat.storeFalse) body.store = false;
  if (stream) {
    body.stream = true;
    if (compat.streamUsage) body.stream_options = { include_usage: true };
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Reply parsing.

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Provider usage → the contract's normalised usage. `undefined` when the provider sent none. */
export function normaliseUsage(raw: WireUsage | null | undefined, compat: ProviderCompat): Usage | undefined {
  if (raw === null || raw === undefined || typeof raw !== "object") return undefined;
  const prompt = count(raw.prompt_tokens);
  const completion = count(raw.completion_tokens);
  const cached = count(raw.prompt_tokens_details?.cached_tokens) || count(raw.prompt_cache_hit_tokens);
  const reasoning = count(raw.completion_tokens_details?.reasoning_tokens);
  const cacheWrite = count(raw.prompt_tokens_details?.cache_write_tokens);
  const usage: Usage = {
    input: compat.inputIncludesCached ? prompt : prompt + cached,
    cachedInput: cached,
    output: compat.outputIncludesReasoning ? completion : completion + reasoning,
    reasoning,
    source: "reported",
  };
  if (cacheWrite > 0) usage.cacheWrite = cacheWrite;
  return usage;
}

/** The key under which a tool call's unparseable argument text is kept, so nothing is lost. */
export const UNPARSED_ARGUMENTS_KEY = "__unparsedArguments";

function parseArguments(raw: string | Record<string, unknown> | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) return raw;
  if (typeof raw !== "string") return { [UNPARSED_ARGUMENTS_KEY]: JSON.stringify(raw) };
  if (raw.trim().length === 0) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through: keep the text for the tool's error message and the record
  }
  return { [UNPARSED_ARGUMENTS_KEY]: raw };
}

function clip(text: string, max = MAX_MESSAGE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function wireErrorText(error: WireError | undefined, fallback: string): string {
  if (!error) return fallback;
  const code = error.code ?? error.type;
  const message = typeof error.message === "string" && error.message.length > 0 ? clip(error.message) : fallback;
  return code !== undefined && code !== null ? `${message} (${String(code)})` : message;
}

function isUsageLimit(status: number | undefined, error: WireError | undefined, compat: ProviderCompat): boolean {
  if (status !== undefined && compat.usageLimitStatuses.includes(status)) return true;
  const codes = [error?.code, error?.type].filter((value): value is string => typeof value === "string");
  return codes.some((code) => compat.usageLimitCodes.includes(code));
}

function extractError(value: unknown): WireError | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const error = (value as { error?: unknown }).error;
  if (typeof error === "string") return { message: error };
  if (typeof error === "object" && error !== null) return error as WireError;
  return undefined;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
      .join("");
  }
  return "";
}

interface Accumulated {
  text: string;
  calls: Array<{ id: string; name: string; args: string; parsed?: Record<string, unknown> }>;
  finish: string | null;
  usage: WireUsage | undefined;
  model: string | undefined;
}

type Attempt = { kind: "reply"; reply: ModelReply } | { kind: "retry"; cause: FaultCause; reason: string; retryAfterMs?: number };

// ---------------------------------------------------------------------------------------------

export class OpenAICompatibleClient implements ModelClient {
  readonly id: string;
  readonly isTestDouble = false;
  private readonly url: string;
  private readonly stream: boolean;
  private readonly fetchFn: typeof fetch;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly retry: Required<RetryOptions>;
  private readonly timeoutMs: number;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: OpenAICompatibleOptions) {
    this.id = options.id;
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.stream = options.stream ?? options.compat.stream;
    this.fetchFn = options.fetch ?? createHttpFetch({ connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_REQUEST_TIMEOUTS.connectTimeoutMs });
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? (() => performance.now());
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 600_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_REQUEST_TIMEOUTS.idleTimeoutMs;
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
    const started = this.now();
    const retries: RetriedAttempt[] = [];
    // Whatever the server sent back loses the key before anyone can write it down (ADR 0083).
    const secrets = this.options.apiKey ? [this.options.apiKey] : [];
    const finish = (reply: ModelReply): ModelReply =>
      redactValue({ ...reply, ...(retries.length > 0 ? { retries } : {}), durationMs: Math.max(0, this.now() - started) }, secrets);
    let body: string;
    try {
      body = JSON.stringify(buildRequestBody(request, this.options.model, this.options.compat, this.stream));
    } catch (error) {
      return finish(this.failure("error", `cannot encode the request: ${(error as Error).message}`, "harness.adapter"));
    }
    const attempts = this.retry.maxRetries + 1;
    let last: Extract<Attempt, { kind: "retry" }> | undefined;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (signal?.aborted) return finish(this.failure("aborted", "aborted before the request was sent"));
      let outcome: Attempt;
      try {
        outcome = await this.attempt(body, signal);
      } catch (error) {
        // A bug of ours, not the provider's: still a reply, never a throw.
        outcome = { kind: "reply", reply: this.failure("error", `unexpected adapter failure: ${(error as Error).message}`, "harness.adapter") };
      }
      if (outcome.kind === "reply") return finish(outcome.reply);
      last = outcome;
      if (attempt === attempts) break;
      if (outcome.cause === "model.timeout" && retries.filter((r) => r.cause === "model.timeout").length >= MAX_TIMEOUT_RETRIES) {
        const tries = attempt === 1 ? "1 attempt" : `${attempt} attempts`;
        return finish(this.failure("error", `gave up after ${tries}: ${outcome.reason}`, outcome.cause));
      }
      const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
      const wait = outcome.retryAfterMs !== undefined ? Math.min(this.retry.maxDelayMs, outcome.retryAfterMs) : backoff;
      const retry = { attempt, cause: outcome.cause, message: redactText(outcome.reason, secrets), atMs: Math.max(0, this.now() - started), waitMs: wait };
      retries.push(retry);
      this.options.onRetry?.(retry);
      await this.sleep(wait, signal);
    }
    if (signal?.aborted) return finish(this.failure("aborted", "aborted while waiting to retry"));
    const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
    return finish(this.failure("error", `gave up after ${tries}: ${last?.reason ?? "no attempt was made"}`, last?.cause ?? "harness.adapter"));
  }

  private failure(stop: "error" | "usage_limit" | "aborted", message: string, fault?: FaultCause): ModelReply {
    return { text: "", toolCalls: [], stop, usage: { ...ZERO_USAGE }, errorMessage: `${this.url}: ${message}`, ...(fault ? { fault } : {}) };
  }

  private async attempt(body: string, signal: AbortSignal | undefined): Promise<Attempt> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    // The idle timer restarts on every byte: a server that stops sending is cut after idleTimeoutMs.
    const idle = new AbortController();
    let idleTimer: NodeJS.Timeout | undefined;
    const touch = (): void => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => idle.abort(new Error("idle")), this.idleTimeoutMs);
    };
    touch();
    const combined = AbortSignal.any([...(signal ? [signal] : []), timeout, idle.signal]);
    const aborted = (what: string): Attempt =>
      signal?.aborted
        ? { kind: "reply", reply: this.failure("aborted", `aborted ${what}`) }
        : idle.signal.aborted
          ? { kind: "retry", cause: "model.timeout", reason: `no byte from the provider for ${this.idleTimeoutMs} ms ${what} (idle timeout)` }
          : { kind: "retry", cause: "model.timeout", reason: `timed out after ${this.timeoutMs} ms ${what}` };
    try {
      return await this.attemptWith(body, combined, aborted, touch);
    } finally {
      clearTimeout(idleTimer);
    }
  }

  private async attemptWith(body: string, combined: AbortSignal, aborted: (what: string) => Attempt, touch: () => void): Promise<Attempt> {

    const headers: Record<string, string> = { "content-type": "application/json", accept: this.stream ? "text/event-stream" : "application/json" };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;

    let response: Response;
    try {
      response = await this.fetchFn(this.url, { method: "POST", headers, body, signal: combined });
    } catch (error) {
      if (combined.aborted) return aborted("before the provider answered");
      const network = describeNetworkError(error);
      return { kind: "retry", cause: network.timeout ? "model.timeout" : "model.unreachable", reason: `network error: ${network.text}` };
    }
    touch();

    if (!response.ok) {
      let text = "";
      try {
        text = (await readBounded(response, MAX_ERROR_BODY_CHARS, touch)).text;
      } catch {
        if (combined.aborted) return aborted("while reading an error answer");
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const error = extractError(parsed);
      const detail = wireErrorText(error, text.trim().length > 0 ? clip(text.trim()) : response.statusText || "no body");
      if (isUsageLimit(response.status, error, this.options.compat)) {
        return { kind: "reply", reply: this.failure("usage_limit", `usage limit reached (HTTP ${response.status}): ${detail}`) };
      }
      const cause = statusFault(response.status);
      if (cause !== null && cause !== "model.http_4xx") {
        return { kind: "retry", cause, reason: `HTTP ${response.status}: ${detail}`, retryAfterMs: retryAfter(response.headers.get("retry-after")) };
      }
      return { kind: "reply", reply: this.failure("error", `HTTP ${response.status}: ${detail}`, "model.http_4xx") };
    }

    const type = response.headers.get("content-type") ?? "";
    try {
      if (type.includes("text/event-stream")) return await this.readStream(response, touch);
      const read = await readBounded(response, MAX_ANSWER_CHARS, touch);
      if (read.cut) return { kind: "reply", reply: this.failure("error", `the answer is larger than ${MAX_ANSWER_CHARS} characters`, "model.garbled") };
      return this.readJson(read.text);
    } catch (error) {
      if (combined.aborted) return aborted("while reading the answer");
      return { kind: "reply", reply: this.failure("error", `the answer broke off: ${(error as Error).message}`, "model.dropped") };
    }
  }

  private readJson(text: string): Attempt {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { kind: "reply", reply: this.failure("error", `malformed JSON in the answer (${(error as Error).message}): ${clip(text, 200)}`, "model.garbled") };
    }
    const error = extractError(value);
    if (error) return this.errorInBody(error);
    const body = value as { choices?: unknown; usage?: WireUsage; model?: string };
    const choice = Array.isArray(body.choices) ? (body.choices[0] as Record<string, unknown> | undefined) : undefined;
    if (!choice || typeof choice !== "object") {
      return { kind: "reply", reply: this.failure("error", `the answer has no choices: ${clip(text, 200)}`, "model.garbled") };
    }
    const message = (choice.message ?? {}) as { content?: unknown; refusal?: unknown; tool_calls?: WireToolCall[] };
    const acc: Accumulated = {
      text: contentText(message.content) || (typeof message.refusal === "string" ? message.refusal : ""),
      calls: (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((call, index) => {
        const raw = call.function?.arguments;
        const parsed = typeof raw === "object" && raw !== null ? raw : undefined;
        return { id: call.id ?? `call_${index}`, name: call.function?.name ?? "", args: typeof raw === "string" ? raw : "", ...(parsed ? { parsed } : {}) };
      }),
      finish: typeof choice.finish_reason === "string" ? choice.finish_reason : null,
      usage: body.usage,
      model: typeof body.model === "string" ? body.model : undefined,
    };
    return this.toReply(acc);
  }

  private async readStream(response: Response, touch: () => void): Promise<Attempt> {
    const acc: Accumulated = { text: "", calls: [], finish: null, usage: undefined, model: undefined };
    const parser = new SseParser();
    const decoder = new TextDecoder();
    let done = false;
    let chunks = 0;
    const handle = (data: string): Attempt | undefined => {
      if (data.trim() === "[DONE]") {
        done = true;
        return undefined;
      }
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch (error) {
        return { kind: "reply", reply: this.failure("error", `malformed JSON in stream chunk ${chunks + 1} (${(error as Error).message}): ${clip(data, 200)}`, "model.garbled") };
      }
      chunks += 1;
      const error = extractError(value);
      if (error) return this.errorInBody(error);
      this.applyChunk(acc, value as Record<string, unknown>);
      return undefined;
    };
    if (response.body) {
      for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
        touch();
        for (const event of parser.push(decoder.decode(bytes, { stream: true }))) {
          const result = handle(event.data);
          // Leaving the loop cancels the body.
          if (result) return result;
        }
        if (done) break;
      }
    }
    if (!done) {
      for (const event of parser.push(decoder.decode()).concat(parser.end())) {
        const result = handle(event.data);
        if (result) return result;
      }
    }
    if (!done && acc.finish === null) {
      return { kind: "reply", reply: this.failure("error", `the stream ended after ${chunks} chunks without a finish_reason or [DONE]`, "model.dropped") };
    }
    return this.toReply(acc);
  }

  private applyChunk(acc: Accumulated, chunk: Record<string, unknown>): void {
    if (typeof chunk.model === "string") acc.model = chunk.model;
    if (chunk.usage && typeof chunk.usage === "object") acc.usage = chunk.usage as WireUsage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const raw of choices) {
      const choice = raw as { index?: number; delta?: { content?: unknown; tool_calls?: WireToolCall[] }; finish_reason?: unknown };
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      acc.text += contentText(delta.content);
      for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        // Position: the wire index; else the call with this id; else a new call when an id starts one; else the last.
        let at: number;
        if (typeof call.index === "number" && Number.isInteger(call.index) && call.index >= 0 && call.index <= acc.calls.length + MAX_INDEX_GAP) {
          at = call.index;
        } else if (call.id) {
          const found = acc.calls.findIndex((c) => c !== undefined && c.id === call.id);
          at = found === -1 ? acc.calls.length : found;
        } else {
          at = Math.max(0, acc.calls.length - 1);
        }
        const slot = (acc.calls[at] ??= { id: "", name: "", args: "" });
        if (call.id && slot.id === "") slot.id = call.id;
        if (call.function?.name && slot.name === "") slot.name = call.function.name;
        const args = call.function?.arguments;
        if (typeof args === "string") slot.args += args;
        else if (typeof args === "object" && args !== null) slot.parsed = args;
      }
      if (typeof choice.finish_reason === "string") acc.finish = choice.finish_reason;
    }
  }

  private errorInBody(error: WireError): Attempt {
    if (isUsageLimit(undefined, error, this.options.compat)) {
      return { kind: "reply", reply: this.failure("usage_limit", `usage limit reached: ${wireErrorText(error, "no message")}`) };
    }
    return { kind: "reply", reply: this.failure("error", `the provider answered with an error: ${wireErrorText(error, "no message")}`, "model.provider_error") };
  }

  /** A missing finish_reason (a stream that still sent [DONE], a terse JSON answer) counts as a plain end. */
  private toReply(acc: Accumulated): Attempt {
    const calls = acc.calls.filter((call) => call !== undefined);
    const toolCalls: ToolCall[] = calls.map((call, index) => ({
      id: call.id || `call_${index}`,
      name: call.name,
      arguments: call.parsed ?? parseArguments(call.args),
    }));
    const usage = normaliseUsage(acc.usage, this.options.compat) ?? { ...ZERO_USAGE, source: "estimated" as const };
    const base = { text: acc.text, toolCalls, usage, ...(acc.model ? { model: acc.model } : {}) };
    const refusal = acc.finish === null ? undefined : own(FINISH_ERRORS, acc.finish);
    if (refusal !== undefined) return { kind: "reply", reply: { ...base, stop: "error", errorMessage: `${this.url}: ${refusal}`, fault: "model.refused" } };
    let stop: StopReason | undefined = acc.finish === null ? "end_turn" : own(FINISH_REASONS, acc.finish);
    if (stop === undefined) {
      return {
        kind: "reply",
        reply: { ...base, stop: "error", errorMessage: `${this.url}: unknown finish_reason ${JSON.stringify(acc.finish)}; add it to FINISH_REASONS in openai-compatible.ts`, fault: "model.garbled" },
      };
    }
    // Shared rule: a reply that carries tool calls ended to call them (some servers say "stop").
    if (toolCalls.length > 0 && stop === "end_turn") stop = "tool_calls";
    return { kind: "reply", reply: { ...base, stop } };
  }
}

/** A table lookup that ignores inherited keys ("constructor" is not a finish reason). */
function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Network error codes that mean "no connection in time" rather than "no connection". */
const CONNECT_TIMEOUT_CODES = new Set(["ECONNECT_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"]);

/** A network error in words, the same for fetch (the code is on `cause`) and node:http (on the error). */
function describeNetworkError(error: unknown): { text: string; timeout: boolean } {
  const err = error as { message?: string; code?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code;
  if (code === "ECONNECT_TIMEOUT") return { text: `${err.message ?? "connect timeout"} (${code})`, timeout: true };
  const detail = code ?? err.cause?.message;
  const text = detail ? `connection failed (${detail})` : (err.message ?? String(error));
  return { text, timeout: code !== undefined && CONNECT_TIMEOUT_CODES.has(code) };
}

/** Retry-After in seconds (the date form is ignored: no wall clock here). */
function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header.trim());
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** The body as text, at most `maxChars` (`cut` when there was more); `touch` on every chunk. */
async function readBounded(response: Response, maxChars: number, touch: () => void): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: "", cut: false };
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let length = 0;
  for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
    touch();
    const part = decoder.decode(bytes, { stream: true });
    parts.push(part);
    length += part.length;
    // Leaving the loop cancels the body.
    if (length >= maxChars) return { text: parts.join("").slice(0, maxChars), cut: true };
  }
  parts.push(decoder.decode());
  return { text: parts.join(""), cut: false };
}
