/**
 * `npm run peers:install`: installs the peer tools the peer-check tests compare armstudy with, at
 * pinned versions, into a cache folder outside node_modules (default `.armstudy/peers`, or
 * $ARMSTUDY_PEERS_DIR). Opt-in like `agents:install`: ccusage's package names native parts for
 * every platform, and not every platform's part can be had from the registry this machine reaches,
 * so it cannot sit in package-lock.json (`npm ci` would refuse the lock). Only this platform's part
 * is installed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CCUSAGE_VERSION, ccusageCli, peersDir } from "./peers.ts";

const dir = join(peersDir(process.env, process.cwd()), "ccusage");
if (ccusageCli(process.env, process.cwd()) !== null) {
  process.stdout.write(`ccusage@${CCUSAGE_VERSION} already installed in ${dir}\n`);
  process.exit(0);
}
mkdirSync(dir, { recursive: true });
if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "armstudy-peer-ccusage", private: true }, null, 2)}\n`);
const native = `@ccusage/ccusage-${process.platform}-${process.arch}@${CCUSAGE_VERSION}`;
process.stdout.write(`ccusage: installing ccusage@${CCUSAGE_VERSION} and ${native} into ${dir}\n`);
// --omit=optional: the other platforms' native parts are optional and may not be served; this platform's is named.
const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", "--omit=optional", `ccusage@${CCUSAGE_VERSION}`, native], { cwd: dir, stdio: "inherit" });
if (result.status !== 0 || ccusageCli(process.env, process.cwd()) === null) {
  process.stderr.write(`ccusage: install failed (npm exit ${result.status}); the ccusage peer check will be skipped\n`);
  process.exit(1);
}
