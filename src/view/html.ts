/**
 * Assembles a viewer page: one self-contained HTML file that works from file:// with no server
 * and no network. The index is JSON in a `<script type="application/json">`; each run's payload is
 * deflated JSON in base64 in its own inert script element, decoded only when the run is opened, so
 * a study of a thousand runs opens without parsing a thousand records. Model replies and tool
 * output are untrusted: the JSON is escaped so no text can close its element, and the page only
 * ever sets textContent.
 */
import { deflateRawSync } from "node:zlib";
import type { PageAssets } from "./assets.ts";
import { INDEX_ELEMENT_ID, PAYLOAD_ELEMENT_PREFIX, type PageIndex, type RunPayload } from "./page/data.ts";

/** JSON that is safe inside a script element: `<`, `>`, `&` and the JS line separators escaped. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A payload as the page stores it: deflate-raw, then base64 (no character can end the element). */
export function encodePayload(payload: RunPayload): string {
  return deflateRawSync(Buffer.from(JSON.stringify(payload), "utf8"), { level: 6 }).toString("base64");
}

/** The element id of a run's payload; keys may hold any character, so they are hex-encoded. */
export function payloadId(key: string): string {
  return PAYLOAD_ELEMENT_PREFIX + Buffer.from(key, "utf8").toString("hex");
}

/** Writes a page's HTML as chunks (a thousand-run study is never built as one string in parts). */
export async function* pageHtml(
  index: PageIndex,
  payloads: AsyncIterable<{ key: string; payload: RunPayload }>,
  assets: PageAssets,
): AsyncGenerator<string> {
  yield `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n`;
  yield `<meta name="generator" content="armstudy view">\n<title>${escapeHtml(index.title)}</title>\n`;
  // No network: a CSP that allows only what is inline, so even a bug cannot fetch anything.
  yield `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src data:">\n`;
  yield `<style>${assets.style.replace(/<\/style/gi, "<\\/style")}</style>\n</head>\n<body>\n<noscript>This page needs JavaScript to show the study.</noscript>\n<div id="app"></div>\n`;
  yield `<script type="application/json" id="${INDEX_ELEMENT_ID}">${scriptJson(index)}</script>\n`;
  for await (const { key, payload } of payloads) {
    yield `<script type="application/octet-stream" id="${payloadId(key)}" data-encoding="deflate-raw;base64">${encodePayload(payload)}</script>\n`;
  }
  yield `<script>${assets.script.replace(/<\/script/gi, "<\\/script")}</script>\n</body>\n</html>\n`;
}
