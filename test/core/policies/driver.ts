/**
 * A reference driver for the turn-end policies: it follows docs/goal-loop.md ("Driving the policies
 * from the agent loop") step by step, over scripted replies instead of a model, with a scripted
 * ModelClient for claim checks and a scripted measure command. Pure apart from awaiting the
 * checker; the clock is a counter advanced by each reply's duration.
 */
import { checkClaim, claimCheckRecord, type CompletionCheckMode } from "../../../src/core/goal/check.ts";
import { ZERO_USAGE, type ModelClient, type ModelReply, type ModelRequest } from "../../../src/core/model.ts";
import { createTurnEndControl, type PolicySpec } from "../../../src/core/policies/index.ts";
import type {
  Measurement,
  PolicyDecision,
  PolicyRecord,
  ReplyEndReason,
  ReplyView,
  RunView,
  SettleStatus,
  TodoItem,
  ToolCallView,
  TurnEndPolicy,
} from "../../../src/core/policies/contract.ts";

export interface ScriptedCall {
  name: string;
  arguments?: Record<string, unknown>;
  ok?: boolean;
  exitCode?: number | null;
  output?: string;
  changedFiles?: boolean;
  changedPaths?: string[];
  isCommand?: boolean;
}

export interface ScriptedReply {
  text?: string;
  calls?: ScriptedCall[];
  endReason?: Exclude<ReplyEndReason, "slice_budget">;
  errorMessage?: string;
  /** The todo list after this reply (unchanged when absent). */
  todos?: TodoItem[];
  durationMs?: number;
}

export type LogEntry =
  | { type: "message"; kind: "handoff" | "continuation" | "nudge"; text: string }
  | { type: "tool"; name: string; ok: boolean; output: string }
  | { type: "stop"; reason: string }
  | { type: "decision"; policy: string; kind: PolicyDecision["kind"]; reason: string; status?: SettleStatus }
  | ({ t: number } & PolicyRecord)
  | { type: "claim.check"; verdict: string; reason: string; evidence: string[]; shield: string };

export interface DriveOptions {
  specs?: PolicySpec[];
  control?: TurnEndPolicy<any>;
  handoff?: string;
  /** The i-th reply (0-based); the view is what the model has seen so far. */
  script: (index: number, view: RunView) => ScriptedReply;
  /** The checker's answer to the i-th claim check, or a whole client; null means no model. */
  checker?: ((index: number, request: ModelRequest) => string) | ModelClient | null;
  checkMode?: CompletionCheckMode;
  measure?: (command: string, index: number) => { exitCode: number | null; output: string };
  maxReplies?: number;
}

export interface DriveResult {
  status: SettleStatus;
  reason: string;
  log: LogEntry[];
  view: RunView;
  requests: ModelRequest[];
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export function scriptedChecker(answer: (index: number, request: ModelRequest) => string, requests: ModelRequest[]): ModelClient {
  let n = 0;
  return {
    id: "scripted:checker",
    isTestDouble: true,
    async complete(request: ModelRequest): Promise<ModelReply> {
      requests.push(request);
      return { text: answer(n++, request), toolCalls: [], stop: "end_turn", usage: ZERO_USAGE };
    },
  };
}

export async function drive(options: DriveOptions): Promise<DriveResult> {
  const control = options.control ?? createTurnEndControl(options.specs ?? []);
  const handoff = options.handoff ?? "Implement the feature described in HANDOFF.md and make `npm test` pass.";
  const requests: ModelRequest[] = [];
  const checker =
    options.checker === undefined || options.checker === null
      ? null
      : typeof options.checker === "function"
        ? scriptedChecker(options.checker, requests)
        : options.checker;
  const log: LogEntry[] = [];
  let nowMs = 0;
  let todos: TodoItem[] = [];
  const replies: ReplyView[] = [];
  const measurements: Measurement[] = [];
  let continuations = 0;
  let measureIndex = 0;
  let callId = 0;
  // Views are deep-frozen: a policy that writes to the run view throws (ESM is strict mode).
  const view = (): RunView => deepFreeze(structuredClone({ handoff, replies, todos, elapsedMs: nowMs, continuations, measurements }));
  const record = (records: PolicyRecord[] | undefined) => {
    for (const r of records ?? []) log.push({ t: nowMs, ...r });
  };
  const measure = (state: unknown) => {
    const command = control.measureCommand?.(state) ?? null;
    if (command === null) return;
    const result = options.measure?.(command, measureIndex++) ?? { exitCode: 1, output: "no measure scripted" };
    measurements.push({ command, ...result, atMs: nowMs });
  };
  const logDecision = (d: PolicyDecision) =>
    log.push({ type: "decision", policy: d.policy ?? control.name, kind: d.kind, reason: d.reason, ...(d.kind === "settle" ? { status: d.status } : {}) });

  let state = control.initialState();
  measure(state);
  const start = control.onRunStart?.(view(), state) ?? { state };
  state = start.state;
  record(start.records);
  log.push({ type: "message", kind: "handoff", text: handoff });
  if (start.message !== undefined) log.push({ type: "message", kind: "continuation", text: start.message });

  for (let index = 0; index < (options.maxReplies ?? 100); index++) {
    const scripted = options.script(index, view());
    const startedAtMs = nowMs;
    const calls: ToolCallView[] = [];
    let stopped = false;
    const offered = () => new Set((control.tools?.(state) ?? []).map((tool) => tool.name));
    for (const call of scripted.calls ?? []) {
      const id = `c${++callId}`;
      const args = call.arguments ?? {};
      let viewCall: ToolCallView;
      if (offered().has(call.name)) {
        const out = control.onToolCall!({ id, name: call.name, arguments: args }, state, { nowMs });
        state = out.state;
        record(out.records);
        viewCall = { id, name: call.name, arguments: args, ok: out.result.ok, output: out.result.output, changedFiles: false, isCommand: false };
      } else if (call.name === "get_goal" || call.name === "update_goal") {
        viewCall = { id, name: call.name, arguments: args, ok: false, output: `${call.name} is not a tool in this run`, changedFiles: false, isCommand: false };
      } else {
        viewCall = {
          id,
          name: call.name,
          arguments: args,
          ok: call.ok ?? true,
          ...(call.exitCode === undefined ? {} : { exitCode: call.exitCode }),
          output: call.output ?? "",
          changedFiles: call.changedFiles ?? false,
          ...(call.changedPaths === undefined ? {} : { changedPaths: call.changedPaths }),
          isCommand: call.isCommand ?? call.name === "shell",
        };
      }
      calls.push(viewCall);
      log.push({ type: "tool", name: viewCall.name, ok: viewCall.ok, output: viewCall.output });
      const step = control.onStep?.(view(), { index, toolCalls: [...calls], startedAtMs, nowMs }, state) ?? { state };
      state = step.state;
      record(step.records);
      if (step.stop !== undefined) {
        log.push({ type: "stop", reason: step.stop.reason });
        stopped = true;
        break;
      }
    }
    if (scripted.todos !== undefined) todos = scripted.todos;
    nowMs += scripted.durationMs ?? 60_000;
    replies.push({
      index,
      text: stopped ? "" : (scripted.text ?? ""),
      toolCalls: calls,
      endReason: stopped ? "slice_budget" : (scripted.endReason ?? "no_tool_call"),
      ...(scripted.errorMessage === undefined ? {} : { errorMessage: scripted.errorMessage }),
      startedAtMs,
      endedAtMs: nowMs,
      tokens: { input: 1000, output: 100 },
    });
    measure(state);
    let out = control.onReplyEnd(view(), state);
    state = out.state;
    record(out.records);
    logDecision(out.decision);
    let decision = out.decision;
    if (decision.kind === "check_claim") {
      const result = await checkClaim({ model: checker, objective: decision.objective ?? handoff, claim: decision.claim, view: view(), mode: options.checkMode ?? "on", meta: { round: index } });
      log.push(claimCheckRecord(result));
      out = control.onClaimVerdict!(result, state, { nowMs });
      state = out.state;
      record(out.records);
      logDecision(out.decision);
      decision = out.decision;
    }
    switch (decision.kind) {
      case "settle":
        return { status: decision.status, reason: decision.reason, log, view: view(), requests };
      case "continue":
        continuations++;
        log.push({ type: "message", kind: decision.messageKind, text: decision.message });
        break;
      case "check_claim":
        throw new Error("a verdict answered check_claim again");
    }
  }
  throw new Error(`the run did not settle within ${options.maxReplies ?? 100} replies`);
}

/** The decisions of a run, compactly: `policy kind[/status]`. */
export function trace(result: DriveResult): string[] {
  return result.log.flatMap((entry) => (entry.type === "decision" ? [`${entry.policy} ${entry.kind}${entry.status === undefined ? "" : `/${entry.status}`}`] : []));
}
