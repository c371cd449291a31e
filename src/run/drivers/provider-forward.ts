/**
 * A driven client's only way to its provider: an HTTP server on 127.0.0.1 (outside the sandbox)
 * that sends every request it gets on to the provider's base URL, streaming both ways. A sandboxed
 * client reaches it through the Unix-socket bridge (netns.ts) from a private network with nothing
 * else in it, so it can talk to its provider and to no other host, port or local service.
 *
 * Standing between the client and its provider, the forwarder is also where armstudy sees the
 * provider fail (ADR 0129): each exchange that ends unreachable, timed out, 5xx, 429, refused or cut
 * off is a fault with a named cause, and the driver ends the run as `error` with that cause rather
 * than scoring whatever the client made of it. The study's connect and idle timeouts apply here.
 */
import { type ClientRequest, type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { DEFAULT_REQUEST_TIMEOUTS } from "../models/openai-compatible.ts";
import { type FaultCause, statusFault } from "../models/fault.ts";

/** One provider exchange that failed. */
export interface ProviderFault {
  cause: FaultCause;
  message: string;
  /** How many exchanges in a row have failed, this one included. */
  inARow: number;
  /** Exchanges that had succeeded before this one. */
  succeeded: number;
}

export interface ProviderForwardOptions {
  /** No connection to the provider within this many ms is `model.timeout`. */
  connectTimeoutMs?: number;
  /** No byte from the provider for this many ms (before or while it answers) is `model.timeout`. */
  idleTimeoutMs?: number;
}

export interface ProviderForward {
  /** The port on 127.0.0.1 the client (or the bridge) connects to. */
  port: number;
  /** The fault of the latest model request (a POST) to end, or null when it succeeded or none has ended. */
  lastFault(): ProviderFault | null;
  /** Calls `listener` for every model request that fails, as it ends. */
  watch(listener: (fault: ProviderFault) => void): void;
  close(): Promise<void>;
}

/** Headers that belong to one hop and are never forwarded. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "upgrade", "host"]);

export async function startProviderForward(baseUrl: string, options: ProviderForwardOptions = {}): Promise<ProviderForward> {
  const target = new URL(baseUrl);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const prefix = target.pathname.replace(/\/+$/, "");
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_REQUEST_TIMEOUTS.connectTimeoutMs;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_REQUEST_TIMEOUTS.idleTimeoutMs;
  const sockets = new Set<Socket>();
  const open = new Set<ClientRequest>();
  const listeners: Array<(fault: ProviderFault) => void> = [];
  let latest: ProviderFault | null = null;
  let inARow = 0;
  let succeeded = 0;

  // Only model requests count: a client may also GET a models list or a probe that the provider lacks.
  const settle = (method: string | undefined, cause: FaultCause | null, message: string): void => {
    if (method !== "POST") return;
    if (cause === null) {
      succeeded += 1;
      inARow = 0;
      latest = null;
      return;
    }
    inARow += 1;
    latest = { cause, message, inARow, succeeded };
    for (const listener of listeners) listener(latest);
  };

  const server: Server = createServer((inbound: IncomingMessage, outbound: ServerResponse) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(inbound.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    let ended = false;
    // Each exchange settles once: the first of success, a fault, or the client going away.
    const end = (cause: FaultCause | null, message: string): void => {
      if (ended) return;
      ended = true;
      open.delete(upstream);
      clearTimeout(idle);
      settle(inbound.method, cause, message);
    };
    const fail = (cause: FaultCause, message: string, status: number): void => {
      end(cause, message);
      if (!outbound.headersSent) outbound.writeHead(status, { "content-type": "text/plain" });
      outbound.end(`armstudy provider forward: ${message}\n`);
      upstream.destroy();
    };
    let idle: NodeJS.Timeout | undefined;
    const armIdle = (ms: number, what: string): void => {
      clearTimeout(idle);
      idle = setTimeout(() => fail("model.timeout", `no byte from ${target.host} for ${ms} ms ${what}`, 504), ms);
    };
    const upstream = send(
      { protocol: target.protocol, hostname: target.hostname, port: target.port, method: inbound.method, path: `${prefix}${inbound.url ?? "/"}`, headers: { ...headers, host: target.host } },
      (answer) => {
        const status = answer.statusCode ?? 502;
        const cause = statusFault(status);
        armIdle(idleTimeoutMs, "while it answered (idle timeout)");
        outbound.writeHead(status, answer.headers);
        let detail = "";
        answer.on("data", (chunk: Buffer) => {
          if (cause !== null && detail.length < 300) detail += chunk.toString("utf8");
          armIdle(idleTimeoutMs, "while it answered (idle timeout)");
        });
        answer.on("end", () => end(cause, cause === null ? "" : `HTTP ${status} from ${target.host}: ${detail.replace(/\s+/g, " ").trim().slice(0, 300)}`));
        // Cut off upstream: cut off for the client too, so it sees what the provider did.
        const cut = (): void => {
          end("model.dropped", `${target.host} broke off its answer`);
          outbound.destroy();
        };
        answer.on("aborted", cut);
        answer.on("error", cut);
        answer.pipe(outbound);
      },
    );
    open.add(upstream);
    // Connected but silent: the idle timeout; never connected: the connect timeout.
    armIdle(connectTimeoutMs, "(connect timeout)");
    upstream.on("socket", (socket: Socket) => {
      const connected = (): void => armIdle(idleTimeoutMs, "before it answered (idle timeout)");
      if (socket.connecting) socket.once(target.protocol === "https:" ? "secureConnect" : "connect", connected);
      else connected();
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (ended) return;
      fail(error.code === "ETIMEDOUT" ? "model.timeout" : "model.unreachable", `${target.host} could not be reached: ${error.message}`, 502);
    });
    // The client hung up first: neither a success nor the provider's fault.
    outbound.on("close", () => {
      if (ended) return;
      ended = true;
      open.delete(upstream);
      clearTimeout(idle);
      upstream.destroy();
    });
    inbound.pipe(upstream);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    lastFault: () => latest,
    watch: (listener) => {
      listeners.push(listener);
    },
    close: async () => {
      for (const request of open) request.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
