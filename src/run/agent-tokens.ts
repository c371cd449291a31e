/**
 * o200k counts of what a request sends. Each message is counted once: the count is kept per
 * message object (the loop never mutates a sent message), and the text count is cached by content
 * hash, so a request costs O(its new messages), not O(history). Tool specs are counted as their
 * JSON, once per distinct list.
 */
import type { Message, ModelReply, ModelRequest, ToolCall, ToolSpec } from "../core/model.ts";
import { processTokenCounter, TokenCounter } from "../core/tokens.ts";

/**
 * Tokens the chat format adds around each message (role and delimiters). The o200k chat framing
 * is a few tokens per message; 4 is the usual figure and keeps our count a stable, comparable
 * approximation of what a provider bills for framing.
 */
export const MESSAGE_FRAMING_TOKENS = 4;

/** The text of a message as counted: its content plus, for tool calls, name and arguments. */
export function messageText(message: Message): string {
  switch (message.role) {
    case "system":
    case "user":
      return message.content;
    case "assistant":
      return message.toolCalls === undefined || message.toolCalls.length === 0
        ? message.content
        : `${message.content}\n${message.toolCalls.map((call) => `${call.name} ${JSON.stringify(call.arguments)}`).join("\n")}`;
    case "tool":
      return message.content;
    default: {
      const unknown: never = message;
      throw new Error(`unknown message role in ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Counts requests and replies. Per-message counts are kept by message object (weakly), so one
 * instance can serve every run in a process: the agent loop and the scripted test double share
 * processRequestCounter(), and the double's count of a request the loop has just counted is a
 * lookup per message.
 */
export class RequestTokenCounter {
  private readonly perMessage = new WeakMap<Message, number>();
  private readonly perToolList = new WeakMap<readonly ToolSpec[], number>();
  // The loop counts a request before it sends it; the test double, handed the same object, then
  // gets the count without walking the history again.
  private readonly perRequest = new WeakMap<ModelRequest, number>();
  // The last request's messages and their total: the next request usually sends the same
  // objects plus a few, and comparing references is far cheaper than a lookup per message.
  private lastMessages: readonly Message[] = [];
  // A reply's tool calls travel as one array from the model to the loop's history, so its count
  // (text plus calls) is kept on the array: the double's reply, the loop's reply and the history
  // message are one count, without stringifying the calls three times.
  private readonly perCalls = new WeakMap<readonly ToolCall[], { content: string; tokens: number }>();
  private lastTotal = 0;

  constructor(readonly text: TokenCounter = new TokenCounter()) {}

  message(message: Message): number {
    const cached = this.perMessage.get(message);
    if (cached !== undefined) return cached;
    const tokens = (message.role === "assistant" ? this.assistant(message.content, message.toolCalls) : this.text.count(messageText(message))) + MESSAGE_FRAMING_TOKENS;
    this.perMessage.set(message, tokens);
    return tokens;
  }

  tools(tools: readonly ToolSpec[]): number {
    if (tools.length === 0) return 0;
    const cached = this.perToolList.get(tools);
    if (cached !== undefined) return cached;
    const tokens = this.text.count(JSON.stringify(tools));
    this.perToolList.set(tools, tokens);
    return tokens;
  }

  /** The input a request sends: every message plus the tool list. */
  request(request: ModelRequest): number {
    const cached = this.perRequest.get(request);
    if (cached !== undefined) return cached;
    const messages = request.messages;
    const last = this.lastMessages;
    let from = 0;
    let sum = 0;
    if (messages.length >= last.length && last.length > 0) {
      let same = true;
      for (let i = 0; i < last.length; i += 1) {
        if (messages[i] !== last[i]) {
          same = false;
          break;
        }
      }
      if (same) {
        from = last.length;
        sum = this.lastTotal;
      }
    }
    for (let i = from; i < messages.length; i += 1) sum += this.message(messages[i] as Message);
    this.lastMessages = messages;
    this.lastTotal = sum;
    const total = this.tools(request.tools) + sum;
    this.perRequest.set(request, total);
    return total;
  }

  /** The output of a reply: its text and its tool calls. */
  reply(reply: Pick<ModelReply, "text" | "toolCalls">): number {
    return this.assistant(reply.text, reply.toolCalls);
  }

  private assistant(content: string, toolCalls: readonly ToolCall[] | undefined): number {
    if (toolCalls === undefined || toolCalls.length === 0) return this.text.count(content);
    const known = this.perCalls.get(toolCalls);
    if (known !== undefined && known.content === content) return known.tokens;
    const tokens = this.text.count(messageText({ role: "assistant", content, toolCalls: [...toolCalls] }));
    this.perCalls.set(toolCalls, { content, tokens });
    return tokens;
  }
}

let processCounter: RequestTokenCounter | undefined;

/** The process's one request counter (over processTokenCounter()). */
export function processRequestCounter(): RequestTokenCounter {
  processCounter ??= new RequestTokenCounter(processTokenCounter());
  return processCounter;
}
