/**
 * Where session logs live, and the walk over folders of them. The usual roots are each client's
 * own (Codex `$CODEX_HOME/sessions` and `archived_sessions`, Claude Code
 * `$CLAUDE_CONFIG_DIR/projects`, pi `$PI_CODING_AGENT_DIR/sessions`), with the home-folder
 * defaults when the variable is unset. The walk yields files one at a time (depth first, names
 * sorted), so a history of thousands of files is never listed in memory at once beyond one folder.
 */
import { opendir, stat } from "node:fs/promises";
import { join } from "node:path";

export interface SessionRoot {
  client: "codex" | "claude" | "pi";
  path: string;
  /** Which variable chose the path, or `default` for the home-folder default. */
  from: string;
  exists: boolean;
}

/** The usual session roots for this environment; `exists` says which are there. */
export async function discoverRoots(env: NodeJS.ProcessEnv, home: string): Promise<SessionRoot[]> {
  const codexHome = env.CODEX_HOME ? env.CODEX_HOME : join(home, ".codex");
  const claudeHome = env.CLAUDE_CONFIG_DIR ? env.CLAUDE_CONFIG_DIR : join(home, ".claude");
  const piHome = env.PI_CODING_AGENT_DIR ? env.PI_CODING_AGENT_DIR : join(home, ".pi", "agent");
  const candidates: Array<Omit<SessionRoot, "exists">> = [
    { client: "codex", path: join(codexHome, "sessions"), from: env.CODEX_HOME ? "CODEX_HOME" : "default" },
    { client: "codex", path: join(codexHome, "archived_sessions"), from: env.CODEX_HOME ? "CODEX_HOME" : "default" },
    { client: "claude", path: join(claudeHome, "projects"), from: env.CLAUDE_CONFIG_DIR ? "CLAUDE_CONFIG_DIR" : "default" },
    { client: "pi", path: join(piHome, "sessions"), from: env.PI_CODING_AGENT_DIR ? "PI_CODING_AGENT_DIR" : "default" },
  ];
  const roots: SessionRoot[] = [];
  for (const c of candidates) {
    const info = await stat(c.path).catch(() => null);
    roots.push({ ...c, exists: info?.isDirectory() === true });
  }
  return roots;
}

/** Session log file names: JSON lines, and Codex's zstd-compressed cold rollouts (read through zstd.ts). */
const SESSION_FILE = /\.(jsonl|ndjson|jsonl\.zst)$/;

/**
 * Session files under `path` (itself, when it is a file). Claude Code sub-agent transcripts
 * (`<session>/subagents/…`) are skipped: their parent's import reads them. Unreadable folders are
 * reported through `skipped` and the walk goes on.
 */
export async function* walkSessionFiles(path: string, skipped: (path: string, code: string) => void = () => undefined): AsyncGenerator<string> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    skipped(path, error.code ?? "error");
    return null;
  });
  if (info === null) return;
  if (!info.isDirectory()) {
    yield path;
    return;
  }
  yield* walkFolder(path, skipped);
}

async function* walkFolder(folder: string, skipped: (path: string, code: string) => void): AsyncGenerator<string> {
  let names: Array<{ name: string; dir: boolean; file: boolean }>;
  try {
    const dir = await opendir(folder);
    names = [];
    for await (const entry of dir) names.push({ name: entry.name, dir: entry.isDirectory(), file: entry.isFile() });
  } catch (error) {
    skipped(folder, (error as NodeJS.ErrnoException).code ?? "error");
    return;
  }
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of names) {
    const full = join(folder, entry.name);
    if (entry.dir) {
      if (entry.name === "subagents") continue;
      yield* walkFolder(full, skipped);
    } else if (entry.file && SESSION_FILE.test(entry.name)) yield full;
  }
}
