/**
 * `npm run agents:install`: installs the real Codex CLI, Claude Code and pi at pinned versions
 * into a cache folder outside node_modules (default `.armstudy/agents`, or $ARMSTUDY_AGENTS_DIR).
 * Opt-in: armstudy works without them; the real-client tests and arms need them.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_CLIENTS, agentsDir, clientBinary } from "../src/run/drivers/clients.ts";

const root = agentsDir(process.env, process.cwd());
const wanted = process.argv.slice(2);
let failed = 0;
for (const client of AGENT_CLIENTS) {
  if (wanted.length > 0 && !wanted.includes(client.name)) continue;
  const dir = join(root, client.name);
  if (clientBinary(client.name, process.env, process.cwd()) !== null) {
    process.stdout.write(`${client.name}: ${client.packageName}@${client.version} already installed in ${dir}\n`);
    continue;
  }
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: `armstudy-agent-${client.name}`, private: true, allowScripts: { [client.packageName]: true } }, null, 2)}\n`);
  process.stdout.write(`${client.name}: installing ${client.packageName}@${client.version} into ${dir}\n`);
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", `${client.packageName}@${client.version}`], { cwd: dir, stdio: "inherit" });
  if (result.status !== 0 || clientBinary(client.name, process.env, process.cwd()) === null) {
    process.stderr.write(`${client.name}: install failed (npm exit ${result.status}); the real-client tests for it will be skipped\n`);
    failed += 1;
  }
}
process.exit(failed === 0 ? 0 : 1);
