/**
 * The real agent clients armstudy can drive, pinned exactly (a bare install once picked an older
 * Claude Code), and where `npm run agents:install` puts them.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export type ClientName = "codex" | "claude" | "pi";

export interface AgentClient {
  name: ClientName;
  packageName: string;
  version: string;
  /** The executable's name under node_modules/.bin. */
  bin: string;
}

export const AGENT_CLIENTS: readonly AgentClient[] = [
  { name: "codex", packageName: "@openai/codex", version: "0.171.0", bin: "codex" },
  { name: "claude", packageName: "@anthropic-ai/claude-code", version: "2.1.332", bin: "claude" },
  { name: "pi", packageName: "@mariozechner/pi-coding-agent", version: "0.73.1", bin: "pi" },
];

export function agentsDir(env: NodeJS.ProcessEnv, cwd: string): string {
  return resolve(cwd, env.ARMSTUDY_AGENTS_DIR ?? ".armstudy/agents");
}

/** The installed client's executable, or null when `npm run agents:install` has not put it there. */
export function clientBinary(name: ClientName, env: NodeJS.ProcessEnv, cwd: string): string | null {
  const client = AGENT_CLIENTS.find((c) => c.name === name);
  if (client === undefined) return null;
  const path = join(agentsDir(env, cwd), name, "node_modules", ".bin", client.bin);
  return existsSync(path) ? path : null;
}
