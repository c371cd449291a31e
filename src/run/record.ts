/**
 * The run record: one append-only JSONL stream per run, one typed event per line. Every source
 * (our agent loop, an external CLI driver, a session importer) writes it; every metric reads it.
 * Extend the vocabulary here; never fork a second format.
 */
import { z } from "zod";

const base = {
  /** Milliseconds since the run started (injected clock); importers use the log's timestamps. */
  t: z.number(),
};

const usageSource = z.enum(["reported", "counted", "estimated"]);

export const RunStartEvent = z.object({
  ...base,
  type: z.literal("run.start"),
  arm: z.string(),
  runIndex: z.number().int().nonnegative(),
  seed: z.number().int(),
  model: z.string(),
  /** True when the model is the bundled scripted test double. */
  testDouble: z.boolean().default(false),
  prefixHash: z.string(),
  prefixTokens: z.number().int().nonnegative(),
  /** Who produced the record: `armstudy`, `codex`, `claude`, `pi`, … */
  source: z.string(),
  /** Wall-clock start as ISO text, when known (importers, the CLI); never read inside core. */
  startedAt: z.string().optional(),
  cwd: z.string().optional(),
  /** The client's own version, when the log states it (Codex cli_version, Claude Code version). */
  clientVersion: z.string().optional(),
  /** The session this one was forked or spawned from (a Codex parent thread), when the log says so. */
  parentSession: z.string().optional(),
  /** Which sandbox the agent's commands ran in (src/run/sandbox/): kind, version, network, limits; or none and why. */
  sandbox: z
    .object({
      kind: z.enum(["bwrap", "none"]),
      version: z.string().optional(),
      network: z.enum(["none", "host", "unconfined"]),
      limits: z.object({ cpuSeconds: z.number(), memoryBytes: z.number(), processes: z.number(), fileBytes: z.number() }).optional(),
      /** `cgroup`: CPU, memory and processes capped for the whole run (ADR 0114); `ulimit`: per process, and why. */
      limitsKind: z.enum(["cgroup", "ulimit"]).optional(),
      limitsReason: z.string().optional(),
      reason: z.string().optional(),
    })
    .optional(),
});

export const UserMessageEvent = z.object({
  ...base,
  type: z.literal("user.message"),
  text: z.string(),
  kind: z.enum(["handoff", "continuation", "nudge", "person"]),
});

export const ModelRequestEvent = z.object({
  ...base,
  type: z.literal("model.request"),
  round: z.number().int().nonnegative(),
  /** Our o200k count of what was sent (prefix + history). */
  counted: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }).optional(),
  /** The provider's usage, normalised: input includes cached input; output includes reasoning. */
  input: z.number().nonnegative(),
  cachedInput: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative().optional(),
  /** The part of cacheWrite written with a one-hour lifetime (Anthropic bills it at 2 × input). */
  cacheWrite1h: z.number().nonnegative().optional(),
  output: z.number().nonnegative(),
  reasoning: z.number().nonnegative(),
  usageSource,
  /** Provider speed mode (`fast`) and service tier (`priority`, `batch`) when not standard: priced apart. */
  speed: z.string().optional(),
  serviceTier: z.string().optional(),
  durationMs: z.number().nonnegative(),
  model: z.string().optional(),
  stop: z.string().optional(),
  /** Cost the log itself recorded for this request (pi, claude -p), in USD. */
  costUsd: z.number().nonnegative().optional(),
  purpose: z.enum(["agent", "claim_check", "compaction"]).default("agent"),
});

export const AssistantTextEvent = z.object({
  ...base,
  type: z.literal("assistant.text"),
  text: z.string(),
  /** True when this text ends a reply (the model stopped without a tool call). */
  final: z.boolean(),
});

export const ToolCallEvent = z.object({
  ...base,
  type: z.literal("tool.call"),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});

export const ToolResultEvent = z.object({
  ...base,
  type: z.literal("tool.result"),
  id: z.string(),
  name: z.string().optional(),
  ok: z.boolean(),
  exitCode: z.number().int().nullable().optional(),
  /** Output, capped by the producer; a cut is marked in the text. */
  output: z.string(),
  durationMs: z.number().nonnegative().optional(),
  /** Paths the call changed, relative to the work directory, when known. */
  changedFiles: z.array(z.string()).optional(),
  /** Set when a person rejected the call (Claude Code permission denials). */
  rejected: z.boolean().optional(),
  /** A plan-approval tool (Claude Code ExitPlanMode): did the person approve the plan? */
  planApproval: z.enum(["approved", "rejected"]).optional(),
});

export const PlanUpdateEvent = z.object({
  ...base,
  type: z.literal("plan.update"),
  items: z.array(z.object({ text: z.string(), status: z.enum(["pending", "in_progress", "completed"]) })),
});

export const ReplyEndEvent = z.object({
  ...base,
  type: z.literal("reply.end"),
  reason: z.enum(["no_tool_call", "ask_user", "slice_budget", "error", "usage_limit", "interrupted"]),
  errorMessage: z.string().optional(),
  /** The reply's duration as the client itself measured it (Codex `task_complete.duration_ms`). */
  durationMs: z.number().nonnegative().optional(),
});

export const PolicyDecisionEvent = z.object({
  ...base,
  type: z.literal("policy.decision"),
  policy: z.string(),
  decision: z.enum(["settle", "continue", "nudge", "check_claim"]),
  reason: z.string(),
  status: z.string().optional(),
});

export const GoalUpdateEvent = z.object({
  ...base,
  type: z.literal("goal.update"),
  from: z.string().nullable(),
  to: z.string().nullable(),
  reason: z.string(),
  /** Who caused the change: `person`, `model`, `system`, `check`. */
  by: z.string(),
});

export const ClaimCheckEvent = z.object({
  ...base,
  type: z.literal("claim.check"),
  verdict: z.enum(["done", "continue", "accepted_unchecked"]),
  reason: z.string(),
  evidence: z.array(z.string()),
  /** The evidence shield: did the quoted evidence appear in a tool result? */
  shield: z.enum(["passed", "rejected", "not_applied"]),
});

export const CompactionEvent = z.object({
  ...base,
  type: z.literal("compaction"),
  tokensBefore: z.number().nonnegative().nullable(),
  tokensAfter: z.number().nonnegative().nullable(),
  /** Our loop's compactions (ADR 0103): tool results cleared, or the oldest turns summarised. */
  kind: z.enum(["clear_tool_results", "summary"]).optional(),
  /** What was cleared or summarised, each with what it takes to get it back. */
  cleared: z.array(z.object({ tool: z.string(), ref: z.string(), digest: z.string() })).optional(),
  /** Messages the summary replaced. */
  summarised: z.number().int().nonnegative().optional(),
});

/** A plan run's reply classified with ADR-0077's table (ADR 0104); attempt 1 is the repair turn's. */
export const PlanOutcomeEvent = z.object({
  ...base,
  type: z.literal("plan.outcome"),
  outcome: z.enum(["plan_ready", "blocked", "no_plan", "invalid"]),
  /** Why it is `invalid` (a rule of the classifier), or why `no_plan` was sent back. */
  reason: z.string().optional(),
  attempt: z.number().int().nonnegative(),
  repair: z.boolean(),
});

/** A beat while a tool runs long (ADR-0078): a busy run is told apart from a wedged one. */
export const HeartbeatEvent = z.object({
  ...base,
  type: z.literal("heartbeat"),
  /** Names of the tools running now. */
  activeTools: z.array(z.string()),
  /** How long the oldest running tool has run, in ms. */
  oldestToolMs: z.number().nonnegative(),
});

export const SubagentEvent = z.object({
  ...base,
  type: z.literal("subagent"),
  /** The sub-agent's own record file or id, for linking. */
  ref: z.string(),
  toolCalls: z.number().int().nonnegative(),
  /** The sub-agent's own usage (its file's totals), when read; the session's totals do not include it. */
  usage: z.lazy(() => RunUsage).optional(),
  /** The sub-agent's cost, when its log gives one. */
  costUsd: z.number().nonnegative().optional(),
  /** The model the sub-agent used (its last request's), for pricing its usage. */
  model: z.string().optional(),
});

/** Normalised run totals: input includes cached input and cache writes; output includes reasoning. */
export const RunUsage = z.object({
  input: z.number().nonnegative(),
  cachedInput: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** Null when the log does not report reasoning tokens separately. */
  reasoning: z.number().nonnegative().nullable(),
  source: usageSource,
  /** True for an estimate that cannot see everything billed (reasoning, tool schemas, re-sends). */
  lowerBound: z.boolean().default(false),
});

export const RunEndEvent = z.object({
  ...base,
  type: z.literal("run.end"),
  status: z.string(),
  reason: z.string().optional(),
  /** With status `error`: the named fault (`model.timeout`, `harness.exception`, …; ADR 0081). */
  cause: z.string().optional(),
  wallMs: z.number().nonnegative(),
  /**
   * The run's total usage as the log itself states it (importers): Codex's last cumulative total,
   * the sum over deduplicated Claude requests, a `claude -p` result, or an o200k estimate over the
   * visible text when the log has no usage (`source: "estimated"`, `lowerBound: true`). When
   * present, metrics read the run's tokens from here instead of summing `model.request`.
   */
  usage: RunUsage.optional(),
  /** Total cost the log itself recorded for the run (`claude -p` result, Claude Code `cost-state`), in USD. */
  costUsd: z.number().nonnegative().optional(),
  /** True when costUsd covers the sub-agents too (Claude Code's `cost-state` counts every request of the process). */
  costIncludesSubagents: z.boolean().optional(),
  /** Times the client itself totalled (Claude Code `cost-state`), in milliseconds. */
  clientTimes: z
    .object({ apiMs: z.number().nonnegative(), apiMsWithoutRetries: z.number().nonnegative().nullable(), toolMs: z.number().nonnegative().nullable(), totalMs: z.number().nonnegative().nullable() })
    .optional(),
});

/** One failed model request attempt that the adapter retried (ADR 0082). */
export const ModelRetryEvent = z.object({
  ...base,
  type: z.literal("model.retry"),
  /** The round of the request, as in `model.request`. */
  round: z.number().int().nonnegative(),
  /** 1 for the first attempt. */
  attempt: z.number().int().positive(),
  /** The fault cause of the attempt, such as `model.http_5xx`. */
  cause: z.string(),
  message: z.string(),
  /** The wait before the next attempt (importers: as the client announced it; 0 when the log does not say). */
  waitMs: z.number().nonnegative(),
  /** The client's own retry limit, when it states one (importers: pi `maxAttempts`, Claude Code `maxRetries`). */
  maxAttempts: z.number().int().nonnegative().optional(),
});

/** A warning the producer wants kept with the record (an importer's skipped line, a driver mismatch). */
export const NoteEvent = z.object({
  ...base,
  type: z.literal("note"),
  level: z.enum(["info", "warning"]),
  text: z.string(),
});

export const RunEvent = z.discriminatedUnion("type", [
  RunStartEvent,
  UserMessageEvent,
  ModelRequestEvent,
  ModelRetryEvent,
  AssistantTextEvent,
  ToolCallEvent,
  ToolResultEvent,
  PlanUpdateEvent,
  ReplyEndEvent,
  PolicyDecisionEvent,
  GoalUpdateEvent,
  ClaimCheckEvent,
  CompactionEvent,
  HeartbeatEvent,
  PlanOutcomeEvent,
  SubagentEvent,
  RunEndEvent,
  NoteEvent,
]);

export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent["type"];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** The first `max` zod issues of an event as `field a.b: message; …`, so a bad event names its field. */
export function describeEventIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>, max: number): string {
  return issues
    .slice(0, max)
    .map((issue) => `${issue.path.length > 0 ? `field ${issue.path.map(String).join(".")}` : "event"}: ${issue.message}`)
    .join("; ");
}
