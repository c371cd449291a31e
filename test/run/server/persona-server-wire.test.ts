import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_PROFILES, type ClientName } from "../../../src/run/models/server/client-profiles.ts";
import { type PersonaServer, startPersonaServer } from "../../../src/run/models/server/persona-server.ts";
import { threeStepPersona } from "./three-step-persona.ts";

/** Parses a server-sent-event body into its data objects (skipping `[DONE]`). */
function sseData(body: string): Record<string, unknown>[] {
  return body
    .split("\n\n")
    .flatMap((block) => block.split("\n").filter((line) => line.startsWith("data: ")))
    .map((line) => line.slice("data: ".length))
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}

let server: PersonaServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(client: ClientName): Promise<PersonaServer> {
  server = await startPersonaServer({ profile: CLIENT_PROFILES[client], persona: threeStepPersona, workDir: "/work/dir", tools: [] });
  return server;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("persona server, Chat Completions (pi)", () => {
  it("answers the todo update itself and streams the write as pi's own tool", async () => {
    const s = await start("pi");
    const response = await post(`${s.url}/v1/chat/completions`, { model: "m", stream: true, messages: [{ role: "user", content: "go" }] }, { authorization: "Bearer secret-key" });
    const chunks = sseData(await response.text());
    const toolDeltas = chunks.flatMap((c) => ((c.choices as { delta?: { tool_calls?: unknown[] } }[] | undefined) ?? []).flatMap((ch) => ch.delta?.tool_calls ?? []));
    expect(toolDeltas).toEqual([
      { index: 0, id: "call_2", type: "function", function: { name: "write", arguments: "" } },
      { index: 0, function: { arguments: JSON.stringify({ path: "sub/hello.txt", content: "world\nline2\n" }) } },
    ]);
    expect(chunks.at(-1)).toEqual({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 0,
      model: "persona",
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 2 }, completion_tokens_details: { reasoning_tokens: 0 } },
    });
    expect(s.requests[0]?.headers.authorization).toBe("[redacted]");
  });

  it("reads pi's failing bash result back into the persona's terms", async () => {
    const s = await start("pi");
    const history = [
      { role: "user", content: "go" },
      { role: "assistant", content: "", tool_calls: [{ id: "call_2", type: "function", function: { name: "write", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_2", content: "Successfully wrote 12 bytes" },
      { role: "assistant", content: "", tool_calls: [{ id: "call_3", type: "function", function: { name: "bash", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_3", content: "world\nline2\n\nCommand exited with code 3" },
    ];
    // The server must first have issued those calls itself to know what they were.
    await post(`${s.url}/v1/chat/completions`, { messages: history.slice(0, 1) });
    await post(`${s.url}/v1/chat/completions`, { messages: history.slice(0, 3) });
    const response = await post(`${s.url}/v1/chat/completions`, { messages: history });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe("Finished. update_plan: Recorded. | write_file: (written) | shell: exit code: 3\nworld\nline2");
  });
});

describe("persona server, Responses (codex)", () => {
  it("maps the write onto exec_command and completes the response with usage", async () => {
    const s = await start("codex");
    const response = await post(`${s.url}/v1/responses`, { model: "m", stream: true, input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "go" }] }] });
    const events = sseData(await response.text());
    expect(events.map((e) => e.type)).toEqual(["response.created", "response.output_item.added", "response.output_item.done", "response.completed"]);
    const done = events[2] as { item: { name: string; arguments: string } };
    expect(done.item.name).toBe("exec_command");
    expect(JSON.parse(done.item.arguments)).toEqual({
      cmd: `mkdir -p 'sub' && printf %s '${Buffer.from("world\nline2\n").toString("base64")}' | base64 -d > 'sub/hello.txt'`,
      login: false,
    });
    expect((events[3] as { response: { usage: unknown } }).response.usage).toEqual({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 2 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    });
  });
});

describe("persona server, Anthropic Messages (claude)", () => {
  it("maps the write onto Write with an absolute path and ends with tool_use", async () => {
    const s = await start("claude");
    const response = await post(`${s.url}/v1/messages`, { model: "m", stream: true, system: [{ type: "text", text: "sys" }], messages: [{ role: "user", content: "go" }] });
    const events = sseData(await response.text());
    expect(events.map((e) => e.type)).toEqual(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
    expect(events[1]).toEqual({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "call_2", name: "Write", input: {} } });
    expect(events[2]).toEqual({
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify({ file_path: "/work/dir/sub/hello.txt", content: "world\nline2\n" }) },
    });
    expect(events[4]).toEqual({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 5 } });
  });

  it("answers count_tokens and refuses other paths with a message", async () => {
    const s = await start("claude");
    expect(await (await post(`${s.url}/v1/messages/count_tokens`, { messages: [] })).json()).toEqual({ input_tokens: 4 });
    const other = await fetch(`${s.url}/v1/models`);
    expect([other.status, await other.json()]).toEqual([404, { error: { message: "the persona server serves POST /v1/messages only" } }]);
  });
});
