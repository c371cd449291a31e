/**
 * The page's script and style, built from source when a page is written (ADR 0097): esbuild
 * bundles src/view/page/main.ts (with chart.js) into one script, and page.css is read as is.
 * Nothing built is committed, so the page cannot drift from its source. Build once per process
 * and pass the assets to every page written.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "page");

export interface PageAssets {
  script: string;
  style: string;
}

export class ViewBuildError extends Error {
  readonly code = "VIEW_BUILD";
  constructor(message: string) {
    super(message);
    this.name = "ViewBuildError";
  }
}

export async function buildPageAssets(): Promise<PageAssets> {
  let script: string;
  try {
    const result = await build({
      entryPoints: [join(PAGE_DIR, "main.ts")],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      minify: true,
      legalComments: "none",
      write: false,
      logLevel: "silent",
    });
    script = result.outputFiles[0]?.text ?? "";
  } catch (error) {
    throw new ViewBuildError(`the viewer's page script did not build from ${PAGE_DIR} (${(error as Error).message.split("\n")[0]}); run \`npm ci\` so esbuild and chart.js are installed`);
  }
  const style = await readFile(join(PAGE_DIR, "page.css"), "utf8");
  return { script, style };
}
