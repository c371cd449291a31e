/**
 * The scripted test double in a plan run (ADR 0104, ADR 0125): offered read-only tools, it reads
 * the files its steps name, then decides from what those reads returned. A step whose `exists`
 * text is in what it read of the step's files is already done; the reply plans the steps that are
 * not (in a block it leaves open when the persona `leavesPlanOpen`), or, when every step is done,
 * says there is nothing to plan. Sent back once, it closes the block it left open, or, told that a
 * block is required, wraps a plan that only restates the request (the fabricated plan ADR-0077
 * describes). Nothing here is drawn by seed: the ending follows from the repository the run
 * started from, the persona's data and the arm's rule. Its choices are test material, not a model's.
 */
import type { ModelRequest, ToolCall } from "../../core/model.ts";
import type { Persona, PersonaStep } from "./scripted-persona.ts";
import type { PlayedReply } from "./scripted-play.ts";

/** A request with no way to change anything (no shell, no write): the double plays a plan run. */
export function isPlanRequest(request: ModelRequest): boolean {
  const names = new Set(request.tools.map((tool) => tool.name));
  return names.has("read_file") && !names.has("write_file") && !names.has("edit_file") && !names.has("shell");
}

const planLines = (steps: readonly PersonaStep[]): string => steps.map((step, i) => `${i + 1}. ${step.id}: ${step.title}.`).join("\n");

/** What the conversation holds: each path read and what the read returned (a failed read: nothing). */
function readsOf(request: ModelRequest): { read: Map<string, string>; lastFinal: { index: number; text: string } | null } {
  const pathOfCall = new Map<string, string>();
  const read = new Map<string, string>();
  let lastFinal: { index: number; text: string } | null = null;
  request.messages.forEach((message, index) => {
    if (message.role === "assistant") {
      for (const call of message.toolCalls ?? []) if (call.name === "read_file") pathOfCall.set(call.id, String(call.arguments["path"]));
      if ((message.toolCalls ?? []).length === 0) lastFinal = { index, text: message.content };
    } else if (message.role === "tool") {
      const path = pathOfCall.get(message.toolCallId);
      if (path !== undefined) read.set(path, `${read.get(path) ?? ""}${message.content}`);
    }
  });
  return { read, lastFinal };
}

export function playPlanTurn(persona: Persona, request: ModelRequest): PlayedReply {
  const { read, lastFinal } = readsOf(request);

  // Sent back after a final reply: the one repair turn.
  const ended = lastFinal as { index: number; text: string } | null;
  if (ended !== null && request.messages.slice(ended.index + 1).some((m) => m.role === "user")) {
    if (ended.text.includes("<proposed_plan>") && !ended.text.includes("</proposed_plan>")) return { text: `${ended.text.trimEnd()}\n</proposed_plan>`, toolCalls: [] };
    return { text: `<proposed_plan>\n1. Confirm that the requested work is in place.\n2. Report it.\n</proposed_plan>`, toolCalls: [] };
  }

  const next = persona.steps.flatMap((step) => step.reads).find((path) => !read.has(path));
  if (next !== undefined) {
    const call: ToolCall = { id: `plan-read-${read.size + 1}`, name: "read_file", arguments: { path: next } };
    return { text: "", toolCalls: [call] };
  }
  const done = (step: PersonaStep): boolean => step.exists !== null && step.reads.some((path) => (read.get(path) ?? "").includes(step.exists as string));
  const found = persona.steps.filter(done);
  const missing = persona.steps.filter((step) => !done(step));
  const files = [...read.keys()].map((path) => `\`${path}\``).join(", ");
  const foundLine = found.length === 0 ? "" : `\n\nAlready in place: ${found.map((step) => `${step.id} (${step.title})`).join("; ")}.`;
  if (missing.length === 0) {
    return { text: `Nothing to plan: the work the request describes is already in place. I read ${files || "the named files"} and found each part there.${foundLine}`, toolCalls: [] };
  }
  const block = `<proposed_plan>\n${planLines(missing)}${persona.traits.leavesPlanOpen ? "" : "\n</proposed_plan>"}`;
  return { text: `I read ${files}.${foundLine}\n\n${block}`, toolCalls: [] };
}
