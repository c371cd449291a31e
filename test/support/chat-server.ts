/**
 * A loopback Chat Completions server for tests: listens on 127.0.0.1:0, records every request, and
 * answers each one from a queue or a handler — JSON, a server-sent-event stream (optionally cut
 * into small writes), raw bytes, or a dropped connection. Builders below produce the OpenAI wire
 * shapes (completions, streamed chunks with tool-call argument deltas, usage with cached and
 * reasoning details), so a test states the answer it wants, not its bytes.
 *
 * Usable by any test that needs a model endpoint: the model adapters, the agent loop, `armstudy run`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path with query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body text. */
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any;
}

interface Common {
  status?: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (abort and timeout tests). */
  delayMs?: number;
}

export type ChatResponse =
  | (Common & { json: unknown })
  | (Common & {
      /** Each item is one event: an object is sent as `data: JSON`, a string as `data: STRING`. */
      sse: ReadonlyArray<unknown>;
      /** Append `data: [DONE]` (default true). */
      done?: boolean;
      /** Write the stream in pieces of this many bytes, to cut events and UTF-8 sequences apart. */
      chunkBytes?: number;
      /** Line ending between SSE lines (default "\n"). */
      eol?: "\n" | "\r\n" | "\r";
      /** Drop the connection after this many events instead of ending cleanly. */
      dropAfter?: number;
      /** Keep the connection open this long, silent, after the events (idle-timeout tests). */
      delayAfterMs?: number;
    })
  | (Common & { raw: string | Buffer; contentType?: string })
  | { destroy: true }
  /** Read the request and never answer: no status line, no byte (a hung provider). */
  | { hang: true };

export type ChatHandler = (request: RecordedRequest, index: number) => ChatResponse | Promise<ChatResponse>;

export interface ChatServer {
  /** Base URL ending in `/v1`, ready for `openai-compatible:MODEL@<baseUrl>`. */
  baseUrl: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function writePieces(response: ServerResponse, data: Buffer, pieceBytes: number): Promise<void> {
  for (let at = 0; at < data.length; at += pieceBytes) {
    response.write(data.subarray(at, at + pieceBytes));
    // Let the socket flush so the client really sees separate reads.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function answer(response: ServerResponse, planned: ChatResponse): Promise<void> {
  if ("destroy" in planned) {
    response.socket?.destroy();
    return;
  }
  if ("hang" in planned) return;
  if (planned.delayMs) await sleep(planned.delayMs);
  const status = planned.status ?? 200;
  if ("json" in planned) {
    response.writeHead(status, { "content-type": "application/json", ...planned.headers });
    response.end(JSON.stringify(planned.json));
    return;
  }
  if ("raw" in planned) {
    response.writeHead(status, { "content-type": planned.contentType ?? "application/json", ...planned.headers });
    response.end(planned.raw);
    return;
  }
  const eol = planned.eol ?? "\n";
  const events = planned.sse.map((item) => `data: ${typeof item === "string" ? item : JSON.stringify(item)}${eol}${eol}`);
  if (planned.done ?? true) events.push(`data: [DONE]${eol}${eol}`);
  response.writeHead(status, { "content-type": "text/event-stream", "cache-control": "no-cache", ...planned.headers });
  const limit = planned.dropAfter ?? events.length;
  const text = Buffer.from(events.slice(0, limit).join(""), "utf8");
  await writePieces(response, text, planned.chunkBytes ?? Math.max(1, text.length));
  if (planned.dropAfter !== undefined) {
    response.socket?.destroy();
    return;
  }
  if (planned.delayAfterMs) await sleep(planned.delayAfterMs);
  response.end();
}

/**
 * Starts a server. With an array, request i gets item i (and a 500 naming the overrun when the
 * queue is empty); with a function, the handler decides from the request.
 */
export async function startChatServer(plan: ChatHandler | ReadonlyArray<ChatResponse>): Promise<ChatServer> {
  const requests: RecordedRequest[] = [];
  const handler: ChatHandler =
    typeof plan === "function"
      ? plan
      : (_request, index) =>
          plan[index] ?? { status: 500, json: { error: { message: `chat-server: no answer planned for request ${index + 1} (${plan.length} planned)` } } };
  const server = createServer(async (request, response) => {
    try {
      const text = await readBody(request);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, text, body };
      const index = requests.length;
      requests.push(recorded);
      await answer(response, await handler(recorded, index));
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `chat-server handler failed: ${(error as Error).message}` } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Wire builders (OpenAI Chat Completions shapes).

export interface WireUsageInput {
  /** Prompt tokens, cached included (OpenAI semantics). */
  prompt: number;
  completion: number;
  cached?: number;
  reasoning?: number;
}

export function wireUsage(usage: WireUsageInput): Record<string, unknown> {
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: usage.cached ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0, audio_tokens: 0 },
  };
}

export interface WireToolCallInput {
  id: string;
  name: string;
  /** An object is JSON-encoded; a string is sent as is (to send broken JSON). */
  arguments: Record<string, unknown> | string;
}

export interface CompletionInput {
  content?: string | null;
  toolCalls?: WireToolCallInput[];
  finishReason?: string | null;
  usage?: WireUsageInput;
  model?: string;
}

function argumentText(call: WireToolCallInput): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

/** A non-streaming `chat.completion` body. */
export function chatCompletion(input: CompletionInput): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: input.content ?? null };
  if (input.toolCalls && input.toolCalls.length > 0) {
    message.tool_calls = input.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: argumentText(call) } }));
  }
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: input.model ?? "test-model",
    choices: [
      {
        index: 0,
        message,
        finish_reason: input.finishReason === undefined ? (input.toolCalls?.length ? "tool_calls" : "stop") : input.finishReason,
      },
    ],
    ...(input.usage ? { usage: wireUsage(input.usage) } : {}),
  };
}

/**
 * The `chat.completion.chunk` events of a streamed answer: a role chunk, the content in pieces of
 * `pieceChars`, each tool call as a head (id, name, empty arguments) and argument deltas of
 * `pieceChars`, the finish chunk, then a usage chunk with no choices (as with include_usage).
 */
export function chatCompletionChunks(input: CompletionInput & { pieceChars?: number }): Record<string, unknown>[] {
  const piece = Math.max(1, input.pieceChars ?? 4);
  const model = input.model ?? "test-model";
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: Record<string, unknown>[] = [chunk({ role: "assistant", content: "" })];
  const content = input.content ?? "";
  for (let at = 0; at < content.length; at += piece) out.push(chunk({ content: content.slice(at, at + piece) }));
  (input.toolCalls ?? []).forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
    const args = argumentText(call);
    for (let at = 0; at < args.length; at += piece) out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + piece) } }] }));
  });
  const finish = input.finishReason === undefined ? (input.toolCalls?.length ? "tool_calls" : "stop") : input.finishReason;
  out.push(chunk({}, finish));
  if (input.usage) out.push({ id: "chatcmpl-test", object: "chat.completion.chunk", created: 1_700_000_000, model, choices: [], usage: wireUsage(input.usage) });
  return out;
}

/** An OpenAI-style error body. */
export function wireError(message: string, code: string | null = null, type = "invalid_request_error"): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}
