/**
 * The loopback-only network namespace a driven client runs in: when it is used and why not, the
 * Unix-socket bridge that carries the client's requests out of the namespace to the persona server,
 * and each real client (when installed) seeing nothing but `lo` from inside it. The namespace
 * tests need root, `unshare` and `ip`; elsewhere they are skipped with the reason.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Message, ModelClient, ModelReply } from "../../../src/core/model.ts";
import { clientBinary } from "../../../src/run/drivers/clients.ts";
import { runClientProcess } from "../../../src/run/drivers/client-process.ts";
import { createDriver } from "../../../src/run/drivers/driver.ts";
import { driverEndpoint } from "../../../src/run/drivers/endpoints.ts";
import { NAMESPACE_PORT, openLoopbackBridge, probeNetwork } from "../../../src/run/drivers/netns.ts";
import { liveMapper } from "../../../src/sessions/live.ts";
import { collector, testArm } from "../scripted-support.ts";

const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const network = probeNetwork({ env: process.env });
const namespaceReason = network.kind === "host" ? network.reason : "";

/** Interface names in a /proc/net/dev listing (per network namespace, unlike /sys/class/net). */
function interfaces(procNetDev: string): string[] {
  return procNetDev
    .split("\n")
    .slice(2)
    .map((line) => line.split(":")[0]?.trim() ?? "")
    .filter((name) => name !== "");
}

describe("probeNetwork", () => {
  it("is turned off by ARMSTUDY_NETNS=0, and needs root", () => {
    expect(probeNetwork({ env: { ARMSTUDY_NETNS: "0" }, uid: 0 })).toEqual({ kind: "host", reason: "ARMSTUDY_NETNS=0 turned the private network namespace off" });
    expect(probeNetwork({ env: {}, uid: 1000 })).toEqual({ kind: "host", reason: "not running as root, and `unshare -n` needs root" });
  });

  it("names the failing command when unshare cannot run", () => {
    expect(probeNetwork({ env: { PATH: temp("armstudy-empty-path-") }, uid: 0 })).toEqual({ kind: "host", reason: "`unshare -n` could not start (spawnSync unshare ENOENT)" });
  });
});

describe.runIf(network.kind === "namespace")(`the loopback bridge (skipped here: ${namespaceReason || "—"})`, () => {
  it("carries a request from inside a new namespace to a server outside it, and the namespace has only lo", async () => {
    const server = createServer((req, res) => res.end(`hello from outside: ${req.method} ${req.url}`));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const bridge = await openLoopbackBridge((server.address() as AddressInfo).port);
    try {
      // A stand-in client: fetch the base URL, print what came back and the interfaces it can see.
      const script = `const r = await fetch(process.argv[1] + "/v1/ping"); const fs = await import("node:fs"); console.log(JSON.stringify({ body: await r.text(), dev: fs.readFileSync("/proc/self/net/dev", "utf8") }));`;
      const command = bridge.wrap({ bin: process.execPath, args: ["--input-type=module", "-e", script, bridge.baseUrl] });
      const result = await runClientProcess({ bin: command.bin, launch: { files: {}, env: {}, args: command.args, sessionDir: "" }, cwd: tmpdir(), timeoutMs: 30_000 });
      const printed = JSON.parse(result.stdout) as { body: string; dev: string };
      expect({ exitCode: result.exitCode, baseUrl: bridge.baseUrl, body: printed.body, interfaces: interfaces(printed.dev) }).toEqual({
        exitCode: 0,
        baseUrl: `http://127.0.0.1:${NAMESPACE_PORT}`,
        body: "hello from outside: GET /v1/ping",
        interfaces: ["lo"],
      });
    } finally {
      await bridge.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("passes the client's exit code through", async () => {
    const bridge = await openLoopbackBridge(9);
    try {
      const command = bridge.wrap({ bin: process.execPath, args: ["-e", "process.exit(7)"] });
      const result = await runClientProcess({ bin: command.bin, launch: { files: {}, env: {}, args: command.args, sessionDir: "" }, cwd: tmpdir(), timeoutMs: 30_000 });
      expect(result.exitCode).toBe(7);
    } finally {
      await bridge.close();
    }
  });
});

/** A persona that lists the network interfaces it can see through the client's shell, then reports them. */
const interfaceLister: ModelClient = {
  id: "test:interface-lister",
  isTestDouble: true,
  async complete(request): Promise<ModelReply> {
    const usage = { input: 1, cachedInput: 0, output: 1, reasoning: 0, source: "counted" as const };
    const result = request.messages.find((m): m is Extract<Message, { role: "tool" }> => m.role === "tool");
    if (result === undefined) return { text: "", toolCalls: [{ id: "call_net", name: "shell", arguments: { command: "cat /proc/self/net/dev" } }], stop: "tool_calls", usage };
    return { text: `interfaces: ${interfaces(result.content.replace(/^exit code: \d+\n/, "")).join(",")}`, toolCalls: [], stop: "end_turn", usage };
  },
};

describe.each(["codex", "claude", "pi"] as const)("real %s in the namespace", (client) => {
  const bin = clientBinary(client, process.env, process.cwd());
  const skip = bin === null ? `${client} is not installed (npm run agents:install)` : network.kind === "host" ? network.reason : "";
  it.skipIf(skip !== "")(`sees only loopback, and the record says so${skip ? ` (skipped: ${skip})` : ""}`, async () => {
    const work = temp("armstudy-netns-work-");
    execFileSync("git", ["init", "-q"], { cwd: work });
    const driver = createDriver(client, { bin: bin ?? "", mapper: liveMapper, endpoint: driverEndpoint(client, { env: {}, network }), timeoutMs: 90_000 });
    const { events, onEvent } = collector();
    const outcome = await driver({ arm: testArm([{ name: "none" }], { agent: client, prompt: null }), model: interfaceLister, dir: work, handoff: "List the network interfaces.", runIndex: 0, seed: 1, onEvent });
    expect({
      status: outcome.status,
      final: events.flatMap((e) => (e.type === "assistant.text" && e.final ? [e.text] : [])),
      network: events.flatMap((e) => (e.type === "note" && e.text.startsWith("network:") ? [e.text] : [])),
    }).toEqual({
      status: "completed",
      final: ["interfaces: lo"],
      network: ["network: the client ran in a private network namespace with loopback only (unshare -n); it reached the persona server through a Unix-socket bridge"],
    });
  });
});
