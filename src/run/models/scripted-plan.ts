/**
 * The scripted test double in a plan run (ADR 0104): offered read-only tools, it reads the files
 * its steps name, then ends the reply one of three ways, picked by the run's seed — a plan block,
 * prose saying there is nothing to plan, or a block it forgets to close. Sent back once, it closes
 * the block it left open, or, told that a block is required, wraps a plan that only restates the
 * request (the fabricated plan ADR-0077 describes). Pure over the request, like the rest of the
 * persona; its choices are the harness's test material, not a model's behaviour.
 */
import type { ModelRequest, ToolCall } from "../../core/model.ts";
import type { Persona } from "./scripted-persona.ts";
import type { PlayedReply, Random } from "./scripted-play.ts";

/** A request with no way to change anything (no shell, no write): the double plays a plan run. */
export function isPlanRequest(request: ModelRequest): boolean {
  const names = new Set(request.tools.map((tool) => tool.name));
  return names.has("read_file") && !names.has("write_file") && !names.has("edit_file") && !names.has("shell");
}

/** Share of runs ending in each way, by the seeded draw: no plan, a plan, an unclosed block. */
const NO_PLAN_BELOW = 0.4;
const PLAN_BELOW = 0.8;

function planText(persona: Persona): string {
  return persona.steps.map((step, i) => `${i + 1}. ${step.id}: ${step.title}.`).join("\n");
}

export function playPlanTurn(persona: Persona, request: ModelRequest, random: Random): PlayedReply {
  const messages = request.messages;
  const read = new Set<string>();
  let lastFinal: { index: number; text: string } | null = null;
  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    for (const call of message.toolCalls ?? []) if (call.name === "read_file") read.add(String(call.arguments["path"]));
    if ((message.toolCalls ?? []).length === 0) lastFinal = { index, text: message.content };
  });

  // Sent back after a final reply: the one repair turn.
  const ended = lastFinal as { index: number; text: string } | null;
  if (ended !== null && messages.slice(ended.index + 1).some((m) => m.role === "user")) {
    if (ended.text.includes("<proposed_plan>") && !ended.text.includes("</proposed_plan>")) return { text: `${ended.text.trimEnd()}\n</proposed_plan>`, toolCalls: [] };
    return { text: `<proposed_plan>\n1. Confirm that the requested work is in place.\n2. Report it.\n</proposed_plan>`, toolCalls: [] };
  }

  const next = persona.steps.flatMap((step) => step.reads).find((path) => !read.has(path));
  if (next !== undefined) {
    const call: ToolCall = { id: `plan-read-${read.size + 1}`, name: "read_file", arguments: { path: next } };
    return { text: "", toolCalls: [call] };
  }
  const draw = random("plan-ending");
  const files = [...read].map((path) => `\`${path}\``).join(", ");
  if (draw < NO_PLAN_BELOW) {
    return { text: `Nothing to plan: the work the request describes is already in place. I read ${files || "the named files"} and found each part there.`, toolCalls: [] };
  }
  if (draw < PLAN_BELOW) return { text: `I read ${files}.\n\n<proposed_plan>\n${planText(persona)}\n</proposed_plan>`, toolCalls: [] };
  return { text: `I read ${files}.\n\n<proposed_plan>\n${planText(persona)}`, toolCalls: [] };
}
