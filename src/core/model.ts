/**
 * The ModelClient contract. Every model adapter (HTTP, scripted test double, cassette replay)
 * implements `complete`; the agent loop and the completion-claim check call it. A provider
 * failure travels inside the reply (`stop: "error"` or `"usage_limit"`), never as a throw.
 */

/** One tool the model may call, described by a JSON schema. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments; adapters parse the provider's JSON string once, here. */
  arguments: Record<string, unknown>;
}

/** A conversation message, in the provider-neutral shape the loop keeps. */
export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

export interface ModelRequest {
  messages: Message[];
  tools: ToolSpec[];
  /** Low-effort requests (the claim check) may ask the adapter for cheaper settings. */
  effort?: "low" | "medium" | "high";
  maxOutputTokens?: number;
  /** Identifies the request for cassettes and logs: the run index keeps repeats apart. */
  meta?: { runIndex?: number; round?: number; purpose?: "agent" | "claim_check" | "compaction" };
}

/** Where a usage figure came from: the provider, our own o200k count, or an estimate. */
export type UsageSource = "reported" | "counted" | "estimated";

/** Normalised usage: `input` includes cached input; `output` includes reasoning. */
export interface Usage {
  input: number;
  cachedInput: number;
  cacheWrite?: number;
  output: number;
  reasoning: number;
  source: UsageSource;
}

export type StopReason = "end_turn" | "tool_calls" | "max_tokens" | "error" | "usage_limit" | "aborted";

export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  stop: StopReason;
  usage: Usage;
  /** Set when `stop` is "error", "usage_limit" or "aborted". */
  errorMessage?: string;
  /** The model id the provider answered with, when it says. */
  model?: string;
  durationMs?: number;
  /**
   * Set on an error reply that is a fault, not the model's behaviour: the model could not be
   * reached or answered garbage (`model.unreachable`, `model.timeout`, `model.http_5xx`,
   * `model.garbled`, …). The agent loop ends the run as `error` with this cause (ADR 0081).
   */
  fault?: string;
  /** Attempts that failed and were retried before this reply, in order (the loop records each). */
  retries?: RetriedAttempt[];
}

/** One failed attempt that the adapter retried. */
export interface RetriedAttempt {
  /** 1 for the first attempt. */
  attempt: number;
  /** The fault cause of this attempt, such as `model.http_5xx`. */
  cause: string;
  message: string;
  /** Milliseconds from the start of the request to the end of this attempt. */
  atMs: number;
  /** The wait before the next attempt. */
  waitMs: number;
}

export interface ModelClient {
  /** A stable id for reports, such as `scripted:diligent` or `openai:gpt-5`. */
  readonly id: string;
  /** True for the bundled scripted test double: reports must say its numbers are not a model's. */
  readonly isTestDouble: boolean;
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply>;
}

export const ZERO_USAGE: Usage = { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" };
