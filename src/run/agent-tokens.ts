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

/*
 * The counter's recent counts, all in one preallocated array (ADR 0235): each call into the
 * counter runs after other work (tools, processes) has left its memory cold, and what it costs is
 * the distinct cold objects and pages it touches, not the instructions. So the rings of recent
 * requests, tool lists, messages and replies, the last few replies and the reply memory, and the
 * last two texts are slots of one array (keys by identity, counts as small integers), not an
 * object per ring and per count. Each ring is a region: its keys, then its counts (and, for some,
 * more per-slot values); a ring's next slot is a field of the counter.
 */
const REQUESTS = 8;
const TOOLS = 8;
const MESSAGES = 16;
const REPLIES = 16;
const LAST = 4;
/** Replies a reply memory holds (ADR 0235): a run's distinct replies, so a later run of the same persona finds its own. */
const REPLY_MEMORY = 64;
/** Where each region starts. */
const AT_REQUESTS = 0; // keys, counts
const AT_TOOLS = AT_REQUESTS + 2 * REQUESTS; // keys, counts
const AT_MESSAGES = AT_TOOLS + 2 * TOOLS; // keys, counts
const AT_REPLIES = AT_MESSAGES + 2 * MESSAGES; // keys (calls, or the text when there are none), counts, texts
const AT_LAST = AT_REPLIES + 3 * REPLIES; // texts, calls, counts
const AT_MEMORY = AT_LAST + 3 * LAST; // signatures, counts, texts, calls
const AT_TEXTS = AT_MEMORY + 4 * REPLY_MEMORY; // the last text, its count, the one before, its count
const SLOTS = AT_TEXTS + 4;

/** The slot of `key` among a ring's `size` keys at `base`, newest first (`next` is the ring's next slot), or -1. */
function findKey(state: unknown[], base: number, size: number, next: number, key: unknown): number {
  for (let n = 1, i = next - 1; n <= size; n += 1, i -= 1) {
    if (i < 0) i = size - 1;
    if (state[base + i] === key) return i;
  }
  return -1;
}
/** Nodes of a reply's arguments its signature reads at most. */
const SIGNATURE_NODES = 64;

/**
 * A reply's signature: its text's length and, for each call, its name and the shape of its
 * arguments (keys' and strings' lengths, numbers, nesting), mixed into an integer, read without
 * building any text and without reading a string's characters. Equal replies have equal
 * signatures; unequal ones usually differ, and a match is confirmed in full (sameJson), so a
 * collision costs a compare, never a wrong count.
 */
function replySignature(content: string, toolCalls: readonly ToolCall[] | undefined): number {
  let h = Math.imul(0x811c9dc5 ^ content.length, 0x01000193);
  if (toolCalls === undefined) return h;
  h = Math.imul(h ^ toolCalls.length, 0x01000193);
  nodesLeft = SIGNATURE_NODES;
  for (const call of toolCalls) {
    h = Math.imul(h ^ call.name.length, 0x01000193);
    h = shapeOf(call.arguments, h);
  }
  return h;
}

// Nodes the signature being made may still read (one signature at a time: no object per call).
let nodesLeft = 0;

function shapeOf(value: unknown, h: number): number {
  nodesLeft -= 1;
  if (typeof value === "string") return Math.imul(h ^ value.length, 0x01000193);
  if (typeof value === "number") return Math.imul(h ^ (value | 0) ^ 0x2545, 0x01000193);
  if (typeof value !== "object" || value === null || nodesLeft <= 0) return Math.imul(h ^ 0x3c6e, 0x01000193);
  if (Array.isArray(value)) {
    h = Math.imul(h ^ (value.length + 0x1000), 0x01000193);
    for (let i = 0; i < value.length && nodesLeft > 0; i += 1) h = shapeOf(value[i], h);
    return h;
  }
  for (const key in value) {
    if (nodesLeft <= 0) break;
    h = Math.imul(h ^ (key.length + 0x2000), 0x01000193);
    h = shapeOf((value as Record<string, unknown>)[key], h);
  }
  return h;
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

/**
 * Counts requests and replies. One instance can serve every run in a process: the agent loop and
 * the scripted test double share processRequestCounter(), and runs that share it keep apart by
 * their first message (each run's own system message object).
 */
export class RequestTokenCounter {
  private readonly conversations = new WeakMap<Message, Conversation>();
  // Every ring below lives in `state` (see SLOTS):
  //  - messages: a tool result counted when a policy read the reply's new tokens; the next request
  //    sends it. Most are counted by that request instead (ADR 0156), so a miss is the usual case;
  //  - requests: the double counts a request the loop has just counted, handed the same object;
  //  - replies: a reply's tool calls travel as one array from the model to the loop's history, so
  //    its count (text plus calls) is found by that array: the double's reply, the loop's reply and
  //    the history message are one count, without stringifying the calls three times;
  //  - tools: tool lists by identity;
  //  - the last few replies counted from their text and the reply memory: a reply that repeats in
  //    new objects (the same text and calls, ids aside: ids are not counted) is found without its
  //    text being built: a looping model's repeat in the first, scanned without a signature; a
  //    reply played again later (a persona's next run) in the memory, by signature, confirmed in full;
  //  - the last two user/tool texts counted and their counts (framing included): an agent that
  //    reads a file again gets a new string of the same text, most often the one or two before it
  //    (a looping agent's repeats, ADR 0185), found by `===` without the text counter's sketch and map.
  private readonly state: unknown[] = new Array<unknown>(SLOTS).fill(undefined);
  private nextRequest = 0;
  private nextTools = 0;
  private nextMessage = 0;
  private nextReply = 0;
  private nextLast = 0;
  private nextMemory = 0;
  // Tool lists counted from their JSON: a new array of the same specs (each run's toolbox holds
  // the tools' own spec objects) is found by sameJson, without its JSON.
  private readonly toolLists: { tools: readonly ToolSpec[]; tokens: number }[] = [];
  // The conversation of the last request: the next one of the same run skips the WeakMap.
  private lastFirst: Message | undefined;
  private lastConversation: Conversation | undefined;

  constructor(readonly text: TokenCounter = new TokenCounter()) {}

  message(message: Message): number {
    // An assistant message is its reply's count, found by the reply's calls (or text).
    if (message.role === "assistant") return this.assistant(message.content, message.toolCalls) + MESSAGE_FRAMING_TOKENS;
    const state = this.state;
    const slot = findKey(state, AT_MESSAGES, MESSAGES, this.nextMessage, message);
    if (slot >= 0) return state[AT_MESSAGES + MESSAGES + slot] as number;
    const content = message.content;
    let tokens: number;
    if (content === state[AT_TEXTS]) tokens = state[AT_TEXTS + 1] as number;
    else {
      tokens = content === state[AT_TEXTS + 2] ? (state[AT_TEXTS + 3] as number) : this.text.count(content) + MESSAGE_FRAMING_TOKENS;
      state[AT_TEXTS + 2] = state[AT_TEXTS];
      state[AT_TEXTS + 3] = state[AT_TEXTS + 1];
      state[AT_TEXTS] = content;
      state[AT_TEXTS + 1] = tokens;
    }
    const at = this.nextMessage;
    state[AT_MESSAGES + at] = message;
    state[AT_MESSAGES + MESSAGES + at] = tokens;
    this.nextMessage = (at + 1) % MESSAGES;
    return tokens;
  }

  tools(tools: readonly ToolSpec[]): number {
    if (tools.length === 0) return 0;
    const state = this.state;
    const slot = findKey(state, AT_TOOLS, TOOLS, this.nextTools, tools);
    if (slot >= 0) return state[AT_TOOLS + TOOLS + slot] as number;
    const same = this.toolLists.find((list) => sameJson(list.tools, tools));
    const tokens = same?.tokens ?? this.text.count(JSON.stringify(tools));
    if (same === undefined) {
      this.toolLists.push({ tools, tokens });
      if (this.toolLists.length > 4) this.toolLists.shift();
    }
    const at = this.nextTools;
    state[AT_TOOLS + at] = tools;
    state[AT_TOOLS + TOOLS + at] = tokens;
    this.nextTools = (at + 1) % TOOLS;
    return tokens;
  }

  /**
   * The input a request sends: every message plus the tool list. `mark` is the loop's vouch
   * for its messages (History.snapshot); without it, or with another, they are compared in full.
   */
  request(request: ModelRequest, mark?: HistoryMark): number {
    const state = this.state;
    const slot = findKey(state, AT_REQUESTS, REQUESTS, this.nextRequest, request);
    if (slot >= 0) return state[AT_REQUESTS + REQUESTS + slot] as number;
    const total = this.tools(request.tools) + this.messages(request.messages, mark);
    const at = this.nextRequest;
    state[AT_REQUESTS + at] = request;
    state[AT_REQUESTS + REQUESTS + at] = total;
    this.nextRequest = (at + 1) % REQUESTS;
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
    const state = this.state;
    const calls = toolCalls === undefined || toolCalls.length === 0 ? undefined : toolCalls;
    const key = calls ?? content;
    const slot = findKey(state, AT_REPLIES, REPLIES, this.nextReply, key);
    if (slot >= 0 && state[AT_REPLIES + 2 * REPLIES + slot] === content) return state[AT_REPLIES + REPLIES + slot] as number;
    let tokens = this.lastReply(content, calls);
    if (tokens < 0) {
      const signature = replySignature(content, calls);
      tokens = this.remembered(signature, content, calls);
      if (tokens < 0) {
        tokens = this.text.count(assistantText(content, calls));
        const at = this.nextMemory;
        state[AT_MEMORY + at] = signature;
        state[AT_MEMORY + REPLY_MEMORY + at] = tokens;
        state[AT_MEMORY + 2 * REPLY_MEMORY + at] = content;
        state[AT_MEMORY + 3 * REPLY_MEMORY + at] = calls;
        this.nextMemory = (at + 1) % REPLY_MEMORY;
      }
      const at = this.nextLast;
      state[AT_LAST + at] = content;
      state[AT_LAST + LAST + at] = calls;
      state[AT_LAST + 2 * LAST + at] = tokens;
      this.nextLast = (at + 1) % LAST;
    }
    const at = this.nextReply;
    state[AT_REPLIES + at] = key;
    state[AT_REPLIES + REPLIES + at] = tokens;
    state[AT_REPLIES + 2 * REPLIES + at] = content;
    this.nextReply = (at + 1) % REPLIES;
    return tokens;
  }

  /** The count of one of the last few replies with the same text and calls, or -1. */
  private lastReply(content: string, calls: readonly ToolCall[] | undefined): number {
    const state = this.state;
    for (let n = 1, i = this.nextLast - 1; n <= LAST; n += 1, i -= 1) {
      if (i < 0) i = LAST - 1;
      const before = state[AT_LAST + i];
      if (before !== undefined && before === content && sameCalls(state[AT_LAST + LAST + i] as readonly ToolCall[] | undefined, calls)) return state[AT_LAST + 2 * LAST + i] as number;
    }
    return -1;
  }

  /** The count of a remembered reply with the same signature, text and calls, or -1. */
  private remembered(signature: number, content: string, calls: readonly ToolCall[] | undefined): number {
    const state = this.state;
    for (let n = 1, i = this.nextMemory - 1; n <= REPLY_MEMORY; n += 1, i -= 1) {
      if (i < 0) i = REPLY_MEMORY - 1;
      if (state[AT_MEMORY + i] !== signature) continue;
      const before = state[AT_MEMORY + 2 * REPLY_MEMORY + i];
      if (before === undefined || before !== content) continue;
      if (sameCalls(state[AT_MEMORY + 3 * REPLY_MEMORY + i] as readonly ToolCall[] | undefined, calls)) return state[AT_MEMORY + REPLY_MEMORY + i] as number;
    }
    return -1;
  }
}

/** Whether two call lists give the same counted text: the same names and arguments, in order (ids are not counted). */
function sameCalls(a: readonly ToolCall[] | undefined, b: readonly ToolCall[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as ToolCall;
    const y = b[i] as ToolCall;
    if (x.name !== y.name || !sameJson(x.arguments, y.arguments)) return false;
  }
  return true;
}

let processCounter: RequestTokenCounter | undefined;

/** The process's one request counter (over processTokenCounter()). */
export function processRequestCounter(): RequestTokenCounter {
  processCounter ??= new RequestTokenCounter(processTokenCounter());
  return processCounter;
}
