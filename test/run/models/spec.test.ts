import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createModelClient, ModelSpecError, parseModelSpec } from "../../../src/run/models/spec.ts";
import { type ChatServer, chatCompletion, startChatServer } from "../../support/chat-server.ts";

let dir: string;
const servers: ChatServer[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "armstudy-spec-"));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("parseModelSpec", () => {
  it.each([
    ["openai:gpt-5", { kind: "openai", model: "gpt-5", baseUrl: "https://api.openai.com/v1" }],
    ["openai:gpt-5#WORK_OPENAI_KEY", { kind: "openai", model: "gpt-5", baseUrl: "https://api.openai.com/v1", keyEnv: "WORK_OPENAI_KEY" }],
    ["openai-compatible:qwen3@http://127.0.0.1:8080/v1/", { kind: "openai-compatible", model: "qwen3", baseUrl: "http://127.0.0.1:8080/v1" }],
    [
      "openai-compatible:org/model@v2@https://llm.example.test/v1#LLM_KEY",
      { kind: "openai-compatible", model: "org/model@v2", baseUrl: "https://llm.example.test/v1", keyEnv: "LLM_KEY" },
    ],
    ["ollama:llama3.1:8b", { kind: "ollama", model: "llama3.1:8b", baseUrl: "http://127.0.0.1:11434/v1" }],
    ["ollama:qwen3@http://10.0.0.5:11434/v1", { kind: "ollama", model: "qwen3", baseUrl: "http://10.0.0.5:11434/v1" }],
    ["scripted:fixtures/tasks/stockbook/personas/diligent.yaml", { kind: "scripted", file: "fixtures/tasks/stockbook/personas/diligent.yaml" }],
    ["replay:cassettes/a", { kind: "replay", dir: "cassettes/a" }],
    [
      "record:cassettes/a=openai-compatible:m@http://127.0.0.1:1/v1",
      { kind: "record", dir: "cassettes/a", inner: { kind: "openai-compatible", model: "m", baseUrl: "http://127.0.0.1:1/v1" } },
    ],
  ])("%s", (spec, expected) => {
    expect(parseModelSpec(spec)).toEqual(expected);
  });

  const FORMS = "Forms: openai:MODEL, openai-compatible:MODEL@BASE_URL[#KEY_ENV], ollama:MODEL[@BASE_URL], scripted:FILE, replay:DIR, record:DIR=SPEC";
  it.each([
    ["gpt-5", 'model spec "gpt-5": it has no kind before a colon'],
    ["openai:", 'model spec "openai:": nothing follows "openai:"'],
    ["anthropic:claude", 'model spec "anthropic:claude": unknown kind "anthropic"'],
    ["openai-compatible:m", 'model spec "openai-compatible:m": it needs @BASE_URL, such as @http://127.0.0.1:8080/v1'],
    ["openai-compatible:m@ftp://x/v1", 'model spec "openai-compatible:m@ftp://x/v1": it needs @BASE_URL, such as @http://127.0.0.1:8080/v1'],
    [
      "openai-compatible:m@http://user:pw@127.0.0.1/v1",
      'model spec "openai-compatible:m@http://user:pw@127.0.0.1/v1": base URL "http://user:pw@127.0.0.1/v1" carries credentials; put the key in an environment variable and name it with #ENV',
    ],
    ["openai:gpt-5#bad-name", 'model spec "openai:gpt-5#bad-name": "#bad-name" is not an environment variable name (letters, digits, _)'],
    ["record:=openai:gpt-5", 'model spec "record:=openai:gpt-5": record needs DIR=SPEC, such as record:cassettes/run1=openai:gpt-5'],
    ["record:a=replay:b", 'model spec "record:a=replay:b": record cannot wrap a replay: spec'],
  ])("refuses %s", (spec, message) => {
    let caught: unknown;
    try {
      parseModelSpec(spec);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ModelSpecError);
    expect(caught).toMatchObject({ code: "MODEL_SPEC", exitCode: 2, message: `${message}. ${FORMS}` });
  });
});

describe("createModelClient", () => {
  it("reads the key of openai: from OPENAI_API_KEY only, and refuses to start without it", async () => {
    await expect(createModelClient("openai:gpt-5", { env: {}, cwd: dir })).rejects.toMatchObject({
      code: "MODEL_KEY_MISSING",
      message: 'model spec "openai:gpt-5" needs an API key in the environment variable OPENAI_API_KEY; set it and run again',
    });
    const model = await createModelClient("openai:gpt-5", { env: { OPENAI_API_KEY: "sk-x" }, cwd: dir });
    expect([model.id, model.isTestDouble]).toEqual(["openai:gpt-5", false]);
  });

  it("sends an openai-compatible server the key of the variable its spec names, and no OpenAI key otherwise", async () => {
    const server = await startChatServer(() => ({ json: chatCompletion({ content: "ok" }) }));
    servers.push(server);
    const env = { OPENAI_API_KEY: "sk-openai-secret", LOCAL_KEY: "local-secret" };
    const request = { messages: [{ role: "user" as const, content: "hi" }], tools: [] };

    const plain = await createModelClient(`openai-compatible:m@${server.baseUrl}`, { env, cwd: dir, stream: false });
    expect((await plain.complete(request)).text).toBe("ok");
    const keyed = await createModelClient(`openai-compatible:m@${server.baseUrl}#LOCAL_KEY`, { env, cwd: dir, origin: "command-line" });
    expect((await keyed.complete(request)).text).toBe("ok");
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined, "Bearer local-secret"]);
    expect(server.requests.map((r) => r.body.stream)).toEqual([undefined, true]);

    await expect(createModelClient(`openai-compatible:m@${server.baseUrl}#UNSET_KEY`, { env, cwd: dir })).rejects.toMatchObject({
      code: "MODEL_KEY_MISSING",
      message: `model spec "openai-compatible:m@${server.baseUrl}#UNSET_KEY" names the key variable UNSET_KEY, which is not set`,
    });
  });

  it("sends a key to another host only when the base URL was typed on the command line", async () => {
    const env = { OPENAI_API_KEY: "sk-openai-secret-value", TEAM_KEY: "team-secret-value" };
    const fromFile = "openai-compatible:m@https://collector.example.test/v1#OPENAI_API_KEY";
    await expect(createModelClient(fromFile, { env, cwd: dir })).rejects.toMatchObject({
      code: "MODEL_KEY_HOST",
      message: `model spec "${fromFile}": it would send the key in OPENAI_API_KEY to collector.example.test, which is not a provider's own host. A study file cannot send a key to another host: name the base URL yourself with --model on the command line`,
    });
    await expect(createModelClient("ollama:m@http://10.0.0.9:11434/v1#TEAM_KEY", { env, cwd: dir, origin: "study-file" })).rejects.toMatchObject({
      code: "MODEL_KEY_HOST",
      message: `model spec "ollama:m@http://10.0.0.9:11434/v1#TEAM_KEY": it would send the key in TEAM_KEY to 10.0.0.9:11434, which is not the provider's own host (127.0.0.1:11434). A study file cannot send a key to another host: name the base URL yourself with --model on the command line`,
    });
    // The provider's own host, from a study file: allowed. Another host typed by the person: allowed.
    expect((await createModelClient("openai:gpt-5#TEAM_KEY", { env, cwd: dir })).id).toEqual("openai:gpt-5");
    expect((await createModelClient(fromFile, { env, cwd: dir, origin: "command-line" })).id).toEqual("openai-compatible:m");
    // No key, no question: a keyless local server from a study file is fine.
    expect((await createModelClient("openai-compatible:m@http://127.0.0.1:9/v1", { env, cwd: dir })).id).toEqual("openai-compatible:m");
  });

  it.each([
    ["openai-compatible:m@http://127.0.0.1:9/v1?api_key=abc#K", "base URL carries a key in its query (parameter \"api_key\"); put the key in an environment variable and name it with #ENV"],
    ["openai-compatible:m@http://127.0.0.1:9/v1?x-access-token=abc", "base URL carries a key in its query (parameter \"x-access-token\"); put the key in an environment variable and name it with #ENV"],
    ["openai-compatible:m@http://u:p@127.0.0.1:9/v1", "base URL \"http://u:p@127.0.0.1:9/v1\" carries credentials; put the key in an environment variable and name it with #ENV"],
  ])("refuses a key inside the URL: %s", (spec, why) => {
    expect(() => parseModelSpec(spec)).toThrow(`model spec "${spec}": ${why}. Forms:`);
  });

  it("refuses a URL whose query carries the value of a secret the environment holds", async () => {
    const env = { OPENAI_API_KEY: "sk-openai-secret-value", K: "other-secret" };
    const spec = "openai-compatible:m@http://127.0.0.1:9/v1?q=sk-openai-secret-value#K";
    await expect(createModelClient(spec, { env, cwd: dir, origin: "command-line" })).rejects.toThrow(`model spec "${spec}": base URL carries a key in its query (parameter "q")`);
  });

  it("builds ollama: without a key", async () => {
    const model = await createModelClient("ollama:llama3.1:8b", { env: {}, cwd: dir });
    expect(model.id).toBe("ollama:llama3.1:8b");
  });

  it("resolves record: and replay: folders against cwd", async () => {
    const server = await startChatServer(() => ({ json: chatCompletion({ content: "recorded" }) }));
    servers.push(server);
    const recorder = await createModelClient(`record:tapes=openai-compatible:m@${server.baseUrl}`, { env: {}, cwd: dir, stream: false });
    expect(recorder.id).toBe("openai-compatible:m");
    const request = { messages: [{ role: "user" as const, content: "hi" }], tools: [], meta: { runIndex: 2 } };
    await recorder.complete(request);
    expect(existsSync(join(dir, "tapes", "manifest.json"))).toBe(true);
    const player = await createModelClient("replay:tapes", { env: {}, cwd: dir });
    expect([player.id, (await player.complete(request)).text]).toEqual(["replay:openai-compatible:m", "recorded"]);
  });
});
