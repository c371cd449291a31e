import fc from "fast-check";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../../src/core/model.ts";
import { OpenAICompatibleClient, PROVIDER_COMPAT, type ProviderKind, UNPARSED_ARGUMENTS_KEY } from "../../../src/run/models/openai-compatible.ts";
import { type ChatResponse, type ChatServer, chatCompletion, chatCompletionChunks, startChatServer, wireError } from "../../support/chat-server.ts";

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(plan: ReadonlyArray<ChatResponse> | Parameters<typeof startChatServer>[0]): Promise<ChatServer> {
  const server = await startChatServer(plan);
  servers.push(server);
  return server;
}

/** A clock that advances 10 ms per reading, so durationMs is exact. */
function steppingClock(): () => number {
  let now = 0;
  return () => (now += 10);
}

function client(server: ChatServer, options: { kind?: ProviderKind; stream?: boolean; apiKey?: string; timeoutMs?: number; maxRetries?: number } = {}) {
  const sleeps: number[] = [];
  const created = new OpenAICompatibleClient({
    id: "openai-compatible:test-model",
    model: "test-model",
    baseUrl: server.baseUrl,
    compat: PROVIDER_COMPAT[options.kind ?? "openai-compatible"],
    stream: options.stream ?? false,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    retry: { maxRetries: options.maxRetries ?? 2, baseDelayMs: 100, maxDelayMs: 1000 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: steppingClock(),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { client: created, sleeps };
}

const REQUEST: ModelRequest = {
  messages: [
    { role: "system", content: "You are careful." },
    { role: "user", content: "Fix the failing test." },
    { role: "assistant", content: "", toolCalls: [{ id: "call_a", name: "shell", arguments: { command: "npm test" } }] },
    { role: "tool", toolCallId: "call_a", name: "shell", content: "1 failed" },
  ],
  tools: [{ name: "shell", description: "Run a command.", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } }],
  maxOutputTokens: 256,
  effort: "low",
  meta: { runIndex: 0, round: 1, purpose: "agent" },
};

const WIRE_MESSAGES = [
  { role: "system", content: "You are careful." },
  { role: "user", content: "Fix the failing test." },
  { role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "shell", arguments: '{"command":"npm test"}' } }] },
  { role: "tool", tool_call_id: "call_a", content: "1 failed" },
];
const WIRE_TOOLS = [
  {
    type: "function",
    function: { name: "shell", description: "Run a command.", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } },
  },
];

const USAGE = { prompt: 1200, completion: 90, cached: 1024, reasoning: 40 };
const NORMALISED = { input: 1200, cachedInput: 1024, output: 90, reasoning: 40, source: "reported" };

describe("OpenAICompatibleClient, non-streaming", () => {
  it("sends the Chat Completions body and reads a text reply with normalised usage", async () => {
    const server = await serve([{ json: chatCompletion({ content: "All green now.", usage: USAGE, model: "test-model-2025" }) }]);
    const { client: model } = client(server, { apiKey: "sk-test" });
    const reply = await model.complete(REQUEST);
    expect(reply).toEqual({ text: "All green now.", toolCalls: [], stop: "end_turn", usage: NORMALISED, model: "test-model-2025", durationMs: 10 });
    expect(server.requests).toHaveLength(1);
    const [sent] = server.requests;
    expect(sent?.path).toBe("/v1/chat/completions");
    expect(sent?.headers.authorization).toBe("Bearer sk-test");
    expect(sent?.body).toEqual({ model: "test-model", messages: WIRE_MESSAGES, tools: WIRE_TOOLS, max_tokens: 256 });
  });

  it("uses the openai row of the compat table: max_completion_tokens, reasoning_effort, store false", async () => {
    const server = await serve([{ json: chatCompletion({ content: "ok" }) }]);
    await client(server, { kind: "openai" }).client.complete(REQUEST);
    expect(server.requests[0]?.body).toEqual({
      model: "test-model",
      messages: WIRE_MESSAGES,
      tools: WIRE_TOOLS,
      max_completion_tokens: 256,
      reasoning_effort: "low",
      store: false,
    });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("parses tool calls, keeping unparseable arguments under a named key", async () => {
    const server = await serve([
      {
        json: chatCompletion({
          content: null,
          toolCalls: [
            { id: "call_1", name: "read_file", arguments: { path: "src/a.ts" } },
            { id: "call_2", name: "shell", arguments: '{"command": "npm te' },
          ],
          usage: { prompt: 10, completion: 5 },
        }),
      },
    ]);
    const reply = await client(server).client.complete(REQUEST);
    expect(reply).toEqual({
      text: "",
      toolCalls: [
        { id: "call_1", name: "read_file", arguments: { path: "src/a.ts" } },
        { id: "call_2", name: "shell", arguments: { [UNPARSED_ARGUMENTS_KEY]: '{"command": "npm te' } },
      ],
      stop: "tool_calls",
      usage: { input: 10, cachedInput: 0, output: 5, reasoning: 0, source: "reported" },
      model: "test-model",
      durationMs: 10,
    });
  });

  it("treats tool calls under finish_reason stop as a tool-call stop (older ollama)", async () => {
    const server = await serve([{ json: chatCompletion({ toolCalls: [{ id: "c", name: "list_files", arguments: {} }], finishReason: "stop" }) }]);
    const reply = await client(server, { kind: "ollama" }).client.complete(REQUEST);
    expect(reply.stop).toBe("tool_calls");
    expect(reply.toolCalls).toEqual([{ id: "c", name: "list_files", arguments: {} }]);
  });

  it("maps length to max_tokens, and reports no usage as estimated zeros", async () => {
    const server = await serve([{ json: chatCompletion({ content: "partial", finishReason: "length" }) }]);
    const reply = await client(server).client.complete(REQUEST);
    expect(reply).toEqual({
      text: "partial",
      toolCalls: [],
      stop: "max_tokens",
      usage: { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "estimated" },
      model: "test-model",
      durationMs: 10,
    });
  });

  it("turns content_filter and unknown finish reasons into error replies that name them", async () => {
    const server = await serve([{ json: chatCompletion({ content: "", finishReason: "content_filter" }) }, { json: chatCompletion({ content: "x", finishReason: "martian" }) }]);
    const { client: model } = client(server);
    const filtered = await model.complete(REQUEST);
    expect([filtered.stop, filtered.errorMessage]).toEqual([
      "error",
      `${server.baseUrl}/chat/completions: the provider's content filter stopped the reply (finish_reason content_filter)`,
    ]);
    const unknown = await model.complete(REQUEST);
    expect([unknown.stop, unknown.errorMessage]).toEqual([
      "error",
      `${server.baseUrl}/chat/completions: unknown finish_reason "martian"; add it to FINISH_REASONS in openai-compatible.ts`,
    ]);
  });
});

describe("OpenAICompatibleClient, streaming", () => {
  it("assembles text and usage from chunks cut across SSE event and UTF-8 boundaries", async () => {
    const content = "Fixed — the test passes ✅ now.";
    const server = await serve([{ sse: chatCompletionChunks({ content, usage: USAGE, pieceChars: 3 }), chunkBytes: 7 }]);
    const reply = await client(server, { stream: true }).client.complete(REQUEST);
    expect(reply).toEqual({ text: content, toolCalls: [], stop: "end_turn", usage: NORMALISED, model: "test-model", durationMs: 10 });
    expect(server.requests[0]?.body).toEqual({
      model: "test-model",
      messages: WIRE_MESSAGES,
      tools: WIRE_TOOLS,
      max_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("assembles tool calls from argument deltas", async () => {
    const server = await serve([
      {
        sse: chatCompletionChunks({
          content: "Running the tests.",
          toolCalls: [
            { id: "call_1", name: "shell", arguments: { command: "npm test -- --run", timeoutMs: 60000 } },
            { id: "call_2", name: "write_file", arguments: { path: "a.txt", content: 'line "one"\nline two' } },
          ],
          usage: { prompt: 50, completion: 20, reasoning: 5 },
          pieceChars: 5,
        }),
        chunkBytes: 64,
        eol: "\r\n",
      },
    ]);
    const reply = await client(server, { stream: true }).client.complete(REQUEST);
    expect(reply).toEqual({
      text: "Running the tests.",
      toolCalls: [
        { id: "call_1", name: "shell", arguments: { command: "npm test -- --run", timeoutMs: 60000 } },
        { id: "call_2", name: "write_file", arguments: { path: "a.txt", content: 'line "one"\nline two' } },
      ],
      stop: "tool_calls",
      usage: { input: 50, cachedInput: 0, output: 20, reasoning: 5, source: "reported" },
      model: "test-model",
      durationMs: 10,
    });
  });

  it("keeps interleaved deltas of parallel tool calls apart by index", async () => {
    const delta = (toolCall: Record<string, unknown>, finish: string | null = null) => ({ choices: [{ index: 0, delta: { tool_calls: [toolCall] }, finish_reason: finish }] });
    const server = await serve([
      {
        sse: [
          delta({ index: 0, id: "a", function: { name: "read_file", arguments: "" } }),
          delta({ index: 1, id: "b", function: { name: "read_file", arguments: '{"pa' } }),
          delta({ index: 0, function: { arguments: '{"path":' } }),
          delta({ index: 1, function: { arguments: 'th":"b.ts"}' } }),
          delta({ index: 0, function: { arguments: '"a.ts"}' } }),
          { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
        ],
        eol: "\r",
      },
    ]);
    const reply = await client(server, { stream: true }).client.complete(REQUEST);
    expect(reply.toolCalls).toEqual([
      { id: "a", name: "read_file", arguments: { path: "a.ts" } },
      { id: "b", name: "read_file", arguments: { path: "b.ts" } },
    ]);
    expect(reply.usage.source).toBe("estimated");
  });

  it("property: a streamed answer, cut anywhere, reads the same as its JSON form", async () => {
    const text = fc.string({ unit: "binary", maxLength: 30 });
    const completion = fc.record({
      content: text,
      toolCalls: fc.array(
        fc.record({ name: fc.constantFrom("shell", "read_file"), arguments: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 3 }) }),
        { maxLength: 3 },
      ),
      usage: fc.record({ prompt: fc.nat(10_000), completion: fc.nat(500) }),
    });
    let planned: { json: ChatResponse; stream: ChatResponse } | undefined;
    const server = await serve((request) => (request.body.stream ? planned!.stream : planned!.json));
    await fc.assert(
      fc.asyncProperty(completion, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 40 }), async (input, pieceChars, chunkBytes) => {
        const wire = { ...input, toolCalls: input.toolCalls.map((call, index) => ({ ...call, id: `call_${index}` })) };
        planned = { json: { json: chatCompletion(wire) }, stream: { sse: chatCompletionChunks({ ...wire, pieceChars }), chunkBytes } };
        const fromJson = await client(server).client.complete(REQUEST);
        const fromStream = await client(server, { stream: true }).client.complete(REQUEST);
        expect(fromStream).toEqual(fromJson);
        expect(fromJson.toolCalls).toEqual(wire.toolCalls);
        expect(fromJson.text).toBe(input.content);
      }),
      { numRuns: 40 },
    );
  });

  it("reads a JSON answer even when it asked for a stream", async () => {
    const server = await serve([{ json: chatCompletion({ content: "plain", usage: { prompt: 3, completion: 1 } }) }]);
    const reply = await client(server, { stream: true }).client.complete(REQUEST);
    expect([reply.text, reply.stop]).toEqual(["plain", "end_turn"]);
  });

  it("fails a stream that breaks off before finishing", async () => {
    const server = await serve([{ sse: chatCompletionChunks({ content: "half a thought that goes on", pieceChars: 4 }), dropAfter: 3 }]);
    const reply = await client(server, { stream: true }).client.complete(REQUEST);
    expect(reply.stop).toBe("error");
    expect(reply.text).toBe("");
    expect(reply.errorMessage).toMatch(new RegExp(`^${server.baseUrl}/chat/completions: (the answer broke off: .+|the stream ended after 3 chunks without a finish_reason or \\[DONE\\])$`));
  });

  it("fails on a malformed chunk, naming it", async () => {
    const server = await serve([{ sse: [chatCompletionChunks({ content: "ok" })[0], "{not json"] }]);
    const reply = await client(server, { stream: true }).client.complete(REQUEST);
    expect(reply.stop).toBe("error");
    expect(reply.errorMessage).toMatch(/: malformed JSON in stream chunk 2 \(.+\): \{not json$/);
    expect(server.requests).toHaveLength(1);
  });

  it("maps a usage-limit error inside the stream to usage_limit", async () => {
    const server = await serve([{ sse: [wireError("You have used your plan's quota.", "usage_limit_reached", "usage_limit")] }]);
    const reply = await client(server, { stream: true }).client.complete(REQUEST);
    expect([reply.stop, reply.errorMessage]).toEqual([
      "usage_limit",
      `${server.baseUrl}/chat/completions: usage limit reached: You have used your plan's quota. (usage_limit_reached)`,
    ]);
  });
});

describe("OpenAICompatibleClient, failures and retries", () => {
  it("retries a 429 after the server's Retry-After, then succeeds", async () => {
    const server = await serve([
      { status: 429, headers: { "retry-after": "0.25" }, json: wireError("Rate limit reached, slow down.", "rate_limit_exceeded", "requests") },
      { json: chatCompletion({ content: "done", usage: { prompt: 8, completion: 2 } }) },
    ]);
    const { client: model, sleeps } = client(server);
    const reply = await model.complete(REQUEST);
    expect([reply.text, reply.stop]).toEqual(["done", "end_turn"]);
    expect(sleeps).toEqual([250]);
    expect(server.requests).toHaveLength(2);
  });

  it("backs off exponentially on 5xx and gives up after the bounded attempts with an error reply", async () => {
    const server = await serve(() => ({ status: 500, json: wireError("The server had an error.", null, "server_error") }));
    const { client: model, sleeps } = client(server, { maxRetries: 3 });
    const reply = await model.complete(REQUEST);
    expect(reply).toEqual({
      text: "",
      toolCalls: [],
      stop: "error",
      usage: { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" },
      errorMessage: `${server.baseUrl}/chat/completions: gave up after 4 attempts: HTTP 500: The server had an error. (server_error)`,
      fault: "model.http_5xx",
      // Each retried attempt is kept, so the agent loop can record it (model.retry).
      retries: [1, 2, 3].map((attempt) => ({
        attempt,
        cause: "model.http_5xx",
        message: "HTTP 500: The server had an error. (server_error)",
        atMs: attempt * 10,
        waitMs: 100 * 2 ** (attempt - 1),
      })),
      durationMs: 40,
    });
    expect(sleeps).toEqual([100, 200, 400]);
    expect(server.requests).toHaveLength(4);
  });

  it("caps a long Retry-After at maxDelayMs", async () => {
    const server = await serve([{ status: 503, headers: { "retry-after": "3600" }, raw: "overloaded", contentType: "text/plain" }, { json: chatCompletion({ content: "ok" }) }]);
    const { client: model, sleeps } = client(server);
    expect((await model.complete(REQUEST)).stop).toBe("end_turn");
    expect(sleeps).toEqual([1000]);
  });

  it("maps 429 insufficient_quota to usage_limit without retrying", async () => {
    const server = await serve([{ status: 429, json: wireError("You exceeded your current quota.", "insufficient_quota", "insufficient_quota") }]);
    const { client: model, sleeps } = client(server);
    const reply = await model.complete(REQUEST);
    expect([reply.stop, reply.errorMessage]).toEqual([
      "usage_limit",
      `${server.baseUrl}/chat/completions: usage limit reached (HTTP 429): You exceeded your current quota. (insufficient_quota)`,
    ]);
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("maps HTTP 402 to usage_limit", async () => {
    const server = await serve([{ status: 402, raw: "Payment Required", contentType: "text/plain" }]);
    const reply = await client(server).client.complete(REQUEST);
    expect([reply.stop, reply.errorMessage]).toEqual(["usage_limit", `${server.baseUrl}/chat/completions: usage limit reached (HTTP 402): Payment Required`]);
  });

  it("does not retry a 400 and returns the provider's message", async () => {
    const server = await serve([{ status: 400, json: wireError("Invalid schema for function 'shell'.", "invalid_function_parameters") }]);
    const { client: model, sleeps } = client(server);
    const reply = await model.complete(REQUEST);
    expect([reply.stop, reply.errorMessage, sleeps]).toEqual([
      "error",
      `${server.baseUrl}/chat/completions: HTTP 400: Invalid schema for function 'shell'. (invalid_function_parameters)`,
      [],
    ]);
  });

  it("returns malformed JSON as an error reply, without retrying", async () => {
    const server = await serve([{ raw: '{"choices": [', contentType: "application/json" }]);
    const reply = await client(server).client.complete(REQUEST);
    expect(reply.stop).toBe("error");
    expect(reply.errorMessage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: malformed JSON in the answer \(.+\): \{"choices": \[$/);
    expect(server.requests).toHaveLength(1);
  });

  it("returns an answer with no choices as an error reply", async () => {
    const server = await serve([{ json: { id: "x", choices: [] } }]);
    const reply = await client(server).client.complete(REQUEST);
    expect([reply.stop, reply.errorMessage]).toEqual(["error", `${server.baseUrl}/chat/completions: the answer has no choices: {"id":"x","choices":[]}`]);
  });

  it("retries a refused connection and ends with an error reply naming it", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const model = new OpenAICompatibleClient({
      id: "x",
      model: "m",
      baseUrl: `http://127.0.0.1:${port}/v1`,
      compat: PROVIDER_COMPAT["openai-compatible"],
      retry: { maxRetries: 1, baseDelayMs: 5 },
      sleep: async () => undefined,
    });
    const reply = await model.complete(REQUEST);
    expect([reply.stop, reply.fault, reply.errorMessage]).toEqual([
      "error",
      "model.unreachable",
      `http://127.0.0.1:${port}/v1/chat/completions: gave up after 2 attempts: network error: connection failed (ECONNREFUSED)`,
    ]);
  });

  it("returns aborted, without throwing, when the caller aborts mid-request", async () => {
    const server = await serve([{ delayMs: 5000, json: chatCompletion({ content: "too late" }) }]);
    const controller = new AbortController();
    const pending = client(server).client.complete(REQUEST, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const reply = await pending;
    expect([reply.stop, reply.errorMessage]).toEqual(["aborted", `${server.baseUrl}/chat/completions: aborted before the provider answered`]);
  });

  it("returns aborted at once for an already-aborted signal, sending nothing", async () => {
    const server = await serve([]);
    const reply = await client(server).client.complete(REQUEST, AbortSignal.abort());
    expect(reply.stop).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });

  it("times out one attempt, retries a timeout once only, and names it", async () => {
    const server = await serve(() => ({ delayMs: 3000, json: chatCompletion({ content: "slow" }) }));
    const reply = await client(server, { timeoutMs: 100, maxRetries: 3 }).client.complete(REQUEST);
    expect(server.requests.length).toEqual(2);
    expect([reply.stop, reply.fault, reply.errorMessage]).toEqual([
      "error",
      "model.timeout",
      `${server.baseUrl}/chat/completions: gave up after 2 attempts: timed out after 100 ms before the provider answered`,
    ]);
  });

  it("cuts a server that sends headers and then goes silent, by the idle timeout", async () => {
    const events = [chatCompletionChunks({ content: "half" })[0]];
    const server = await serve(() => ({ sse: events, done: false, delayAfterMs: 5000 }));
    const model = new OpenAICompatibleClient({
      id: "x",
      model: "m",
      baseUrl: server.baseUrl,
      compat: PROVIDER_COMPAT["openai-compatible"],
      stream: true,
      idleTimeoutMs: 150,
      retry: { maxRetries: 0 },
    });
    const reply = await model.complete(REQUEST);
    expect([reply.stop, reply.fault, reply.errorMessage]).toEqual([
      "error",
      "model.timeout",
      `${server.baseUrl}/chat/completions: gave up after 1 attempt: no byte from the provider for 150 ms while reading the answer (idle timeout)`,
    ]);
  });

  it("times out a connection whose TLS handshake never finishes, by the connect timeout", async () => {
    // A TCP server that accepts and says nothing: the TCP connect succeeds, the TLS handshake never does.
    const silent = createServer((socket) => socket.on("error", () => undefined).resume());
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    try {
      const model = new OpenAICompatibleClient({
        id: "x",
        model: "m",
        baseUrl: `https://127.0.0.1:${port}/v1`,
        compat: PROVIDER_COMPAT["openai-compatible"],
        connectTimeoutMs: 200,
        idleTimeoutMs: 10_000,
        retry: { maxRetries: 0 },
      });
      const reply = await model.complete(REQUEST);
      expect([reply.stop, reply.fault, reply.errorMessage]).toEqual([
        "error",
        "model.timeout",
        `https://127.0.0.1:${port}/v1/chat/completions: gave up after 1 attempt: network error: no connection within 200 ms (ECONNECT_TIMEOUT)`,
      ]);
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("never hands back the key a server echoes, in an error or in a reply", async () => {
    const key = "sk-test-0123456789abcdef";
    const server = await serve([
      { status: 401, json: wireError(`Incorrect API key provided: ${key}`, "invalid_api_key") },
      { json: chatCompletion({ content: `you sent ${key}`, toolCalls: [{ id: "c", name: "shell", arguments: { command: `echo ${encodeURIComponent(key)}` } }] }) },
    ]);
    const { client: model } = client(server, { apiKey: key });
    const failed = await model.complete(REQUEST);
    const echoed = await model.complete(REQUEST);
    expect([failed.fault, failed.errorMessage]).toEqual(["model.http_4xx", `${server.baseUrl}/chat/completions: HTTP 401: Incorrect API key provided: [redacted] (invalid_api_key)`]);
    expect([echoed.text, echoed.toolCalls]).toEqual(["you sent [redacted]", [{ id: "c", name: "shell", arguments: { command: "echo [redacted]" } }]]);
  });
});
