/** Server-sent events, as the three wire protocols frame them. */
import type { ServerResponse } from "node:http";

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
}

/** One event; `event` is the named type line that Responses and Messages streams carry. */
export function sendSse(res: ServerResponse, data: unknown, event?: string): void {
  const body = typeof data === "string" ? data : JSON.stringify(data);
  res.write(`${event === undefined ? "" : `event: ${event}\n`}data: ${body}\n\n`);
}
