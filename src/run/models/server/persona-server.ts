/**
 * The persona model server: serves any ModelClient (normally a scripted persona) over a real
 * client's own wire protocol on 127.0.0.1, so the real Codex, Claude Code or pi binary can run a
 * handoff offline and deterministically. One server serves one run.
 */
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Message, ModelClient, ModelReply, ToolCall, ToolSpec } from "../../../core/model.ts";
import type { ClientProfile, ReadResult } from "./client-profiles.ts";

export interface RequestLogEntry {
  seq: number;
  method: string;
  path: string;
  /** Headers with every credential replaced by `[redacted]`. */
  headers: Record<string, string>;
  body: unknown;
}

export interface PersonaServerOptions {
  profile: ClientProfile;
  persona: ModelClient;
  /** The run's work directory: some clients' tools take absolute paths. */
  workDir: string;
  /** The tools offered to the persona, in our vocabulary. */
  tools: ToolSpec[];
  /** Turns a client's tool result into the text our own tool would have returned. */
  formatResult?: (toolName: string, result: ReadResult) => string;
  /** Model name the server answers with. */
  model?: string;
  /** How many persona calls the server may answer itself before it must answer the client. */
  maxLocalRounds?: number;
}

export interface PersonaServer {
  url: string;
  requests: RequestLogEntry[];
  close(): Promise<void>;
}

const SECRET_HEADER = /authorization|api-key|x-api-key|cookie|token|secret/i;

export function redactHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADER.test(name) ? "[redacted]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * Formats a client result the way our own tools word theirs (src/run/tools), so a persona reads a
 * real client's results exactly as it reads our loop's. A command result that states no exit
 * code succeeded: Claude Code and pi only mention the code when it is not zero.
 */
export function defaultFormatResult(toolName: string, result: ReadResult): string {
  if (toolName !== "shell") return result.output;
  return `exit code: ${result.exitCode ?? 0}\n${result.output === "" ? "(no output)" : result.output}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** What the server remembers of a reply it sent, so the persona later sees its own words. */
interface SentReply {
  /** The persona's reply as it made it (our tool names and arguments). */
  original: { content: string; toolCalls: ToolCall[] };
  /** Exchanges the server answered itself before this reply, to replay in front of it. */
  localBefore: Message[];
  /** Results the server gave for this reply's own local calls. */
  localResults: Message[];
}

export async function startPersonaServer(options: PersonaServerOptions): Promise<PersonaServer> {
  const { profile, persona, workDir, tools } = options;
  const formatResult = options.formatResult ?? defaultFormatResult;
  const maxLocalRounds = options.maxLocalRounds ?? 8;
  const model = options.model ?? "persona";
  const requests: RequestLogEntry[] = [];
  const sent = new Map<string, SentReply>();
  /** Our tool name for every call id the server has issued. */
  const issuedNames = new Map<string, string>();
  let seq = 0;

  const keyOf = (content: string, calls: ToolCall[]): string => (calls[0] !== undefined ? `call:${calls[0].id}` : `text:${content}`);

  /** Rewrites the client's history into the persona's own vocabulary. */
  function personaHistory(messages: Message[]): Message[] {
    const out: Message[] = [];
    for (const message of messages) {
      if (message.role === "assistant") {
        const remembered = sent.get(keyOf(message.content, message.toolCalls ?? []));
        if (remembered !== undefined) {
          out.push(...remembered.localBefore);
          out.push({ role: "assistant", content: remembered.original.content, ...(remembered.original.toolCalls.length > 0 ? { toolCalls: remembered.original.toolCalls } : {}) });
          out.push(...remembered.localResults);
          continue;
        }
        out.push(message);
      } else if (message.role === "tool") {
        const ours = issuedNames.get(message.toolCallId);
        out.push(ours === undefined ? message : { role: "tool", toolCallId: message.toolCallId, name: ours, content: formatResult(ours, profile.readResult(message.content)) });
      } else out.push(message);
    }
    return out;
  }

  const localAnswer = (call: ToolCall): Message => ({
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: call.name === "ask_user" ? "No person is available in this run; decide and continue." : "Recorded.",
  });

  /** Asks the persona until it produces something the client can carry out. */
  async function nextReply(history: Message[], round: number): Promise<{ reply: ModelReply; wireCalls: ToolCall[]; local: SentReply }> {
    const localBefore: Message[] = [];
    let messages = history;
    for (let i = 0; ; i += 1) {
      const reply = await persona.complete({ messages, tools, meta: { round } });
      const mapped = reply.toolCalls.filter((call) => profile.calls[call.name] !== undefined);
      const local = reply.toolCalls.filter((call) => profile.calls[call.name] === undefined);
      const localResults = local.map(localAnswer);
      const onlyLocal = mapped.length === 0 && local.length > 0 && reply.text.trim().length === 0;
      if (!onlyLocal || i >= maxLocalRounds) {
        const wireCalls = mapped.map((call) => {
          const mapCall = profile.calls[call.name];
          const wire = mapCall === undefined ? { name: call.name, arguments: call.arguments } : mapCall(call.arguments, workDir);
          issuedNames.set(call.id, call.name);
          return { id: call.id, ...wire };
        });
        return { reply, wireCalls, local: { original: { content: reply.text, toolCalls: reply.toolCalls }, localBefore, localResults } };
      }
      const assistant: Message = { role: "assistant", content: reply.text, toolCalls: reply.toolCalls };
      localBefore.push(assistant, ...localResults);
      messages = [...messages, assistant, ...localResults];
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const raw = req.method === "POST" ? await readBody(req) : "";
    let body: Record<string, unknown> = {};
    try {
      body = raw.length > 0 ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "request body is not JSON" } }));
      return;
    }
    seq += 1;
    requests.push({ seq, method: req.method ?? "GET", path, headers: redactHeaders(req.headers), body });
    if (req.method === "POST" && path === `${profile.wire.path}/count_tokens`) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
      return;
    }
    if (req.method !== "POST" || path !== profile.wire.path) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `the persona server serves POST ${profile.wire.path} only` } }));
      return;
    }
    const request = profile.wire.toModelRequest(body);
    const { reply, wireCalls, local } = await nextReply(personaHistory(request.messages), seq);
    if (reply.stop === "error" || reply.stop === "usage_limit") {
      res.writeHead(reply.stop === "usage_limit" ? 429 : 500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: reply.errorMessage ?? reply.stop } }));
      return;
    }
    sent.set(keyOf(reply.text, wireCalls), local);
    profile.wire.writeReply(res, { ...reply, toolCalls: wireCalls }, { stream: body.stream === true, model, seq });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
