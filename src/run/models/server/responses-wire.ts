/** OpenAI Responses, streamed as named server-sent events (what Codex speaks). */
import type { Message, ModelReply, ToolCall, ToolSpec } from "../../../core/model.ts";
import { sendSse, startSse } from "./sse.ts";
import { type WireProtocol, asArray, asRecord, parseArguments, textOf } from "./wire.ts";

function usageOf(reply: ModelReply): Record<string, unknown> {
  return {
    input_tokens: reply.usage.input,
    input_tokens_details: { cached_tokens: reply.usage.cachedInput },
    output_tokens: reply.usage.output,
    output_tokens_details: { reasoning_tokens: reply.usage.reasoning },
    total_tokens: reply.usage.input + reply.usage.output,
  };
}

export const responsesWire: WireProtocol = {
  path: "/v1/responses",

  toModelRequest(body) {
    const messages: Message[] = [];
    if (typeof body.instructions === "string" && body.instructions.length > 0) messages.push({ role: "system", content: body.instructions });
    const names = new Map<string, string>();
    // Function calls follow the assistant text they belong to; gather them into one message.
    let open: { role: "assistant"; content: string; toolCalls: ToolCall[] } | null = null;
    const flush = (): void => {
      if (open !== null) messages.push(open.toolCalls.length > 0 ? open : { role: "assistant", content: open.content });
      open = null;
    };
    for (const raw of asArray(body.input)) {
      const item = asRecord(raw);
      const type = item.type ?? (item.role !== undefined ? "message" : undefined);
      if (type === "message") {
        const role = item.role;
        if (role === "assistant") {
          flush();
          open = { role: "assistant", content: textOf(item.content), toolCalls: [] };
        } else {
          flush();
          const text = textOf(item.content);
          messages.push(role === "user" ? { role: "user", content: text } : { role: "system", content: text });
        }
      } else if (type === "function_call" || type === "custom_tool_call") {
        const id = String(item.call_id ?? "");
        const name = String(item.name ?? "");
        names.set(id, name);
        const args = type === "function_call" ? parseArguments(item.arguments) : { input: String(item.input ?? "") };
        if (open === null) open = { role: "assistant", content: "", toolCalls: [] };
        open.toolCalls.push({ id, name, arguments: args });
      } else if (type === "function_call_output" || type === "custom_tool_call_output") {
        flush();
        const id = String(item.call_id ?? "");
        const output = typeof item.output === "string" ? item.output : textOf(item.output);
        messages.push({ role: "tool", toolCallId: id, name: names.get(id) ?? "", content: output });
      }
      // reasoning and other item types carry nothing the persona reads.
    }
    flush();
    const tools: ToolSpec[] = asArray(body.tools)
      .map(asRecord)
      .filter((t) => t.type === "function")
      .map((t) => ({ name: String(t.name ?? ""), description: String(t.description ?? ""), parameters: asRecord(t.parameters) }));
    return { messages, tools };
  },

  writeReply(res, reply, { model, seq }) {
    const responseId = `resp_${seq}`;
    startSse(res);
    const base = { id: responseId, object: "response", model, created_at: 0, output: [] as unknown[] };
    sendSse(res, { type: "response.created", response: { ...base, status: "in_progress" } }, "response.created");
    const items: Record<string, unknown>[] = [];
    if (reply.text.length > 0) {
      items.push({ type: "message", id: `msg_${seq}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: reply.text, annotations: [] }] });
    }
    for (const call of reply.toolCalls) {
      items.push({ type: "function_call", id: `fc_${call.id}`, status: "completed", call_id: call.id, name: call.name, arguments: JSON.stringify(call.arguments) });
    }
    items.forEach((item, index) => {
      sendSse(res, { type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress" } }, "response.output_item.added");
      if (item.type === "message") {
        sendSse(res, { type: "response.output_text.delta", item_id: item.id, output_index: index, content_index: 0, delta: reply.text }, "response.output_text.delta");
      }
      sendSse(res, { type: "response.output_item.done", output_index: index, item }, "response.output_item.done");
    });
    sendSse(res, { type: "response.completed", response: { ...base, status: "completed", output: items, usage: usageOf(reply) } }, "response.completed");
    res.end();
  },
};
