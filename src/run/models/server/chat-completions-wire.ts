/** OpenAI Chat Completions, streamed (`data:` chunks, then `[DONE]`) or as one JSON answer. */
import type { Message, ModelReply, ToolCall, ToolSpec } from "../../../core/model.ts";
import { sendSse, startSse } from "./sse.ts";
import { type WireProtocol, asArray, asRecord, parseArguments, textOf } from "./wire.ts";

function finishReason(reply: ModelReply): string {
  if (reply.toolCalls.length > 0) return "tool_calls";
  return reply.stop === "max_tokens" ? "length" : "stop";
}

function usageOf(reply: ModelReply): Record<string, unknown> {
  return {
    prompt_tokens: reply.usage.input,
    completion_tokens: reply.usage.output,
    total_tokens: reply.usage.input + reply.usage.output,
    prompt_tokens_details: { cached_tokens: reply.usage.cachedInput },
    completion_tokens_details: { reasoning_tokens: reply.usage.reasoning },
  };
}

export const chatCompletionsWire: WireProtocol = {
  path: "/v1/chat/completions",

  toModelRequest(body) {
    const names = new Map<string, string>();
    const messages: Message[] = [];
    for (const raw of asArray(body.messages)) {
      const m = asRecord(raw);
      const role = m.role;
      if (role === "system" || role === "developer") messages.push({ role: "system", content: textOf(m.content) });
      else if (role === "user") messages.push({ role: "user", content: textOf(m.content) });
      else if (role === "assistant") {
        const toolCalls: ToolCall[] = asArray(m.tool_calls).map((c) => {
          const call = asRecord(c);
          const fn = asRecord(call.function);
          const id = String(call.id ?? "");
          names.set(id, String(fn.name ?? ""));
          return { id, name: String(fn.name ?? ""), arguments: parseArguments(fn.arguments) };
        });
        messages.push({ role: "assistant", content: textOf(m.content), ...(toolCalls.length > 0 ? { toolCalls } : {}) });
      } else if (role === "tool") {
        const id = String(m.tool_call_id ?? "");
        messages.push({ role: "tool", toolCallId: id, name: names.get(id) ?? "", content: textOf(m.content) });
      }
    }
    const tools: ToolSpec[] = asArray(body.tools).map((t) => {
      const fn = asRecord(asRecord(t).function);
      return { name: String(fn.name ?? ""), description: String(fn.description ?? ""), parameters: asRecord(fn.parameters) };
    });
    return { messages, tools };
  },

  writeReply(res, reply, { stream, model, seq }) {
    const id = `chatcmpl-${seq}`;
    const toolCalls = reply.toolCalls.map((call, index) => ({
      index,
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    if (!stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created: 0,
          model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: reply.text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
              finish_reason: finishReason(reply),
            },
          ],
          usage: usageOf(reply),
        }),
      );
      return;
    }
    startSse(res);
    const chunk = (delta: Record<string, unknown>, finish: string | null): Record<string, unknown> => ({
      id,
      object: "chat.completion.chunk",
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    sendSse(res, chunk({ role: "assistant", content: "" }, null));
    if (reply.text.length > 0) sendSse(res, chunk({ content: reply.text }, null));
    for (const call of toolCalls) {
      // The name first with empty arguments, then the arguments, as real servers stream them.
      sendSse(res, chunk({ tool_calls: [{ ...call, function: { name: call.function.name, arguments: "" } }] }, null));
      sendSse(res, chunk({ tool_calls: [{ index: call.index, function: { arguments: call.function.arguments } }] }, null));
    }
    sendSse(res, chunk({}, finishReason(reply)));
    sendSse(res, { id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: usageOf(reply) });
    sendSse(res, "[DONE]");
    res.end();
  },
};
