/**
 * `armstudy run` against a real HTTP model on 127.0.0.1: an OpenAI-compatible server that answers
 * a shell call, then a final report. The record carries the provider's usage beside our o200k count.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { loadArm } from "../../src/run/arms/load.ts";
import { readRecordFile } from "../../src/run/record-reader.ts";
import { type ChatResponse, chatCompletion, chatCompletionChunks, startChatServer } from "../support/chat-server.ts";
import { fixtureRepo, ROOT } from "./scripted-support.ts";

/** Streams or answers in one body, as the request asks; first a shell call, then the report. */
function answer(stream: boolean, input: Parameters<typeof chatCompletion>[0]): ChatResponse {
  return stream ? { sse: chatCompletionChunks(input) } : { json: chatCompletion(input) };
}

describe("armstudy run with openai-compatible:", () => {
  it("drives the loop over HTTP on loopback and records provider usage beside our count", async () => {
    const server = await startChatServer((request, index) =>
      index === 0
        ? answer(request.body?.stream === true, { toolCalls: [{ id: "call_1", name: "shell", arguments: { command: "ls src" } }], usage: { prompt: 1200, completion: 20, cached: 1000 } })
        : answer(request.body?.stream === true, { content: "Listed src/; nothing else was asked of me here.", usage: { prompt: 1300, completion: 12, cached: 1200, reasoning: 4 } }),
    );
    const repo = await fixtureRepo();
    const outDir = await mkdtemp(path.join(tmpdir(), "armstudy-run-http-"));
    try {
      const out = path.join(outDir, "run.jsonl");
      const cli = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
      const code = await main(["run", "--arm", "ordinary", "--model", `openai-compatible:test-model@${server.baseUrl}`, "--dir", repo.dir, "--handoff", "fixtures/tasks/stockbook/handoff.md", "--out", out], cli);
      expect([code, cli.out, cli.err]).toEqual([0, [], [`armstudy run: ordinary with openai-compatible:test-model: completed — the model ended its reply\nrecord: ${out}\n`]]);
      const { events, warnings } = await readRecordFile(out);
      expect(warnings).toEqual([]);
      expect(events.map((e) => e.type)).toEqual([
        "run.start",
        "user.message",
        "model.request",
        "tool.call",
        "tool.result",
        "model.request",
        "assistant.text",
        "reply.end",
        "policy.decision",
        "run.end",
      ]);
      const requests = events.filter((e) => e.type === "model.request");
      expect(requests.map((r) => r.type === "model.request" && [r.input, r.cachedInput, r.output, r.reasoning, r.usageSource])).toEqual([
        [1200, 1000, 20, 0, "reported"],
        [1300, 1200, 12, 4, "reported"],
      ]);
      // Our own o200k count of what was sent rides beside the provider's figure.
      expect(requests.every((r) => r.type === "model.request" && (r.counted?.input ?? 0) > 1000)).toBe(true);
      const result = events.find((e) => e.type === "tool.result");
      expect(result?.type === "tool.result" && [result.ok, result.exitCode]).toEqual([true, 0]);
      // The system prompt sent is the arm's compiled prompt, and no key is sent unless the spec names one.
      const arm = await loadArm(path.join(ROOT, "arms"), "ordinary", { cwd: ROOT });
      expect(server.requests[0]?.body.messages[0]).toEqual({ role: "system", content: arm.prompt?.text });
      expect(server.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
        ["/v1/chat/completions", undefined],
        ["/v1/chat/completions", undefined],
      ]);
    } finally {
      await repo.cleanup();
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
