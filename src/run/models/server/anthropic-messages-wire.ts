/** Anthropic Messages, streamed as named server-sent events (what Claude Code speaks). */
import type { Message, ModelReply, ToolCall, ToolSpec } from "../../../core/model.ts";
import { sendSse, startSse } from "./sse.ts";
import { type WireProtocol, asArray, asRecord, textOf } from "./wire.ts";

function stopReason(reply: ModelReply): string {
  if (reply.toolCalls.length > 0) return "tool_use";
  return reply.stop === "max_tokens" ? "max_tokens" : "end_turn";
}

export const anthropicMessagesWire: WireProtocol = {
  path: "/v1/messages",

  toModelRequest(body) {
    const messages: Message[] = [];
    const system = textOf(body.system);
    if (system.length > 0) messages.push({ role: "system", content: system });
    const names = new Map<string, string>();
    for (const raw of asArray(body.messages)) {
      const m = asRecord(raw);
      if (typeof m.content === "string") {
        messages.push(m.role === "assistant" ? { role: "assistant", content: m.content } : m.role === "system" ? { role: "system", content: m.content } : { role: "user", content: m.content });
        continue;
      }
      const blocks = asArray(m.content).map(asRecord);
      if (m.role === "assistant") {
        const text = blocks.filter((b) => b.type === "text").map((b) => String(b.text ?? "")).join("\n");
        const toolCalls: ToolCall[] = blocks
          .filter((b) => b.type === "tool_use")
          .map((b) => {
            names.set(String(b.id), String(b.name));
            return { id: String(b.id), name: String(b.name), arguments: asRecord(b.input) };
          });
        messages.push({ role: "assistant", content: text, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
        continue;
      }
      // A user (or system) turn: tool results become tool messages, text stays text.
      const texts: string[] = [];
      for (const block of blocks) {
        if (block.type === "tool_result") {
          const id = String(block.tool_use_id ?? "");
          messages.push({ role: "tool", toolCallId: id, name: names.get(id) ?? "", content: textOf(block.content) });
        } else if (block.type === "text") texts.push(String(block.text ?? ""));
      }
      if (texts.length > 0) messages.push(m.role === "system" ? { role: "system", content: texts.join("\n") } : { role: "user", content: texts.join("\n") });
    }
    const tools: ToolSpec[] = asArray(body.tools)
      .map(asRecord)
      .filter((t) => typeof t.name === "string")
      .map((t) => ({ name: String(t.name), description: String(t.description ?? ""), parameters: asRecord(t.input_schema) }));
    return { messages, tools };
  },

  writeReply(res, reply, { stream, model, seq }) {
    const id = `msg_${seq}`;
    const content: Record<string, unknown>[] = [];
    if (reply.text.length > 0) content.push({ type: "text", text: reply.text });
    for (const call of reply.toolCalls) content.push({ type: "tool_use", id: call.id, name: call.name, input: call.arguments });
    const usage = {
      input_tokens: Math.max(0, reply.usage.input - reply.usage.cachedInput),
      cache_read_input_tokens: reply.usage.cachedInput,
      cache_creation_input_tokens: 0,
      output_tokens: reply.usage.output,
    };
    if (!stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id, type: "message", role: "assistant", model, content, stop_reason: stopReason(reply), stop_sequence: null, usage }));
      return;
    }
    startSse(res);
    sendSse(res, { type: "message_start", message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }, "message_start");
    content.forEach((block, index) => {
      if (block.type === "text") {
        sendSse(res, { type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start");
        sendSse(res, { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } }, "content_block_delta");
      } else {
        sendSse(res, { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }, "content_block_start");
        sendSse(res, { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }, "content_block_delta");
      }
      sendSse(res, { type: "content_block_stop", index }, "content_block_stop");
    });
    sendSse(res, { type: "message_delta", delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }, "message_delta");
    sendSse(res, { type: "message_stop" }, "message_stop");
    res.end();
  },
};
