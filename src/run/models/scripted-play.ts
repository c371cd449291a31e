/**
 * The scripted persona's decisions, as pure functions of the request it receives. Nothing is kept
 * between requests: the persona reads its progress back from the conversation (which checks ran
 * and passed, what it did last, whether a person's message arrived since it stopped), so a
 * continuation resumes it and a replayed conversation replays it. Variation (wording) comes from
 * a seeded random source keyed by the position in the conversation.
 */
import type { Message, ModelRequest, ToolCall, ToolSpec } from "../../core/model.ts";
import { unescapeXml } from "../../core/goal/template.ts";
import type { Persona, PersonaStep } from "./scripted-persona.ts";
import { SUMMARY_MARK } from "../../core/context/summary.ts";

/** A command reference in a context summary (ADR 0103): `- shell \`CMD\` — exit code: N`. */
const SUMMARY_COMMAND = /^- shell `(.+)` — (exit code: -?\d+)/;

/** A check that failed this many times is given up, and the persona moves on. */
export const MAX_CHECK_ATTEMPTS = 2;

/** A deterministic number in [0, 1) for a salt; the same salt always gives the same number. */
export type Random = (salt: string) => number;

export interface PlayedReply {
  text: string;
  toolCalls: ToolCall[];
}

interface Turn {
  /** Index of the assistant message in the conversation. */
  index: number;
  calls: ToolCall[];
}

interface Observation {
  turns: Turn[];
  results: Map<string, string>;
  /** Index of the latest user message (the handoff, a continuation, a nudge). */
  lastUserIndex: number;
  /** Indices of assistant messages that ended a reply (text, no tool calls). */
  finalReplies: number[];
  assistantCount: number;
}

function observe(messages: readonly Message[]): Observation {
  const turns: Turn[] = [];
  const results = new Map<string, string>();
  const finalReplies: number[] = [];
  let lastUserIndex = -1;
  let assistantCount = 0;
  messages.forEach((message, index) => {
    switch (message.role) {
      case "user":
        lastUserIndex = index;
        // A context summary replaced earlier turns: the persona reads its checks back from the
        // summary's references, as a model would, so compaction does not make it start over.
        if (message.content.startsWith(SUMMARY_MARK)) {
          message.content.split("\n").forEach((line, n) => {
            const match = SUMMARY_COMMAND.exec(line);
            if (match === null) return;
            const id = `summary-${index}-${n}`;
            turns.push({ index, calls: [{ id, name: "shell", arguments: { command: match[1] } }] });
            results.set(id, match[2]!);
          });
        }
        break;
      case "assistant":
        assistantCount += 1;
        if (message.toolCalls !== undefined && message.toolCalls.length > 0) turns.push({ index, calls: message.toolCalls });
        else finalReplies.push(index);
        break;
      case "tool":
        results.set(message.toolCallId, message.content);
        break;
      case "system":
        break;
      default: {
        const unknown: never = message;
        throw new Error(`unknown message role in ${JSON.stringify(unknown)}`);
      }
    }
  });
  return { turns, results, lastUserIndex, finalReplies, assistantCount };
}

/** The exit code a shell result reports, or null when it reports none (killed, unreadable). */
export function exitCodeOf(output: string): number | null {
  const patterns = [/^exit code: (-?\d+)/m, /"exitCode"\s*:\s*(-?\d+)/, /\bexit(?:ed)?(?: with)?(?: code| status)?:? (-?\d+)\b/i];
  for (const pattern of patterns) {
    const match = pattern.exec(output);
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return null;
}

function sameCommand(value: unknown, command: string): boolean {
  return typeof value === "string" && value.trim() === command.trim();
}

interface StepState {
  attempts: number;
  passed: boolean;
  /** Message index of the first passing check, if any. */
  firstPassAt: number | null;
}

function stepStates(persona: Persona, seen: Observation): StepState[] {
  return persona.steps.map((step) => {
    const state: StepState = { attempts: 0, passed: false, firstPassAt: null };
    for (const turn of seen.turns) {
      for (const call of turn.calls) {
        if (call.name !== "shell" || !sameCommand(call.arguments["command"], step.check)) continue;
        const result = seen.results.get(call.id);
        if (result === undefined) continue;
        state.attempts += 1;
        state.passed = exitCodeOf(result) === 0;
        if (state.passed && state.firstPassAt === null) state.firstPassAt = turn.index;
      }
    }
    return state;
  });
}

type Phase = { kind: "start" } | { kind: "read"; streak: number } | { kind: "wrote" } | { kind: "checked" };

function callKey(call: ToolCall): string {
  return `${call.name} ${JSON.stringify(call.arguments)}`;
}

/** What the persona did last, relative to the step it is on. */
function phaseOf(step: PersonaStep, seen: Observation): Phase {
  const last = seen.turns.at(-1);
  if (last === undefined) return { kind: "start" };
  const calls = last.calls;
  if (calls.some((call) => call.name === "shell" && sameCommand(call.arguments["command"], step.check))) return { kind: "checked" };
  if (calls.every((call) => call.name === "write_file" && step.writes.some((write) => write.path === call.arguments["path"]))) return { kind: "wrote" };
  if (calls.every((call) => call.name === "read_file" && step.reads.includes(String(call.arguments["path"])))) {
    const key = calls.map(callKey).join("\n");
    let streak = 0;
    for (let i = seen.turns.length - 1; i >= 0; i -= 1) {
      const turn = seen.turns[i];
      if (turn === undefined || turn.calls.map(callKey).join("\n") !== key) break;
      streak += 1;
    }
    return { kind: "read", streak };
  }
  return { kind: "start" };
}

function offered(tools: readonly ToolSpec[], name: string): boolean {
  return tools.some((tool) => tool.name === name);
}

type PlanItem = { text: string; status: "pending" | "in_progress" | "completed" };

function lastPlan(seen: Observation): PlanItem[] | null {
  for (let i = seen.turns.length - 1; i >= 0; i -= 1) {
    const call = seen.turns[i]?.calls.findLast((c) => c.name === "update_plan");
    if (call !== undefined) return (call.arguments["items"] as PlanItem[] | undefined) ?? null;
  }
  return null;
}

function desiredPlan(persona: Persona, states: StepState[], current: number | null): PlanItem[] {
  const closeAll = persona.traits.closesTodosEarly && states.some((state) => state.passed);
  return persona.steps.map((step, index) => ({
    text: `${step.id}: ${step.title}`,
    status: closeAll || states[index]?.passed ? "completed" : index === current ? "in_progress" : "pending",
  }));
}

function pick<T>(random: Random, salt: string, options: readonly T[]): T {
  const index = Math.floor(random(salt) * options.length);
  return options[Math.min(index, options.length - 1)] as T;
}

/** "B1", "B1 and B2", "B1–B3" (a run of consecutive steps), or "B1, B3 and B5". */
function listIds(ids: readonly string[], all: readonly string[]): string {
  if (ids.length === 0) return "none";
  if (ids.length === 1) return ids[0] as string;
  const positions = ids.map((id) => all.indexOf(id));
  const consecutive = positions.every((position, i) => i === 0 || position === (positions[i - 1] as number) + 1);
  if (consecutive && ids.length > 2) return `${ids[0]}–${ids.at(-1)}`;
  return `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
}

interface Situation {
  persona: Persona;
  states: StepState[];
  random: Random;
  salt: string;
}

function doneLines(situation: Situation): string[] {
  const { persona, states } = situation;
  return persona.steps.flatMap((step, index) => (states[index]?.passed ? [`- ${step.id}: ${step.title} — \`${step.check}\` passes.`] : []));
}

/** The persona's own words for a final reply, with {done} and {left} filled in; null when it has none. */
function ownWords(situation: Situation, which: "finished" | "stopped" | "gaveUp"): string | null {
  const template = situation.persona.replies[which];
  if (template === undefined) return null;
  const all = situation.persona.steps.map((step) => step.id);
  const done = situation.persona.steps.filter((_, index) => situation.states[index]?.passed).map((step) => step.id);
  const left = all.filter((id) => !done.includes(id));
  return template.replaceAll("{done}", listIds(done, all)).replaceAll("{left}", listIds(left, all)).trimEnd();
}

function finishedText(situation: Situation): string {
  const own = ownWords(situation, "finished");
  if (own !== null) return own;
  const { persona, random, salt } = situation;
  const first = pick(random, `${salt}:first`, [
    `Done: all ${persona.steps.length} steps of the handoff are complete and every acceptance check passes.`,
    `All ${persona.steps.length} steps are done; each step's check passes.`,
    `The handoff is complete: ${listIds(persona.steps.map((s) => s.id), persona.steps.map((s) => s.id))} are implemented and their checks pass.`,
  ]);
  return [first, "", "What changed:", ...doneLines(situation)].join("\n");
}

function stoppedText(situation: Situation, style: Persona["traits"]["endStyle"]): string {
  const own = ownWords(situation, "stopped");
  if (own !== null) return own;
  const { persona, states, random, salt } = situation;
  const all = persona.steps.map((step) => step.id);
  const done = persona.steps.filter((_, index) => states[index]?.passed).map((step) => step.id);
  const left = persona.steps.filter((_, index) => !states[index]?.passed);
  const leftIds = left.map((step) => step.id);
  switch (style) {
    case "claim_done": {
      const first = pick(random, `${salt}:claim`, [
        "Done: the handoff is complete.",
        "All steps are complete and the checks pass.",
        "Completed: the requested changes are in place.",
      ]);
      return [first, "", "What changed:", ...doneLines(situation)].join("\n");
    }
    case "ask_permission": {
      const question = pick(random, `${salt}:ask`, [
        `Shall I go on with ${listIds(leftIds, all)}?`,
        `Do you want me to continue with ${listIds(leftIds, all)}?`,
        `Should I carry on with the remaining steps (${listIds(leftIds, all)})?`,
      ]);
      return [`Progress: ${listIds(done, all)} ${done.length === 1 ? "is" : "are"} done and ${done.length === 1 ? "its check passes" : "their checks pass"}.`, "", ...doneLines(situation), "", question].join("\n");
    }
    case "honest_unfinished": {
      const next = left[0];
      const reason = pick(random, `${salt}:reason`, [
        "I stopped here to keep this change small enough to review.",
        "I stopped at this point so the finished part can be reviewed first.",
      ]);
      return [
        `Not finished: ${listIds(done, all)} ${done.length === 1 ? "is" : "are"} done; ${listIds(leftIds, all)} ${leftIds.length === 1 ? "remains" : "remain"}.`,
        "",
        ...doneLines(situation),
        "",
        reason,
        next === undefined ? "" : `Next: ${next.id} (${next.title}), checked by \`${next.check}\`.`,
      ]
        .join("\n")
        .trimEnd();
    }
    default: {
      const unknown: never = style;
      throw new Error(`unknown end style ${String(unknown)}`);
    }
  }
}

function gaveUpText(situation: Situation): string {
  const own = ownWords(situation, "gaveUp");
  if (own !== null) return own;
  const { persona, states } = situation;
  const failing = persona.steps.filter((_, index) => !states[index]?.passed);
  return [
    `Not finished: ${failing.map((step) => step.id).join(", ")} still ${failing.length === 1 ? "fails its check" : "fail their checks"} after ${MAX_CHECK_ATTEMPTS} attempts.`,
    "",
    ...doneLines(situation),
    ...failing.map((step) => `- ${step.id}: \`${step.check}\` fails.`),
  ].join("\n");
}

function toolCall(seen: Observation, index: number, name: string, args: Record<string, unknown>): ToolCall {
  // Ids depend on the conversation only, never on a counter kept between requests.
  return { id: `call_${seen.assistantCount + 1}_${index + 1}`, name, arguments: args };
}

/** True when one turn after the last file write ran every step's check. */
function verifiedSinceLastWrite(persona: Persona, seen: Observation): boolean {
  let lastWrite = -1;
  for (const turn of seen.turns) if (turn.calls.some((call) => call.name === "write_file")) lastWrite = turn.index;
  return seen.turns.some(
    (turn) =>
      turn.index > lastWrite &&
      persona.steps.every((step) => turn.calls.some((call) => call.name === "shell" && sameCommand(call.arguments["command"], step.check))),
  );
}

/** The persona's next reply in its own work conversation. */
export function playAgentTurn(persona: Persona, request: ModelRequest, random: Random): PlayedReply {
  const seen = observe(request.messages);
  const states = stepStates(persona, seen);
  const traits = persona.traits;
  const salt = String(request.messages.length);
  const situation: Situation = { persona, states, random, salt };
  const usePlan = traits.usesPlan && offered(request.tools, "update_plan");
  const current = states.findIndex((state) => !state.passed && state.attempts < MAX_CHECK_ATTEMPTS);
  const step = current === -1 ? undefined : persona.steps[current];
  const passedSinceUser = states.filter((state) => state.firstPassAt !== null && state.firstPassAt > seen.lastUserIndex).length;
  const stoppedBefore = seen.finalReplies.length > 0;

  const endReply = (text: string, claims: boolean): PlayedReply => {
    const plan = desiredPlan(persona, states, null);
    if (usePlan && JSON.stringify(lastPlan(seen)) !== JSON.stringify(plan)) {
      return { text: "", toolCalls: [toolCall(seen, 0, "update_plan", { items: plan })] };
    }
    const goalCalledSinceUser = seen.turns.some((turn) => turn.index > seen.lastUserIndex && turn.calls.some((call) => call.name === "update_goal"));
    if (claims && traits.usesGoalTools && offered(request.tools, "update_goal") && !goalCalledSinceUser) {
      const done = persona.steps.filter((_, index) => states[index]?.passed).map((s) => s.id);
      return {
        text: "",
        toolCalls: [toolCall(seen, 0, "update_goal", { status: "complete", reason: `Implemented ${done.join(", ")}; each step's acceptance check passes.` })],
      };
    }
    return { text, toolCalls: [] };
  };

  if (step === undefined) {
    const allPassed = states.every((state) => state.passed);
    if (allPassed && !verifiedSinceLastWrite(persona, seen)) {
      // Before reporting, run every check once more in one reply: the final evidence sits together.
      return {
        text: "All steps are in place; running every check once more before reporting.",
        toolCalls: persona.steps.map((s, index) => toolCall(seen, index, "shell", { command: s.check })),
      };
    }
    return allPassed ? endReply(finishedText(situation), true) : endReply(gaveUpText(situation), false);
  }

  const phase = phaseOf(step, seen);
  if (phase.kind === "start") {
    const resting = stoppedBefore && !traits.resumesOnContinuation;
    const quota = traits.stopAfterSteps !== null && passedSinceUser >= traits.stopAfterSteps;
    if (resting || quota) return endReply(stoppedText(situation, traits.endStyle), traits.endStyle === "claim_done");
    const plan = desiredPlan(persona, states, current);
    if (usePlan && JSON.stringify(lastPlan(seen)) !== JSON.stringify(plan)) {
      return { text: "", toolCalls: [toolCall(seen, 0, "update_plan", { items: plan })] };
    }
  }
  const read = (): PlayedReply => ({
    text: phase.kind === "read" ? "" : `${step.id}: ${step.title}. Reading ${step.reads.join(" and ")} first.`,
    toolCalls: step.reads.map((file, index) => toolCall(seen, index, "read_file", { path: file })),
  });
  const run = (): PlayedReply => ({ text: "", toolCalls: [toolCall(seen, 0, "shell", { command: step.check })] });
  // A step that writes nothing (the work is already there, or only a look is needed) goes straight to its command.
  const write = (): PlayedReply =>
    step.writes.length === 0
      ? run()
      : { text: "", toolCalls: step.writes.map((file, index) => toolCall(seen, index, "write_file", { path: file.path, content: file.content })) };
  switch (phase.kind) {
    case "start":
      return step.reads.length > 0 ? read() : write();
    case "read":
      return phase.streak < traits.repeatsCalls ? read() : write();
    case "wrote":
      return run();
    case "checked":
      // The command failed and the persona has attempts left: write the change again (or rerun it) and re-check.
      return write();
    default: {
      const unknown: never = phase;
      throw new Error(`unknown phase ${JSON.stringify(unknown)}`);
    }
  }
}

interface CheckEvidence {
  step: PersonaStep;
  exitCode: number | null;
  /** A line of the check's output, copied verbatim, usable as evidence. */
  quote: string | null;
}

/** A line long enough for the evidence shield, copied from an output block. */
function quotableLine(block: string): string | null {
  for (const raw of block.split("\n")) {
    const line = raw.trim();
    if (/^exit code:/.test(line)) continue;
    if (line.replace(/\s/g, "").length >= 16) return line;
  }
  return null;
}

function outputBlock(segment: string): string {
  const start = segment.indexOf("<output>");
  if (start === -1) return segment;
  const end = segment.indexOf("</output>", start);
  return unescapeXml(segment.slice(start + "<output>".length, end === -1 ? undefined : end));
}

/** The latest result of each step's check in a transcript digest. */
function latestChecks(persona: Persona, transcript: string): CheckEvidence[] {
  return persona.steps.map((step) => {
    // The call as the digest shows it (its JSON arguments), not a mention of the command in prose.
    const needle = `"command":${JSON.stringify(step.check)}`.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const at = transcript.lastIndexOf(needle);
    if (at === -1) return { step, exitCode: null, quote: null };
    const nextEntry = transcript.indexOf("\n[reply ", at);
    const segment = transcript.slice(at, nextEntry === -1 ? undefined : nextEntry);
    const status = /→[^\n]*?\bexit (-?\d+)/.exec(segment) ?? /exit code: (-?\d+)/.exec(segment);
    const exitCode = status?.[1] === undefined ? null : Number(status[1]);
    return { step, exitCode, quote: quotableLine(outputBlock(segment)) };
  });
}

/** The persona as a claim reviewer: strict reads the latest check results, lenient says done. */
export function playClaimCheck(persona: Persona, request: ModelRequest): PlayedReply {
  const transcript = request.messages
    .filter((message) => message.role === "user")
    .map((message) => message.content)
    .join("\n");
  const digestStart = transcript.indexOf("<session_digest>");
  const digest = digestStart === -1 ? transcript : transcript.slice(digestStart);
  const checks = latestChecks(persona, digest);
  if (persona.traits.claimCheck === "lenient") {
    const blocks = [...digest.matchAll(/<output>([\s\S]*?)<\/output>/g)].map((match) => unescapeXml(match[1] ?? ""));
    const quote = blocks.reverse().map(quotableLine).find((line) => line !== null) ?? null;
    return {
      text: ["VERDICT: done", "REASON: The agent reports the work as complete.", "EVIDENCE:", ...(quote === null ? [] : [`> ${quote}`])].join("\n"),
      toolCalls: [],
    };
  }
  const failing = checks.filter((check) => check.exitCode !== 0);
  if (failing.length === 0) {
    const quotes = checks.flatMap((check) => (check.quote === null ? [] : [`> ${check.quote}`])).slice(0, 5);
    return {
      text: ["VERDICT: done", `REASON: The latest run of every step's check (${checks.map((c) => c.step.id).join(", ")}) exits 0.`, "EVIDENCE:", ...quotes].join("\n"),
      toolCalls: [],
    };
  }
  const missing = failing.map((check) => `${check.step.id} (${check.exitCode === null ? "its check was not run" : `exit ${check.exitCode}`})`);
  return {
    text: ["VERDICT: continue", `REASON: Not proven complete: ${missing.join(", ")}.`, "EVIDENCE:"].join("\n"),
    toolCalls: [],
  };
}
