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
