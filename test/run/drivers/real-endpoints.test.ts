/**
 * Which endpoint a driven client gets: provider specs parsed for the drivers (with `anthropic:` for
 * Claude Code), the model a driven run carries, and the real-provider path run for real — each
 * installed client pointed by a model spec at a "provider" on 127.0.0.1 (a persona server behind a
 * proxy that notes the credential each request carried), so the path `--model` takes is tested
 * offline: the key comes from the named variable, the client talks to the provider through armstudy's
 * forwarder (and only it).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { type IncomingMessage, createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type ClientName, agentsDir, clientBinary } from "../../../src/run/drivers/clients.ts";
import { probeSandbox } from "../../../src/run/sandbox/probe.ts";
import { createDriver } from "../../../src/run/drivers/driver.ts";
import { ProviderModel, createDriverModel, driverEndpoint, parseProviderSpec } from "../../../src/run/drivers/endpoints.ts";
import { probeNetwork } from "../../../src/run/drivers/netns.ts";
import { CLIENT_PROFILES } from "../../../src/run/models/server/client-profiles.ts";
import { startPersonaServer } from "../../../src/run/models/server/persona-server.ts";
import { ModelSpecError } from "../../../src/run/models/spec.ts";
import { liveMapper } from "../../../src/sessions/live.ts";
import { EXPECTED_FINAL, threeStepPersona } from "../server/three-step-persona.ts";
import { ROOT, collector, testArm } from "../scripted-support.ts";

const temps: string[] = [];
const sandbox = probeSandbox({ env: process.env });
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("parseProviderSpec", () => {
  it.each([
    ["openai:gpt-5", { family: "openai", id: "openai:gpt-5", model: "gpt-5", baseUrl: "https://api.openai.com", keyEnv: "OPENAI_API_KEY", keyRequired: true }],
    ["openai:gpt-5#TEAM_KEY", { family: "openai", id: "openai:gpt-5", model: "gpt-5", baseUrl: "https://api.openai.com", keyEnv: "TEAM_KEY", keyRequired: true }],
    ["openai-compatible:qwen@http://10.0.0.2:8000/v1#VLLM_KEY", { family: "openai", id: "openai-compatible:qwen", model: "qwen", baseUrl: "http://10.0.0.2:8000", keyEnv: "VLLM_KEY", keyRequired: true }],
    ["openai-compatible:qwen@http://10.0.0.2:8000/v1", { family: "openai", id: "openai-compatible:qwen", model: "qwen", baseUrl: "http://10.0.0.2:8000", keyEnv: null, keyRequired: false }],
    ["ollama:llama3:8b", { family: "openai", id: "ollama:llama3:8b", model: "llama3:8b", baseUrl: "http://127.0.0.1:11434", keyEnv: null, keyRequired: false }],
    ["anthropic:claude-sonnet-4-5", { family: "anthropic", id: "anthropic:claude-sonnet-4-5", model: "claude-sonnet-4-5", baseUrl: "https://api.anthropic.com", keyEnv: "ANTHROPIC_API_KEY", keyRequired: true }],
    ["anthropic:m@http://127.0.0.1:9/v1#K", { family: "anthropic", id: "anthropic:m", model: "m", baseUrl: "http://127.0.0.1:9", keyEnv: "K", keyRequired: true }],
  ])("%s", (spec, expected) => {
    expect(parseProviderSpec(spec)).toEqual(expected);
  });

  it("is null for what the persona server serves", () => {
    expect([parseProviderSpec("scripted:fixtures/tasks/stockbook/personas/diligent.yaml"), parseProviderSpec("replay:cassettes/a"), parseProviderSpec("record:c=scripted:x.yaml")]).toEqual([null, null, null]);
  });

  it.each([
    ["openai-compatible:qwen@http://10.0.0.2:8000", 'model spec "openai-compatible:qwen@http://10.0.0.2:8000": a driven client adds /v1 to its base URL itself, so the base URL must end in /v1 (got http://10.0.0.2:8000)'],
    ["anthropic:", 'model spec "anthropic:": the model name is empty. Form: anthropic:MODEL[@BASE_URL][#KEY_ENV]'],
    ["anthropic:m#9X", 'model spec "anthropic:m#9X": "#9X" is not an environment variable name (letters, digits, _)'],
    ["anthropic:m@http://user:pw@h/v1", 'model spec "anthropic:m@http://user:pw@h/v1": the base URL carries credentials; put the key in an environment variable and name it with #ENV'],
  ])("%s is refused, saying why", (spec, message) => {
    expect(() => parseProviderSpec(spec)).toThrow(new ModelSpecError("MODEL_SPEC", message));
  });
});

describe("parseProviderSpec, fuzzed", () => {
  it("any text is a target, null, or a ModelSpecError — never another throw", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom("anthropic:", "openai:", "openai-compatible:", "ollama:", "scripted:").chain((kind) => fc.string().map((rest) => kind + rest))), (spec) => {
        try {
          const target = parseProviderSpec(spec);
          if (target !== null) expect(target.model.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(ModelSpecError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("reads back the parts of any well-formed anthropic spec", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/);
    fc.assert(
      fc.property(word, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), fc.option(fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,15}$/), { nil: undefined }), (model, port, keyEnv) => {
        const spec = `anthropic:${model}${port === undefined ? "" : `@http://127.0.0.1:${port}/v1`}${keyEnv === undefined ? "" : `#${keyEnv}`}`;
        expect(parseProviderSpec(spec)).toEqual({
          family: "anthropic",
          id: `anthropic:${model}`,
          model,
          baseUrl: port === undefined ? "https://api.anthropic.com" : `http://127.0.0.1:${port}`,
          keyEnv: keyEnv ?? "ANTHROPIC_API_KEY",
          keyRequired: true,
        });
      }),
    );
  });
});

describe("createDriverModel", () => {
  const options = { env: { OPENAI_API_KEY: "sk-x" }, cwd: ROOT, seed: 1, runIndex: 0 };

  it("a provider spec becomes a ProviderModel; a scripted one the persona", async () => {
    const provider = await createDriverModel("pi", "openai:gpt-5", options);
    expect(provider instanceof ProviderModel ? { id: provider.id, testDouble: provider.isTestDouble, baseUrl: provider.provider.baseUrl } : null).toEqual({ id: "openai:gpt-5", testDouble: false, baseUrl: "https://api.openai.com" });
    const persona = await createDriverModel("pi", "scripted:fixtures/tasks/stockbook/personas/diligent.yaml", options);
    expect({ id: persona.id, testDouble: persona.isTestDouble, provider: persona instanceof ProviderModel }).toEqual({ id: "scripted:diligent", testDouble: true, provider: false });
    // It is never asked for a reply; asked anyway, it explains instead of throwing.
    expect((await provider.complete({ messages: [], tools: [] })).errorMessage).toBe("openai:gpt-5 is reached by the driven client itself; armstudy's own loop cannot call it through this model");
  });

  it("refuses a provider the client cannot speak to, and a missing key, before any run", async () => {
    await expect(createDriverModel("claude", "openai:gpt-5", options)).rejects.toThrow(
      new ModelSpecError("MODEL_SPEC", 'model spec "openai:gpt-5": the claude client speaks the Anthropic Messages API, so it needs anthropic:MODEL[@BASE_URL][#KEY_ENV] (or a scripted: persona)'),
    );
    await expect(createDriverModel("codex", "anthropic:claude-x", { ...options, env: { ANTHROPIC_API_KEY: "k" } })).rejects.toThrow(
      new ModelSpecError("MODEL_SPEC", 'model spec "anthropic:claude-x": the codex client speaks the OpenAI API, so it needs openai:MODEL or openai-compatible:MODEL@BASE_URL[#KEY_ENV] (or a scripted: persona)'),
    );
    await expect(createDriverModel("claude", "anthropic:claude-x", { ...options, env: {} })).rejects.toThrow(
      new ModelSpecError("MODEL_KEY_MISSING", 'model spec "anthropic:claude-x" needs an API key in the environment variable ANTHROPIC_API_KEY; set it and run again'),
    );
    // A local server that takes no key needs none.
    expect((await createDriverModel("pi", "ollama:llama3", { ...options, env: {} })).id).toBe("ollama:llama3");
  });
});

/** A "provider" on 127.0.0.1: a proxy that notes each request's credential, in front of a persona server. */
async function standInProvider(client: ClientName, work: string) {
  const persona = await startPersonaServer({ profile: CLIENT_PROFILES[client], persona: threeStepPersona, workDir: work, tools: [] });
  const target = new URL(persona.url);
  const credentials: string[] = [];
  const proxy = createServer((req: IncomingMessage, res) => {
    credentials.push(String(req.headers.authorization ?? req.headers["x-api-key"] ?? "(none)"));
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url,
    credentials,
    persona,
    close: async () => {
      await new Promise((resolve) => proxy.close(resolve));
      await persona.close();
    },
  };
}

describe.each(["codex", "claude", "pi"] as const)("real %s pointed at a provider by a model spec", (client) => {
  const bin = clientBinary(client, process.env, process.cwd());
  it.skipIf(bin === null || sandbox.kind !== "bwrap")(`talks to it from inside the sandbox, through armstudy's forwarder only (skipped unless ${client} and bubblewrap are installed)`, async () => {
    const work = mkdtempSync(join(tmpdir(), "armstudy-provider-boxed-"));
    temps.push(work);
    execFileSync("git", ["init", "-q"], { cwd: work });
    const provider = await standInProvider(client, work);
    try {
      const spec = client === "claude" ? `anthropic:stand-in@${provider.url}#STANDIN_KEY` : `openai-compatible:stand-in@${provider.url}/v1#STANDIN_KEY`;
      const env = { STANDIN_KEY: "sk-stand-in" };
      const model = await createDriverModel(client, spec, { env, cwd: ROOT, origin: "command-line" });
      // The client's install folder is all it may read of the project (deps.ts passes the same).
      const readable = [join(agentsDir(process.env, ROOT), client)];
      const driver = createDriver(client, { bin: bin ?? "", mapper: liveMapper, endpoint: driverEndpoint(client, { env }), timeoutMs: 90_000, readable });
      const { events, onEvent } = collector();
      const outcome = await driver({ arm: testArm([{ name: "none" }], { agent: client, prompt: null }), model, dir: work, handoff: "Write the file and check it.", runIndex: 0, seed: 1, onEvent, sandbox: { sandbox, network: "none", readable: [] } });
      const start = events[0];
      expect({
        status: outcome.status,
        file: readFileSync(join(work, "sub/hello.txt"), "utf8"),
        sandbox: start?.type === "run.start" ? [start.sandbox?.kind, start.sandbox?.network] : null,
        credentials: [...new Set(provider.credentials)],
      }).toEqual({
        status: "completed",
        file: "world\nline2\n",
        sandbox: ["bwrap", "none"],
        credentials: [client === "claude" ? "sk-stand-in" : "Bearer sk-stand-in"],
      });
    } finally {
      await provider.close();
    }
  });

  it.skipIf(bin === null)(`talks to it without a sandbox, through the forwarder, with the key from the named variable (skipped unless \`npm run agents:install\` installed ${client})`, async () => {
    const work = mkdtempSync(join(tmpdir(), "armstudy-provider-work-"));
    temps.push(work);
    execFileSync("git", ["init", "-q"], { cwd: work });
    const provider = await standInProvider(client, work);
    try {
      const spec = client === "claude" ? `anthropic:stand-in@${provider.url}#STANDIN_KEY` : `openai-compatible:stand-in@${provider.url}/v1#STANDIN_KEY`;
      const env = { STANDIN_KEY: "sk-stand-in" };
      const model = await createDriverModel(client, spec, { env, cwd: ROOT, origin: "command-line" });
      // The namespace is offered, but a provider run never uses it: a real provider is not on loopback.
      const driver = createDriver(client, { bin: bin ?? "", mapper: liveMapper, endpoint: driverEndpoint(client, { env, network: probeNetwork({ env: process.env }) }), timeoutMs: 90_000 });
      const { events, onEvent } = collector();
      const outcome = await driver({ arm: testArm([{ name: "none" }], { agent: client, prompt: null }), model, dir: work, handoff: "Write the file and check it.", runIndex: 0, seed: 1, onEvent });
      const posts = provider.persona.requests.filter((r) => r.method === "POST" && r.path === CLIENT_PROFILES[client].wire.path);
      expect({
        status: outcome.status,
        file: readFileSync(join(work, "sub/hello.txt"), "utf8"),
        model: events[0]?.type === "run.start" ? events[0].model : null,
        final: events.flatMap((e) => (e.type === "assistant.text" && e.final ? [e.text] : [])),
        notes: events.flatMap((e) => (e.type === "note" && e.level === "info" ? [e.text] : [])),
        asked: [...new Set(posts.map((r) => (r.body as { model?: string }).model))],
        credentials: [...new Set(provider.credentials)],
      }).toEqual({
        status: "completed",
        file: "world\nline2\n",
        model: `${client === "claude" ? "anthropic" : "openai-compatible"}:stand-in`,
        final: [EXPECTED_FINAL],
        notes: [`model endpoint: ${client} talked to ${new URL(provider.url).host} as ${client === "claude" ? "anthropic" : "openai-compatible"}:stand-in, through armstudy's forwarder; the usage in this record is what the provider reported to the client`],
        asked: ["stand-in"],
        credentials: [client === "claude" ? "sk-stand-in" : "Bearer sk-stand-in"],
      });
    } finally {
      await provider.close();
    }
  });
});
