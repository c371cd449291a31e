/**
 * Harness faults: error replies that mean armstudy itself is wrong (a cassette that is missing or
 * unreadable), not that the model or provider failed. They still travel as a reply with
 * `stop: "error"` (a ModelClient never throws), but their message starts with `[CODE]` and a
 * runner must treat them as fatal: stop the study and show the message, rather than score the run
 * as an agent error. See docs/decisions/0032-cassette-keys-and-fatal-misses.md.
 */
import type { ModelReply } from "../../core/model.ts";

export const HARNESS_FAULT_CODES = ["CASSETTE_MISS", "CASSETTE_CORRUPT"] as const;
export type HarnessFaultCode = (typeof HARNESS_FAULT_CODES)[number];

const PATTERN = /^\[([A-Z_]+)\] /;

/** The error message of a harness fault: `[CODE] message`. */
export function harnessFaultMessage(code: HarnessFaultCode, message: string): string {
  return `[${code}] ${message}`;
}

/** The fault code when `reply` is a harness fault, else undefined. */
export function harnessFault(reply: Pick<ModelReply, "stop" | "errorMessage">): HarnessFaultCode | undefined {
  if (reply.stop !== "error" || reply.errorMessage === undefined) return undefined;
  const code = PATTERN.exec(reply.errorMessage)?.[1];
  return (HARNESS_FAULT_CODES as readonly string[]).includes(code ?? "") ? (code as HarnessFaultCode) : undefined;
}

/**
 * Thrown by the agent loop when a reply is a harness fault, so the study stops instead of scoring
 * the run: the fix is in armstudy's inputs (re-record the cassette), not in the agent.
 */
export class HarnessFaultError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly code: HarnessFaultCode,
    message: string,
  ) {
    super(message);
    this.name = "HarnessFaultError";
  }
}

/**
 * Named causes of a run that ended as `error` (ADR 0081). `model.*`: the model could not be used
 * (it says nothing about the arm); `harness.*`: armstudy or a driver failed. Such a run is left out
 * of every arm statistic and counted apart.
 */
export const FAULT_CAUSES = {
  "model.unreachable": "the model's server could not be reached (refused, unknown host, reset)",
  "model.timeout": "no connection within the connect timeout, or no byte within the idle timeout",
  "model.http_5xx": "the server kept answering 5xx after every retry",
  "model.rate_limited": "the server kept answering 429 after every retry",
  "model.http_4xx": "the server refused the request (4xx other than 429 and a usage limit)",
  "model.garbled": "the answer could not be read (not JSON, no choices, an unknown finish_reason, a stream that ended early)",
  "model.dropped": "the connection broke off in the middle of the answer",
  "model.provider_error": "the provider answered with an error object instead of a reply",
  "model.refused": "the provider's content filter stopped the reply",
  "harness.exception": "armstudy's agent loop or a driver threw",
  "harness.adapter": "the model adapter itself failed (a bug of armstudy's)",
  "harness.policy": "the turn-end control settled the run as an error",
  "harness.client": "a real client (Codex, Claude Code, pi) ended its run with an error",
} as const;

export type FaultCause = keyof typeof FAULT_CAUSES;

export function isFaultCause(value: unknown): value is FaultCause {
  return typeof value === "string" && Object.hasOwn(FAULT_CAUSES, value);
}

/** The fault an HTTP status of a model request stands for, or null for a success (2xx, 3xx). */
export function statusFault(status: number): FaultCause | null {
  if (status === 429) return "model.rate_limited";
  if (status === 408) return "model.timeout";
  if (status >= 500) return "model.http_5xx";
  if (status >= 400) return "model.http_4xx";
  return null;
}
