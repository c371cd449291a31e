/**
 * The second compaction step: the oldest turns are summarised through the run's own model, and
 * replaced by one message holding the summary and restorable references (paths with line ranges,
 * commands with their exit codes) built from the turns themselves, so they survive a poor summary.
 * Pure: the caller sends the request and records it.
 */
import type { Message, ModelRequest, ToolCall } from "../model.ts";
import { type ClearedRef, digestOf, parseStub, resultRef } from "./clear.ts";

export const SUMMARY_MARK = "[Context summary:";

/** Characters of one tool result shown to the summariser. */
const RESULT_CHARS = 1_500;

export const SUMMARY_SYSTEM = [
  "You condense the earlier part of a coding agent's session so the agent can carry on with less context.",
  "Write plain notes, at most about 400 words, for the agent itself:",
  "- the task and any constraints the person gave;",
  "- files read and changed (paths, and line ranges where they matter);",
  "- commands run and what they showed, failures in particular;",
  "- decisions taken and why;",
  "- what is done, what remains, and the next step.",
  "Quote exact names, paths and error text. Do not invent anything that is not in the transcript.",
].join("\n");

/**
 * Where to cut: the oldest messages after the system prompt and the handoff, leaving the newest
 * `keep`. The cut never leaves a tool result without the call before it. Null: nothing to summarise.
 */
export function summaryCut(messages: readonly Message[], keep: number): { from: number; to: number } | null {
  const from = messages.findIndex((m) => m.role === "user") + 1;
  if (from <= 0) return null;
  let to = Math.max(from, messages.length - keep);
  while (to < messages.length && messages[to]?.role === "tool") to += 1;
  return to - from >= 2 ? { from, to } : null;
}

function transcript(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      switch (message.role) {
        case "system":
          return "";
        case "user":
          return `PERSON OR HARNESS:\n${message.content}`;
        case "assistant": {
          const calls = (message.toolCalls ?? []).map((call) => `→ ${call.name} ${JSON.stringify(call.arguments)}`);
          return `AGENT:\n${[message.content, ...calls].filter((part) => part !== "").join("\n")}`;
        }
        case "tool": {
          const text = message.content.length > RESULT_CHARS ? `${message.content.slice(0, RESULT_CHARS)}\n[… ${message.content.length - RESULT_CHARS} more characters]` : message.content;
          return `RESULT of ${message.name}:\n${text}`;
        }
        default: {
          const unknown: never = message;
          throw new Error(`unknown message role in ${JSON.stringify(unknown)}`);
        }
      }
    })
    .filter((part) => part !== "")
    .join("\n\n");
}

/** The summarisation request: no tools, a fresh context, purpose `compaction`. */
export function summaryRequest(old: readonly Message[], meta: { runIndex: number; round: number }): ModelRequest {
  return {
    messages: [
      { role: "system", content: SUMMARY_SYSTEM },
      { role: "user", content: `The earlier part of the session:\n\n${transcript(old)}\n\nWrite the notes now.` },
    ],
    tools: [],
    meta: { ...meta, purpose: "compaction" },
  };
}

/** One line per tool result in the summarised turns: how to get it back. */
export function references(old: readonly Message[]): ClearedRef[] {
  const calls = new Map<string, ToolCall>();
  for (const message of old) if (message.role === "assistant") for (const call of message.toolCalls ?? []) calls.set(call.id, call);
  const refs: ClearedRef[] = [];
  for (const message of old) {
    if (message.role !== "tool") continue;
    // A result cleared earlier already says what it was; read that back instead of digesting the stub.
    const ref: ClearedRef = parseStub(message.content) ?? { tool: message.name, ref: resultRef(calls.get(message.toolCallId), message.content), digest: digestOf(message.content) };
    if (!refs.some((r) => r.tool === ref.tool && r.ref === ref.ref && r.digest === ref.digest)) refs.push(ref);
  }
  return refs;
}

/** The message that stands in for the summarised turns. */
export function summaryMessage(summary: string, refs: readonly ClearedRef[]): Message {
  const body = summary.trim() === "" ? "(the model gave no summary; the references below still hold)" : summary.trim();
  const list = refs.length === 0 ? "" : `\n\nReferences — re-read a file or re-run a command to restore its detail:\n${refs.map((r) => `- ${r.tool} ${r.ref} — ${r.digest}`).join("\n")}`;
  return { role: "user", content: `${SUMMARY_MARK} earlier turns of this session were summarised to save context. This is a note from the harness, not a new request.]\n\n${body}${list}` };
}
