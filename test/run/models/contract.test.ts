/**
 * The ModelClient contract, run over every adapter: the OpenAI-compatible client against a real
 * loopback server (JSON and streamed), the cassette recorder wrapping it, the cassette player,
 * and the scripted test double playing the diligent persona. Each adapter says how to make it fail; the suite
 * checks the same promises of all of them.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelClient, ModelReply, ModelRequest } from "../../../src/core/model.ts";
import { ModelReplySchema } from "../../../src/run/models/cassette.ts";
import { createModelClient } from "../../../src/run/models/spec.ts";
import { type ChatServer, chatCompletion, chatCompletionChunks, startChatServer, wireError } from "../../support/chat-server.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const TOOLS = [{ name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
const ask = (text: string, runIndex = 0): ModelRequest => ({
  messages: [
    { role: "system", content: "You are a careful coding agent." },
    { role: "user", content: text },
  ],
  tools: TOOLS,
  meta: { runIndex, round: 0, purpose: "agent" },
});
const TEXT = ask("Say the answer.");
const TOOL = ask("Read a.ts.");

/** Loopback behaviour: decided from the request, so any number of clients can share it. */
function answerFor(body: { messages: Array<{ content: string }>; stream?: boolean }) {
  const last = body.messages.at(-1)?.content ?? "";
  const completion =
    last === "Read a.ts."
      ? { toolCalls: [{ id: "call_1", name: "read_file", arguments: { path: "a.ts" } }], usage: { prompt: 40, completion: 12, cached: 32, reasoning: 4 } }
      : last === "Say the answer."
        ? { content: "The answer is 42.", usage: { prompt: 30, completion: 6 } }
        : undefined;
  if (completion === undefined) return { status: 400, json: wireError(`no scripted answer for ${JSON.stringify(last)}`) };
  return body.stream ? { sse: chatCompletionChunks({ ...completion, pieceChars: 3 }), chunkBytes: 16 } : { json: chatCompletion(completion) };
}

interface Adapter {
  name: string;
  /** Makes the client (after the shared server is up). */
  make: () => Promise<ModelClient>;
  /** A request this adapter must fail (as a reply). */
  failing: ModelRequest;
  /** False for the scripted double: it plays its persona, not our two canned requests. */
  answersCanned: boolean;
}

let server: ChatServer;
let dir: string;
const env = {};

const personaFile = join(ROOT, "fixtures", "personas", "diligent.yaml");
const hasScripted = existsSync(join(ROOT, "src", "run", "models", "scripted.ts")) && existsSync(personaFile);

const ADAPTERS: Adapter[] = [
  {
    name: "openai-compatible (JSON)",
    make: () => createModelClient(`openai-compatible:test-model@${server.baseUrl}`, { env, cwd: dir, stream: false, retry: { maxRetries: 0 } }),
    failing: ask("Something unplanned."),
    answersCanned: true,
  },
  {
    name: "openai-compatible (stream)",
    make: () => createModelClient(`openai-compatible:test-model@${server.baseUrl}`, { env, cwd: dir, stream: true, retry: { maxRetries: 0 } }),
    failing: ask("Something unplanned."),
    answersCanned: true,
  },
  {
    name: "record",
    make: () => createModelClient(`record:tapes-live=openai-compatible:test-model@${server.baseUrl}`, { env, cwd: dir, stream: false, retry: { maxRetries: 0 } }),
    failing: ask("Something unplanned."),
    answersCanned: true,
  },
  {
    name: "replay",
    make: () => createModelClient("replay:tapes", { env, cwd: dir }),
    failing: ask("Say the answer.", 99),
    answersCanned: true,
  },
  ...(hasScripted
    ? [
        {
          name: "scripted",
          make: () => createModelClient(`scripted:${personaFile}`, { env, cwd: dir, seed: 7, runIndex: 0 }),
          failing: TEXT,
          answersCanned: false,
        },
      ]
    : []),
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "armstudy-contract-"));
  server = await startChatServer((request) => answerFor(request.body));
  // The replay adapter plays what a recording of the live adapter stored.
  const recorder = await createModelClient(`record:tapes=openai-compatible:test-model@${server.baseUrl}`, { env, cwd: dir, stream: false });
  await recorder.complete(TEXT);
  await recorder.complete(TOOL);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The promises every reply keeps, whatever the adapter. */
function expectContractShape(reply: ModelReply): void {
  expect(ModelReplySchema.safeParse(reply).success).toBe(true);
  expect(reply.usage.input).toBeGreaterThanOrEqual(reply.usage.cachedInput);
  expect(reply.usage.output).toBeGreaterThanOrEqual(reply.usage.reasoning);
  expect(reply.stop === "tool_calls").toBe(reply.toolCalls.length > 0);
  expect(["error", "usage_limit", "aborted"].includes(reply.stop)).toBe(typeof reply.errorMessage === "string" && reply.errorMessage.length > 0);
}

const strip = ({ durationMs: _duration, ...rest }: ModelReply) => rest;

describe.each(ADAPTERS)("ModelClient contract: $name", (adapter) => {
  it("has a stable id and says whether it is a test double", async () => {
    const client = await adapter.make();
    expect(typeof client.id).toBe("string");
    expect(client.id.length).toBeGreaterThan(0);
    expect((await adapter.make()).id).toBe(client.id);
    expect(client.isTestDouble).toBe(adapter.name === "scripted");
  });

  it("answers with replies of the contract's shape", async () => {
    const client = await adapter.make();
    for (const request of [TEXT, TOOL]) expectContractShape(await client.complete(request));
  });

  it.skipIf(!adapter.answersCanned)("ends a plain-text answer with end_turn and the text", async () => {
    const reply = await (await adapter.make()).complete(TEXT);
    expect(strip(reply)).toEqual({
      text: "The answer is 42.",
      toolCalls: [],
      stop: "end_turn",
      usage: { input: 30, cachedInput: 0, output: 6, reasoning: 0, source: "reported" },
      model: "test-model",
    });
  });

  it.skipIf(!adapter.answersCanned)("returns tool calls with parsed arguments and normalised usage", async () => {
    const reply = await (await adapter.make()).complete(TOOL);
    expect(strip(reply)).toEqual({
      text: "",
      toolCalls: [{ id: "call_1", name: "read_file", arguments: { path: "a.ts" } }],
      stop: "tool_calls",
      usage: { input: 40, cachedInput: 32, output: 12, reasoning: 4, source: "reported" },
      model: "test-model",
    });
  });

  it.skipIf(!adapter.answersCanned)("returns a failure as an error reply with a message, never a throw", async () => {
    const reply = await (await adapter.make()).complete(adapter.failing);
    expectContractShape(reply);
    expect(reply.stop).toBe("error");
  });

  it("returns aborted for an aborted signal, never a throw", async () => {
    const reply = await (await adapter.make()).complete(TEXT, AbortSignal.abort());
    expectContractShape(reply);
    expect(reply.stop).toBe("aborted");
  });

  it("gives the same reply to the same request from a fresh client", async () => {
    const first = await (await adapter.make()).complete(TOOL);
    const second = await (await adapter.make()).complete(TOOL);
    expect(strip(second)).toEqual(strip(first));
  });
});
