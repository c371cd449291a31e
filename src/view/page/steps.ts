/**
 * A run record as a timeline: one step per event, with each tool result folded into its call, and
 * two closing steps for the acceptance checks and the diff. Pure (no DOM), so the grouping, the
 * evidence search and the alignment keys are tested in node. Event kinds this file does not know
 * (added to the record later) become `other` steps that show their fields, never an error.
 */
import type { RunEvent } from "../../run/record.ts";
import type { RunPayload } from "./data.ts";

export type StepKind =
  | "system"
  | "user"
  | "request"
  | "text"
  | "tool"
  | "plan"
  | "reply"
  | "policy"
  | "goal"
  | "claim"
  | "compaction"
  | "retry"
  | "subagent"
  | "note"
  | "end"
  | "checks"
  | "diff"
  | "other";

type Ev<T extends string> = Extract<RunEvent, { type: T }>;

export interface EvidenceMatch {
  quote: string;
  /** The step whose tool output holds the quote, or null when it was found nowhere. */
  step: number | null;
  /** Where in that step's output the quote starts. */
  offset: number;
}

export interface Step {
  /** 1-based; deep links and the keyboard use it. */
  n: number;
  kind: StepKind;
  /** Milliseconds since the run started, or null for the closing steps. */
  t: number | null;
  label: string;
  /** One line shown while the step is folded. */
  summary: string;
  /** Tokens this step cost (a model request's input + output), when it has a cost. */
  tokens: number | null;
  /** Tokens of every request up to and including this step. */
  totalTokens: number;
  event: RunEvent | null;
  /** A tool call's result, when the record has one. */
  result: Ev<"tool.result"> | null;
  evidence: EvidenceMatch[];
  /** What the alignment compares: equal keys are "the same step" in two runs. */
  key: string;
  /**
   * The slot a step fills, for aligning: a harness decision (policy, claim check, reply end, run
   * end) faces the other run's decision at the same point even when the two decided differently,
   * so "nudge" beside "settle" is one changed row rather than two one-sided ones.
   */
  slot: string;
  /** Whether a difference in this step counts as the runs diverging (bookkeeping steps do not). */
  decisive: boolean;
}

export function oneLine(text: string, max = 140): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** JSON with sorted keys, so two equal argument objects give the same key. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function argsSummary(args: Record<string, unknown>): string {
  for (const field of ["command", "cmd", "path", "file_path", "pattern", "query", "url"]) {
    const value = args[field];
    if (typeof value === "string") return oneLine(value, 120);
    if (Array.isArray(value) && value.every((part) => typeof part === "string")) return oneLine(value.join(" "), 120);
  }
  return oneLine(stableJson(args), 120);
}

const RETRY = /\bretr(y|ied|ies|ying)\b/i;

/** Finds each quote in the tool outputs before the claim check, latest first (what the shield read). */
export function findEvidence(quotes: readonly string[], steps: readonly Step[]): EvidenceMatch[] {
  return quotes.map((quote) => {
    const needle = quote.trim();
    if (needle.length === 0) return { quote, step: null, offset: -1 };
    for (let i = steps.length - 1; i >= 0; i -= 1) {
      const step = steps[i] as Step;
      const output = step.result?.output;
      if (output === undefined) continue;
      const offset = output.indexOf(needle);
      if (offset !== -1) return { quote, step: step.n, offset };
    }
    return { quote, step: null, offset: -1 };
  });
}

type Draft = Omit<Step, "n" | "totalTokens" | "evidence" | "result" | "slot"> & { result?: Ev<"tool.result"> | null; quotes?: string[] };

/** Kinds whose slot is the kind alone (their content differs between arms by design). */
const SLOT_BY_KIND: ReadonlySet<StepKind> = new Set(["policy", "claim", "reply", "end", "checks", "diff"]);

function draft(event: RunEvent): Draft {
  const base = { t: event.t, tokens: null, event };
  switch (event.type) {
    case "run.start":
      return {
        ...base,
        kind: "system",
        label: "system prompt",
        summary: `${event.model}${event.testDouble ? " (test double)" : ""} · ${event.prefixHash.length > 0 ? `prefix ${event.prefixTokens} tokens · ${event.prefixHash.slice(0, 12)}` : `${event.source}'s own prompt (not measured)`}`,
        key: "system",
        decisive: false,
      };
    case "user.message":
      return { ...base, kind: "user", label: event.kind, summary: oneLine(event.text), key: `user:${event.kind}:${event.text}`, decisive: true };
    case "model.request": {
      const tokens = event.input + event.output;
      const purpose = event.purpose === "claim_check" ? "claim-check request" : "model request";
      return { ...base, tokens, kind: "request", label: `${purpose} ${event.round}`, summary: `${event.input} in (${event.cachedInput} cached) · ${event.output} out${event.reasoning > 0 ? ` (${event.reasoning} reasoning)` : ""} · ${Math.round(event.durationMs)} ms${event.stop ? ` · ${event.stop}` : ""}`, key: `request:${event.purpose}`, decisive: false };
    }
    case "assistant.text":
      return { ...base, kind: "text", label: event.final ? "final reply" : "reply text", summary: oneLine(event.text), key: `text:${event.final}:${event.text}`, decisive: true };
    case "tool.call":
      return { ...base, kind: "tool", label: event.name, summary: argsSummary(event.arguments), key: `tool:${event.name}:${stableJson(event.arguments)}`, decisive: true };
    case "tool.result":
      return { ...base, kind: "tool", label: `${event.name ?? "tool"} result`, summary: oneLine(event.output), key: `result:${event.name ?? ""}`, decisive: true, result: event };
    case "plan.update": {
      const done = event.items.filter((item) => item.status === "completed").length;
      return { ...base, kind: "plan", label: "plan", summary: `${done} of ${event.items.length} done`, key: "plan", decisive: false };
    }
    case "reply.end":
      return { ...base, kind: "reply", label: "reply ended", summary: event.reason + (event.errorMessage ? `: ${oneLine(event.errorMessage, 100)}` : ""), key: `reply:${event.reason}`, decisive: true };
    case "policy.decision":
      return { ...base, kind: "policy", label: `policy ${event.policy}`, summary: `${event.decision}: ${oneLine(event.reason, 110)}`, key: `policy:${event.decision}`, decisive: true };
    case "goal.update":
      return { ...base, kind: "goal", label: "goal", summary: `${event.from ?? "none"} → ${event.to ?? "none"} (${event.by}): ${oneLine(event.reason, 90)}`, key: `goal:${event.to ?? ""}`, decisive: false };
    case "claim.check":
      return { ...base, kind: "claim", label: "claim check", summary: `${event.verdict} · shield ${event.shield}: ${oneLine(event.reason, 100)}`, key: `claim:${event.verdict}`, decisive: true, quotes: event.evidence };
    case "compaction":
      return { ...base, kind: "compaction", label: "compaction", summary: `${event.tokensBefore ?? "?"} → ${event.tokensAfter ?? "?"} tokens`, key: "compaction", decisive: true };
    case "subagent":
      return { ...base, kind: "subagent", label: "sub-agent", summary: `${event.ref} · ${event.toolCalls} tool calls`, key: `subagent:${event.ref}`, decisive: true };
    case "model.retry":
      return { ...base, kind: "retry", label: `retry of request ${event.round}`, summary: `attempt ${event.attempt} failed: ${event.cause} — ${oneLine(event.message, 90)} · next in ${Math.round(event.waitMs)} ms`, key: "retry", decisive: false };
    case "run.end":
      return { ...base, kind: "end", label: "run ended", summary: `${event.status}${event.cause ? ` (${event.cause})` : ""}${event.reason ? `: ${oneLine(event.reason, 110)}` : ""} · ${Math.round(event.wallMs)} ms`, key: `end:${event.status}`, decisive: false };
    case "note":
      if (RETRY.test(event.text)) return { ...base, kind: "retry", label: "retry", summary: oneLine(event.text), key: "retry", decisive: false };
      return { ...base, kind: "note", label: event.level, summary: oneLine(event.text), key: "note", decisive: false };
    default: {
      const other = event as { type?: unknown };
      const type = typeof other.type === "string" ? other.type : "event";
      const kind: StepKind = RETRY.test(type) ? "retry" : "other";
      return { ...base, kind, label: type, summary: oneLine(stableJson(event), 120), key: `other:${type}`, decisive: false };
    }
  }
}

/** The timeline of a run: events in record order, results folded into their calls. */
export function buildSteps(payload: Pick<RunPayload, "events" | "acceptance" | "patch">): Step[] {
  const steps: Step[] = [];
  const openCalls = new Map<string, Step>();
  let total = 0;
  for (const event of payload.events) {
    if (event.type === "tool.result") {
      const call = openCalls.get(event.id);
      if (call !== undefined) {
        call.result = event;
        openCalls.delete(event.id);
        continue;
      }
    }
    const { quotes, result, ...rest } = draft(event);
    total += rest.tokens ?? 0;
    const step: Step = { ...rest, slot: SLOT_BY_KIND.has(rest.kind) ? rest.kind : rest.key, n: steps.length + 1, totalTokens: total, result: result ?? null, evidence: [] };
    if (quotes !== undefined) step.evidence = findEvidence(quotes, steps);
    if (event.type === "tool.call") openCalls.set(event.id, step);
    steps.push(step);
  }
  if (payload.acceptance.length > 0) {
    const passed = payload.acceptance.filter((check) => check.passed).length;
    steps.push({ n: steps.length + 1, kind: "checks", t: null, label: "acceptance checks", summary: `${passed} of ${payload.acceptance.length} passed${passed < payload.acceptance.length ? ` · failed: ${payload.acceptance.filter((c) => !c.passed).map((c) => c.id).join(", ")}` : ""}`, tokens: null, totalTokens: total, event: null, result: null, evidence: [], key: `checks:${passed}`, slot: "checks", decisive: false });
  }
  if (payload.patch !== null) {
    const files = (payload.patch.match(/^diff --git /gm) ?? []).length;
    steps.push({ n: steps.length + 1, kind: "diff", t: null, label: "diff", summary: files === 0 ? "no changes" : `${files} file${files === 1 ? "" : "s"} changed`, tokens: null, totalTokens: total, event: null, result: null, evidence: [], key: "diff", slot: "diff", decisive: false });
  }
  return steps;
}

/** What a run did, counted from its steps (the side-by-side summary compares these). */
export interface StepCounts {
  rounds: number;
  toolCalls: number;
  nudges: number;
  continuations: number;
  claimChecks: number;
  claimsSentBack: number;
  policyDecisions: number;
  compactions: number;
  retries: number;
  tokens: number;
}

export function countSteps(steps: readonly Step[]): StepCounts {
  const counts: StepCounts = { rounds: 0, toolCalls: 0, nudges: 0, continuations: 0, claimChecks: 0, claimsSentBack: 0, policyDecisions: 0, compactions: 0, retries: 0, tokens: 0 };
  for (const step of steps) {
    const event = step.event;
    counts.tokens += step.tokens ?? 0;
    if (event === null) continue;
    if (event.type === "model.request" && event.purpose !== "claim_check") counts.rounds += 1;
    else if (event.type === "tool.call") counts.toolCalls += 1;
    else if (event.type === "user.message" && event.kind === "nudge") counts.nudges += 1;
    else if (event.type === "user.message" && event.kind === "continuation") counts.continuations += 1;
    else if (event.type === "claim.check") {
      counts.claimChecks += 1;
      if (event.verdict === "continue") counts.claimsSentBack += 1;
    } else if (event.type === "policy.decision") counts.policyDecisions += 1;
    else if (event.type === "compaction") counts.compactions += 1;
    if (step.kind === "retry") counts.retries += 1;
  }
  return counts;
}
