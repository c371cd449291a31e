/**
 * The drivers end to end with the real Codex CLI, Claude Code and pi binaries (pinned, installed by
 * `npm run agents:install`; CI installs them) against the persona server on 127.0.0.1: the
 * client runs the persona's three steps, the driver maps its live event stream, and the record
 * says what happened. Skipped, with the reason, when a client is not installed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMetrics } from "../../../src/measure/metrics.ts";
import type { LoadedArm } from "../../../src/run/arms/types.ts";
import { claudeDriver } from "../../../src/run/drivers/claude.ts";
import { clientBinary } from "../../../src/run/drivers/clients.ts";
import { codexDriver } from "../../../src/run/drivers/codex.ts";
import { personaEndpoint } from "../../../src/run/drivers/endpoints.ts";
import { piDriver } from "../../../src/run/drivers/pi.ts";
import { RunEvent } from "../../../src/run/record.ts";
import { liveMapper } from "../../../src/sessions/live.ts";
import { EXPECTED_FINAL, threeStepPersona } from "../server/three-step-persona.ts";

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const DRIVERS = { codex: codexDriver, claude: claudeDriver, pi: piDriver } as const;

describe.each(["codex", "claude", "pi"] as const)("the %s driver with the real client", (name) => {
  const bin = clientBinary(name, process.env, process.cwd());
  it.skipIf(bin === null)(`records the persona's run (skipped unless \`npm run agents:install\` installed ${name})`, async () => {
    const work = mkdtempSync(join(tmpdir(), "armstudy-driver-real-"));
    temps.push(work);
    execFileSync("git", ["init", "-q"], { cwd: work });
    const arm: LoadedArm = { name: `real-${name}`, dir: "arms/real", description: "", agent: name, prompt: null, policies: [{ name: "none" }] };
    const events: RunEvent[] = [];
    const driver = DRIVERS[name]({ bin: bin ?? "", mapper: liveMapper, endpoint: personaEndpoint(name), timeoutMs: 90_000 });
    const outcome = await driver({ arm, model: threeStepPersona, dir: work, handoff: "Write the file and check it.", runIndex: 0, seed: 1, onEvent: (e) => void events.push(e) });

    expect(outcome.status).toBe("completed");
    expect(readFileSync(join(work, "sub/hello.txt"), "utf8")).toBe("world\nline2\n");
    for (const e of events) expect(RunEvent.safeParse(e).success).toBe(true);
    const m = runMetrics(events);
    // The server answers update_plan itself (no client can run it): the client makes the other two calls.
    expect({ toolCalls: m.toolCalls, replies: m.replies, final: events.filter((e) => e.type === "assistant.text" && e.final).map((e) => (e.type === "assistant.text" ? e.text : "")), end: events.at(-1)?.type }).toEqual({
      toolCalls: 2,
      replies: 1,
      final: [EXPECTED_FINAL],
      end: "run.end",
    });
    // The failing command is a failed tool result in every client's stream.
    expect(events.filter((e) => e.type === "tool.result").map((e) => (e.type === "tool.result" ? e.ok : null))).toEqual([true, false]);
  });

  it.skipIf(bin === null)(`stops at a token cap on the usage the client reports (ADR 0127; skipped unless ${name} is installed)`, async () => {
    const work = mkdtempSync(join(tmpdir(), "armstudy-driver-real-cap-"));
    temps.push(work);
    execFileSync("git", ["init", "-q"], { cwd: work });
    const arm: LoadedArm = { name: `real-${name}`, dir: "arms/real", description: "", agent: name, prompt: null, policies: [{ name: "none" }] };
    const events: RunEvent[] = [];
    const driver = DRIVERS[name]({ bin: bin ?? "", mapper: liveMapper, endpoint: personaEndpoint(name), timeoutMs: 90_000 });
    const outcome = await driver({ arm, model: threeStepPersona, dir: work, handoff: "Write the file and check it.", runIndex: 0, seed: 1, onEvent: (e) => void events.push(e), limits: { maxTokens: 1 } });
    const first = events.find((e) => e.type === "model.request");
    const used = first?.type === "model.request" ? first.input + first.output : 0;
    const reason = `hard cap: 1 tokens reached (${used} used)`;
    expect(used).toBeGreaterThan(0);
    expect({ status: outcome.status, reason: outcome.reason, decisions: events.filter((e) => e.type === "policy.decision").map((e) => (e.type === "policy.decision" ? [e.policy, e.decision, e.reason, e.status] : [])), end: events.at(-1)?.type }).toEqual({
      status: "budget_limited",
      reason: `${reason}; the client's process group was killed`,
      decisions: [["hardCap", "settle", reason, "budget_limited"]],
      end: "run.end",
    });
  });
});
