/**
 * `npm run study` and SIGTERM (ADR 0084): npm forwards the signal to its child, and the script
 * `exec`s node (no shell in between, no tsx relaunch), so SIGTERM to the npm process stops the
 * study itself — not a shell that leaves it running detached. The study exits 130, its process is
 * gone, its lock released, and the results folder resumes to the end. Also: a second study on a
 * folder that a live study holds is refused naming the holder's pid.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { pidAlive } from "../../src/study/lock.ts";
import { type ChatServer, chatCompletion, startChatServer } from "../support/chat-server.ts";
import { tinyStudy } from "../support/tiny-study.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
const servers: ChatServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function world(baseUrl: string): { root: string; file: string; out: string } {
  return tinyStudy("sig", ["runs: 2", `model: openai-compatible:m@${baseUrl}`, "requests: { idleTimeoutMs: 120000, maxRetries: 0 }"], temps);
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null; output: string }> {
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done) => child.on("exit", (code, signal) => done({ code, signal, output })));
}

async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const lockPid = (out: string): number => (JSON.parse(readFileSync(join(out, "study.lock"), "utf8")) as { pid: number }).pid;

describe("npm run study and signals", () => {
  it("SIGTERM to npm stops the study: exit 130, no process left, folder resumable", async () => {
    let hang = true;
    const server = await startChatServer(() => (hang ? { hang: true } : { json: chatCompletion({ content: "done", finishReason: "stop" }) }));
    servers.push(server);
    const { root, file, out } = world(server.baseUrl);
    const npm = spawn("npm", ["run", "--silent", "study", "--", file, "--out", out], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: root },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const done = exited(npm);
    // A run is in flight: its request reached the (silent) server.
    await waitFor(() => server.requests.length > 0 && existsSync(join(out, "study.lock")), 120_000, "the first model request");
    const studyPid = lockPid(out);
    expect([studyPid !== npm.pid, pidAlive(studyPid)]).toEqual([true, true]);

    npm.kill("SIGTERM");
    const ended = await done;
    expect({ code: ended.code, interrupted: ended.output.includes("interrupted; finish with:") }).toEqual({ code: 130, interrupted: true });
    await waitFor(() => !pidAlive(studyPid), 10_000, "the study process to be gone");
    expect([existsSync(join(out, "study.lock")), existsSync(join(out, "runs/ordinary/run-1/result.json"))]).toEqual([false, false]);

    // Resumable: with the provider answering, --resume finishes both runs.
    hang = false;
    // (from the same folder npm ran it in: the study file is named relative to it)
    const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH ?? "" } });
    expect([await main(["study", file, "--out", out, "--resume"], io), io.err.join("")]).toEqual([0, ""]);
    expect([1, 2].map((i) => existsSync(join(out, `runs/ordinary/run-${i}/result.json`)))).toEqual([true, true]);
  }, 180_000);

  it("one Ctrl-C (SIGINT to the whole group) acts once: the study stops cleanly with a report", async () => {
    const server = await startChatServer(() => ({ hang: true }));
    servers.push(server);
    const { root, file, out } = world(server.baseUrl);
    // Its own process group, as a terminal's foreground job: the signal reaches npm and the study both.
    const npm = spawn("npm", ["run", "--silent", "study", "--", file, "--out", out], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: root },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const done = exited(npm);
    await waitFor(() => server.requests.length > 0 && existsSync(join(out, "study.lock")), 120_000, "the first model request");
    const studyPid = lockPid(out);
    process.kill(-(npm.pid as number), "SIGINT");
    const ended = await done;
    // With tsx between npm and the study, the group's SIGINT and tsx's relay of it arrived twice and
    // the second exited at once: no resume hint and no report.
    expect({ code: ended.code, interrupted: ended.output.includes("interrupted; finish with:"), report: existsSync(join(out, "report.md")) }).toEqual({
      code: 130,
      interrupted: true,
      report: true,
    });
    await waitFor(() => !pidAlive(studyPid), 10_000, "the study process to be gone");
  }, 180_000);

  it("refuses a second study on a folder a live study holds, and takes over a dead one's lock", async () => {
    const server = await startChatServer(() => ({ json: chatCompletion({ content: "done", finishReason: "stop" }) }));
    servers.push(server);
    const { root, file, out } = world(server.baseUrl);
    const io = () => memoryIO({ cwd: root, env: { PATH: process.env.PATH ?? "" } });
    mkdirSync(out);
    // A live holder: this test's parent process (alive, and not us).
    writeFileSync(join(out, "study.lock"), JSON.stringify({ pid: process.ppid, startedAt: "2026-01-01T00:00:00.000Z" }));
    const held = io();
    expect(await main(["study", file, "--out", out], held)).toEqual(2);
    expect(held.err.join("")).toEqual(`armstudy study: out is being written by another armstudy study (pid ${process.ppid}). Wait for it to finish, stop it, or choose another --out.\n`);
    expect(existsSync(join(out, "study.json"))).toEqual(false);
    // A dead holder (a pid that exited): its lock is stale and taken over.
    const gone = spawn(process.execPath, ["-e", ""]);
    await exited(gone);
    writeFileSync(join(out, "study.lock"), JSON.stringify({ pid: gone.pid, startedAt: "2026-01-01T00:00:00.000Z" }));
    expect(await main(["study", file, "--out", out], io())).toEqual(0);
    expect(existsSync(join(out, "study.lock"))).toEqual(false);
  }, 120_000);
});
