/**
 * `npm run bench [-- [--write] NAME...]`: runs every benchmark in scripts/bench/ (or the named
 * ones), one process each so one benchmark's warm caches never flatter another's. Each prints its
 * own tables. With --write, each one's output replaces its section of docs/performance.md, the
 * text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` (appended when missing); every
 * other section is kept as it is (ADR 0088).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "scripts", "bench");
const doc = join(root, "docs", "performance.md");
const all = readdirSync(dir).filter((name) => name.endsWith(".bench.ts")).sort();
const args = process.argv.slice(2);
const write = args.includes("--write");
const wanted = args.filter((arg) => arg !== "--write");
const selected = wanted.length === 0 ? all : all.filter((name) => wanted.some((w) => name.startsWith(w)));
if (selected.length === 0) {
  process.stderr.write(`no benchmark matches ${wanted.join(", ")}; known: ${all.map((n) => n.replace(".bench.ts", "")).join(", ")}\n`);
  process.exit(2);
}

/** The doc with NAME's section replaced by `body` (or added at the end). */
function withSection(text: string, name: string, body: string): string {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const section = `${open}\n${body.trim()}\n${close}`;
  const from = text.indexOf(open);
  const to = text.indexOf(close);
  if (from !== -1 && to > from) return text.slice(0, from) + section + text.slice(to + close.length);
  return `${text.trimEnd()}\n\n${section}\n`;
}

let failed = 0;
for (const file of selected) {
  const name = file.replace(".bench.ts", "");
  process.stdout.write(`\n## ${name}\n\n`);
  const result = spawnSync(process.execPath, ["--import", "tsx", join(dir, file)], { stdio: ["inherit", "pipe", "inherit"], encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(result.stdout ?? "");
  if (result.status !== 0) {
    failed += 1;
    continue;
  }
  if (write) {
    // A benchmark that prints console.table boxes rather than markdown is kept as a text block.
    const output = result.stdout.includes("┌") ? `\`\`\`text\n${result.stdout.trimEnd()}\n\`\`\`` : result.stdout;
    const body = `## ${name}\n\n\`npm run bench -- ${name}\` (scripts/bench/${file}), written by \`npm run bench -- --write ${name}\`:\n\n${output}`;
    writeFileSync(doc, withSection(readFileSync(doc, "utf8"), name, body));
    process.stdout.write(`\n(wrote the ${name} section of docs/performance.md)\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
