/**
 * The history's marks (ADR 0169): a request whose messages carry the last request's mark is not
 * compared message by message; any rewrite (one that keeps the length too) or a request without
 * a mark makes the next one compared in full. Every count must be the from-scratch count.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message, ModelRequest } from "../../src/core/model.ts";
import { countTokens, TokenCounter } from "../../src/core/tokens.ts";
import { MESSAGE_FRAMING_TOKENS, messageText, RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { History } from "../../src/run/history.ts";

function fromScratch(request: ModelRequest): number {
  const tools = request.tools.length === 0 ? 0 : countTokens(JSON.stringify(request.tools));
  return request.messages.reduce((sum, message) => sum + countTokens(messageText(message)) + MESSAGE_FRAMING_TOKENS, tools);
}

const system: Message = { role: "system", content: "You are careful." };

describe("the history's marks", () => {
  it("are trusted: the messages a mark vouches for are not compared (a mark that lies shows it)", () => {
    const counter = new RequestTokenCounter(new TokenCounter());
    const mark = { history: {}, epoch: 0 };
    const a: Message = { role: "user", content: "alpha ".repeat(20) };
    const b: Message = { role: "user", content: "beta" };
    const first: ModelRequest = { messages: [system, a], tools: [] };
    // Not what History ever makes: a message changed under the same mark.
    const lie: ModelRequest = { messages: [system, b, b], tools: [] };
    expect(counter.request(first, mark)).toBe(fromScratch(first));
    expect(counter.request(lie, mark)).toBe(fromScratch(first) + fromScratch({ messages: [b], tools: [] }));
    expect(fromScratch(lie)).not.toBe(fromScratch(first) + fromScratch({ messages: [b], tools: [] }));
    // The same arrays without a mark (or another one) are compared, and counted exactly.
    const counter2 = new RequestTokenCounter(new TokenCounter());
    expect([counter2.request(first, mark), counter2.request({ ...lie }), counter2.request({ ...first }, { history: {}, epoch: 0 })]).toEqual([fromScratch(first), fromScratch(lie), fromScratch(first)]);
  });

  it("change on every rewrite, one that keeps the length too, so the next request is compared in full", () => {
    const history = new History([system, { role: "user", content: "Read a.txt." }]);
    const counter = new RequestTokenCounter(new TokenCounter());
    const count = () => {
      const { messages, mark } = history.snapshot();
      const request = { messages, tools: [] };
      return [counter.request(request, mark), fromScratch(request)];
    };
    history.push({ role: "tool", toolCallId: "c1", name: "read_file", content: "alpha ".repeat(50) });
    const before = history.snapshot().mark;
    const [grown, grownExpected] = count();
    history.push({ role: "user", content: "Go on." });
    expect(history.snapshot().mark).toBe(before);
    const [appended, appendedExpected] = count();
    // The tool result cleared in place: the same length, a message of another text.
    history.rewrite((messages) => messages.splice(2, 1, { role: "tool", toolCallId: "c1", name: "read_file", content: "[cleared]" }));
    expect(history.snapshot().mark).not.toBe(before);
    expect(history.messages.length).toBe(4);
    const [rewritten, rewrittenExpected] = count();
    expect([grown, appended, rewritten]).toEqual([grownExpected, appendedExpected, rewrittenExpected]);
    expect(rewrittenExpected).toBeLessThan(appendedExpected as number);
  });

  it("give every request its from-scratch count through random appends, rewrites (shorter, same length, longer) and unmarked requests", () => {
    const text = fc.string({ maxLength: 40 });
    const op = fc.oneof(
      fc.record({ kind: fc.constant("push" as const), content: text }),
      fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), content: text }),
      fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), content: text }),
      fc.record({ kind: fc.constant("request" as const), marked: fc.boolean(), copy: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const history = new History([system]);
        const counter = new RequestTokenCounter(new TokenCounter());
        const got: number[] = [];
        const expected: number[] = [];
        for (const o of ops) {
          const length = history.messages.length;
          if (o.kind === "push") history.push({ role: "user", content: o.content });
          else if (o.kind === "replace") history.rewrite((m) => m.splice(1 + (o.at % length), 1, { role: "user", content: o.content }));
          else if (o.kind === "cut") history.rewrite((m) => m.splice(1 + (o.at % length)));
          else if (o.kind === "insert") history.rewrite((m) => m.splice(1 + (o.at % length), 0, { role: "tool", toolCallId: "x", name: "read_file", content: o.content }));
          else {
            const { messages, mark } = history.snapshot();
            const request = { messages: o.copy ? [...messages] : messages, tools: [] };
            got.push(o.marked ? counter.request(request, mark) : counter.request(request));
            expected.push(fromScratch(request));
          }
        }
        expect(got).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
