/**
 * The real Codex CLI, Claude Code and pi (pinned, from `npm run agents:install`) complete the
 * fixture handoff's first step, B1, played by the scripted persona through the persona server —
 * wired exactly as the study wires a driven arm (our tools offered to the persona, the network
 * namespace when we can make one, the session-file cross-check). Then: B1's acceptance check
 * passes in the worktree, and the client's own session file, read by the matching importer,
 * yields the same tool calls and final message as the live event stream. Skipped, with the reason,
 * when a client is not installed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ClientName, clientBinary } from "../../../src/run/drivers/clients.ts";
import { createDriver } from "../../../src/run/drivers/driver.ts";
import { createDriverModel, driverEndpoint } from "../../../src/run/drivers/endpoints.ts";
import { probeNetwork } from "../../../src/run/drivers/netns.ts";
import type { RunEvent } from "../../../src/run/record.ts";
import { createToolbox } from "../../../src/run/tools/index.ts";
import { importSessionFile, isSessionFormat } from "../../../src/sessions/import.ts";
import { liveMapper } from "../../../src/sessions/live.ts";
import { CHECKS, HANDOFF, PERSONAS, ROOT, acceptance, collector, fixtureRepo, testArm } from "../scripted-support.ts";

const temps: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of temps) await cleanup();
});

/** A persona that plays only B1 of the handoff, diligently (reads, writes, checks, reports). */
function b1Persona(): string {
  const dir = mkdtempSync(join(tmpdir(), "armstudy-b1-persona-"));
  temps.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, "b1.steps.yaml"),
    [
      `handoff: ${join(ROOT, "fixtures/tasks/stockbook/handoff.md")}`,
      `checks: ${join(ROOT, "fixtures/tasks/stockbook/checks.yaml")}`,
      `solutions: ${join(PERSONAS, "solutions")}`,
      "steps:",
      "  - id: B1",
      "    title: Signed amounts and thousands separators in parseAmount",
      "    reads: [src/money.js]",
      "    writes: [src/money.js]",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "b1.yaml"),
    [
      "persona: b1-only",
      "description: Does B1 and reports.",
      "steps: b1.steps.yaml",
      "traits:",
      "  stopAfterSteps: null",
      "  endStyle: claim_done",
      "  resumesOnContinuation: true",
      "  closesTodosEarly: false",
      "  repeatsCalls: 1",
      "  claimCheck: strict",
      "  usesGoalTools: false",
      "",
    ].join("\n"),
  );
  return join(dir, "b1.yaml");
}

/** The tool names in each client's event stream for the persona's read, write and check (codex exec names every command a command_execution). */
const TOOL_NAMES: Record<ClientName, string[]> = {
  codex: ["command_execution", "command_execution", "command_execution"],
  claude: ["Read", "Write", "Bash"],
  pi: ["read", "write", "bash"],
};

const B1_CHECK = CHECKS.find((check) => check.id === "B1")?.command ?? "";
const FIRST_LINES = [
  "Done: all 1 steps of the handoff are complete and every acceptance check passes.",
  "All 1 steps are done; each step's check passes.",
  "The handoff is complete: B1 are implemented and their checks pass.",
];

const texts = (events: readonly RunEvent[], type: "tool.call" | "final") =>
  type === "tool.call" ? events.flatMap((e) => (e.type === "tool.call" ? [e.name] : [])) : events.flatMap((e) => (e.type === "assistant.text" && e.final ? [e.text.trim()] : []));

describe.each(["codex", "claude", "pi"] as const)("real %s completes B1 through the persona server", (client) => {
  const bin = clientBinary(client, process.env, process.cwd());
  it.skipIf(bin === null)(`B1 passes, and the session file agrees with the event stream (skipped unless \`npm run agents:install\` installed ${client})`, async () => {
    const repo = await fixtureRepo();
    temps.push(repo.cleanup);
    const network = probeNetwork({ env: process.env });
    const imported: RunEvent[][] = [];
    const driver = createDriver(client, {
      bin: bin ?? "",
      mapper: liveMapper,
      endpoint: driverEndpoint(client, { env: {}, tools: createToolbox().specs(), network }),
      // The real importer, with what it read kept for the assertions below.
      importSession: async (path, format) => {
        if (!isSessionFormat(format)) throw new Error(`not a session format: ${format}`);
        const { events } = await importSessionFile(path, { format });
        imported.push(events);
        return events;
      },
      timeoutMs: 120_000,
    });
    const model = await createDriverModel(client, `scripted:${b1Persona()}`, { env: {}, cwd: ROOT, seed: 1, runIndex: 1 });
    const { events, onEvent } = collector();
    const outcome = await driver({ arm: testArm([{ name: "none" }], { agent: client, prompt: null }), model, dir: repo.dir, handoff: HANDOFF, runIndex: 1, seed: 1, onEvent });

    expect(outcome.status).toBe("completed");
    expect((await acceptance(repo.dir)).B1).toBe(true);

    const final = texts(events, "final");
    expect(final.length).toBe(1);
    const [first, ...rest] = (final[0] ?? "").split("\n");
    expect({ firstKnown: FIRST_LINES.includes(first ?? ""), rest }).toEqual({ firstKnown: true, rest: ["", "What changed:", `- B1: Signed amounts and thousands separators in parseAmount — \`${B1_CHECK}\` passes.`] });
    expect(texts(events, "tool.call")).toEqual(TOOL_NAMES[client]);

    // The session file, imported on its own, says the same.
    expect(imported.length).toBe(1);
    const session = imported[0] ?? [];
    expect({ toolCalls: texts(session, "tool.call").length, final: texts(session, "final").at(-1) }).toEqual({ toolCalls: 3, final: final[0] });

    const notes = events.flatMap((e) => (e.type === "note" && e.text.startsWith("cross-check") ? [[e.level, e.text.replace(/ file \S+ /, " file FILE ")]] : []));
    expect(notes).toEqual([["info", `cross-check: ${client}'s session file FILE agrees with its event stream (3 tool calls, the same final message)`]]);
    expect(events.at(-1)?.type).toBe("run.end");
  });
});
