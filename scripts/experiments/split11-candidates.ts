/**
 * Held-out split 11 (docs/decisions/0228), step 1: the candidate final replies of each source group, read from bare git
 * snapshots by each format's final-reply rule (fixtures/final-replies/SOURCES.md), filtered as splits 9 and 10 were (0215,
 * 0223). split10-candidates.ts with two more readers: Oh My Pi sessions kept by Entire, and Claude Code session JSONL files
 * committed at HEAD. Writes one JSON list of candidates; split11-draw.ts draws from it. Reads no labels, runs no analyzer.
 *
 *   npx tsx scripts/experiments/split11-candidates.ts <groups.json> <out.json>
 *
 * groups.json: [{ "group", "repo", "gitDir", "kind", "agent"?, "licence" }] in the draw's order. Kinds:
 * "entire-branch" (Entire transcripts on entire/checkpoints/v1), "entire-refs" (on refs/entire/checkpoints/…), "entire-all" (both),
 * "claude-terminal" (Claude Code's terminal transcripts, saved with /export or copied from the terminal, at HEAD),
 * "claude-jsonl" (Claude Code session JSONL files at HEAD, `files` a regular expression over the path).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface Group {
  group: string;
  repo: string;
  gitDir: string;
  kind: "entire-branch" | "entire-refs" | "entire-all" | "claude-terminal" | "claude-jsonl";
  /** For "claude-terminal" and "claude-jsonl": the files at HEAD to read (a regular expression over the path). */
  files?: string;
  /** Only transcripts whose metadata names this agent ("Claude Code", "Codex"). */
  agent?: string;
  licence: string;
}

export interface Candidate {
  group: string;
  repo: string;
  path: string;
  /** The ref the transcript was read from (Entire) or HEAD. */
  ref: string;
  commit: string;
  line: number;
  agent: string;
  model: string;
  licence: string;
  text: string;
}

const REPLIES_DIR = join(import.meta.dirname, "../../fixtures/final-replies");

function git(gitDir: string, args: string[]): string | null {
  try {
    return execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    // A blob of 4 MiB or more is absent from the snapshot: that transcript gives nothing.
    return null;
  }
}

function jsonLines(text: string): Array<{ line: number; entry: Record<string, unknown> }> {
  const out: Array<{ line: number; entry: Record<string, unknown> }> = [];
  text.split("\n").forEach((raw, index) => {
    if (raw.trim() === "") return;
    try {
      out.push({ line: index + 1, entry: JSON.parse(raw) as Record<string, unknown> });
    } catch {
      // A torn last line of a live session: not an entry.
    }
  });
  return out;
}

type Reply = { line: number; text: string; model: string };

const NOT_A_PROMPT = [/^<command-(name|message|args)>/, /^<local-command-/, /^<system-reminder>/, /^<task-notification>/, /^Caveat:/, /^\[Request interrupted/, /^<bash-(input|stdout|stderr)>/, /^<user-prompt-submit-hook>/];

function promptText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  if (content.some((block) => (block as { type?: string }).type === "tool_result")) return null;
  const texts = content.filter((block) => (block as { type?: string }).type === "text").map((block) => (block as { text: string }).text);
  return texts.length === 0 ? null : texts.join("\n");
}

/** Claude Code session JSONL (ADR 0190's rule): the turn's last main-chain assistant entry, when it calls no tool. */
export function claudeReplies(text: string): Reply[] {
  const replies: Reply[] = [];
  let last: { line: number; entry: Record<string, unknown> } | null = null;
  let inTurn = false;
  const close = () => {
    if (!inTurn || last === null) return;
    const message = last.entry.message as { content?: unknown; model?: string };
    const content = Array.isArray(message.content) ? message.content : [];
    if (content.some((block) => (block as { type?: string }).type === "tool_use")) return;
    const body = content.filter((block) => (block as { type?: string }).type === "text").map((block) => (block as { text: string }).text).join("\n\n");
    replies.push({ line: last.line, text: body, model: message.model ?? "" });
  };
  for (const item of jsonLines(text)) {
    const entry = item.entry;
    if (entry.isSidechain === true) continue;
    if (entry.type === "user") {
      const message = entry.message as { content?: unknown } | undefined;
      const prompt = promptText(message?.content);
      if (prompt === null || entry.isMeta === true || entry.isCompactSummary === true) continue;
      if (NOT_A_PROMPT.some((pattern) => pattern.test(prompt.trimStart()))) continue;
      close();
      inTurn = true;
      last = null;
    } else if (entry.type === "assistant") {
      const message = entry.message as { model?: string } | undefined;
      if (message?.model === "<synthetic>") continue;
      last = item;
    }
  }
  close();
  return replies;
}

/** Codex rollout JSONL: each turn's task_complete.last_agent_message, none from a subagent's session. */
export function codexReplies(text: string): Reply[] {
  const entries = jsonLines(text);
  const meta = entries.find((item) => item.entry.type === "session_meta")?.entry.payload as { source?: unknown } | undefined;
  if (meta !== undefined && typeof meta.source === "object" && meta.source !== null && "subagent" in meta.source) return [];
  const replies: Reply[] = [];
  let model = "";
  for (const item of entries) {
    const payload = item.entry.payload as { type?: string; model?: string; last_agent_message?: string | null } | undefined;
    if (item.entry.type === "turn_context" && typeof payload?.model === "string") model = payload.model;
    if (payload?.type === "task_complete" && typeof payload.last_agent_message === "string") {
      replies.push({ line: item.line, text: payload.last_agent_message, model });
    }
  }
  return replies;
}

/**
 * An Oh My Pi session (a pi fork; the pi session format of SOURCES.md): a turn starts at a `message` entry of role "user"
 * with text; its reply is the text blocks of the turn's last assistant message when that message calls no tool (a turn
 * ending on a tool call, as a Claude Code turn, gives none). Custom, title and model-change entries are not messages.
 */
export function piReplies(text: string): Reply[] {
  const replies: Reply[] = [];
  let last: { line: number; content: Array<{ type?: string; text?: string }>; model: string } | null = null;
  let inTurn = false;
  const close = () => {
    if (!inTurn || last === null) return;
    if (last.content.some((block) => block.type === "toolCall")) return;
    const body = last.content.filter((block) => block.type === "text").map((block) => block.text ?? "").join("\n\n");
    replies.push({ line: last.line, text: body, model: last.model });
  };
  for (const item of jsonLines(text)) {
    if (item.entry.type !== "message") continue;
    const message = item.entry.message as { role?: string; content?: unknown; model?: string } | undefined;
    const content = Array.isArray(message?.content) ? (message.content as Array<{ type?: string; text?: string }>) : [];
    if (message?.role === "user") {
      if (!content.some((block) => block.type === "text")) continue;
      close();
      inTurn = true;
      last = null;
    } else if (message?.role === "assistant") {
      last = { line: item.line, content, model: message.model ?? "" };
    }
  }
  close();
  return replies;
}

type OpenCodePart = { type?: string; text?: string; synthetic?: boolean };
type OpenCodeMessage = { info?: { id?: string; role?: string; modelID?: string; model?: { modelID?: string } }; parts?: OpenCodePart[] };

/**
 * An OpenCode session as `opencode export` writes it (one JSON document: `info` and `messages`, each message its `info`
 * and `parts`), kept by Entire. A sub-agent's session (`info.parentID` set) gives none. A turn starts at a user message
 * with a text part that is not synthetic; its reply is the text parts of the turn's last assistant message when that
 * message has no tool part. `line` is the line of that message's `"id"` in the file.
 */
export function opencodeReplies(text: string): Reply[] {
  let doc: { info?: { parentID?: string }; messages?: OpenCodeMessage[] };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    return [];
  }
  if (typeof doc.info?.parentID === "string" && doc.info.parentID !== "") return [];
  const lines = text.split("\n");
  const lineOf = (id: string | undefined): number => (id === undefined ? 0 : lines.findIndex((row) => row.includes(`"id": "${id}"`) || row.includes(`"id":"${id}"`)) + 1);
  const replies: Reply[] = [];
  let last: OpenCodeMessage | null = null;
  let inTurn = false;
  const close = () => {
    if (!inTurn || last === null) return;
    const parts = last.parts ?? [];
    if (parts.some((part) => part.type === "tool")) return;
    const body = parts.filter((part) => part.type === "text" && part.synthetic !== true).map((part) => part.text ?? "").join("\n\n");
    replies.push({ line: lineOf(last.info?.id), text: body, model: last.info?.modelID ?? last.info?.model?.modelID ?? "" });
  };
  for (const message of doc.messages ?? []) {
    if (message.info?.role === "user") {
      if (!(message.parts ?? []).some((part) => part.type === "text" && part.synthetic !== true)) continue;
      close();
      inTurn = true;
      last = null;
    } else if (message.info?.role === "assistant") {
      last = message;
    }
  }
  close();
  return replies;
}

const MARKER = /^(⏺|●) /;

/**
 * Claude Code's terminal transcript (the /export text, or the terminal copied by hand): a person's message is a line
 * starting "> " (a slash command is not one); each agent message starts at column 0 with "⏺ " or "● " and runs over the
 * blank lines and the lines indented by two spaces after it; a message followed by a "⎿" line is a tool call. A turn's reply
 * is its last message when that is not a tool call, with the marker and the two-space continuation indent removed; the
 * terminal's hard line wraps are kept, as the person saw them.
 */
export function terminalReplies(text: string): Reply[] {
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const replies: Reply[] = [];
  let inTurn = false;
  let last: { line: number; body: string[]; tool: boolean } | null = null;
  const close = () => {
    if (inTurn && last !== null && !last.tool) replies.push({ line: last.line, text: last.body.join("\n"), model: "" });
  };
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (line.startsWith("> ") || line === ">") {
      if (!line.slice(2).trimStart().startsWith("/")) {
        close();
        inTurn = true;
        last = null;
      }
      index += 1;
      continue;
    }
    if (MARKER.test(line)) {
      const body = [line.replace(MARKER, "")];
      let next = index + 1;
      while (next < lines.length && ((lines[next] as string).trim() === "" || (lines[next] as string).startsWith("  "))) {
        body.push((lines[next] as string).replace(/^ {1,2}/, ""));
        next += 1;
      }
      const tool = body.some((row) => row.trimStart().startsWith("⎿"));
      last = { line: index + 1, body: verbatim(body.join("\n")).split("\n"), tool };
      index = next;
      continue;
    }
    index += 1;
  }
  close();
  return replies;
}

const FENCE = /^(```|~~~)/;

/** The text outside fenced code blocks. */
export function outsideFences(text: string): string {
  let inside = false;
  const kept: string[] = [];
  for (const line of text.split("\n")) {
    if (FENCE.test(line.trimStart())) {
      inside = !inside;
      continue;
    }
    if (!inside) kept.push(line);
  }
  return kept.join("\n");
}

/** Split 9's filters (0215): 40–5,000 characters, at least 40 outside fences, under 2 % Cyrillic/CJK. */
export function keep(text: string): boolean {
  if (text.length < 40 || text.length > 5000) return false;
  if (outsideFences(text).trim().length < 40) return false;
  const foreign = [...text].filter((ch) => /[\u0400-\u04FF\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]/.test(ch)).length;
  return foreign / [...text].length < 0.02;
}

/**
 * A reply that is one JSON document ({"verdict": …}, {"title": …}, {"subject": …}) answers a tool that called the agent for
 * machine-read output (a checkpoint assessor, a title or commit-message generator), not a person: not a candidate (0228).
 */
export function machineOutput(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** Trailing whitespace trimmed, nothing else changed (0215: "Text is verbatim (trailing whitespace trimmed)"). */
export function verbatim(text: string): string {
  return text.replace(/\s+$/, "");
}

function entireTranscripts(group: Group): Array<{ path: string; ref: string; commit: string; agent: string; model: string; body: string }> {
  const out: Array<{ path: string; ref: string; commit: string; agent: string; model: string; body: string }> = [];
  const perCheckpoint = (git(group.gitDir, ["for-each-ref", "--format=%(refname)", "refs/entire/checkpoints"]) ?? "").split("\n").filter((ref) => ref !== "");
  // "entire-all": the branch first, then the per-checkpoint refs (a repository that kept both; repeats are dropped as seen).
  const refs = group.kind === "entire-branch" ? ["refs/heads/entire/checkpoints/v1"] : group.kind === "entire-all" ? ["refs/heads/entire/checkpoints/v1", ...perCheckpoint] : perCheckpoint;
  for (const ref of refs) {
    const commit = (git(group.gitDir, ["rev-parse", ref]) ?? "").trim();
    const paths = (git(group.gitDir, ["ls-tree", "-r", "--name-only", ref]) ?? "").split("\n").filter((path) => path.endsWith("/full.jsonl") || path === "full.jsonl");
    for (const path of paths.sort()) {
      const dir = path.slice(0, path.length - "full.jsonl".length);
      const metaText = git(group.gitDir, ["show", `${commit}:${dir}metadata.json`]);
      if (metaText === null) continue;
      const meta = JSON.parse(metaText) as { agent?: string; model?: string };
      const agent = meta.agent === "claude-code" ? "Claude Code" : meta.agent ?? "";
      if (group.agent !== undefined && agent !== group.agent) continue;
      const body = git(group.gitDir, ["show", `${commit}:${path}`]);
      if (body === null) continue;
      out.push({ path, ref, commit, agent, model: meta.model ?? "", body });
    }
  }
  return out;
}

function candidatesOf(group: Group): Candidate[] {
  const found: Candidate[] = [];
  if (group.kind === "entire-branch" || group.kind === "entire-refs" || group.kind === "entire-all") {
    for (const transcript of entireTranscripts(group)) {
      const replies = transcript.agent === "Codex" ? codexReplies(transcript.body) : transcript.agent === "Claude Code" ? claudeReplies(transcript.body) : transcript.agent === "Oh My Pi" || transcript.agent === "Pi" ? piReplies(transcript.body) : transcript.agent === "OpenCode" ? opencodeReplies(transcript.body) : [];
      for (const reply of replies) {
        found.push({
          group: group.group, repo: group.repo, path: transcript.path, ref: transcript.ref, commit: transcript.commit, line: reply.line,
          agent: transcript.agent, model: reply.model !== "" ? reply.model : transcript.model, licence: group.licence, text: verbatim(reply.text),
        });
      }
    }
  }
  if (group.kind === "claude-terminal") {
    const commit = (git(group.gitDir, ["rev-parse", "HEAD"]) ?? "").trim();
    const pattern = new RegExp(group.files ?? "$^");
    const paths = (git(group.gitDir, ["ls-tree", "-r", "--name-only", "HEAD"]) ?? "").split("\n").filter((path) => pattern.test(path));
    for (const path of paths.sort()) {
      const body = git(group.gitDir, ["show", `${commit}:${path}`]);
      if (body === null) continue;
      // The model is not written per turn; an /export's welcome banner (its first lines) names it ("Opus 4.5 · Claude Max").
      const banner = /\b(Opus|Sonnet|Haiku) \d[\d.]*/.exec(body.split("\n").slice(0, 15).join("\n"))?.[0] ?? "";
      for (const reply of terminalReplies(body)) {
        found.push({ group: group.group, repo: group.repo, path, ref: "HEAD", commit, line: reply.line, agent: "Claude Code", model: banner, licence: group.licence, text: verbatim(reply.text) });
      }
    }
  }
  if (group.kind === "claude-jsonl") {
    const commit = (git(group.gitDir, ["rev-parse", "HEAD"]) ?? "").trim();
    const pattern = new RegExp(group.files ?? "$^");
    const paths = (git(group.gitDir, ["ls-tree", "-r", "--name-only", "HEAD"]) ?? "").split("\n").filter((path) => pattern.test(path));
    for (const path of paths.sort()) {
      const body = git(group.gitDir, ["show", `${commit}:${path}`]);
      if (body === null) continue;
      for (const reply of claudeReplies(body)) {
        found.push({ group: group.group, repo: group.repo, path, ref: "HEAD", commit, line: reply.line, agent: "Claude Code", model: reply.model, licence: group.licence, text: verbatim(reply.text) });
      }
    }
  }
  return found;
}

/**
 * Writes the candidates of every group in <groups.json> to <out.json> (the command line's two arguments): each group's replies
 * that pass `keep` (split 9's filters), pass `accepts` (the split's own form rules past those: split 11's is that the reply is
 * not machine output; split 10 had none, split 12 adds two) and repeat no text already in the folder or seen before. `script`
 * names the command in its usage line.
 */
export function writeCandidates(script: string, accepts: (text: string) => boolean = (text) => !machineOutput(text)): void {
  const [groupsFile, outFile] = process.argv.slice(2);
  if (groupsFile === undefined || outFile === undefined) throw new Error(`usage: ${script} <groups.json> <out.json>`);
  const groups = JSON.parse(readFileSync(groupsFile, "utf8")) as Group[];
  // No text identical to a reply already in the folder (read as text only, never labelled or analysed here).
  const seen = new Set(readdirSync(REPLIES_DIR).filter((name) => /^\d{3,4}-.*\.md$/.test(name)).map((name) => verbatim(readFileSync(join(REPLIES_DIR, name), "utf8"))));
  const all: Candidate[] = [];
  for (const group of groups) {
    // Sorted by path and line; a text seen before (a later checkpoint repeats a session's earlier turns) is left out.
    const key = (c: Candidate) => `${c.ref}\u0000${c.path}`;
    const sorted = candidatesOf(group).sort((a, b) => (key(a) === key(b) ? a.line - b.line : key(a) < key(b) ? -1 : 1));
    let kept = 0;
    for (const candidate of sorted) {
      if (!keep(candidate.text) || !accepts(candidate.text) || seen.has(candidate.text)) continue;
      seen.add(candidate.text);
      all.push(candidate);
      kept += 1;
    }
    process.stderr.write(`${group.group}: ${kept} candidates\n`);
  }
  writeFileSync(outFile, `${JSON.stringify(all, null, 1)}\n`);
}

// Run as a command, not when split10-candidates.ts or split12-candidates.ts imports the readers.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) writeCandidates("split11-candidates.ts");
