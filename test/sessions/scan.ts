/**
 * Independent expectations for the importer tests: a plain scan of a fixture's lines (split on
 * LF, JSON.parse each), written without the importer's code, so a bug in the importer cannot
 * hide in its own expectations.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const FIXTURES = join(import.meta.dirname, "../../fixtures/sessions");

type J = Record<string, any>;

export function lines(path: string): J[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as J);
}

export interface Expected {
  toolCalls: number;
  toolCallsByName: Record<string, number>;
  tokens: { input: number; cachedInput: number; cacheWrite: number; output: number; reasoning: number | null; source: string };
  /** User prompts the person typed (not tool results, not harness context). */
  userMessages: number;
  compactions: number;
  interrupts?: number;
  costUsd?: number | null;
  rejected?: number;
  planApprovals?: { approved: number; rejected: number };
  subagents?: { count: number; toolCalls: number };
}

function tally(names: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of names) out[n] = (out[n] ?? 0) + 1;
  return out;
}

const CODEX_CALLS: Record<string, (p: J) => string> = {
  function_call: (p) => p.name,
  custom_tool_call: (p) => p.name,
  local_shell_call: () => "local_shell",
  web_search_call: () => "web_search",
  tool_search_call: () => "tool_search",
};

export function scanCodexRollout(path: string): Expected {
  const all = lines(path);
  const names = all.filter((l) => l.type === "response_item" && l.payload.type in CODEX_CALLS).map((l) => CODEX_CALLS[l.payload.type]!(l.payload));
  const totals = all.filter((l) => l.type === "event_msg" && l.payload.type === "token_count" && l.payload.info?.total_token_usage).map((l) => l.payload.info.total_token_usage);
  const last = totals.at(-1);
  // Legacy history logs the prompt as an event_msg; the paginated history only as a user message item
  // (next to harness context, which is wrapped in a tag or is the AGENTS.md preamble).
  const legacy = all.filter((l) => l.type === "event_msg" && l.payload.type === "user_message").length;
  const items = all.filter((l) => l.type === "response_item" && l.payload.type === "message" && l.payload.role === "user" && !/^(<|# AGENTS\.md)/.test(l.payload.content[0]?.text ?? "<")).length;
  const users = legacy > 0 ? legacy : items;
  return {
    toolCalls: names.length,
    toolCallsByName: tally(names),
    tokens: last
      ? { input: last.input_tokens, cachedInput: last.cached_input_tokens, cacheWrite: last.cache_write_input_tokens ?? 0, output: last.output_tokens, reasoning: last.reasoning_output_tokens, source: "reported" }
      : { input: -1, cachedInput: 0, cacheWrite: 0, output: -1, reasoning: null, source: "estimated" },
    userMessages: users,
    compactions: all.filter((l) => l.type === "compacted").length,
  };
}

export function scanCodexExec(path: string): Expected {
  const all = lines(path);
  const ids = new Map<string, string>();
  for (const l of all) if ((l.type === "item.started" || l.type === "item.completed") && ["command_execution", "file_change", "mcp_tool_call", "web_search"].includes(l.item.type)) ids.set(l.item.id, l.item.type);
  const last = all.filter((l) => l.type === "turn.completed").at(-1)?.usage;
  return {
    toolCalls: ids.size,
    toolCallsByName: tally([...ids.values()]),
    tokens: { input: last.input_tokens, cachedInput: last.cached_input_tokens, cacheWrite: last.cache_write_input_tokens ?? 0, output: last.output_tokens, reasoning: last.reasoning_output_tokens, source: "reported" },
    userMessages: 0,
    compactions: 0,
  };
}

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((c: J) => c.type === "text").map((c: J) => c.text).join("\n");
}

export function scanClaudeTranscript(path: string): Expected {
  const all = lines(path);
  const assistant = all.filter((l) => l.type === "assistant");
  const names = assistant.flatMap((l) => (Array.isArray(l.message.content) ? l.message.content : []).filter((c: J) => c.type === "tool_use").map((c: J) => c.name as string));
  // Usage: the largest snapshot per (message.id, requestId), as ccusage counts it.
  const best = new Map<string, J>();
  for (const l of assistant) {
    if (!l.message.usage || l.message.model === "<synthetic>") continue;
    const key = `${l.message.id}|${l.requestId ?? ""}`;
    const u = l.message.usage;
    const size = (x: J) => x.input_tokens + x.output_tokens + (x.cache_creation_input_tokens ?? 0);
    const prev = best.get(key);
    if (!prev || size(u) > size(prev) || (size(u) === size(prev) && u.output_tokens > prev.output_tokens)) best.set(key, u);
  }
  let input = 0, cached = 0, write = 0, output = 0;
  // Claude Code ≥ 2.1 states the thinking part of output_tokens; older logs do not (reasoning unknown).
  let thinking: number | null = null;
  for (const u of best.values()) {
    input += u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
    cached += u.cache_read_input_tokens ?? 0;
    write += u.cache_creation_input_tokens ?? 0;
    output += u.output_tokens;
    const t = u.output_tokens_details?.thinking_tokens;
    if (typeof t === "number") thinking = (thinking ?? 0) + t;
  }
  const users = all.filter((l) => l.type === "user" && !l.isMeta);
  const results = users.flatMap((l) => (Array.isArray(l.message.content) ? l.message.content : []).filter((c: J) => c.type === "tool_result"));
  const resultText = (r: J) => (typeof r.content === "string" ? r.content : text(r.content));
  const prompts = users.filter((l) => {
    const c = l.message.content;
    if (Array.isArray(c) && c.some((b: J) => b.type === "tool_result")) return false;
    const t = text(c);
    return t.trim().length > 0 && !t.startsWith("[Request interrupted by user") && !t.startsWith("<local-command-std") && !t.startsWith("Caveat:");
  });
  // Interrupts: the explicit marker, or the person's prompt arriving while the agent was mid tool use.
  let interruptLines = 0;
  let last: "text" | "tool" | null = null;
  for (const l of all) {
    if (l.type === "assistant" && Array.isArray(l.message.content)) {
      for (const c of l.message.content) if (c.type === "text" && c.text) last = "text"; else if (c.type === "tool_use") last = "tool";
    } else if (l.type === "user" && !l.isMeta) {
      const c = l.message.content;
      const isResult = Array.isArray(c) && c.some((b: J) => b.type === "tool_result");
      const t = isResult ? c.filter((b: J) => b.type === "tool_result").map(resultText).join("") : text(c);
      if (t.startsWith("[Request interrupted by user")) {
        if (last !== null) interruptLines += 1;
        last = null;
      } else if (!isResult && prompts.includes(l)) {
        if (last === "tool") interruptLines += 1;
        last = null;
      }
    }
  }
  return {
    toolCalls: names.length,
    toolCallsByName: tally(names),
    tokens: { input, cachedInput: cached, cacheWrite: write, output, reasoning: thinking, source: "reported" },
    userMessages: prompts.length,
    compactions: all.filter((l) => l.type === "system" && l.subtype === "compact_boundary").length,
    interrupts: interruptLines,
    rejected: results.filter((r) => resultText(r).startsWith("The user doesn't want to proceed with this tool use")).length,
    planApprovals: {
      approved: results.filter((r) => resultText(r).startsWith("User has approved your plan")).length,
      rejected: results.filter((r) => {
        const id = r.tool_use_id;
        const call = assistant.flatMap((l) => (Array.isArray(l.message.content) ? l.message.content : [])).find((c: J) => c.id === id);
        return call?.name === "ExitPlanMode" && resultText(r).startsWith("The user doesn't want to proceed");
      }).length,
    },
    subagents: scanSubagents(path),
  };
}

function scanSubagents(path: string): { count: number; toolCalls: number } {
  const dir = join(path.replace(/\.jsonl$/, ""), "subagents");
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  } catch {
    return { count: 0, toolCalls: 0 };
  }
  let calls = 0;
  for (const f of files) {
    for (const l of lines(join(dir, f))) if (l.type === "assistant" && Array.isArray(l.message.content)) calls += l.message.content.filter((c: J) => c.type === "tool_use").length;
  }
  return { count: files.length, toolCalls: calls };
}

export function scanClaudeStream(path: string): Expected {
  const all = lines(path);
  const names = all
    .filter((l) => l.type === "assistant" && l.parent_tool_use_id == null)
    .flatMap((l) => l.message.content.filter((c: J) => c.type === "tool_use").map((c: J) => c.name as string));
  const result = all.find((l) => l.type === "result") as J;
  const u = result.usage;
  return {
    toolCalls: names.length,
    toolCallsByName: tally(names),
    tokens: {
      input: u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
      cachedInput: u.cache_read_input_tokens ?? 0,
      cacheWrite: u.cache_creation_input_tokens ?? 0,
      output: u.output_tokens,
      reasoning: typeof u.output_tokens_details?.thinking_tokens === "number" ? u.output_tokens_details.thinking_tokens : null,
      source: "reported",
    },
    userMessages: 0,
    compactions: 0,
    costUsd: result.total_cost_usd,
  };
}

function piInterrupts(messages: J[]): number {
  let n = 0;
  let prev: J | null = null;
  for (const m of messages) {
    if (m.role === "bashExecution") continue;
    if (m.role === "assistant" && m.stopReason === "aborted") n += 1;
    if (m.role === "user" && prev !== null && (prev.role === "toolResult" || (prev.role === "assistant" && prev.stopReason === "toolUse"))) n += 1;
    prev = m;
  }
  return n;
}

function scanPiMessages(messages: J[], compactions: number): Expected {
  const assistant = messages.filter((m) => m.role === "assistant");
  const names = assistant.flatMap((m) => m.content.filter((c: J) => c.type === "toolCall").map((c: J) => c.name as string));
  let input = 0, cached = 0, write = 0, output = 0, cost = 0;
  for (const m of assistant) {
    const u = m.usage;
    if (!u) continue;
    input += u.input + u.cacheRead + u.cacheWrite;
    cached += u.cacheRead;
    write += u.cacheWrite;
    output += u.output;
    cost += u.cost?.total ?? 0;
  }
  return {
    toolCalls: names.length,
    toolCallsByName: tally(names),
    tokens: { input, cachedInput: cached, cacheWrite: write, output, reasoning: null, source: "reported" },
    userMessages: messages.filter((m) => m.role === "user").length,
    compactions,
    interrupts: piInterrupts(messages),
    costUsd: cost,
  };
}

export function scanPiSession(path: string): Expected {
  const all = lines(path);
  return scanPiMessages(all.filter((l) => l.type === "message").map((l) => l.message), all.filter((l) => l.type === "compaction").length);
}

export function scanPiJson(path: string): Expected {
  const all = lines(path);
  return scanPiMessages(all.filter((l) => l.type === "message_end").map((l) => l.message), all.filter((l) => l.type === "auto_compaction_end").length);
}
