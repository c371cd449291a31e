/**
 * The agent loop's own costs, each against a peer in the same run:
 *
 * - Request token counts over a 120-request run: `RequestTokenCounter` (each message counted once,
 *   remembered on the message object) against re-counting every request's whole history with
 *   `countTokens`, and against the content-hash `TokenCounter` alone (hashes the whole history per
 *   request, tokenizes only new text).
 * - One scripted run of the diligent persona over the fixture handoff (our loop, tools, the persona
 *   and its 12 check commands) against running the same 12 check commands back to back: the ratio
 *   is what the loop adds on top of the child processes nobody can skip.
 *
 * `npm run bench -- agent`. Times are process CPU time for the counting tasks (the machine is
 * shared) and wall time for the runs (they wait on child processes).
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import type { Message, ModelRequest } from "../../src/core/model.ts";
import { seededRng } from "../../src/core/random.ts";
import { countTokens, TokenCounter } from "../../src/core/tokens.ts";
import { runAgent } from "../../src/run/agent.ts";
import { RequestTokenCounter } from "../../src/run/agent-tokens.ts";
import { createScriptedClient, loadPersona } from "../../src/run/models/scripted.ts";
import { createToolbox, runCommand } from "../../src/run/tools/index.ts";
import { machineLine } from "./lib/report.ts";

const ROOT = join(import.meta.dirname, "../..");
const REQUESTS = 120;

const WORDS = ["ledger", "stock", "const", "return", "await", "parseAmount", "error", "sku", "{", "}", "=>", "0.75", "passed", "failed", "src/money.js", "catalogue", "\n"];
const rand = seededRng(0xa9e47);
const text = (chars: number) => {
  let out = "";
  while (out.length < chars) out += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
  return out;
};

// One run's conversation: a system prompt, the handoff, then a tool call and its result per request.
const tools = createToolbox().specs();
const conversation: Message[] = [
  { role: "system", content: text(6_000) },
  { role: "user", content: text(3_000) },
];
const requests: ModelRequest[] = [];
for (let i = 0; i < REQUESTS; i += 1) {
  requests.push({ messages: [...conversation], tools });
  conversation.push({ role: "assistant", content: text(120), toolCalls: [{ id: `c${i}`, name: "read_file", arguments: { path: `src/file${i % 17}.js` } }] });
  conversation.push({ role: "tool", toolCallId: `c${i}`, name: "read_file", content: text(600) });
}

const cpuNow = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// All three must agree on the totals before their speed means anything.
const flat = (message: Message) => (message.role === "assistant" && message.toolCalls ? `${message.content}\n${message.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.arguments)}`).join("\n")}` : message.content);
const perRequest = new RequestTokenCounter();
const ours = requests.map((request) => perRequest.request(request));
const recount = requests.map((request) => countTokens(JSON.stringify(request.tools)) + request.messages.reduce((sum, m) => sum + countTokens(flat(m)) + 4, 0));
if (JSON.stringify(ours) !== JSON.stringify(recount)) throw new Error("RequestTokenCounter and the re-count disagree");
console.log(`${REQUESTS} requests, last one ${requests.at(-1)?.messages.length} messages, ${ours.at(-1)} o200k tokens; counts agree`);

const counting = new Bench({ iterations: 3, warmupIterations: 1, time: 0, now: cpuNow });
counting
  .add("RequestTokenCounter (per message, once)", () => {
    const counter = new RequestTokenCounter();
    for (const request of requests) counter.request(request);
  })
  .add("peer: TokenCounter (hash every message every request)", () => {
    const counter = new TokenCounter();
    for (const request of requests) {
      let total = counter.count(JSON.stringify(request.tools));
      for (const message of request.messages) total += counter.count(flat(message)) + 4;
      void total;
    }
  })
  .add("peer: re-count the whole history per request", () => {
    for (const request of requests) {
      let total = countTokens(JSON.stringify(request.tools));
      for (const message of request.messages) total += countTokens(flat(message)) + 4;
      void total;
    }
  });
await counting.run();

const persona = join(ROOT, "fixtures/tasks/stockbook/personas/diligent.yaml");
const loaded = await loadPersona(persona);
const checkCommands = [...loaded.steps.map((step) => step.check), ...loaded.steps.map((step) => step.check)];
const prompt = "You are a careful coding agent.";
const runs = new Bench({ iterations: 3, warmupIterations: 1, time: 0 });
runs
  .add("scripted diligent run (loop + tools + 12 checks)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bench-agent-"));
    await cp(join(ROOT, "fixtures/tasks/stockbook/repo"), dir, { recursive: true });
    await cp(join(ROOT, "fixtures/tasks/stockbook/checks"), join(dir, "checks"), { recursive: true });
    const model = await createScriptedClient(persona, { seed: 1 });
    await runAgent({
      arm: { name: "bench", dir: ROOT, description: "", agent: "armstudy", prompt: { text: prompt, stablePrefix: prompt, prefixHash: "0", prefixTokens: 7 }, policies: [{ name: "none" }] },
      model,
      dir,
      handoff: "Do the handoff.",
      runIndex: 0,
      seed: 1,
      onEvent: () => undefined,
    });
    await rm(dir, { recursive: true, force: true });
  })
  .add("peer: the same 12 check commands back to back", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bench-checks-"));
    await cp(join(ROOT, "fixtures/tasks/stockbook/repo"), dir, { recursive: true });
    await cp(join(ROOT, "fixtures/tasks/stockbook/checks"), join(dir, "checks"), { recursive: true });
    for (const command of checkCommands) await runCommand(command, { cwd: dir, env: process.env, timeoutMs: 60_000, outputLimit: 20_000 });
    await rm(dir, { recursive: true, force: true });
  });
await runs.run();

const p50 = (bench: Bench, name: string) => (bench.tasks.find((task) => task.name === name)?.result as { latency?: { p50?: number } } | undefined)?.latency?.p50 ?? Number.NaN;
const rows = [
  ...counting.tasks.map((task) => ({ task: task.name, "p50 ms": p50(counting, task.name).toFixed(1), clock: "cpu" })),
  ...runs.tasks.map((task) => ({ task: task.name, "p50 ms": p50(runs, task.name).toFixed(1), clock: "wall" })),
];
console.log(machineLine());
console.table(rows);
const ourCount = p50(counting, "RequestTokenCounter (per message, once)");
console.log(`re-count / ours: ${(p50(counting, "peer: re-count the whole history per request") / ourCount).toFixed(1)}x`);
console.log(`hash-only / ours: ${(p50(counting, "peer: TokenCounter (hash every message every request)") / ourCount).toFixed(1)}x`);
console.log(
  `scripted run / its checks alone: ${(p50(runs, "scripted diligent run (loop + tools + 12 checks)") / p50(runs, "peer: the same 12 check commands back to back")).toFixed(2)}x`,
);
