/**
 * The forwarder a sandboxed client reaches its provider through: a real loopback "provider", real
 * HTTP both ways. It keeps the base URL's path, the method, the body and the credentials, streams
 * the answer, and says so plainly when the provider cannot be reached.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProviderForward } from "../../src/run/drivers/provider-forward.ts";

let provider: Server;
let providerUrl: string;
const seen: Array<{ method?: string; url?: string; auth?: string; host?: string; body: string }> = [];

beforeAll(async () => {
  provider = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      seen.push({ method: request.method, url: request.url, auth: request.headers.authorization, host: request.headers.host, body });
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      setTimeout(() => response.end("data: two\n\n"), 50);
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", () => resolve()));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

describe("provider forward", () => {
  it("sends a request on to the base URL, with its path, body and key, and streams the answer back", async () => {
    const forward = await startProviderForward(`${providerUrl}/api`);
    try {
      const answer = await fetch(`http://127.0.0.1:${forward.port}/v1/chat/completions`, { method: "POST", headers: { authorization: "Bearer sk-x" }, body: '{"a":1}' });
      expect({ status: answer.status, text: await answer.text() }).toEqual({ status: 200, text: "data: one\n\ndata: two\n\n" });
      expect(seen.at(-1)).toEqual({ method: "POST", url: "/api/v1/chat/completions", auth: "Bearer sk-x", host: new URL(providerUrl).host, body: '{"a":1}' });
    } finally {
      await forward.close();
    }
  });

  it("answers 502 naming the host when the provider is not there", async () => {
    const forward = await startProviderForward("http://127.0.0.1:9");
    try {
      const answer = await fetch(`http://127.0.0.1:${forward.port}/v1/x`);
      expect({ status: answer.status, text: (await answer.text()).startsWith("armstudy provider forward: 127.0.0.1:9 could not be reached:") }).toEqual({ status: 502, text: true });
    } finally {
      await forward.close();
    }
  });
});

/** A provider that misbehaves in one way per path. */
async function faultyProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.url?.endsWith("/500")) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end('{"error":"overloaded"}');
    } else if (request.url?.endsWith("/429")) {
      response.writeHead(429);
      response.end("slow down");
    } else if (request.url?.endsWith("/cut")) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      setTimeout(() => response.socket?.destroy(), 20);
    } else if (request.url?.endsWith("/stall")) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
    } else if (!request.url?.endsWith("/hang")) {
      response.writeHead(200);
      response.end("ok");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("provider forward faults", () => {
  it("names each failed model request's cause, counts them in a row, and a success clears them", async () => {
    const faulty = await faultyProvider();
    const forward = await startProviderForward(faulty.url, { idleTimeoutMs: 300 });
    const seenFaults: unknown[] = [];
    forward.watch((fault) => seenFaults.push(fault));
    const post = async (path: string): Promise<number> => {
      const answer = await fetch(`http://127.0.0.1:${forward.port}${path}`, { method: "POST", body: "{}" });
      await answer.text().catch(() => "");
      return answer.status;
    };
    try {
      const statuses = [await post("/v1/500"), await post("/v1/429"), await post("/v1/hang"), await post("/v1/stall")];
      const afterFaults = forward.lastFault();
      const ok = await post("/v1/ok");
      const cut = await post("/v1/cut");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const host = new URL(faulty.url).host;
      expect({ statuses, afterFaults: afterFaults?.inARow, ok, cut, last: forward.lastFault(), seenFaults }).toEqual({
        statuses: [500, 429, 504, 200],
        afterFaults: 4,
        ok: 200,
        cut: 200,
        last: { cause: "model.dropped", message: `${host} broke off its answer`, inARow: 1, succeeded: 1 },
        seenFaults: [
          { cause: "model.http_5xx", message: `HTTP 500 from ${host}: {"error":"overloaded"}`, inARow: 1, succeeded: 0 },
          { cause: "model.rate_limited", message: `HTTP 429 from ${host}: slow down`, inARow: 2, succeeded: 0 },
          { cause: "model.timeout", message: `no byte from ${host} for 300 ms before it answered (idle timeout)`, inARow: 3, succeeded: 0 },
          { cause: "model.timeout", message: `no byte from ${host} for 300 ms while it answered (idle timeout)`, inARow: 4, succeeded: 0 },
          { cause: "model.dropped", message: `${host} broke off its answer`, inARow: 1, succeeded: 1 },
        ],
      });
    } finally {
      await forward.close();
      await faulty.close();
    }
  });

  it("a refused connection is model.unreachable; a GET that fails is no model request and is not counted", async () => {
    const forward = await startProviderForward("http://127.0.0.1:9");
    try {
      await (await fetch(`http://127.0.0.1:${forward.port}/v1/models`)).text();
      const beforePost = forward.lastFault();
      await (await fetch(`http://127.0.0.1:${forward.port}/v1/chat/completions`, { method: "POST", body: "{}" })).text();
      const last = forward.lastFault();
      expect({ beforePost, cause: last?.cause, inARow: last?.inARow, message: last?.message.startsWith("127.0.0.1:9 could not be reached: connect ECONNREFUSED") }).toEqual({
        beforePost: null,
        cause: "model.unreachable",
        inARow: 1,
        message: true,
      });
    } finally {
      await forward.close();
    }
  });
});
