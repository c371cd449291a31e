/**
 * The agent loop: one run of one arm's prompt on one model in one work directory.
 *
 * The system prompt is the arm's compiled prompt; the handoff is the first user message. Each
 * round is one model request; its tool calls run inside the work directory (src/run/tools/) and
 * their results go back to the model. When a reply ends, the arm's turn-end control (its policies
 * folded into one TurnEndPolicy) decides to settle the run or continue it, possibly after a
 * completion-claim check run through the same ModelClient in a fresh context. Every step is a
 * run-record event handed to `onEvent`, stamped with the injected clock. Hard caps on rounds and
 * wall time end any run that would otherwise hang a study. How the policies are driven is
 * documented in docs/goal-loop.md ("Driving the policies from the agent loop").
 */
import { performance } from "node:perf_hooks";
import type { Message, ModelClient, ModelReply, ModelRequest, ToolCall, ToolSpec } from "../core/model.ts";
import { checkClaim, claimCheckRecord, completionCheckMode, type CompletionCheckMode } from "../core/goal/index.ts";
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
} from "../core/policies/contract.ts";
import { createTurnEndControl } from "../core/policies/index.ts";
import type { AgentRunOptions, AgentRunOutcome } from "./agent-contract.ts";
import { processRequestCounter, type RequestTokenCounter } from "./agent-tokens.ts";
import type { LoadedArm, PolicySpec } from "./arms/types.ts";
import type { RunEvent } from "./record.ts";
import { describeSandbox } from "./sandbox/types.ts";
import { defaultRunSandbox } from "./sandbox/default.ts";
import { RunShell } from "./sandbox/run-shell.ts";
import { withRunGroup } from "./sandbox/cgroup.ts";
import { createToolbox, runCommand, type ToolContext, type Toolbox, type ToolOutcome } from "./tools/index.ts";
import { DEFAULT_OUTPUT_LIMIT, DEFAULT_SHELL_TIMEOUT_MS } from "./tools/types.ts";
import { HarnessFaultError, harnessFault } from "./models/fault.ts";
import { RunBudget, WRAP_UP_REQUESTS, wrapUpWallMs, limitsProblem, type CapReached } from "./agent-caps.ts";
import { contextCheckpoint } from "../core/context/checkpoint.ts";
import { resolveContext } from "../core/context/settings.ts";
import { SUMMARY_MARK } from "../core/context/summary.ts";
import { CONTEXT_WINDOWS, contextWindowFor } from "../core/context/windows.ts";
import { ContextManager } from "./context/manager.ts";
import { History } from "./history.ts";
import { PLAN_TOOLS, createPlanRun } from "../core/plan/run.ts";
import { combinePolicies, createPolicies } from "../core/policies/index.ts";
import { timeLimitProblem } from "../core/limits.ts";

/** Caps that apply when the caller sets none: generous for real work, finite for any run. */
export const DEFAULT_LIMITS = { maxRounds: 250, maxWallMs: 45 * 60_000 } as const;

/** The name recorded in `policy.decision` when a hard cap, not a policy, ends the run. */
export const HARD_CAP = "hardCap";

export class AgentError extends Error {
  constructor(
    readonly code: "AGENT_NO_PROMPT" | "AGENT_BAD_OPTIONS",
    message: string,
  ) {
    super(message);
    this.name = "AgentError";
  }
}

/** Optional knobs beyond the shared contract, for tests and embedders. */
export interface AgentExtras {
  /** The tools the model is offered (default: every built-in tool). */
  toolbox?: Toolbox;
  /** Environment for shell commands (credentials are removed); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The turn-end control; default: built from `arm.policies`. */
  control?: TurnEndPolicy<unknown>;
  /** Completion-claim check switch; default: ARMSTUDY_COMPLETION_CHECK from the environment. */
  completionCheck?: CompletionCheckMode;
  /** Default shell timeout in milliseconds. */
  shellTimeoutMs?: number;
  /** Characters of tool output sent back before the middle is elided. */
  outputLimit?: number;
  /** Shares a token counter between runs (benchmarks); default: one per run. */
  counter?: RequestTokenCounter;
  /** Wall time of a goal's wrap-up round after the wall-time cap; default `wrapUpWallMs(maxWallMs)` (ADR 0126). */
  wrapUpWallMs?: number;
}

/** How often a running tool beats when the caller sets nothing. */
export const DEFAULT_HEARTBEAT_MS = 10_000;

type Emit = (event: RunEvent) => Promise<void>;

interface ReplyInProgress {
  index: number;
  startedAtMs: number;
  text: string;
  toolCalls: ToolCallView[];
  tokens: { input: number; output: number };
  /** o200k tokens the reply added to the conversation: its output and its tool results counted so far. */
  newTokens: number;
  /**
   * Its tool results not yet in newTokens: counted when a policy reads newTokens, else by the next
   * request that sends them (ADR 0156), so a result is not looked up twice when nothing reads it.
   */
  uncounted: Message[];
  /** Compactions made while this reply ran. */
  compactions: number;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs one agent to a settled status. Throws only for a caller's mistake (an arm with no prompt). */
export async function runAgent(options: AgentRunOptions & AgentExtras): Promise<AgentRunOutcome> {
  // The run's shell sandbox (ADR 0113) ends with the run, whichever way the run ends.
  const opened: RunShell[] = [];
  // Its cgroup too (ADR 0114): every sandbox of the run joins it, and it goes with the run.
  const grouped = withRunGroup(options.sandbox ?? defaultRunSandbox(options.env ?? process.env));
  try {
    return await runAgentLoop({ ...options, sandbox: grouped.run }, (shell) => opened.push(shell));
  } finally {
    for (const shell of opened) shell.close();
    grouped.close();
  }
}

async function runAgentLoop(options: AgentRunOptions & AgentExtras, opened: (shell: RunShell) => void): Promise<AgentRunOutcome> {
  const { arm, model, dir, handoff, runIndex, seed } = options;
  if (arm.prompt === null) {
    throw new AgentError(
      "AGENT_NO_PROMPT",
      `arm "${arm.name}" has no compiled prompt (agent: ${arm.agent}); run it with its external driver, not the armstudy agent loop`,
    );
  }
  const origin = performance.now();
  const clock = options.clock ?? (() => performance.now() - origin);
  const maxRounds = options.limits?.maxRounds ?? DEFAULT_LIMITS.maxRounds;
  const maxWallMs = options.limits?.maxWallMs ?? DEFAULT_LIMITS.maxWallMs;
  if (!(maxRounds > 0) || !(maxWallMs > 0)) {
    throw new AgentError("AGENT_BAD_OPTIONS", `limits must be positive: maxRounds ${maxRounds}, maxWallMs ${maxWallMs}`);
  }
  const badLimits = limitsProblem(options.limits, options.pricer);
  if (badLimits !== null) throw new AgentError("AGENT_BAD_OPTIONS", badLimits);
  const budget = new RunBudget(options.limits ?? {}, options.pricer);
  // A timer past 2^31 ms fires at once: every time limit is at most 24 h (ADR 0084).
  for (const [field, ms] of [["limits.maxWallMs", maxWallMs], ["shellTimeoutMs", options.shellTimeoutMs]] as const) {
    const problem = ms === undefined ? null : timeLimitProblem(ms);
    if (problem !== null) throw new AgentError("AGENT_BAD_OPTIONS", `${field} ${problem}, got ${ms}`);
  }
  const startMs = clock();
  const now = () => clock() - startMs;
  // Events are written in order even when a heartbeat's timer fires while another write is under way.
  let written: Promise<void> = Promise.resolve();
  const emit: Emit = (event) => {
    written = written.then(() => options.onEvent(event));
    return written;
  };
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  if (!(heartbeatMs > 0)) throw new AgentError("AGENT_BAD_OPTIONS", `heartbeatMs must be positive; got ${heartbeatMs}`);
  const record = async (records: readonly PolicyRecord[] | undefined) => {
    for (const item of records ?? []) await emit({ t: now(), ...item });
  };

  // One signal for everything the run starts: the caller's abort, or the wall-time cap (a real
  // timer, so a request that hangs is cut even when the injected clock is a fake).
  let runAbort = new AbortController();
  let wallCapHit = false;
  // Where the wall cap falls on the run's clock; a wrap-up round after it gets a deadline of its own.
  let wallDeadline = maxWallMs;
  const onCallerAbort = () => runAbort.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  if (options.signal?.aborted) runAbort.abort(options.signal.reason);
  const startWallTimer = (ms: number) => {
    const timer = setTimeout(() => {
      wallCapHit = true;
      runAbort.abort(new Error("wall-time cap"));
    }, ms);
    timer.unref();
    return timer;
  };
  let wallTimer = startWallTimer(maxWallMs);

  // A plan run researches and changes nothing: read-only tools, and the plan control decides first.
  const planRun = arm.mode === "plan";
  const toolbox = options.toolbox ?? (planRun ? createToolbox(PLAN_TOOLS) : createToolbox());
  const control =
    options.control ??
    ((planRun ? combinePolicies([createPlanRun(arm.plan ?? { noPlan: "valid" }), ...createPolicies(policiesOf(arm))]) : createTurnEndControl(policiesOf(arm))) as TurnEndPolicy<unknown>);
  const checkMode = options.completionCheck ?? completionCheckMode(process.env.ARMSTUDY_COMPLETION_CHECK);
  const counter = options.counter ?? processRequestCounter();
  const env = options.env ?? process.env;
  const declaredWindows = options.contextWindows ?? {};
  const contextSettings = resolveContext(arm.context, model, (id) => {
    const declared = contextWindowFor(id, declaredWindows, {});
    if (declared !== null) return { window: declared, declared: true };
    const known = contextWindowFor(id, {}, CONTEXT_WINDOWS);
    return known === null ? null : { window: known, declared: false };
  });
  if (typeof contextSettings === "string") throw new AgentError("AGENT_BAD_OPTIONS", `arm "${arm.name}": ${contextSettings}`);
  const contextManager = contextSettings === null ? null : new ContextManager(contextSettings, model, counter);
  const sandbox = options.sandbox ?? defaultRunSandbox(env);
  const runShell = RunShell.open(sandbox, dir, env);
  if (runShell !== null) opened(runShell);
  const toolContext: ToolContext = {
    dir,
    env,
    sandbox,
    ...(runShell === null ? {} : { runShell }),
    signal: runAbort.signal,
    shellTimeoutMs: options.shellTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS,
    outputLimit: options.outputLimit ?? DEFAULT_OUTPUT_LIMIT,
  };

  const replies: ReplyView[] = [];
  const measurements: Measurement[] = [];
  let todos: TodoItem[] = [];
  let continuations = 0;
  const view = (): RunView => ({ handoff, replies, todos, elapsedMs: now(), continuations, measurements });

  const measure = async (state: unknown) => {
    const command = control.measureCommand?.(state) ?? null;
    if (command === null) return;
    const atMs = now();
    const result = await runCommand(command, {
      cwd: dir,
      env,
      sandbox,
      ...(runShell === null ? {} : { runShell }),
      timeoutMs: toolContext.shellTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS,
      outputLimit: toolContext.outputLimit ?? DEFAULT_OUTPUT_LIMIT,
      signal: runAbort.signal,
    });
    measurements.push({ command, exitCode: result.exitCode, output: result.output, atMs });
    await emit({ t: now(), type: "note", level: "info", text: `measure command \`${command}\` exited ${result.exitCode ?? "without a code"}` });
  };

  const finish = async (status: SettleStatus | "interrupted", reason: string, cause?: string): Promise<AgentRunOutcome> => {
    clearTimeout(wallTimer);
    options.signal?.removeEventListener("abort", onCallerAbort);
    const wallMs = now();
    await emit({ t: wallMs, type: "run.end", status, reason, ...(cause === undefined ? {} : { cause }), wallMs });
    return { status, reason, wallMs, ...(cause === undefined ? {} : { cause }) };
  };

  await emit({
    t: now(),
    type: "run.start",
    arm: arm.name,
    runIndex,
    seed,
    model: model.id,
    testDouble: model.isTestDouble,
    prefixHash: arm.prompt.prefixHash,
    prefixTokens: arm.prompt.prefixTokens,
    source: "armstudy",
    sandbox: describeSandbox(sandbox),
  });

  let state = control.initialState();
  await measure(state);
  const start = control.onRunStart?.(view(), state) ?? { state };
  state = start.state;
  await record(start.records);

  // Appended to, or rewritten through history.rewrite: the counter trusts its snapshots' marks (ADR 0169).
  const history = new History([{ role: "system", content: arm.prompt.text }]);
  const say = async (text: string, kind: "handoff" | "continuation" | "nudge") => {
    history.push({ role: "user", content: text });
    await emit({ t: now(), type: "user.message", text, kind });
  };
  await say(handoff, "handoff");
  if (start.message !== undefined) await say(start.message, "continuation");

  let round = 0;
  // A reply starts with nothing said, called or counted.
  const freshReply = (index: number): ReplyInProgress => ({ index, startedAtMs: now(), text: "", toolCalls: [], tokens: { input: 0, output: 0 }, newTokens: 0, uncounted: [], compactions: 0 });
  let reply = freshReply(0);

  // Set while the goal's wrap-up round after a hard cap runs: the cap it follows, requests left,
  // and after the wall cap the wall time the round has.
  let wrapUp = null as { cap: string; requestsLeft: number; wallMs?: number } | null;

  /** A cap a wrap-up round may follow (requests, tokens, cost), or null. */
  const softCap = (): CapReached | null => {
    if (round >= maxRounds) return { status: "budget_limited", reason: `hard cap: ${maxRounds} model requests reached` };
    return budget.reached();
  };

  /**
   * Stops on a hard cap or an abort; null while the run may go on. A request, token, cost or wall
   * cap reached inside a goal gives the goal its one wrap-up round (then "wrap_up": start it);
   * `beforeWrapUp` runs first (the reply's calls not yet run get their results).
   */
  const capped = async (beforeWrapUp?: () => Promise<void>): Promise<AgentRunOutcome | "wrap_up" | null> => {
    let why: { status: SettleStatus | "interrupted"; reason: string } | null = null;
    let wrappable = false;
    let wallCap = false;
    if (options.signal?.aborted) why = { status: "interrupted", reason: "the run was aborted" };
    else if (wallCapHit || now() >= wallDeadline) {
      if (wrapUp?.wallMs !== undefined) why = { status: "budget_limited", reason: `${wrapUp.cap}; the wrap-up round used its ${wrapUp.wallMs} ms` };
      else {
        why = { status: "budget_limited", reason: `hard cap: wall time ${maxWallMs} ms reached` };
        wallCap = wrappable = wrapUp === null && control.onHardCap !== undefined;
      }
    }
    if (why === null && budget.unpriced !== null) {
      why = { status: "error", reason: `limits.maxCostUsd is set, but the price table has no price for model "${budget.unpriced}"; add it or remove the cost cap` };
    }
    if (why !== null) {
      // A stop found above; the request, token and cost caps are not asked.
    } else if (wrapUp !== null) {
      if (wrapUp.requestsLeft <= 0) why = { status: "budget_limited", reason: `${wrapUp.cap}; the wrap-up round used its ${WRAP_UP_REQUESTS} requests` };
    } else {
      why = softCap();
      wrappable = why !== null && control.onHardCap !== undefined;
    }
    if (why === null) return null;
    const out = wrappable ? control.onHardCap!(view(), state, { reason: why.reason, nowMs: now() }) : null;
    if (out?.decision.kind === "continue") await beforeWrapUp?.();
    await emit({ t: now(), type: "reply.end", reason: "interrupted", errorMessage: why.reason });
    if (out !== null) {
      state = out.state;
      await record(out.records);
      if (out.decision.kind === "continue") {
        await emit({ t: now(), type: "policy.decision", policy: HARD_CAP, decision: "continue", reason: `${why.reason}; ${out.decision.reason}` });
        wrapUp = { cap: why.reason, requestsLeft: WRAP_UP_REQUESTS };
        if (wallCap) {
          // The cap's signal has fired: the round gets a fresh one, and a timer of its own that ends it for good.
          const ms = options.wrapUpWallMs ?? wrapUpWallMs(maxWallMs);
          wrapUp.wallMs = ms;
          runAbort = new AbortController();
          toolContext.signal = runAbort.signal;
          wallCapHit = false;
          wallDeadline = now() + ms;
          clearTimeout(wallTimer);
          wallTimer = startWallTimer(ms);
        }
        continuations += 1;
        await say(out.decision.message, out.decision.messageKind);
        reply = freshReply(reply.index + 1);
        return "wrap_up";
      }
    }
    await emit({ t: now(), type: "policy.decision", policy: HARD_CAP, decision: "settle", reason: why.reason, status: why.status === "interrupted" ? "interrupted" : why.status });
    return finish(why.status, why.reason);
  };

  for (;;) {
    const stop = await capped();
    if (stop === "wrap_up") continue;
    if (stop !== null) return stop;
    if (wrapUp !== null) wrapUp.requestsLeft -= 1;

    // 1. One model request.
    const policyTools: ToolSpec[] = control.tools?.(state) ?? [];
    const policyToolNames = new Set(policyTools.map((tool) => tool.name));
    const tools = policyTools.length === 0 ? toolbox.specs() : [...toolbox.specs(), ...policyTools];
    if (contextManager !== null) {
      const { made, fits } = await contextManager.fit({
        history,
        tools,
        meta: { runIndex, round },
        signal: runAbort.signal,
        now,
        emit,
        spent: (name, usage, counted) => budget.add(name, usage, counted),
      });
      reply.compactions += made;
      // Too many compactions in one reply, or a request that still does not fit: hand off.
      if ((made > 0 && reply.compactions >= contextManager.settings.maxPerReply) || (!fits && reply.toolCalls.length > 0)) {
        await handOffFromCheckpoint(
          fits
            ? `context: ${reply.compactions} compactions in one reply; the run goes on from a checkpoint`
            : `context: the request is still over ${contextManager.settings.limit} tokens after compacting; the run goes on from a checkpoint`,
        );
        continue;
      }
    }
    const sent = history.snapshot();
    const request: ModelRequest = {
      messages: sent.messages,
      tools,
      meta: { runIndex, round, purpose: "agent" },
    };
    const countedInput = counter.request(request, sent.mark);
    const requestStart = now();
    let answer: ModelReply;
    try {
      answer = await model.complete(request, runAbort.signal);
    } catch (error) {
      // The contract says a client never throws; a broken one still must not crash the study.
      answer = { text: "", toolCalls: [], stop: "error", usage: { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "estimated" }, errorMessage: errorText(error) };
    }
    const countedOutput = counter.reply(answer);
    budget.add(answer.model ?? model.id, answer.usage, { input: countedInput, output: countedOutput });
    round += 1;
    reply.tokens.input += countedInput;
    reply.tokens.output += countedOutput;
    reply.newTokens += countedOutput;
    for (const retry of answer.retries ?? []) {
      const { attempt, cause, message, waitMs } = retry;
      await emit({ t: requestStart + retry.atMs, type: "model.retry", round: round - 1, attempt, cause, message, waitMs });
    }
    await emit({
      t: now(),
      type: "model.request",
      round: round - 1,
      counted: { input: countedInput, output: countedOutput },
      input: answer.usage.input,
      cachedInput: answer.usage.cachedInput,
      ...(answer.usage.cacheWrite === undefined ? {} : { cacheWrite: answer.usage.cacheWrite }),
      output: answer.usage.output,
      reasoning: answer.usage.reasoning,
      usageSource: answer.usage.source,
      durationMs: Math.max(0, now() - requestStart),
      ...(answer.model === undefined ? {} : { model: answer.model }),
      stop: answer.stop,
      purpose: "agent",
    });
    // A missing or broken cassette is armstudy's fault, not the agent's: stop, don't score it.
    const fault = harnessFault(answer);
    if (fault !== undefined) throw new HarnessFaultError(fault, answer.errorMessage ?? fault);
    // A model that could not be used is a fault, not the arm's result: the run ends as `error` (ADR 0081).
    if (answer.stop === "error" && answer.fault !== undefined && !runAbort.signal.aborted) {
      const message = answer.errorMessage ?? answer.fault;
      await emit({ t: now(), type: "reply.end", reason: "error", errorMessage: message });
      return finish("error", message, answer.fault);
    }

    // 2. What the reply says, and whether it ends here.
    let endReason: ReplyEndReason | null = null;
    let errorMessage: string | undefined;
    if (answer.stop === "aborted" || runAbort.signal.aborted) {
      const stopped = await capped();
      if (stopped === "wrap_up") continue;
      if (stopped !== null) return stopped;
      endReason = "error";
      errorMessage = answer.errorMessage ?? "the request was aborted";
    } else if (answer.stop === "error" || answer.stop === "usage_limit") {
      endReason = answer.stop;
      errorMessage = answer.errorMessage ?? answer.stop;
    }
    const toolCalls = endReason === null ? answer.toolCalls : [];
    if (answer.text !== "") {
      reply.text = answer.text;
      await emit({ t: now(), type: "assistant.text", text: answer.text, final: toolCalls.length === 0 });
    }
    if (endReason === null) {
      history.push(toolCalls.length === 0 ? { role: "assistant", content: answer.text } : { role: "assistant", content: answer.text, toolCalls });
    }
    if (endReason === null && toolCalls.length === 0) endReason = "no_tool_call";

    // 3. Tool calls, in order; every call gets its result before the reply can end.
    let stepStop: string | null = null;
    let asked = false;
    let wrapping = false;
    for (const [index, call] of toolCalls.entries()) {
      // The wall cap holds between tool calls too: a reply with thousands of calls cannot outrun it.
      if (wallCapHit || runAbort.signal.aborted) {
        // Before a wrap-up round's message every call gets a result: the rest are not run.
        const stopped = await capped(async () => {
          for (const skipped of toolCalls.slice(index)) await runTool(skipped, "not run: the run's wall time ran out");
        });
        if (stopped === "wrap_up") {
          wrapping = true;
          break;
        }
        if (stopped !== null) return stopped;
      }
      const outcome = await runTool(call);
      if (outcome.question !== undefined) asked = true;
      const current = reply;
      const stepped =
        control.onStep?.(
          view(),
          {
            index: current.index,
            toolCalls: current.toolCalls,
            startedAtMs: current.startedAtMs,
            nowMs: now(),
            get newTokens() {
              for (const message of current.uncounted) current.newTokens += counter.message(message);
              current.uncounted.length = 0;
              return current.newTokens;
            },
          },
          state,
        ) ?? { state };
      state = stepped.state;
      await record(stepped.records);
      if (stepped.stop !== undefined) stepStop ??= stepped.stop.reason;
    }
    if (wrapping) continue;
    if (endReason === null && asked) endReason = "ask_user";
    if (endReason === null && stepStop !== null) endReason = "slice_budget";
    if (endReason === null) continue;

    // 4. The reply ended: record it, let the control decide.
    await emit({ t: now(), type: "reply.end", reason: endReason, ...(errorMessage === undefined ? {} : { errorMessage }) });
    replies.push({
      index: reply.index,
      text: reply.text,
      toolCalls: reply.toolCalls,
      endReason,
      ...(errorMessage === undefined ? {} : { errorMessage }),
      startedAtMs: reply.startedAtMs,
      endedAtMs: now(),
      tokens: reply.tokens,
    });
    await measure(state);
    const ended = control.onReplyEnd(view(), state);
    state = ended.state;
    await record(ended.records);
    let decision: PolicyDecision = ended.decision;
    await emit(decisionEvent(decision, control.name, now()));

    if (decision.kind === "check_claim") {
      const checkStart = now();
      const result = await checkClaim({
        model,
        objective: decision.objective ?? handoff,
        claim: decision.claim,
        view: view(),
        mode: checkMode,
        meta: { runIndex, round },
        signal: runAbort.signal,
      });
      if (result.request !== undefined && result.reply !== undefined) {
        const usage = result.reply.usage;
        const checkCounted = { input: counter.request(result.request), output: counter.reply(result.reply) };
        budget.add(result.reply.model ?? model.id, usage, checkCounted);
        await emit({
          t: now(),
          type: "model.request",
          round,
          counted: checkCounted,
          input: usage.input,
          cachedInput: usage.cachedInput,
          ...(usage.cacheWrite === undefined ? {} : { cacheWrite: usage.cacheWrite }),
          output: usage.output,
          reasoning: usage.reasoning,
          usageSource: usage.source,
          durationMs: Math.max(0, now() - checkStart),
          ...(result.reply.model === undefined ? {} : { model: result.reply.model }),
          stop: result.reply.stop,
          purpose: "claim_check",
        });
      }
      await emit({ t: now(), ...claimCheckRecord(result) });
      // A claim check the model could not answer is a fault too: accepting the claim unchecked would score it (ADR 0081).
      const checkFault = result.reply?.stop === "error" ? result.reply.fault : undefined;
      if (checkFault !== undefined && !runAbort.signal.aborted) return finish("error", result.reply?.errorMessage ?? checkFault, checkFault);
      if (control.onClaimVerdict === undefined) {
        decision = { kind: "settle", status: "error", reason: `the control "${control.name}" asked for a claim check but cannot take its verdict` };
      } else {
        const judged = control.onClaimVerdict(result, state, { nowMs: now() });
        state = judged.state;
        await record(judged.records);
        decision = judged.decision;
      }
      await emit(decisionEvent(decision, control.name, now()));
    }

    switch (decision.kind) {
      case "settle":
        return finish(decision.status, decision.reason);
      case "continue":
        continuations += 1;
        await say(decision.message, decision.messageKind);
        reply = freshReply(reply.index + 1);
        break;
      case "check_claim":
        // A verdict never asks for another check (contract); treat a second ask as a fault.
        return finish("error", `the control "${control.name}" answered a claim verdict with another claim check`);
      default: {
        const unknown: never = decision;
        return finish("error", `unknown policy decision ${JSON.stringify(unknown)}`);
      }
    }
  }

  /**
   * After `maxPerReply` compactions in one reply (STUDY-0003 P5): the reply ends, and the run goes
   * on from the handoff and a checkpoint written from the record instead of compacting again.
   */
  async function handOffFromCheckpoint(why: string): Promise<void> {
    await emit({ t: now(), type: "reply.end", reason: "slice_budget", errorMessage: why });
    replies.push({ index: reply.index, text: reply.text, toolCalls: reply.toolCalls, endReason: "slice_budget", startedAtMs: reply.startedAtMs, endedAtMs: now(), tokens: reply.tokens });
    const text = contextCheckpoint(view(), reply.compactions);
    await emit({ t: now(), type: "policy.decision", policy: "context", decision: "continue", reason: why });
    // Keep the system prompt, the handoff and the latest summary of earlier turns; the checkpoint follows.
    const summary = history.messages.findLast((m) => m.role === "user" && m.content.startsWith(SUMMARY_MARK));
    history.rewrite((messages) => {
      messages.splice(2);
      if (summary !== undefined) messages.push(summary);
    });
    continuations += 1;
    await say(text, "continuation");
    reply = freshReply(reply.index + 1);
  }

  /** Runs one tool call (a built-in tool or a policy's), records it, and feeds the result back. */
  async function runTool(call: ToolCall, notRun?: string): Promise<ToolOutcome> {
    await emit({ t: now(), type: "tool.call", id: call.id, name: call.name, arguments: call.arguments });
    const callStart = now();
    let outcome: ToolOutcome;
    // A policy tool's records follow its tool.result in the record.
    let policyRecords: readonly PolicyRecord[] | undefined;
    const policyTools = control.tools?.(state) ?? [];
    if (notRun !== undefined) {
      outcome = { ok: false, output: notRun };
    } else if (control.onToolCall !== undefined && policyTools.some((tool) => tool.name === call.name)) {
      const answered = control.onToolCall({ id: call.id, name: call.name, arguments: call.arguments }, state, { nowMs: now() });
      state = answered.state;
      outcome = { ok: answered.result.ok, output: answered.result.output };
      policyRecords = answered.records;
    } else {
      // A real timer: a long command shows as beats on the record, not as silence (ADR-0078).
      const beat = setInterval(() => {
        // A failed write surfaces at the next awaited event; the timer itself never throws.
        emit({ t: now(), type: "heartbeat", activeTools: [call.name], oldestToolMs: Math.max(0, now() - callStart) }).catch(() => undefined);
      }, heartbeatMs);
      try {
        outcome = await toolbox.run(call, toolContext);
      } finally {
        clearInterval(beat);
      }
    }
    await emit({
      t: now(),
      type: "tool.result",
      id: call.id,
      name: call.name,
      ok: outcome.ok,
      ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
      output: outcome.output,
      durationMs: Math.max(0, now() - callStart),
      ...(outcome.changedFiles === undefined ? {} : { changedFiles: outcome.changedFiles }),
    });
    await record(policyRecords);
    if (outcome.plan !== undefined) {
      todos = outcome.plan.map((item) => ({ text: item.text, status: item.status }));
      await emit({ t: now(), type: "plan.update", items: todos });
    }
    const toolMessage: Message = { role: "tool", toolCallId: call.id, name: call.name, content: outcome.output };
    history.push(toolMessage);
    reply.uncounted.push(toolMessage);
    reply.toolCalls.push({
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      ok: outcome.ok,
      ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
      output: outcome.output,
      changedFiles: (outcome.changedFiles?.length ?? 0) > 0,
      ...(outcome.changedFiles === undefined ? {} : { changedPaths: outcome.changedFiles }),
      isCommand: outcome.isCommand === true,
    });
    return outcome;
  }
}

/** The `policy.decision` record of a decision (`nudge` for a continue sent as a nudge). */
function decisionEvent(decision: PolicyDecision, controlName: string, t: number): RunEvent {
  const kind = decision.kind === "continue" && decision.messageKind === "nudge" ? "nudge" : decision.kind;
  return {
    t,
    type: "policy.decision",
    policy: decision.policy ?? controlName,
    decision: kind,
    reason: decision.reason,
    ...(decision.kind === "settle" ? { status: decision.status } : {}),
  };
}

/**
 * The arm's policies with its goal limits (arm.yaml `goal:`) given to the `goal` policy, unless the
 * policy's own options already set them.
 */
export function policiesOf(arm: LoadedArm): PolicySpec[] {
  const limits = arm.goal;
  if (limits === undefined) return arm.policies;
  return arm.policies.map((spec) =>
    spec.name === "goal"
      ? {
          ...spec,
          options: {
            ...(limits.rounds === undefined ? {} : { rounds: limits.rounds }),
            ...(limits.hours === undefined ? {} : { hours: limits.hours }),
            ...spec.options,
          },
        }
      : spec,
  );
}
