/**
 * The codex, claude and pi drivers against fake executables on PATH that replay a real client's
 * recorded event stream (fixtures/sessions), so no real CLI is needed. Expectations come from a
 * plain line scan of the same fixture (test/sessions/scan.ts).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ModelClient } from "../../../src/core/model.ts";
import { runMetrics } from "../../../src/measure/metrics.ts";
import type { AgentRunOptions } from "../../../src/run/agent-contract.ts";
import type { LoadedArm } from "../../../src/run/arms/types.ts";
import { claudeDriver } from "../../../src/run/drivers/claude.ts";
import { codexDriver } from "../../../src/run/drivers/codex.ts";
import type { DriverConfig } from "../../../src/run/drivers/driver.ts";
import { piDriver } from "../../../src/run/drivers/pi.ts";
import { RunEvent } from "../../../src/run/record.ts";
import { liveMapper } from "../../../src/sessions/live.ts";
import { priceRequest } from "../../../src/study/limits.ts";
import { type Expected, FIXTURES, scanClaudeStream, scanCodexExec, scanPiJson } from "../../sessions/scan.ts";

const temps: string[] = [];
function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/**
 * The fake client: notes how it was started (cwd, argv, HOME, whether stdin is at EOF), then
 * either replays a recorded stream to stdout in small pieces (then, with replay-hang, keeps running),
 * or starts a grandchild and hangs.
 */
const FAKE = `#!/usr/bin/env node
const fs = require("node:fs");
const { spawn } = require("node:child_process");
let stdinAtEof = false;
try { stdinAtEof = fs.readSync(0, Buffer.alloc(1), 0, 1, null) === 0; } catch { stdinAtEof = false; }
fs.writeFileSync(".fake-invocation.json", JSON.stringify({ cwd: process.cwd(), argv: process.argv.slice(2), home: process.env.HOME, stdinAtEof, apiKey: process.env.OPENAI_API_KEY ?? null }));
if (process.env.FAKE_MODE === "hang") {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600000)"], { stdio: "ignore" });
  fs.writeFileSync(".fake-grandchild.pid", String(child.pid));
  process.stdout.write('{"type":"turn.started"}\\n');
  setInterval(() => {}, 1000);
} else {
  const data = fs.readFileSync(process.env.FAKE_REPLAY);
  let i = 0;
  const step = () => {
    if (i >= data.length) {
      // replay-hang: the stream is out, but the client keeps running (only a cap or a timeout ends it).
      if (process.env.FAKE_MODE === "replay-hang") setInterval(() => {}, 1000);
      return;
    }
    process.stdout.write(data.subarray(i, i + 97));
    i += 97;
    setImmediate(step);
  };
  step();
}
`;

function fakeBin(name: string): string {
  const dir = temp("armstudy-fake-bin-");
  const path = join(dir, name);
  writeFileSync(path, FAKE);
  chmodSync(path, 0o755);
  return dir;
}

const arm = (agent: LoadedArm["agent"]): LoadedArm => ({ name: `real-${agent}`, dir: "arms/real", description: "a real client", agent, prompt: null, policies: [{ name: "none" }] });
const model: ModelClient = {
  id: "persona:fixture",
  isTestDouble: true,
  complete: async () => {
    throw new Error("drivers never call the model client themselves");
  },
};

function config(bin: string, binDir: string, env: Record<string, string>, timeoutMs?: number): DriverConfig {
  return {
    bin,
    mapper: liveMapper,
    endpoint: async () => ({ baseUrl: "http://127.0.0.1:9", model: "persona", apiKey: "dummy", close: async () => undefined }),
    baseEnv: { PATH: `${binDir}:${process.env.PATH ?? ""}`, OPENAI_API_KEY: "must-not-leak", ...env },
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

async function run(driver: ReturnType<typeof codexDriver>, agent: LoadedArm["agent"], dir: string, extra: Partial<AgentRunOptions> = {}) {
  const events: RunEvent[] = [];
  let tick = 0;
  const outcome = await driver({ arm: arm(agent), model, dir, handoff: "Do B1 then B2.", runIndex: 2, seed: 7, onEvent: (e) => void events.push(e), clock: () => (tick += 5), ...extra });
  return { outcome, events };
}

const CASES: Array<{ client: "codex" | "claude" | "pi"; make: (c: DriverConfig) => ReturnType<typeof codexDriver>; fixture: string; scan: (p: string) => Expected; promptInStream: boolean; finalText: string }> = [
  { client: "codex", make: codexDriver, fixture: "offline-real-clients/codex-events.jsonl", scan: scanCodexExec, promptInStream: false, finalText: "Done: created hello.txt containing world." },
  { client: "claude", make: claudeDriver, fixture: "offline-real-clients/claude-events.jsonl", scan: scanClaudeStream, promptInStream: false, finalText: "Done: created hello.txt containing world." },
  { client: "claude", make: claudeDriver, fixture: "claude-agent-sdk-gleam/basic_query.ndjson", scan: scanClaudeStream, promptInStream: false, finalText: "4" },
  { client: "pi", make: piDriver, fixture: "offline-real-clients/pi-events.jsonl", scan: scanPiJson, promptInStream: true, finalText: "Done: created hello.txt containing world." },
];

describe("drivers replaying recorded streams through a fake client on PATH", () => {
  it.each(CASES)("$client: $fixture", async ({ client, make, fixture, scan, promptInStream, finalText }) => {
    const binDir = fakeBin(client);
    const work = temp("armstudy-driver-work-");
    const path = join(FIXTURES, fixture);
    const { outcome, events } = await run(make(config(client, binDir, { FAKE_REPLAY: path })), client, work);

    expect(outcome.status).toBe("completed");
    for (const e of events) expect(RunEvent.safeParse(e).success).toBe(true);
    const invocation = JSON.parse(readFileSync(join(work, ".fake-invocation.json"), "utf8"));
    expect({ cwd: invocation.cwd, handoffInArgs: invocation.argv.includes("Do B1 then B2."), stdinAtEof: invocation.stdinAtEof, tempHome: invocation.home !== process.env.HOME && invocation.home.includes(`armstudy-${client}-home-`), apiKey: invocation.apiKey }).toEqual({
      cwd: work,
      handoffInArgs: true,
      stdinAtEof: true,
      tempHome: true,
      apiKey: null,
    });
    // The temp home is removed after the run.
    expect(existsSync(invocation.home)).toBe(false);

    const start = events[0];
    expect(start?.type === "run.start" ? { arm: start.arm, runIndex: start.runIndex, seed: start.seed, model: start.model, testDouble: start.testDouble, source: start.source, cwd: start.cwd } : start).toEqual({
      arm: `real-${client}`,
      runIndex: 2,
      seed: 7,
      model: "persona:fixture",
      testDouble: true,
      source: client,
      cwd: work,
    });
    const handoffs = events.filter((e) => e.type === "user.message" && e.kind === "handoff");
    expect(handoffs.length).toBe(1);
    if (!promptInStream) expect(handoffs[0]?.type === "user.message" ? handoffs[0].text : null).toBe("Do B1 then B2.");

    const expected = scan(path);
    const m = runMetrics(events);
    expect({ toolCalls: m.toolCalls, byName: m.toolCallsByName, output: m.tokens.output, input: m.tokens.input, final: events.filter((e) => e.type === "assistant.text" && e.final).map((e) => (e.type === "assistant.text" ? e.text : "")) }).toEqual({
      toolCalls: expected.toolCalls,
      byName: expected.toolCallsByName,
      output: expected.tokens.output,
      input: expected.tokens.input,
      final: [finalText],
    });
    const end = events.at(-1);
    expect(end?.type === "run.end" ? end.status : null).toBe("completed");
    // Driver time is the run's clock, never decreasing.
    const times = events.map((e) => e.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("kills the whole process group on timeout: the client and its grandchild are gone", async () => {
    const binDir = fakeBin("codex");
    const work = temp("armstudy-driver-hang-");
    const started = Date.now();
    const { outcome, events } = await run(codexDriver(config("codex", binDir, { FAKE_MODE: "hang" }, 1500)), "codex", work);
    expect(outcome.status).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(20_000);
    const end = events.at(-1);
    expect(end?.type === "run.end" ? [end.status, end.reason] : null).toEqual(["timeout", "codex ran past 1500 ms; its process group was killed"]);
    const pid = Number(readFileSync(join(work, ".fake-grandchild.pid"), "utf8"));
    const gone = (): boolean => {
      if (!existsSync(`/proc/${pid}`)) return true;
      try {
        return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? true;
      } catch {
        return true;
      }
    };
    for (let i = 0; i < 40 && !gone(); i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(gone()).toBe(true);
  });

  it("an abort signal kills the client like a timeout", async () => {
    const binDir = fakeBin("pi");
    const work = temp("armstudy-driver-abort-");
    mkdirSync(work, { recursive: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 800);
    const { outcome } = await run(piDriver(config("pi", binDir, { FAKE_MODE: "hang" }, 60_000)), "pi", work, { signal: controller.signal });
    expect(outcome.status).toBe("aborted");
  });

  it("a client that is not installed ends the run with an error, not a throw", async () => {
    const work = temp("armstudy-driver-missing-");
    const { outcome, events } = await run(codexDriver(config("no-such-codex-binary", temp("armstudy-empty-bin-"), {})), "codex", work);
    const reason = "codex could not be started from no-such-codex-binary (not installed? `npm run agents:install`)";
    expect([outcome.status, outcome.reason]).toEqual(["error", reason]);
    const end = events.at(-1);
    expect(end?.type === "run.end" ? [end.status, end.reason] : null).toEqual(["error", reason]);
  });

  it("an endpoint that cannot open ends the run with an error record, and the temp home is removed", async () => {
    const work = temp("armstudy-driver-endpoint-");
    const root = temp("armstudy-driver-homes-");
    const driver = codexDriver({ ...config("codex", fakeBin("codex"), {}), tempRoot: root, endpoint: async () => {
      throw new Error("port in use");
    } });
    const { outcome, events } = await run(driver, "codex", work);
    expect([outcome.status, outcome.reason]).toEqual(["error", "could not open the model endpoint for codex: port in use"]);
    expect(events.map((e) => e.type)).toEqual(["run.start", "user.message", "run.end"]);
    expect(readdirSync(root)).toEqual([]);
    expect(existsSync(join(work, ".fake-invocation.json"))).toBe(false);
  });
});

describe("token and cost caps on a driven client (ADR 0127)", () => {
  // Each replays its recorded stream, then keeps running: only the cap (or the 60 s timeout) ends it.
  const capped = async (client: "codex" | "claude" | "pi", fixture: string, limits: AgentRunOptions["limits"], pricer?: AgentRunOptions["pricer"]) => {
    const make = { codex: codexDriver, claude: claudeDriver, pi: piDriver }[client];
    const { outcome, events } = await run(make(config(client, fakeBin(client), { FAKE_REPLAY: join(FIXTURES, fixture), FAKE_MODE: "replay-hang" }, 60_000)), client, temp("armstudy-driver-cap-"), {
      limits,
      ...(pricer === undefined ? {} : { pricer }),
    });
    const requests = events.filter((e) => e.type === "model.request").length;
    const decisions = events.flatMap((e) => (e.type === "policy.decision" ? [{ policy: e.policy, decision: e.decision, reason: e.reason, status: e.status }] : []));
    const end = events.at(-1);
    return { outcome: { ...outcome, wallMs: 0 }, requests, decisions, end: end?.type === "run.end" ? { status: end.status, reason: end.reason } : null };
  };
  const expectCap = (reason: string, requests: number, status = "budget_limited") => ({
    outcome: { status, reason: `${reason}; the client's process group was killed`, wallMs: 0 },
    requests,
    decisions: [{ policy: "hardCap", decision: "settle", reason, status }],
    end: { status, reason: `${reason}; the client's process group was killed` },
  });

  it.each([
    { client: "codex" as const, fixture: "offline-real-clients/codex-events.jsonl", reason: "hard cap: 12 tokens reached (30 used)", requests: 1 },
    { client: "claude" as const, fixture: "offline-real-clients/claude-events.jsonl", reason: "hard cap: 12 tokens reached (22 used)", requests: 2 },
    { client: "pi" as const, fixture: "offline-real-clients/pi-events.jsonl", reason: "hard cap: 12 tokens reached (15 used)", requests: 1 },
  ])("$client: a token cap stops the client at the request whose reported usage reaches it", async ({ client, fixture, reason, requests }) => {
    const result = await capped(client, fixture, { maxTokens: 12 });
    // Requests the stream reported before the kill landed may follow the one that reached the cap.
    expect({ ...result, requests: result.requests >= requests }).toEqual({ ...expectCap(reason, requests), requests: true });
  });

  it("claude: a cost cap prices each reported request from the table and stops the client", async () => {
    // claude-opus-5-5 at $4 / $20 per million: 10 in + 1 out = $0.00006 a request; the second reaches $0.0001.
    const result = await capped("claude", "offline-real-clients/claude-events.jsonl", { maxCostUsd: 0.0001 }, priceRequest);
    expect(result).toEqual(expectCap("hard cap: $0.0001 reached ($0.0001 spent)", 2));
  });

  it("a cost cap on a model the table does not price ends the run as an error naming it; no price table at all is the caller's mistake", async () => {
    const result = await capped("pi", "offline-real-clients/pi-events.jsonl", { maxCostUsd: 1 }, priceRequest);
    expect(result).toEqual(expectCap('limits.maxCostUsd is set, but the price table has no price for model "mock-model"; add it or remove the cost cap', 1, "error"));
    await expect(capped("pi", "offline-real-clients/pi-events.jsonl", { maxCostUsd: 1 })).rejects.toThrow("limits.maxCostUsd is set, but no price table was given to the run (pass `pricer`)");
  });

  it("under its caps the client runs to its own end", async () => {
    const make = claudeDriver(config("claude", fakeBin("claude"), { FAKE_REPLAY: join(FIXTURES, "offline-real-clients/claude-events.jsonl") }));
    const { outcome } = await run(make, "claude", temp("armstudy-driver-cap-"), { limits: { maxTokens: 1000, maxCostUsd: 1 }, pricer: priceRequest });
    expect(outcome).toEqual({ status: "completed", wallMs: outcome.wallMs });
  });
});
