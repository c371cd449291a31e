/**
 * `armstudy view --serve`: a loopback-only HTTP server over a folder. `/` lists every study
 * results folder, every run record and every session page (`analyze --html`) under it; studies
 * and records are rendered into their viewer page when asked for (so the page is always current),
 * session pages are sent as written. Only paths the listing found are served; nothing else on disk
 * is reachable, and nothing is written.
 */
import { open, readFile, readdir, stat } from "node:fs/promises";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative, resolve, sep } from "node:path";
import { STUDY_META_FILE } from "../render/results.ts";
import type { PageAssets } from "./assets.ts";
import { escapeHtml, pageHtml } from "./html.ts";
import { recordFilePage } from "./session-page.ts";
import { studyHtml } from "./write.ts";

export interface Listing {
  studies: string[];
  records: string[];
  /** Viewer pages written outside a study folder (`armstudy analyze FILE --html OUT`). */
  pages: string[];
}

const GENERATOR = '<meta name="generator" content="armstudy view">';

const SKIP = new Set(["node_modules", ".git", ".armstudy"]);
const MAX_DEPTH = 8;

async function head(path: string, bytes: number): Promise<string> {
  const handle = await open(path, "r").catch(() => null);
  if (handle === null) return "";
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** A `.jsonl` file is a run record when its first line is a `run.start` event. */
async function isRunRecord(path: string): Promise<boolean> {
  return /^\s*\{[^\n]*"type"\s*:\s*"run\.start"/.test(await head(path, 512));
}

/** Studies (folders with study.json; their own runs are not listed again) and run records under root. */
export async function listViews(root: string): Promise<Listing> {
  const listing: Listing = { studies: [], records: [], pages: [] };
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    if (entries.some((entry) => entry.isFile() && entry.name === STUDY_META_FILE)) {
      listing.studies.push(relative(root, dir).split(sep).join("/") || ".");
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH && !SKIP.has(entry.name) && !entry.name.startsWith(".")) await walk(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith(".jsonl") && (await isRunRecord(path))) listing.records.push(relative(root, path).split(sep).join("/"));
      else if (entry.isFile() && entry.name.endsWith(".html") && (await head(path, 1024)).includes(GENERATOR)) listing.pages.push(relative(root, path).split(sep).join("/"));
    }
  };
  await walk(root, 0);
  return listing;
}

function listingHtml(root: string, listing: Listing, style: string): string {
  const item = (href: string, text: string) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`;
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>armstudy: ${escapeHtml(root)}</title><style>${style}</style></head><body><main>`,
    `<h1>armstudy view: ${escapeHtml(root)}</h1>`,
    `<h2>Studies (${listing.studies.length})</h2><ul class="listing">${listing.studies.map((study) => item(`/study/${encodeURIComponent(study)}`, study)).join("") || "<li>none</li>"}</ul>`,
    `<h2>Run records (${listing.records.length})</h2><ul class="listing">${listing.records.map((record) => item(`/record/${encodeURIComponent(record)}`, record)).join("") || "<li>none</li>"}</ul>`,
    `<h2>Session pages (${listing.pages.length})</h2><ul class="listing">${listing.pages.map((page) => item(`/page/${encodeURIComponent(page)}`, page)).join("") || "<li>none</li>"}</ul>`,
    `</main></body></html>`,
  ].join("\n");
}

export interface RunningServer {
  url: string;
  root: string;
  server: Server;
  close: () => Promise<void>;
}

export async function serveViews(options: { root: string; port: number; assets: PageAssets }): Promise<RunningServer> {
  const root = resolve(options.root);
  const info = await stat(root).catch(() => null);
  if (info === null || !info.isDirectory()) throw Object.assign(new Error(`${root} is not a folder; pass the folder that holds the studies (such as reports/)`), { code: "VIEW_ROOT" });

  const send = (response: ServerResponse, status: number, body: string, type = "text/html; charset=utf-8") => {
    response.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff" });
    response.end(body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET") return send(response, 405, "only GET", "text/plain; charset=utf-8");
    const listing = await listViews(root);
    if (url.pathname === "/") return send(response, 200, listingHtml(root, listing, options.assets.style));
    const [, kind, ...rest] = url.pathname.split("/");
    let rel: string;
    try {
      rel = decodeURIComponent(rest.join("/"));
    } catch {
      return send(response, 400, "bad path", "text/plain; charset=utf-8");
    }
    if (kind === "study" && listing.studies.includes(rel)) return send(response, 200, await studyHtml(resolve(root, rel), options.assets));
    if (kind === "record" && listing.records.includes(rel)) {
      const { index, payload } = await recordFilePage(resolve(root, rel));
      const parts: string[] = [];
      async function* one() {
        yield { key: `${index.runs[0]?.key}`, payload };
      }
      for await (const chunk of pageHtml(index, one(), options.assets)) parts.push(chunk);
      return send(response, 200, parts.join(""));
    }
    if (kind === "page" && listing.pages.includes(rel)) return send(response, 200, await readFile(resolve(root, rel), "utf8"));
    send(response, 404, `not found: ${escapeHtml(url.pathname)} — <a href="/">the listing</a>`);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => send(response, 500, `error: ${escapeHtml(error.message)}`));
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(options.port, "127.0.0.1", () => done());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    root,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
