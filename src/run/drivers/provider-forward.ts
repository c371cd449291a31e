/**
 * A sandboxed client's only way to its provider: an HTTP server on 127.0.0.1 (outside the sandbox)
 * that sends every request it gets on to the provider's base URL, streaming both ways. The client
 * reaches it through the Unix-socket bridge (netns.ts) from a private network with nothing else in
 * it, so it can talk to its provider and to no other host, port or local service.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo, Socket } from "node:net";

export interface ProviderForward {
  /** The port on 127.0.0.1 the bridge carries the client's connections to. */
  port: number;
  close(): Promise<void>;
}

/** Headers that belong to one hop and are never forwarded. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "upgrade", "host"]);

export async function startProviderForward(baseUrl: string): Promise<ProviderForward> {
  const target = new URL(baseUrl);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const prefix = target.pathname.replace(/\/+$/, "");
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound: IncomingMessage, outbound: ServerResponse) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(inbound.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    const upstream = send(
      { protocol: target.protocol, hostname: target.hostname, port: target.port, method: inbound.method, path: `${prefix}${inbound.url ?? "/"}`, headers: { ...headers, host: target.host } },
      (answer) => {
        outbound.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outbound);
      },
    );
    upstream.on("error", (error) => {
      if (!outbound.headersSent) outbound.writeHead(502, { "content-type": "text/plain" });
      outbound.end(`armstudy provider forward: ${target.host} could not be reached: ${error.message}\n`);
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
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
