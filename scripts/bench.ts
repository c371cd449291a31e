/**
 * `npm run bench [-- NAME...]`: runs every benchmark in scripts/bench/ (or the named ones), one
 * process each so one benchmark's warm caches never flatter another's. Each prints its own table.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "bench");
const all = readdirSync(dir).filter((name) => name.endsWith(".bench.ts")).sort();
const wanted = process.argv.slice(2);
const selected = wanted.length === 0 ? all : all.filter((name) => wanted.some((w) => name.startsWith(w)));
if (selected.length === 0) {
  process.stderr.write(`no benchmark matches ${wanted.join(", ")}; known: ${all.map((n) => n.replace(".bench.ts", "")).join(", ")}\n`);
  process.exit(2);
}
let failed = 0;
for (const name of selected) {
  process.stdout.write(`\n## ${name.replace(".bench.ts", "")}\n\n`);
  const result = spawnSync(process.execPath, ["--import", "tsx", join(dir, name)], { stdio: "inherit" });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
