/**
 * The HTTP transport of the model adapters: a `fetch`-shaped function over node:http/https with a
 * real connect timeout (the TCP/TLS handshake must finish within `connectTimeoutMs`). The global
 * fetch has a fixed connect timeout that cannot be set without a dependency; this one is settable
 * per study (ADR 0082). The body is handed back as a web stream, uncompressed (we ask for identity).
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

/** The error a connect timeout rejects with; `code` tells it apart from a refused connection. */
export class ConnectTimeoutError extends Error {
  readonly code = "ECONNECT_TIMEOUT";
  constructor(readonly timeoutMs: number) {
    super(`no connection within ${timeoutMs} ms`);
    this.name = "ConnectTimeoutError";
  }
}

const NO_BODY_STATUSES = new Set([204, 205, 304]);

function toHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** A fetch for POST/GET requests with a connect timeout. Rejects like fetch: on network errors and aborts. */
export function createHttpFetch(options: { connectTimeoutMs: number }): typeof fetch {
  const transport = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const headers: Record<string, string> = { "accept-encoding": "identity" };
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const body = typeof init.body === "string" ? init.body : undefined;
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      const request = send(url, { method: init.method ?? "GET", headers, ...(init.signal ? { signal: init.signal } : {}) });
      let connectTimer: NodeJS.Timeout | undefined;
      const clearConnect = () => {
        if (connectTimer !== undefined) clearTimeout(connectTimer);
        connectTimer = undefined;
      };
      request.on("socket", (socket) => {
        // A kept-alive socket is already connected: nothing to time.
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => request.destroy(new ConnectTimeoutError(options.connectTimeoutMs)), options.connectTimeoutMs);
        socket.once(url.protocol === "https:" ? "secureConnect" : "connect", clearConnect);
      });
      request.on("error", (error) => {
        clearConnect();
        reject(error);
      });
      request.on("response", (message) => {
        clearConnect();
        const status = message.statusCode ?? 0;
        const stream = NO_BODY_STATUSES.has(status) ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>);
        if (stream === null) message.resume();
        try {
          resolve(new Response(stream, { status, statusText: message.statusMessage ?? "", headers: toHeaders(message) }));
        } catch (error) {
          message.destroy();
          reject(error);
        }
      });
      request.end(body);
    });
  return transport as typeof fetch;
}
