/**
 * The session-file cross-check: finding the client's own file, comparing it with the event
 * stream, and a disagreement kept in the record as a warning before run.end — driven by a fake
 * codex on PATH that replays a recorded event stream and leaves a recorded rollout in its home
 * (whole, or with its tool call cut out).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ModelClient } from "../../../src/core/model.ts";
import { codexDriver } from "../../../src/run/drivers/codex.ts";
import { compareDigests, digestOf, findSessionFile, sessionCheck } from "../../../src/run/drivers/session-check.ts";
import type { RunEvent } from "../../../src/run/record.ts";
import { importSessionFile, isSessionFormat } from "../../../src/sessions/import.ts";
import { liveMapper } from "../../../src/sessions/live.ts";
import { FIXTURES } from "../../sessions/scan.ts";
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

const importSession = async (path: string, format: string): Promise<RunEvent[]> => {
  if (!isSessionFormat(format)) throw new Error(`not a session format: ${format}`);
  return (await importSessionFile(path, { format })).events;
};

const call = (t: number, id: string): RunEvent => ({ t, type: "tool.call", id, name: "shell", arguments: {} });
const text = (t: number, body: string, final: boolean): RunEvent => ({ t, type: "assistant.text", text: body, final });

describe("digests and their comparison", () => {
  it("counts tool calls and keeps the last final text, trimmed", () => {
    expect(digestOf([text(0, "looking", false), call(1, "a"), call(2, "b"), text(3, " first end \n", true), text(4, "second end", true)])).toEqual({ toolCalls: 2, finalText: "second end" });
    expect(digestOf([])).toEqual({ toolCalls: 0, finalText: null });
  });

  it("agrees, or names every difference", () => {
    expect(compareDigests("pi", "s.jsonl", { toolCalls: 3, finalText: "Done." }, { toolCalls: 3, finalText: "Done." })).toEqual({
      level: "info",
      text: "cross-check: pi's session file s.jsonl agrees with its event stream (3 tool calls, the same final message)",
    });
    expect(compareDigests("claude", "s.jsonl", { toolCalls: 3, finalText: "Done." }, { toolCalls: 2, finalText: null })).toEqual({
      level: "warning",
      text: 'cross-check: claude\'s session file s.jsonl disagrees with its event stream — tool calls: 3 in the event stream, 2 in the session file; final message: "Done." in the event stream, none in the session file',
    });
  });
});

describe("findSessionFile", () => {
  it("takes the newest .jsonl under the folder, never one in a sub-agent folder", async () => {
    const dir = temp("armstudy-sessions-");
    mkdirSync(join(dir, "2026/11/29"), { recursive: true });
    mkdirSync(join(dir, "project/abc/subagents"), { recursive: true });
    writeFileSync(join(dir, "2026/11/29/old.jsonl"), "{}\n");
    writeFileSync(join(dir, "project/new.jsonl"), "{}\n");
    writeFileSync(join(dir, "project/abc/subagents/agent-1.jsonl"), "{}\n");
    writeFileSync(join(dir, "project/notes.txt"), "not a session\n");
    utimesSync(join(dir, "2026/11/29/old.jsonl"), 1_000, 1_000);
    utimesSync(join(dir, "project/new.jsonl"), 2_000, 2_000);
    utimesSync(join(dir, "project/abc/subagents/agent-1.jsonl"), 3_000, 3_000);
    expect(await findSessionFile(dir)).toBe(join(dir, "project/new.jsonl"));
    expect(await findSessionFile(join(dir, "missing"))).toBeNull();
  });

  it("a missing file and an unreadable one are warnings, not throws", async () => {
    expect(await sessionCheck({ client: "codex", sessionDir: temp("armstudy-empty-"), events: [], importSession })).toEqual({
      level: "warning",
      text: expect.stringMatching(/^cross-check: codex wrote no session file under its home \(armstudy-empty-\w+\/\); the record rests on the event stream alone$/),
    });
    const dir = temp("armstudy-bad-session-");
    writeFileSync(join(dir, "x.jsonl"), '{"type":"session","version":3}\n');
    expect(await sessionCheck({ client: "codex", sessionDir: dir, events: [], importSession })).toEqual({
      level: "warning",
      text: expect.stringMatching(/^cross-check: codex's session file x\.jsonl could not be imported as codex \(.*not a codex file.*\)$/),
    });
  });
});

/** A fake codex: replays a recorded `codex exec --json` stream and leaves a rollout in $CODEX_HOME/sessions. */
const FAKE = `#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
const dir = path.join(process.env.CODEX_HOME, "sessions", "2026", "11", "29");
fs.mkdirSync(dir, { recursive: true });
fs.copyFileSync(process.env.FAKE_SESSION, path.join(dir, "rollout-fake.jsonl"));
process.stdout.write(fs.readFileSync(process.env.FAKE_REPLAY));
`;

const model: ModelClient = {
  id: "persona:fixture",
  isTestDouble: true,
  complete: async () => {
    throw new Error("the fake client never calls the model");
  },
};

async function fakeRun(session: string): Promise<RunEvent[]> {
  const binDir = temp("armstudy-fake-codex-");
  writeFileSync(join(binDir, "codex"), FAKE);
  chmodSync(join(binDir, "codex"), 0o755);
  const driver = codexDriver({
    bin: "codex",
    mapper: liveMapper,
    importSession,
    endpoint: async () => ({ baseUrl: "http://127.0.0.1:9", model: "persona", apiKey: "dummy", close: async () => undefined }),
    baseEnv: { PATH: `${binDir}:${process.env.PATH ?? ""}`, FAKE_REPLAY: join(FIXTURES, "offline-real-clients/codex-events.jsonl"), FAKE_SESSION: session },
  });
  const { events, onEvent } = collector();
  const outcome = await driver({ arm: testArm([{ name: "none" }], { agent: "codex", prompt: null }), model, dir: temp("armstudy-fake-work-"), handoff: "Create hello.txt.", runIndex: 0, seed: 1, onEvent });
  expect(outcome.status).toBe("completed");
  return events;
}

const tail = (events: RunEvent[]) => events.slice(-2).map((e) => (e.type === "note" ? [e.type, e.level, e.text] : [e.type]));

describe("the driver keeps the cross-check in the record, just before run.end", () => {
  it("agreement is an info note", async () => {
    const events = await fakeRun(join(FIXTURES, "offline-real-clients/codex-session.jsonl"));
    expect(tail(events)).toEqual([
      ["note", "info", "cross-check: codex's session file rollout-fake.jsonl agrees with its event stream (1 tool call, the same final message)"],
      ["run.end"],
    ]);
  });

  it("a disagreement is a warning naming both sides", async () => {
    // The recorded rollout with its tool call and the call's output cut out.
    const cut = join(temp("armstudy-cut-session-"), "rollout.jsonl");
    const lines = readFileSync(join(FIXTURES, "offline-real-clients/codex-session.jsonl"), "utf8").split("\n");
    writeFileSync(cut, lines.filter((line) => !/"type":"function_call(_output)?"/.test(line)).join("\n"));
    const events = await fakeRun(cut);
    expect(tail(events)).toEqual([
      ["note", "warning", "cross-check: codex's session file rollout-fake.jsonl disagrees with its event stream — tool calls: 1 in the event stream, 0 in the session file"],
      ["run.end"],
    ]);
  });
});
