/**
 * The cross-check of a driven run: the record is built from the client's live event stream, and
 * the client also writes its own session file (a Codex rollout, a Claude Code transcript, a pi
 * session). After the run the session file is imported with the matching importer and the two are
 * compared on what both must agree on — how many tool calls were made, and the final message. A
 * disagreement becomes a `note` warning in the record, never a silent pick of one side.
 *
 * The importer comes in as a function (the study layer passes src/sessions' reader), so `run/`
 * stays below `sessions/`.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import type { RunEvent } from "../record.ts";
import type { ClientName } from "./clients.ts";

/** The importer format of each client's own session file (src/sessions/format.ts names). */
export const SESSION_FILE_FORMAT: Record<ClientName, string> = { codex: "codex", claude: "claude", pi: "pi" };

/** Reads a session file into run-record events with the named importer format. */
export type SessionImporter = (path: string, format: string) => Promise<RunEvent[]>;

export interface CheckNote {
  level: "info" | "warning";
  text: string;
}

/** What the stream and the session file must agree on. */
export interface RecordDigest {
  toolCalls: number;
  /** The last final assistant text, trimmed; null when there is none. */
  finalText: string | null;
}

export function digestOf(events: readonly RunEvent[]): RecordDigest {
  let toolCalls = 0;
  let finalText: string | null = null;
  for (const event of events) {
    if (event.type === "tool.call") toolCalls += 1;
    else if (event.type === "assistant.text" && event.final) finalText = event.text.trim();
  }
  return { toolCalls, finalText };
}

/** The newest `.jsonl` file under `dir` (sub-agent folders skipped), or null. */
export async function findSessionFile(dir: string): Promise<string | null> {
  let best: { path: string; mtime: number } | null = null;
  const walk = async (folder: string, depth: number): Promise<void> => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "subagents" && depth < 6) await walk(path, depth + 1);
      } else if (entry.isFile() && entry.name.endsWith(".jsonl")) {
        const mtime = (await stat(path)).mtimeMs;
        if (best === null || mtime > best.mtime) best = { path, mtime };
      }
    }
  };
  await walk(dir, 0);
  return (best as { path: string } | null)?.path ?? null;
}

const shown = (text: string | null): string => (text === null ? "none" : JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text));

/** Compares the stream's digest with the session file's; every difference is named. */
export function compareDigests(client: ClientName, file: string, stream: RecordDigest, session: RecordDigest): CheckNote {
  const differences: string[] = [];
  if (stream.toolCalls !== session.toolCalls) differences.push(`tool calls: ${stream.toolCalls} in the event stream, ${session.toolCalls} in the session file`);
  if (stream.finalText !== session.finalText) differences.push(`final message: ${shown(stream.finalText)} in the event stream, ${shown(session.finalText)} in the session file`);
  if (differences.length === 0) {
    return { level: "info", text: `cross-check: ${client}'s session file ${file} agrees with its event stream (${stream.toolCalls} tool call${stream.toolCalls === 1 ? "" : "s"}, the same final message)` };
  }
  return { level: "warning", text: `cross-check: ${client}'s session file ${file} disagrees with its event stream — ${differences.join("; ")}` };
}

/** Finds, imports and compares the client's session file; a missing or unreadable file is a warning. */
export async function sessionCheck(input: { client: ClientName; sessionDir: string; events: readonly RunEvent[]; importSession: SessionImporter }): Promise<CheckNote> {
  const { client, sessionDir } = input;
  const path = await findSessionFile(sessionDir);
  if (path === null) return { level: "warning", text: `cross-check: ${client} wrote no session file under its home (${basename(sessionDir)}/); the record rests on the event stream alone` };
  let imported: RunEvent[];
  try {
    imported = await input.importSession(path, SESSION_FILE_FORMAT[client]);
  } catch (error) {
    return { level: "warning", text: `cross-check: ${client}'s session file ${basename(path)} could not be imported as ${SESSION_FILE_FORMAT[client]} (${error instanceof Error ? error.message : String(error)})` };
  }
  return compareDigests(client, basename(path), digestOf(input.events), digestOf(imported));
}
