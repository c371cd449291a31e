/// <reference lib="dom" />
/**
 * Reads the page's data: the index parsed at start, each run's payload inflated and parsed the
 * first time it is opened (DecompressionStream, so no library and no network), then kept.
 */
import { INDEX_ELEMENT_ID, PAYLOAD_ELEMENT_PREFIX, type PageIndex, type RunPayload } from "./data.ts";

export function readIndex(): PageIndex {
  const element = document.getElementById(INDEX_ELEMENT_ID);
  if (element === null) throw new Error(`this page has no #${INDEX_ELEMENT_ID} element: it was not written by armstudy view`);
  return JSON.parse(element.textContent ?? "null") as PageIndex;
}

function hexOf(key: string): string {
  return Array.from(new TextEncoder().encode(key), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class PayloadStore {
  private readonly cache = new Map<string, Promise<RunPayload>>();

  has(key: string): boolean {
    return document.getElementById(PAYLOAD_ELEMENT_PREFIX + hexOf(key)) !== null;
  }

  get(key: string): Promise<RunPayload> {
    let found = this.cache.get(key);
    if (found === undefined) {
      found = decode(key);
      this.cache.set(key, found);
    }
    return found;
  }
}

async function decode(key: string): Promise<RunPayload> {
  const element = document.getElementById(PAYLOAD_ELEMENT_PREFIX + hexOf(key));
  if (element === null) throw new Error(`run ${key} has no record in this page`);
  const binary = atob((element.textContent ?? "").trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return JSON.parse(await new Response(stream).text()) as RunPayload;
}
