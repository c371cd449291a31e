/**
 * The request counter keeps running totals per conversation and finds recent counts by identity
 * (ADR 0117). Its figures must be exactly what counting every request from scratch gives: the
 * tool list's JSON plus each message's text and 4 tokens of framing. Checked on real runs of the
 * scripted test double (real tools on a temp repo), with and without compaction, and with two runs
 * sharing one counter and interleaving their requests.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import path from "node:path";
import type { Message, ModelClient, ModelReply, ModelRequest } from "../../src/core/model.ts";
import { countTokens, TokenCounter } from "../../src/core/tokens.ts";
import { runAgent } from "../../src/run/agent.ts";
import { MESSAGE_FRAMING_TOKENS, messageText, RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { createTurnEndControl } from "../../src/core/policies/index.ts";
import { loadArm } from "../../src/run/arms/load.ts";
import { loadPersona, ScriptedClient } from "../../src/run/models/scripted.ts";
import type { EventOf, RunEvent } from "../../src/run/record.ts";
import { fixtureRepo, HANDOFF, PERSONAS, ROOT, testArm } from "./scripted-support.ts";

/** What a request sends, counted from scratch with no cache at all. */
function fromScratch(request: ModelRequest): number {
  const tools = request.tools.length === 0 ? 0 : countTokens(JSON.stringify(request.tools));
  return request.messages.reduce((sum, message) => sum + countTokens(messageText(message)) + MESSAGE_FRAMING_TOKENS, tools);
}

function replyFromScratch(reply: Pick<ModelReply, "text" | "toolCalls">): number {
  return countTokens(messageText({ role: "assistant", content: reply.text, toolCalls: reply.toolCalls }));
}

/** A text counter that records what reaches it. */
class Seen extends TokenCounter {
  readonly texts: string[] = [];
  override count(text: string): number {
    this.texts.push(text);
    return super.count(text);
  }
}

/** The double, remembering what it was sent and answered (copies: the loop's array grows on). */
class Recording implements ModelClient {
  readonly sent: { purpose: string; input: number; output: number }[] = [];
  constructor(private readonly inner: ModelClient) {}
  get id(): string {
    return this.inner.id;
  }
  get isTestDouble(): boolean {
    return this.inner.isTestDouble;
  }
  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
    const reply = await this.inner.complete(request, signal);
    this.sent.push({ purpose: request.meta?.purpose ?? "agent", input: fromScratch(request), output: replyFromScratch(reply) });
    return reply;
  }
}

const counted = (events: RunEvent[]) =>
  events.filter((e): e is EventOf<"model.request"> => e.type === "model.request").map((e) => ({ purpose: e.purpose ?? "agent", input: e.counted?.input ?? -1, output: e.counted?.output ?? -1 }));

let repos: { dir: string; cleanup: () => Promise<void> }[] = [];
beforeEach(() => {
  repos = [];
});
afterEach(async () => {
  for (const repo of repos) await repo.cleanup();
});

async function scriptedRun(persona: string, counter: RequestTokenCounter, options: { repeatsCalls?: number; runIndex?: number; arm?: Parameters<typeof runAgent>[0]["arm"]; contextWindows?: Record<string, number> } = {}) {
  const repo = await fixtureRepo();
  repos.push(repo);
  const loaded = await loadPersona(path.join(PERSONAS, `${persona}.yaml`));
  const played = options.repeatsCalls === undefined ? loaded : { ...loaded, traits: { ...loaded.traits, repeatsCalls: options.repeatsCalls } };
  const model = new Recording(new ScriptedClient(played, { seed: 1, runIndex: options.runIndex ?? 0, counter }));
  const events: RunEvent[] = [];
  await runAgent({
    arm: options.arm ?? testArm(),
    model,
    dir: repo.dir,
    handoff: HANDOFF,
    runIndex: options.runIndex ?? 0,
    seed: 1,
    counter,
    env: { PATH: process.env.PATH },
    ...(options.contextWindows === undefined ? {} : { contextWindows: options.contextWindows }),
    onEvent: (event) => {
      events.push(event);
    },
  });
  return { events, sent: model.sent };
}

describe("the request counter", () => {
  it("gives every request and reply of a long run exactly its from-scratch count", async () => {
    const counter = new RequestTokenCounter(new TokenCounter());
    const { events, sent } = await scriptedRun("looper", counter, { repeatsCalls: 6 });
    expect(sent.length).toBeGreaterThan(40);
    expect(counted(events)).toEqual(sent);
  }, 120_000);

  it("stays exact through compaction (tool results cleared, turns summarised) on a 16 k window", async () => {
    const arm = { ...(await loadArm(path.join(ROOT, "arms"), "goal", { cwd: ROOT })), context: { mode: "auto" as const } };
    const counter = new RequestTokenCounter(new TokenCounter());
    const { events, sent } = await scriptedRun("early-stopper", counter, { arm, contextWindows: { "scripted:early-stopper": 16_000 } });
    expect(events.filter((e) => e.type === "compaction").length).toBeGreaterThanOrEqual(1);
    expect(counted(events)).toEqual(sent);
  }, 120_000);

  it("stays exact for two runs that share one counter and interleave their requests", async () => {
    const counter = new RequestTokenCounter(new TokenCounter());
    const [a, b] = await Promise.all([scriptedRun("looper", counter, { repeatsCalls: 4, runIndex: 0 }), scriptedRun("diligent", counter, { runIndex: 1 })]);
    expect(counted(a.events)).toEqual(a.sent);
    expect(counted(b.events)).toEqual(b.sent);
  }, 120_000);

  it("counts a request whose history was edited in the middle (kept messages reuse their counts)", () => {
    const counter = new RequestTokenCounter(new TokenCounter());
    const system = { role: "system" as const, content: "You are careful." };
    const user = { role: "user" as const, content: "Read a.txt and b.txt." };
    const call = { role: "assistant" as const, content: "Reading.", toolCalls: [{ id: "c1", name: "read_file", arguments: { path: "a.txt" } }] };
    const result = { role: "tool" as const, toolCallId: "c1", name: "read_file", content: "alpha ".repeat(50) };
    const after = { role: "user" as const, content: "Go on." };
    const first: ModelRequest = { messages: [system, user, call, result, after], tools: [] };
    const stub = { ...result, content: "[cleared]" };
    const edited: ModelRequest = { messages: [system, user, call, stub, after], tools: [] };
    const shorter: ModelRequest = { messages: [system, user], tools: [] };
    expect([counter.request(first), counter.request(edited), counter.request(shorter), counter.request(first)]).toEqual([
      fromScratch(first),
      fromScratch(edited),
      fromScratch(shorter),
      fromScratch(first),
    ]);
  });

  it("counts user and tool texts drawn again from a pool, as new strings, exactly; one of the last two never reaches the text counter (ADR 0185)", () => {
    const text = fc.oneof(fc.constantFrom("", "x = 1", "x = 2", "alpha ".repeat(40), "alpha ".repeat(40) + "."), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 60 }), (pool, picks) => {
        const seen = new Seen();
        const counter = new RequestTokenCounter(seen);
        const recent: string[] = [];
        for (const [pick, asTool] of picks) {
          // A new string object of the same text, as a file read again arrives.
          const content = `${pool[pick % pool.length] as string} `.slice(0, -1);
          const message: Message = asTool ? { role: "tool", toolCallId: "c", name: "read_file", content } : { role: "user", content };
          const before = seen.texts.length;
          expect(counter.message(message)).toBe(countTokens(content) + MESSAGE_FRAMING_TOKENS);
          expect(seen.texts.slice(before)).toEqual(recent.includes(content) ? [] : [content]);
          if (recent[0] !== content) recent.splice(0, 2, content, ...recent.slice(0, 1));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("counts an assistant message as its content and a line per call (name, arguments as JSON), built once, and a repeat of it exactly", () => {
    const call = fc.record({ id: fc.string(), name: fc.string(), arguments: fc.dictionary(fc.string(), fc.jsonValue()) });
    fc.assert(
      fc.property(fc.string(), fc.array(call, { maxLength: 4 }), (content, toolCalls) => {
        const expected = toolCalls.length === 0 ? content : `${content}\n${toolCalls.map((c) => `${c.name} ${JSON.stringify(c.arguments)}`).join("\n")}`;
        expect(messageText({ role: "assistant", content, toolCalls })).toBe(expected);
        const counter = new RequestTokenCounter(new TokenCounter());
        expect([counter.reply({ text: content, toolCalls }), counter.message({ role: "assistant", content, toolCalls })]).toEqual([countTokens(expected), countTokens(expected) + MESSAGE_FRAMING_TOKENS]);
        // The same reply again in new objects (found without its text), and with its arguments' keys reversed (a different text).
        const again = toolCalls.map((c) => ({ ...c, id: `${c.id}-2`, arguments: structuredClone(c.arguments) }));
        const reversed = toolCalls.map((c) => ({ ...c, arguments: Object.fromEntries(Object.entries(c.arguments).reverse()) }));
        const text = (calls: typeof toolCalls) => messageText({ role: "assistant", content, toolCalls: calls });
        expect([counter.reply({ text: content, toolCalls: again }), counter.reply({ text: content, toolCalls: reversed })]).toEqual([countTokens(text(again)), countTokens(text(reversed))]);
      }),
      { numRuns: 300 },
    );
  });

  it("counts replies drawn again from a pool, in new objects and any order, exactly", () => {
    const value = fc.oneof(fc.constantFrom("src/a.js", "src/b.js", "", "completed", "in_progress"), fc.integer({ min: -3, max: 3 }), fc.boolean());
    const args = fc.dictionary(fc.constantFrom("path", "content", "status", "items"), fc.oneof(value, fc.array(fc.record({ text: value, status: value }), { maxLength: 3 })), { maxKeys: 3 });
    const call = fc.record({ id: fc.string({ maxLength: 3 }), name: fc.constantFrom("read_file", "write_file", "update_plan", "shell"), arguments: args });
    const reply = fc.record({ text: fc.constantFrom("", "Reading it.", "Done."), toolCalls: fc.array(call, { minLength: 1, maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(reply, { minLength: 1, maxLength: 90 }), fc.array(fc.nat(), { minLength: 1, maxLength: 200 }), (pool, picks) => {
        const counter = new RequestTokenCounter(new TokenCounter());
        for (const pick of picks) {
          const index = pick % pool.length;
          const drawn = pool[index] as (typeof pool)[number];
          // New objects each time (as a model sends them), the strings the same.
          const again = { text: drawn.text, toolCalls: drawn.toolCalls.map((c) => ({ ...c, id: `${c.id}-${index}`, arguments: structuredClone(c.arguments) })) };
          expect(counter.reply(again)).toBe(replyFromScratch(again));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("counts a run's requests (with the history's marks), tool results a policy read first and the double's second look exactly; none of those reaches the text counter again (ADR 0186)", () => {
    const tool = { name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } } } };
    const text = fc.constantFrom("x = 1", "x = 2", "alpha ".repeat(30), "ok", "");
    const step = fc.record({ results: fc.array(fc.tuple(text, fc.boolean()), { minLength: 1, maxLength: 4 }), again: fc.boolean(), newMark: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const seen = new Seen();
        const counter = new RequestTokenCounter(seen);
        const messages: Message[] = [
          { role: "system", content: "You are careful." },
          { role: "user", content: "Do it." },
        ];
        let mark = { history: messages, epoch: 0 };
        const first: ModelRequest = { messages: [...messages], tools: [tool] };
        expect(counter.request(first, mark)).toBe(fromScratch(first));
        for (const [n, s] of steps.entries()) {
          const toolCalls = s.results.map((_, i) => ({ id: `${n}-${i}`, name: "read_file", arguments: { path: `f${i}` } }));
          expect(counter.reply({ text: "", toolCalls })).toBe(replyFromScratch({ text: "", toolCalls }));
          messages.push({ role: "assistant", content: "", toolCalls });
          let unread = 0;
          for (const [i, [content, read]] of s.results.entries()) {
            const result: Message = { role: "tool", toolCallId: `${n}-${i}`, name: "read_file", content: `${content} `.slice(0, -1) };
            messages.push(result);
            if (read) expect(counter.message(result)).toBe(countTokens(content) + MESSAGE_FRAMING_TOKENS);
            else unread += 1;
          }
          // The history vouches that it only grew (the same mark) or makes a new one (compared in full).
          if (s.newMark) mark = { history: messages, epoch: n + 1 };
          const request: ModelRequest = { messages: [...messages], tools: [tool] };
          const before = seen.texts.length;
          expect(counter.request(request, mark)).toBe(fromScratch(request));
          // Only results no policy read may reach it (and not all of them: the last two texts are kept).
          expect(seen.texts.length - before).toBeLessThanOrEqual(unread);
          if (s.again) {
            const after = seen.texts.length;
            expect(counter.request(request)).toBe(fromScratch(request));
            expect(seen.texts.length).toBe(after);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("counts the same request, tool list and reply objects again in any order exactly, whichever of the recent rings finds them", () => {
    const tool = { name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } } } };
    const system: Message = { role: "system", content: "You are careful." };
    const toolLists = [[tool], [tool, { ...tool, name: "shell" }], []];
    const replies: Pick<ModelReply, "text" | "toolCalls">[] = [
      { text: "Reading.", toolCalls: [{ id: "1", name: "read_file", arguments: { path: "a.js" } }] },
      { text: "Done.", toolCalls: [] },
      { text: "Done.", toolCalls: [] },
      { text: "", toolCalls: [{ id: "2", name: "shell", arguments: { command: "ls" } }] },
    ];
    const messages: Message[] = [system, { role: "user", content: "Do it." }, { role: "tool", toolCallId: "1", name: "read_file", content: "x = 1" }, { role: "assistant", content: "Done.", toolCalls: [] }];
    const requests: ModelRequest[] = [1, 2, 3, 4].flatMap((n) => toolLists.map((tools) => ({ messages: messages.slice(0, n), tools })));
    const op = fc.oneof(fc.nat(requests.length - 1).map((i) => ({ request: i })), fc.nat(replies.length - 1).map((i) => ({ reply: i })));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const counter = new RequestTokenCounter(new TokenCounter());
        for (const o of ops) {
          if ("request" in o) expect(counter.request(requests[o.request] as ModelRequest)).toBe(fromScratch(requests[o.request] as ModelRequest));
          else expect(counter.reply(replies[o.reply] as Pick<ModelReply, "text" | "toolCalls">)).toBe(replyFromScratch(replies[o.reply] as Pick<ModelReply, "text" | "toolCalls">));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("gives a policy the reply's new tokens exactly: its outputs and its tool results so far, counted when read (ADR 0157)", async () => {
    const repo = await fixtureRepo();
    repos.push(repo);
    const persona = await loadPersona(path.join(PERSONAS, "diligent.yaml"));
    const counter = new RequestTokenCounter(new TokenCounter());
    const model = new Recording(new ScriptedClient(persona, { seed: 1, counter }));
    // At each step: the reply, the requests made so far, the calls' outputs so far and what the policy read.
    const steps: { reply: number; requests: number; outputs: string[]; newTokens: number | undefined }[] = [];
    const inner = createTurnEndControl([{ name: "none" }]);
    const control = {
      ...inner,
      onStep(view: Parameters<NonNullable<typeof inner.onStep>>[0], current: Parameters<NonNullable<typeof inner.onStep>>[1], state: Parameters<typeof inner.onReplyEnd>[1]) {
        steps.push({ reply: current.index, requests: model.sent.length, outputs: current.toolCalls.map((call) => call.output), newTokens: current.newTokens });
        return inner.onStep?.(view, current, state) ?? { state };
      },
    };
    await runAgent({ arm: testArm(), model, dir: repo.dir, handoff: HANDOFF, runIndex: 0, seed: 1, counter, control, env: { PATH: process.env.PATH }, onEvent: () => {} });
    expect(steps.length).toBeGreaterThan(10);
    // From scratch: the outputs of the reply's requests and each of its tool results with its framing.
    let firstRequest = 0;
    const expected = steps.map((step, i) => {
      if (i > 0 && (steps[i - 1] as (typeof steps)[number]).reply !== step.reply) firstRequest = (steps[i - 1] as (typeof steps)[number]).requests;
      const outputs = model.sent.slice(firstRequest, step.requests).reduce((sum, sent) => sum + sent.output, 0);
      return outputs + step.outputs.reduce((sum, output) => sum + countTokens(output) + MESSAGE_FRAMING_TOKENS, 0);
    });
    expect(steps.map((step) => step.newTokens)).toEqual(expected);
  }, 120_000);
});
