/**
 * Pieces every turn-end policy shares: the policy names and spec, option validation, the brakes
 * that apply whatever the policy (a provider error, a usage limit, a question to the person), and
 * small readers over the run view.
 */
import { z } from "zod";
import type { PolicyDecision, ReplyView, RunView, ToolCallView } from "./contract.ts";

export const POLICY_NAMES = ["none", "todoGate", "everyReplyCheck", "goal", "workSlice", "loopGuard", "measureLoop", "goalQueue"] as const;

export type PolicyName = (typeof POLICY_NAMES)[number];

/**
 * One turn-end control and its options, as written in arm.yaml (`policies:`). Structurally the same
 * as `PolicySpec` in src/run/arms/types.ts (core cannot import from run); a test keeps them equal.
 */
export interface PolicySpec {
  name: PolicyName;
  options?: Record<string, unknown>;
}

export class PolicyOptionsError extends Error {
  readonly code = "policy_bad_options";
  constructor(
    message: string,
    /** The policy at fault and what is wrong with its options, when the error is about one policy. */
    readonly detail?: { policy: string; problem: string; option?: string },
  ) {
    super(message);
    this.name = "PolicyOptionsError";
  }
}

/** The option names a policy accepts: the keys of its strict options schema. */
export function allowedOptions(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function allowedText(allowed: readonly string[]): string {
  return allowed.length === 0 ? "this policy takes no options" : `allowed: ${allowed.join(", ")}`;
}

/** Validates a policy's options with a strict schema; the error names the policy, the option and the fix. */
export function parseOptions<T extends z.ZodType>(policy: string, schema: T, options: Record<string, unknown> | undefined): z.infer<T> {
  const result = schema.safeParse(options ?? {});
  if (result.success) return result.data;
  const allowed = allowedOptions(schema);
  const issues = result.error.issues.map((issue) => {
    if (issue.path.length === 0 && issue.code === "unrecognized_keys") {
      const keys = (issue as { keys?: string[] }).keys ?? [];
      return `unknown option ${keys.map((k) => `"${k}"`).join(", ")} (${allowedText(allowed)})`;
    }
    const where = issue.path.length > 0 ? `option "${issue.path.join(".")}"` : "options";
    return `${where}: ${issue.message}`;
  });
  const problem = issues.join("; ");
  // The first option at fault, so a loader can point at its own line rather than at `options:`.
  const first = result.error.issues[0];
  const option = first?.code === "unrecognized_keys" && first.path.length === 0 ? (first as { keys?: string[] }).keys?.[0] : first?.path[0];
  const detail = typeof option === "string" ? { policy, problem, option } : { policy, problem };
  throw new PolicyOptionsError(`policy "${policy}" in arm.yaml (policies[].options): ${problem}`, detail);
}

export const positiveInt = z.number().int().positive();
export const positiveNumber = z.number().positive();

/** The decision that means "no objection": the reply ends as the model ended it. */
export function settleCompleted(reason = "the model ended its reply"): PolicyDecision {
  return { kind: "settle", status: "completed", reason };
}

/**
 * The brakes every policy applies in the same way: a provider error settles `error`, a usage
 * limit settles `usage_limited`, and a question to the person settles `paused` (no control
 * continues past a question; docs/decisions/0025-a-question-to-the-person-pauses-every-policy.md).
 * Null for a reply the model ended by itself or a policy stopped.
 */
export function brake(reply: ReplyView): PolicyDecision | null {
  switch (reply.endReason) {
    case "error":
      return { kind: "settle", status: "error", reason: `provider error: ${reply.errorMessage ?? "no message"}` };
    case "usage_limit":
      return { kind: "settle", status: "usage_limited", reason: `usage limit: ${reply.errorMessage ?? "no message"}` };
    case "ask_user":
      return { kind: "settle", status: "paused", reason: "the model asked the person a question" };
    case "no_tool_call":
    case "slice_budget":
      return null;
    default: {
      const unreachable: never = reply.endReason;
      return unreachable;
    }
  }
}

export class PolicyViewError extends Error {
  readonly code = "policy_empty_view";
  constructor(policy: string) {
    super(`policy "${policy}": onReplyEnd was called with no replies in the run view; call it only after a reply has ended`);
    this.name = "PolicyViewError";
  }
}

export function lastReply(view: RunView, policy: string): ReplyView {
  const reply = view.replies[view.replies.length - 1];
  if (reply === undefined) throw new PolicyViewError(policy);
  return reply;
}

export function allCalls(view: RunView): ToolCallView[] {
  return view.replies.flatMap((reply) => reply.toolCalls);
}

/** A stable signature of a call: its name and its arguments with keys sorted at every level. */
export function callSignature(call: Pick<ToolCallView, "name" | "arguments">): string {
  return `${call.name} ${stableJson(call.arguments)}`;
}

export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The command text of a shell call, for messages: `arguments.command` when it is a string. */
export function commandText(call: Pick<ToolCallView, "arguments">): string {
  const command = call.arguments["command"];
  if (typeof command === "string") return command;
  if (Array.isArray(command)) return command.map(String).join(" ");
  return stableJson(call.arguments);
}

/** The last `n` characters of an output, for evidence in a message. */
export function tail(text: string, n = 600): string {
  const trimmed = text.trimEnd();
  return trimmed.length <= n ? trimmed : `...${trimmed.slice(trimmed.length - n)}`;
}

/** A reply did work when it made at least one tool call (the listed tools excluded). */
export function didWork(reply: ReplyView, exclude: readonly string[] = []): boolean {
  return reply.toolCalls.some((call) => !exclude.includes(call.name));
}

/** "1 open todo item", "2 open todo items". */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

/** A list rendered as markdown bullets, one item a line. */
export function bullets(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join("\n");
}
