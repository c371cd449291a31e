/**
 * Writes a viewer page to disk atomically: `report.html` in a study's results folder, or any path
 * for a session. The study command, `armstudy report` and `armstudy merge` call `writeStudyView`
 * after the markdown report, so every results folder has its page.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../run/fs/atomic-write.ts";
import { type PageAssets, buildPageAssets } from "./assets.ts";
import { pageHtml } from "./html.ts";
import type { PageIndex, RunPayload } from "./page/data.ts";
import { studyPage } from "./page-data.ts";

export const VIEW_FILE = "report.html";

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts.join("");
}

export async function studyHtml(dir: string, assets: PageAssets): Promise<string> {
  const page = await studyPage(dir);
  return collect(pageHtml(page.index, page.payloads(), assets));
}

/** Writes `<dir>/report.html` and returns its path. */
export async function writeStudyView(dir: string, assets?: PageAssets): Promise<string> {
  const html = await studyHtml(dir, assets ?? (await buildPageAssets()));
  const path = join(dir, VIEW_FILE);
  await writeFileAtomic(path, html);
  return path;
}

export async function writePage(path: string, index: PageIndex, payloads: Array<{ key: string; payload: RunPayload }>, assets?: PageAssets): Promise<void> {
  async function* each() {
    yield* payloads;
  }
  await writeFileAtomic(path, await collect(pageHtml(index, each(), assets ?? (await buildPageAssets()))));
}
