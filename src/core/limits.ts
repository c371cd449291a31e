/**
 * Time limits (ADR 0084): every one armstudy takes — study file, arm, checks, command-line flags —
 * is positive and at most 24 hours. Larger values are refused by name rather than handed to a
 * timer: Node fires a timer of more than 2^31 − 1 ms at once, so `maxWallMs: 3e9` used to end every
 * run immediately.
 */

export const MAX_TIME_LIMIT_MS = 24 * 60 * 60 * 1000;
export const MAX_TIME_LIMIT_HOURS = 24;

/** The problem with a time limit in milliseconds, or null when it is usable. */
export function timeLimitProblem(ms: number): string | null {
  if (!Number.isFinite(ms) || ms <= 0) return "must be a positive number of milliseconds";
  if (ms > MAX_TIME_LIMIT_MS) return `must be at most 24 hours (${MAX_TIME_LIMIT_MS} ms)`;
  return null;
}
