/**
 * Where `npm run peers:install` puts the peer tools that peer-check tests run (ccusage), and how a
 * test finds them. A test skips, saying so, when the peer is not installed.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export const CCUSAGE_VERSION = "20.0.24";

export function peersDir(env: NodeJS.ProcessEnv, cwd: string): string {
  return env.ARMSTUDY_PEERS_DIR !== undefined && env.ARMSTUDY_PEERS_DIR !== "" ? resolve(cwd, env.ARMSTUDY_PEERS_DIR) : join(cwd, ".armstudy", "peers");
}

/** ccusage's CLI entry, or null when it is not installed. */
export function ccusageCli(env: NodeJS.ProcessEnv, cwd: string): string | null {
  const cli = join(peersDir(env, cwd), "ccusage", "node_modules", "ccusage", "src", "cli.js");
  return existsSync(cli) ? cli : null;
}
