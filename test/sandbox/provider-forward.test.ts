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
