/**
 * o200k counts of what a request sends (ADRs 0117, 0156). A conversation's counts are kept as
 * running totals beside its last request's messages, so a request that extends the one before
 * costs its new messages; a tool result is counted by the first request that sends it (or sooner,
 * if a policy reads the reply's new tokens), and an assistant message and the replies the double
 * and the loop count are one count, found by the reply's calls (or text) among the last few, so
 * nothing is counted twice, and no per-message map grows with the history. Text is counted through
 * the TokenCounter, which remembers texts by value, so a text repeated in a new object (a file read
 * twice) is tokenized once. Tool specs are counted as their JSON, once per list. The last few
 * requests are held strongly (a bounded number), conversations only while their first message
 * lives (and the last one until the next request).
 */
import type { Message, ModelReply, ModelRequest, ToolCall, ToolSpec } from "../core/model.ts";
import { processTokenCounter, TokenCounter } from "../core/tokens.ts";
import { sameJson } from "./same-json.ts";

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
      return assistantText(message.content, message.toolCalls);
    case "tool":
      return message.content;
    default: {
      const unknown: never = message;
      throw new Error(`unknown message role in ${JSON.stringify(unknown)}`);
    }
  }
}

/** An assistant message's counted text: its content, then a line per tool call (name, arguments as JSON). */
function assistantText(content: string, toolCalls: readonly ToolCall[] | undefined): string {
  if (toolCalls === undefined || toolCalls.length === 0) return content;
  let text = content;
  for (const call of toolCalls) text += `\n${call.name} ${JSON.stringify(call.arguments)}`;
  return text;
}

/**
 * The last few counts, found by identity. A lookup is a short scan with `===`, cheaper than a
 * WeakMap (whose entries for every message of every run the garbage collector must also trace).
 */
class Recent<K, V> {
  private readonly keys: (K | undefined)[];
  private readonly values: (V | undefined)[];
  private next = 0;

  constructor(size: number) {
    this.keys = new Array<K | undefined>(size).fill(undefined);
    this.values = new Array<V | undefined>(size).fill(undefined);
  }

  /** Newest first: what is looked up is most often what was just set. */
  get(key: K): V | undefined {
    const keys = this.keys;
    const size = keys.length;
    for (let n = 1, i = this.next - 1; n <= size; n += 1, i -= 1) {
      if (i < 0) i = size - 1;
      if (keys[i] === key) return this.values[i];
    }
    return undefined;
  }

  set(key: K, value: V): void {
    this.keys[this.next] = key;
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.keys.length;
  }
}

/**
 * A history's vouch (ADR 0169): two requests whose messages carry the same mark (by identity)
 * differ only by messages appended to the later one. Opaque to the counter; made by History.
 */
export interface HistoryMark {
  readonly history: object;
  readonly epoch: number;
}

/**
 * A conversation's last request: its messages, at each index the tokens of those before it, and
 * the mark its messages came with (undefined: none, so the next request is compared in full).
 */
interface Conversation {
  messages: readonly Message[];
  before: number[];
  mark: HistoryMark | undefined;
}

/**
 * Counts requests and replies. One instance can serve every run in a process: the agent loop and
 * the scripted test double share processRequestCounter(), and runs that share it keep apart by
 * their first message (each run's own system message object).
 */
export class RequestTokenCounter {
  private readonly conversations = new WeakMap<Message, Conversation>();
  // A tool result counted when a policy read the reply's new tokens; the next request sends it.
  // Most are counted by that request instead (ADR 0156), so a miss is the usual case: kept short.
  private readonly recentMessages = new Recent<Message, number>(16);
  // The double counts a request the loop has just counted, handed the same object.
  private readonly recentRequests = new Recent<ModelRequest, number>(8);
  // A reply's tool calls travel as one array from the model to the loop's history, so its count
  // (text plus calls) is found by that array: the double's reply, the loop's reply and the history
  // message are one count, without stringifying the calls three times.
  private readonly recentReplies = new Recent<readonly ToolCall[] | string, { content: string; tokens: number }>(16);
  private readonly recentTools = new Recent<readonly ToolSpec[], number>(8);
  // Tool lists counted from their JSON: a new array of the same specs (each run's toolbox holds
  // the tools' own spec objects) is found by sameJson, without its JSON.
  private readonly toolLists: { tools: readonly ToolSpec[]; tokens: number }[] = [];
  // The conversation of the last request: the next one of the same run skips the WeakMap.
  private lastFirst: Message | undefined;
  private lastConversation: Conversation | undefined;
  // The last few replies counted from their text, to find one that repeats in new objects (the
  // same text and calls, ids aside: ids are not counted) without building its text again.
  private readonly lastReplies: ({ content: string; toolCalls: readonly ToolCall[] | undefined; tokens: number } | undefined)[] = [undefined, undefined, undefined, undefined];
  private nextReply = 0;
  // The last two user/tool texts counted and their counts (framing included): an agent that reads
  // a file again gets a new string of the same text, most often the one or two before it (a
  // looping agent's repeats, ADR 0185), found by `===` without the text counter's sketch and map.
  private lastText: string | undefined;
  private lastTokens = 0;
  private priorText: string | undefined;
  private priorTokens = 0;

  constructor(readonly text: TokenCounter = new TokenCounter()) {}

  message(message: Message): number {
    // An assistant message is its reply's count, found by the reply's calls (or text).
    if (message.role === "assistant") return this.assistant(message.content, message.toolCalls) + MESSAGE_FRAMING_TOKENS;
    const known = this.recentMessages.get(message);
    if (known !== undefined) return known;
    const content = message.content;
    let tokens: number;
    if (content === this.lastText) tokens = this.lastTokens;
    else {
      tokens = content === this.priorText ? this.priorTokens : this.text.count(content) + MESSAGE_FRAMING_TOKENS;
      this.priorText = this.lastText;
      this.priorTokens = this.lastTokens;
      this.lastText = content;
      this.lastTokens = tokens;
    }
    this.recentMessages.set(message, tokens);
    return tokens;
  }

  tools(tools: readonly ToolSpec[]): number {
    if (tools.length === 0) return 0;
    const known = this.recentTools.get(tools);
    if (known !== undefined) return known;
    const same = this.toolLists.find((list) => sameJson(list.tools, tools));
    const tokens = same?.tokens ?? this.text.count(JSON.stringify(tools));
    if (same === undefined) {
      this.toolLists.push({ tools, tokens });
      if (this.toolLists.length > 4) this.toolLists.shift();
    }
    this.recentTools.set(tools, tokens);
    return tokens;
  }

  /**
   * The input a request sends: every message plus the tool list. `mark` is the loop's vouch
   * for its messages (History.snapshot); without it, or with another, they are compared in full.
   */
  request(request: ModelRequest, mark?: HistoryMark): number {
    const known = this.recentRequests.get(request);
    if (known !== undefined) return known;
    const total = this.tools(request.tools) + this.messages(request.messages, mark);
    this.recentRequests.set(request, total);
    return total;
  }

  /** The output of a reply: its text and its tool calls. */
  reply(reply: Pick<ModelReply, "text" | "toolCalls">): number {
    return this.assistant(reply.text, reply.toolCalls);
  }

  /**
   * The tokens of `messages`: the part the conversation's last request also sent, from its running
   * totals; the rest message by message. Where the two part (compaction replaced a message), the
   * old counts of the messages after that point are still found by identity, not counted again.
   * With the last request's mark, the shared part is the last request's messages, uncompared.
   */
  private messages(messages: readonly Message[], mark: HistoryMark | undefined): number {
    const first = messages[0];
    if (first === undefined) return 0;
    const last = first === this.lastFirst ? this.lastConversation : this.conversations.get(first);
    let from = 0;
    let before: number[] = [0];
    let old: Map<Message, number> | null = null;
    if (last !== undefined) {
      const shared = Math.min(messages.length, last.messages.length);
      // The same mark: the history only grew since (a shorter array would mean it did not).
      if (mark !== undefined && mark === last.mark && shared === last.messages.length) from = shared;
      else while (from < shared && messages[from] === last.messages[from]) from += 1;
      before = last.before;
      if (from < last.messages.length) {
        old = new Map();
        for (let i = from; i < last.messages.length; i += 1) old.set(last.messages[i] as Message, (before[i + 1] as number) - (before[i] as number));
      }
      // Setting an array's length is a call into the runtime even when nothing changes.
      if (before.length !== from + 1) before.length = from + 1;
    }
    let sum = before[from] as number;
    for (let i = from; i < messages.length; i += 1) {
      const message = messages[i] as Message;
      sum += old?.get(message) ?? this.message(message);
      before.push(sum);
    }
    let conversation = last;
    if (conversation === undefined) {
      conversation = { messages, before, mark };
      this.conversations.set(first, conversation);
    } else {
      conversation.messages = messages;
      conversation.mark = mark;
    }
    this.lastFirst = first;
    this.lastConversation = conversation;
    return sum;
  }

  private assistant(content: string, toolCalls: readonly ToolCall[] | undefined): number {
    const key = toolCalls === undefined || toolCalls.length === 0 ? content : toolCalls;
    const known = this.recentReplies.get(key);
    if (known !== undefined && known.content === content) return known.tokens;
    const repeated = this.repeatedReply(content, toolCalls);
    const tokens = repeated ?? this.text.count(assistantText(content, toolCalls));
    this.recentReplies.set(key, { content, tokens });
    if (repeated === undefined) {
      this.lastReplies[this.nextReply] = { content, toolCalls, tokens };
      this.nextReply = (this.nextReply + 1) % this.lastReplies.length;
    }
    return tokens;
  }

  /** The count of a recent reply with the same text and the same calls' names and arguments. */
  private repeatedReply(content: string, toolCalls: readonly ToolCall[] | undefined): number | undefined {
    const calls = toolCalls ?? [];
    const size = this.lastReplies.length;
    // Newest first: a repeating model most often repeats the reply just before.
    for (let n = 1; n <= size; n += 1) {
      const last = this.lastReplies[(this.nextReply - n + size) % size];
      if (last === undefined || last.content !== content) continue;
      const before = last.toolCalls ?? [];
      if (before.length !== calls.length) continue;
      let same = true;
      for (let i = 0; i < calls.length && same; i += 1) {
        const a = before[i] as ToolCall;
        const b = calls[i] as ToolCall;
        same = a.name === b.name && sameJson(a.arguments, b.arguments);
      }
      if (same) return last.tokens;
    }
    return undefined;
  }
}

let processCounter: RequestTokenCounter | undefined;

/** The process's one request counter (over processTokenCounter()). */
export function processRequestCounter(): RequestTokenCounter {
  processCounter ??= new RequestTokenCounter(processTokenCounter());
  return processCounter;
}
