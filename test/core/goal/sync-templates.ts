/**
 * Regenerates the embedded template constants from the markdown sources:
 *   npx tsx test/core/goal/sync-templates.ts
 * Core reads no files at runtime, so `templates.ts` holds the text; the test
 * `templates.test.ts` fails whenever a `.md` file and its constant differ.
 */
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

export const TEMPLATE_DIRS = ["src/core/goal/prompts", "src/core/policies/prompts"] as const;

export function readSources(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of readdirSync(join(root, dir)).filter((f) => f.endsWith(".md")).sort()) {
    out[file.replace(/\.md$/, "")] = readFileSync(join(root, dir, file), "utf8");
  }
  return out;
}

export function renderModule(dir: string, sources: Record<string, string>): string {
  const lines = [
    `/**`,
    ` * Generated from ${dir}/*.md by test/core/goal/sync-templates.ts — edit the markdown, then run`,
    ` * \`npx tsx test/core/goal/sync-templates.ts\`. A test fails when the two differ.`,
    ` */`,
    `export const TEMPLATES = {`,
    ...Object.entries(sources).map(([name, text]) => `  ${name}: ${JSON.stringify(text)},`),
    `} as const;`,
    ``,
    `export type TemplateName = keyof typeof TEMPLATES;`,
    ``,
  ];
  return lines.join("\n");
}

export function modulePath(dir: string): string {
  return join(root, dir.replace(/\/prompts$/, ""), "templates.ts");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const dir of TEMPLATE_DIRS) {
    const target = modulePath(dir);
    writeFileSync(`${target}.tmp`, renderModule(dir, readSources(dir)));
    renameSync(`${target}.tmp`, target);
    console.log(`wrote ${target}`);
  }
}
