import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelClient, ModelReply, ModelRequest } from "../../../src/core/model.ts";
import { canonicalJson, cassetteKey, createRecordingClient, createReplayClient } from "../../../src/run/models/cassette.ts";
import { harnessFault } from "../../../src/run/models/fault.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "armstudy-cassette-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A tiny in-process client: answers with the number of calls so far, so every reply differs. */
function countingClient(overrides: Partial<ModelReply> = {}): ModelClient & { calls: number } {
  const client = {
    id: "fake:counter",
    isTestDouble: true,
    calls: 0,
    async complete(request: ModelRequest): Promise<ModelReply> {
      client.calls += 1;
      return {
        text: `reply ${client.calls} to ${request.messages.length} messages`,
        toolCalls: [{ id: `c${client.calls}`, name: "read_file", arguments: { path: "a.ts" } }],
        stop: "tool_calls",
        usage: { input: 10, cachedInput: 2, output: 3, reasoning: 1, source: "reported" },
        durationMs: 5,
        ...overrides,
      };
    },
  };
  return client;
}

const request = (runIndex: number | undefined, text = "Fix it.", round = 0): ModelRequest => ({
  messages: [
    { role: "system", content: "prefix" },
    { role: "user", content: text },
  ],
  tools: [{ name: "read_file", description: "Read a file.", parameters: { type: "object" } }],
  meta: { ...(runIndex === undefined ? {} : { runIndex }), round, purpose: "agent" },
});

describe("cassette keys", () => {
  it("include the run index and change with any part of the request", () => {
    const base = cassetteKey(request(0));
    expect(base).toMatch(/^run-0\/[0-9a-f]{24}$/);
    expect(cassetteKey(request(0))).toBe(base);
    expect(cassetteKey(request(1)).startsWith("run-1/")).toBe(true);
    expect(cassetteKey(request(1)).slice(6)).not.toBe(base.slice(6));
    expect(cassetteKey(request(0, "Fix it!"))).not.toBe(base);
    expect(cassetteKey(request(0, "Fix it.", 1))).not.toBe(base);
    expect(cassetteKey({ ...request(0), effort: "low" })).not.toBe(base);
    expect(cassetteKey(request(undefined)).startsWith("run-unset/")).toBe(true);
  });

  it("do not depend on object key order", () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: undefined, w: null }] })).toBe('{"a":[{"w":null,"y":2}],"b":1}');
    const reordered: ModelRequest = { meta: { purpose: "agent", round: 0, runIndex: 0 }, tools: request(0).tools, messages: request(0).messages };
    expect(cassetteKey(reordered)).toBe(cassetteKey(request(0)));
  });
});

describe("record and replay", () => {
  it("replays exactly what was recorded, per run index, without the inner client", async () => {
    const inner = countingClient();
    const recorder = await createRecordingClient(inner, dir);
    const recorded = [await recorder.complete(request(0)), await recorder.complete(request(1)), await recorder.complete(request(0, "next", 1))];
    expect(inner.calls).toBe(3);
    expect(readdirSync(dir).sort()).toEqual(["manifest.json", "run-0", "run-1"]);
    expect(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"))).toEqual({ version: 1, model: "fake:counter", testDouble: true });
    const stored = JSON.parse(readFileSync(join(dir, `${cassetteKey(request(1))}.json`), "utf8"));
    expect(stored).toEqual({
      version: 1,
      key: cassetteKey(request(1)),
      request: { meta: { runIndex: 1, round: 0, purpose: "agent" }, messages: 2, last: 'user "Fix it."', tools: ["read_file"] },
      reply: recorded[1],
    });

    const player = await createReplayClient(dir);
    expect([player.id, player.isTestDouble]).toEqual(["replay:fake:counter", true]);
    expect([await player.complete(request(0)), await player.complete(request(1)), await player.complete(request(0, "next", 1))]).toEqual(recorded);
  });

  it("fails loudly on a miss: an error reply that is a harness fault naming the request and the file", async () => {
    const recorder = await createRecordingClient(countingClient(), dir);
    await recorder.complete(request(0));
    const player = await createReplayClient(dir);
    const missed = request(1, "A prompt the recording never saw, with\nnewlines", 3);
    const key = cassetteKey(missed);
    const reply = await player.complete(missed);
    expect(reply).toEqual({
      text: "",
      toolCalls: [],
      stop: "error",
      usage: { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "counted" },
      errorMessage:
        `[CASSETTE_MISS] replay:${dir} has no cassette for request ${key} (round 3, purpose agent, 2 messages; last user "A prompt the recording never saw, with newlines"): ` +
        `${join(dir, `${key}.json`)} does not exist. The run sent a request the recording never saw (a changed prompt, arm, tool set or run index); record it again with record:${dir}=SPEC.`,
    });
    expect(harnessFault(reply)).toBe("CASSETTE_MISS");
  });

  it("reports a corrupt cassette as a harness fault", async () => {
    const recorder = await createRecordingClient(countingClient(), dir);
    await recorder.complete(request(0));
    writeFileSync(join(dir, `${cassetteKey(request(0))}.json`), '{"version":1,"key":"x","request":{},"reply":{"text":1}}');
    const reply = await (await createReplayClient(dir)).complete(request(0));
    expect(reply.stop).toBe("error");
    expect(harnessFault(reply)).toBe("CASSETTE_CORRUPT");
  });

  it("records provider failures but not aborts", async () => {
    const failing = await createRecordingClient(countingClient({ stop: "error", errorMessage: "HTTP 500" }), dir);
    await failing.complete(request(0));
    const player = await createReplayClient(dir);
    const replayed = await player.complete(request(0));
    expect([replayed.stop, replayed.errorMessage, harnessFault(replayed)]).toEqual(["error", "HTTP 500", undefined]);

    const abortDir = join(dir, "aborts");
    const aborting = await createRecordingClient(countingClient({ stop: "aborted", errorMessage: "aborted" }), abortDir);
    await aborting.complete(request(0));
    expect(readdirSync(abortDir)).toEqual(["manifest.json"]);
  });

  it("returns aborted from replay for an aborted signal", async () => {
    await createRecordingClient(countingClient(), dir);
    expect((await (await createReplayClient(dir)).complete(request(0), AbortSignal.abort())).stop).toBe("aborted");
  });

  it("refuses to mix recordings of two models in one folder, and to replay a folder with no recording", async () => {
    await createRecordingClient(countingClient(), dir);
    const other = { ...countingClient(), id: "fake:other" };
    await expect(createRecordingClient(other, dir)).rejects.toMatchObject({
      code: "CASSETTE_MANIFEST",
      message: `${dir} holds cassettes recorded from fake:counter; record fake:other into another folder, or delete ${dir} first`,
    });
    await expect(createReplayClient(join(dir, "nope"))).rejects.toMatchObject({
      code: "CASSETTE_DIR",
      message: `replay folder ${join(dir, "nope")} does not exist; record it first with record:${join(dir, "nope")}=SPEC`,
    });
    const empty = join(dir, "run-0");
    await (await createRecordingClient(countingClient(), dir)).complete(request(0));
    await expect(createReplayClient(empty)).rejects.toMatchObject({ code: "CASSETTE_MANIFEST" });
  });
});

describe("harnessFault", () => {
  it("recognises only error replies whose message starts with a known [CODE]", () => {
    const reply = (stop: ModelReply["stop"], errorMessage?: string) => ({ stop, ...(errorMessage === undefined ? {} : { errorMessage }) });
    expect(
      [
        reply("error", "[CASSETTE_MISS] x"),
        reply("error", "[CASSETTE_CORRUPT] x"),
        reply("error", "[SOMETHING_ELSE] x"),
        reply("error", "HTTP 500 [CASSETTE_MISS] x"),
        reply("usage_limit", "[CASSETTE_MISS] x"),
        reply("error"),
      ].map(harnessFault),
    ).toEqual(["CASSETTE_MISS", "CASSETTE_CORRUPT", undefined, undefined, undefined, undefined]);
  });
});
