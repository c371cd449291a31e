/**
 * Which way is better for each study metric: what a gate, a comparison and a verdict call "worse".
 * Null where neither way is better in itself (more tool calls is not worse, nor better).
 */
import { COUNT_METRICS, type CountMetric, RATE_METRICS, type RateMetric } from "./summary.ts";

export type Better = "lower" | "higher" | null;

export const RATE_DIRECTIONS: Record<RateMetric, Better> = {
  claimedComplete: null,
  falseCompletion: "lower",
  permissionStop: "lower",
  allChecksPassed: "higher",
  tampered: "lower",
};

export const COUNT_DIRECTIONS: Record<CountMetric, Better> = {
  toolCallsBeforeReplyEnd: null,
  toolCalls: null,
  checksPassed: "higher",
  claimChecks: null,
  repeatedIdenticalCalls: "lower",
  compactions: "lower",
  tokensInput: "lower",
  tokensOutput: "lower",
  tokensTotal: "lower",
  costUsd: "lower",
  wallMs: "lower",
  // A long silence is a long command as often as a wedged run: neither direction is better.
  longestSilenceMs: null,
};

export type MetricKind = "rate" | "count";

/** The kind of a metric name, or null for a name the study does not measure. */
export function metricKind(name: string): MetricKind | null {
  if (Object.hasOwn(RATE_METRICS, name)) return "rate";
  if (Object.hasOwn(COUNT_METRICS, name)) return "count";
  return null;
}

export const METRIC_NAMES: readonly string[] = [...Object.keys(RATE_METRICS), ...Object.keys(COUNT_METRICS)];

export function betterDirection(name: string): Better {
  if (Object.hasOwn(RATE_DIRECTIONS, name)) return RATE_DIRECTIONS[name as RateMetric];
  if (Object.hasOwn(COUNT_DIRECTIONS, name)) return COUNT_DIRECTIONS[name as CountMetric];
  return null;
}
