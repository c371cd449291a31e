/**
 * A real client whose provider fails is a fault, not a result (ADR 0129): each installed client is
 * pointed by a model spec at a loopback "provider" that answers 500, or at a closed port; armstudy's
 * forwarder sees each failed model request (counted in a note on the record), stops a client that
 * keeps retrying after 1 + maxRetries in a row, and the run ends `error` with the named cause.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agentsDir, clientBinary } from "../../../src/run/drivers/clients.ts";
import { createDriver } from "../../../src/run/drivers/driver.ts";
import { createDriverModel, driverEndpoint } from "../../../src/run/drivers/endpoints.ts";
import { probeSandbox } from "../../../src/run/sandbox/probe.ts";
import { liveMapper } from "../../../src/sessions/live.ts";
import { ROOT, collector, testArm } from "../scripted-support.ts";

/** Whether the client retries a 500 itself (then armstudy stops it), or gives up on its own. */
const RETRIES_ITSELF = { codex: false, claude: true, pi: true } as const;

const temps: string[] = [];
const sandbox = probeSandbox({ env: process.env });
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Answers every request 500, and counts the model requests (POSTs). */
async function overloadedProvider(answer: "500" | "hang" = "500"): Promise<{ url: string; posts: () => number; close(): Promise<void> }> {
  let posts = 0;
  const server = createServer((request, response) => {
    if (request.method === "POST") posts += 1;
    request.resume();
    if (answer === "hang") return;
    response.writeHead(500, { "content-type": "application/json" });
    response.end('{"error":{"message":"overloaded","type":"server_error"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts: () => posts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(["codex", "claude", "pi"] as const)("real %s whose provider fails", (client) => {
  const bin = clientBinary(client, process.env, process.cwd());
  const run = async (baseUrl: string) => {
    const work = mkdtempSync(join(tmpdir(), "armstudy-provider-fault-"));
    temps.push(work);
    execFileSync("git", ["init", "-q"], { cwd: work });
    const spec = client === "claude" ? `anthropic:stand-in@${baseUrl}#STANDIN_KEY` : `openai-compatible:stand-in@${baseUrl}/v1#STANDIN_KEY`;
    const env = { STANDIN_KEY: "sk-stand-in" };
    const model = await createDriverModel(client, spec, { env, cwd: ROOT, origin: "command-line", requests: { connectTimeoutMs: 2000, idleTimeoutMs: 1500, maxRetries: 1 } });
    const readable = [join(agentsDir(process.env, ROOT), client)];
    const driver = createDriver(client, { bin: bin ?? "", mapper: liveMapper, endpoint: driverEndpoint(client, { env }), timeoutMs: 120_000, readable });
    const { events, onEvent } = collector();
    const boxed = sandbox.kind === "bwrap" ? { sandbox: { sandbox, network: "none" as const, readable: [] } } : {};
    const outcome = await driver({ arm: testArm([{ name: "none" }], { agent: client, prompt: null }), model, dir: work, handoff: "Write the file and check it.", runIndex: 0, seed: 1, onEvent, ...boxed });
    const warnings = events.flatMap((e) => (e.type === "note" && e.level === "warning" && e.text.startsWith("provider:") ? [e.text] : []));
    const end = events.at(-1);
    return { outcome, warnings, end: end?.type === "run.end" ? end.status : null };
  };

  it.skipIf(bin === null)(`answering 500: an error run with model.http_5xx; a client that retries is stopped after two failed requests (skipped unless ${client} is installed)`, async () => {
    const provider = await overloadedProvider();
    try {
      const { outcome, warnings, end } = await run(provider.url);
      const failed = RETRIES_ITSELF[client] ? 2 : 1;
      expect({ status: outcome.status, cause: outcome.cause, end, warnings, stopped: outcome.reason?.endsWith(`armstudy stopped ${client}`), posts: provider.posts() >= failed }).toEqual({
        status: "error",
        cause: "model.http_5xx",
        end: "error",
        warnings: [`provider: ${failed} × model.http_5xx among the model requests armstudy's forwarder saw`],
        stopped: RETRIES_ITSELF[client],
        posts: true,
      });
    } finally {
      await provider.close();
    }
  });

  it.skipIf(bin === null)(`unreachable: an error run with model.unreachable (skipped unless ${client} is installed)`, async () => {
    const { outcome, end, warnings } = await run("http://127.0.0.1:9");
    expect({ status: outcome.status, cause: outcome.cause, end, warned: warnings.length }).toEqual({ status: "error", cause: "model.unreachable", end: "error", warned: 1 });
  });

  it.skipIf(bin === null)(`hanging: the idle timeout cuts each request, and the run is an error with model.timeout (skipped unless ${client} is installed)`, async () => {
    const provider = await overloadedProvider("hang");
    try {
      const { outcome, end } = await run(provider.url);
      expect({ status: outcome.status, cause: outcome.cause, end }).toEqual({ status: "error", cause: "model.timeout", end: "error" });
    } finally {
      await provider.close();
    }
  });
});
