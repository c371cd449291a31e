/**
 * The real Codex CLI, Claude Code and pi binaries against the persona server on 127.0.0.1.
 * Skipped, with the reason, when `npm run agents:install` has not installed a client. When
 * ARMSTUDY_EXPECT_NETNS=1 (set by .ci/run, which runs the suite in a private network namespace),
 * the test also proves the namespace has nothing but loopback.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ClientName, clientBinary } from "../../../src/run/drivers/clients.ts";
import { runClientProcess } from "../../../src/run/drivers/client-process.ts";
import { CLIENT_LAUNCH } from "../../../src/run/drivers/offline-setup.ts";
import { CLIENT_PROFILES } from "../../../src/run/models/server/client-profiles.ts";
import { startPersonaServer } from "../../../src/run/models/server/persona-server.ts";
import { EXPECTED_FINAL, threeStepPersona } from "./three-step-persona.ts";

const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The final assistant text in each client's own event stream. */
const FINAL_TEXT: Record<ClientName, (events: Record<string, unknown>[]) => string | undefined> = {
  codex: (events) => events.map((e) => e.item as { type?: string; text?: string } | undefined).filter((i) => i?.type === "agent_message").at(-1)?.text,
  claude: (events) => events.find((e) => e.type === "result")?.result as string | undefined,
  pi: (events) => {
    const end = events.filter((e) => e.type === "message_end").at(-1)?.message as { content?: { type: string; text?: string }[] } | undefined;
    return end?.content?.find((c) => c.type === "text")?.text;
  },
};

describe.runIf(process.env.ARMSTUDY_EXPECT_NETNS === "1")("network namespace", () => {
  it("has loopback only", () => {
    // /proc/self/net is per network namespace (sysfs is not): list the interfaces this process sees.
    const interfaces = readFileSync("/proc/self/net/dev", "utf8").split("\n").slice(2).map((line) => line.split(":")[0]?.trim()).filter((name) => name !== undefined && name !== "");
    expect(interfaces).toEqual(["lo"]);
  });
});

describe.each(["codex", "claude", "pi"] as const)("real %s against the persona server", (name) => {
  const bin = clientBinary(name, process.env, process.cwd());
  it.skipIf(bin === null)(`runs the three steps (skipped unless \`npm run agents:install\` installed ${name})`, async () => {
    const work = temp("armstudy-real-work-");
    execFileSync("git", ["init", "-q"], { cwd: work });
    const server = await startPersonaServer({ profile: CLIENT_PROFILES[name], persona: threeStepPersona, workDir: work, tools: [] });
    try {
      const launch = CLIENT_LAUNCH[name]({ baseUrl: server.url, home: temp("armstudy-real-home-"), prompt: "Write the file and check it.", model: "persona", apiKey: "dummy" });
      const result = await runClientProcess({ bin: bin ?? "", launch, cwd: work, timeoutMs: 90_000 });
      const events = result.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect({ exitCode: result.exitCode, timedOut: result.timedOut }).toEqual({ exitCode: 0, timedOut: false });
      expect(readFileSync(join(work, "sub/hello.txt"), "utf8")).toBe("world\nline2\n");
      expect(FINAL_TEXT[name](events)).toBe(EXPECTED_FINAL);
      expect(server.requests.filter((r) => r.method === "POST" && r.path === CLIENT_PROFILES[name].wire.path)).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});
