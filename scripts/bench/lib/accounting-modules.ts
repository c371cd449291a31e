/**
 * The accounting's source files, by its imports (ADR 0174): the request counter and its JSON
 * comparison, src/core/tokens.ts and everything under src/core/tokens/ (the seeds, as ADR 0131
 * named them), and then every module of src/ they import by value that only accounting modules
 * import, to a fixed point. A file the counter comes to call must be imported by it, so new code
 * of the counter's own joins without a name; a module the rest of the program imports too (a
 * shared helper, the loop's history) stays out, as it would be the program's work as often.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The seeds, as paths under src/. */
export const SEEDS: readonly RegExp[] = [/^run\/agent-tokens\.ts$/, /^run\/same-json\.ts$/, /^core\/tokens\.ts$/, /^core\/tokens\//];

/** Specifiers a module imports by value: `import … from`, `export … from`, bare and dynamic imports; `import type` / `export type` left out. */
export function valueImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:^|[\n;])\s*(import|export)(\s+type\b)?(?:[^;"'`]*?\bfrom)?\s*["']([^"']+)["']/g)) {
    if (match[2] === undefined) found.push(match[3] as string);
  }
  for (const match of source.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1] as string);
  return found;
}

/**
 * The accounting's modules: `imports` maps each module (a path under src/) to the modules it
 * imports by value (paths under src/ too; others left out).
 */
export function accountingModules(imports: ReadonlyMap<string, readonly string[]>, seeds: readonly RegExp[] = SEEDS): Set<string> {
  const inside = new Set([...imports.keys()].filter((path) => seeds.some((seed) => seed.test(path))));
  const importers = new Map<string, string[]>();
  for (const [from, targets] of imports) for (const to of targets) importers.set(to, [...(importers.get(to) ?? []), from]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const path of inside) {
      for (const to of imports.get(path) ?? []) {
        if (inside.has(to)) continue;
        if ((importers.get(to) ?? []).every((from) => inside.has(from))) {
          inside.add(to);
          grew = true;
        }
      }
    }
  }
  return inside;
}

/** Every .ts module under `src` with its value imports that resolve to modules under it. */
export function readImports(src: string): Map<string, string[]> {
  const files = (readdirSync(src, { recursive: true }) as string[]).filter((name) => name.endsWith(".ts")).map((name) => name.split("\\").join("/"));
  const known = new Set(files);
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const targets = valueImports(readFileSync(join(src, file), "utf8"))
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => relative(src, resolve(src, dirname(file), specifier)).split("\\").join("/"))
      .filter((path) => known.has(path));
    imports.set(file, targets);
  }
  return imports;
}

/** A profile frame test: the frame's url is one of the modules (paths under src/). */
export function inModules(modules: ReadonlySet<string>): (frame: { url: string }) => boolean {
  return (frame) => {
    const at = frame.url.lastIndexOf("/src/");
    return at !== -1 && modules.has(frame.url.slice(at + 5));
  };
}
