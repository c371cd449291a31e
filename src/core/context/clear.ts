/**
 * The first compaction step: old tool results are cleared, keeping what is needed to get them back
 * — the tool, its path or command, the line range, and a one-line digest (for a command, its exit
 * code). Pure: messages in, new messages out; a cleared message is a new object, the rest are the
 * same objects (the request counter caches per object).
 */
import type { Message, ToolCall } from "../model.ts";

/** What a cleared result was, as the record and the stub name it. */
export interface ClearedRef {
  tool: string;
  /** The path with its line range, or the command. */
  ref: string;
  digest: string;
}

export const CLEARED_MARK = "[output cleared to save context:";

const DIGEST_CHARS = 120;

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "" && !/^exit code: -?\d+/.test(l.trim()))?.trim() ?? "";
  return line.length > DIGEST_CHARS ? `${line.slice(0, DIGEST_CHARS - 1)}…` : line;
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Where a result came from: `src/a.ts (lines 1-40)`, `` `npm test` ``, or the tool's arguments. */
export function resultRef(call: ToolCall | undefined, output: string): string {
  if (call === undefined) return "(call not found)";
  const args = call.arguments;
  const path = str(args["path"]) ?? str(args["file_path"]);
  const command = str(args["command"]);
  if (command !== null) return `\`${command.length > 200 ? `${command.slice(0, 199)}…` : command}\``;
  if (path !== null && call.name === "read_file") {
    const from = typeof args["offset"] === "number" ? args["offset"] : 1;
    const shown = output.split("\n").filter((line) => !line.startsWith("[file is ")).length;
    return `${path} (lines ${from}-${from + Math.max(0, shown - 1)})`;
  }
  if (path !== null) return path;
  return JSON.stringify(args).slice(0, 200);
}

/** The one-line digest: a command's exit code and first line; else the first line of the output. */
export function digestOf(output: string): string {
  const exit = /^exit code: -?\d+/m.exec(output)?.[0];
  const line = firstLine(output);
  const quoted = line === "" ? "" : `"${line}"`;
  return exit === undefined ? quoted || "(empty)" : `${exit}${quoted === "" ? "" : `; ${quoted}`}`;
}

export function clearedStub(tool: string, ref: string, digest: string): string {
  return `${CLEARED_MARK} ${tool} ${ref} — ${digest}. Call the tool again to see it in full.]`;
}

const STUB = /^\[output cleared to save context: (\S+) ([\s\S]*) — ([\s\S]*)\. Call the tool again to see it in full\.\]$/;

/** What a stub stands for, read back from its text; null for anything that is not a stub. */
export function parseStub(content: string): ClearedRef | null {
  const match = STUB.exec(content);
  return match === null ? null : { tool: match[1]!, ref: match[2]!, digest: match[3]! };
}

/**
 * Clears every tool result but the newest `keep`, when its stub is shorter than what it replaces.
 * Results cleared before are left as they are.
 */
export function clearOldToolResults(messages: readonly Message[], keep: number): { messages: Message[]; cleared: ClearedRef[] } {
  const calls = new Map<string, ToolCall>();
  for (const message of messages) if (message.role === "assistant") for (const call of message.toolCalls ?? []) calls.set(call.id, call);
  const toolIndexes = messages.flatMap((message, index) => (message.role === "tool" ? [index] : []));
  const clearable = new Set(toolIndexes.slice(0, Math.max(0, toolIndexes.length - keep)));
  const cleared: ClearedRef[] = [];
  const out = messages.map((message, index): Message => {
    if (message.role !== "tool" || !clearable.has(index) || message.content.startsWith(CLEARED_MARK)) return message;
    const call = calls.get(message.toolCallId);
    const ref = resultRef(call, message.content);
    const digest = digestOf(message.content);
    const stub = clearedStub(message.name, ref, digest);
    if (stub.length >= message.content.length) return message;
    cleared.push({ tool: message.name, ref, digest });
    return { ...message, content: stub };
  });
  return { messages: out, cleared };
}
