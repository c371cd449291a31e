/**
 * `armstudy run --dir` as root: the sandbox hands the folder to a user of its own for the run, and
 * gives it back when the run ends — to a normal user's folder and to root's, the agent's new files
 * included, an entry with an owner of its own kept so. Real repositories, the real sandbox, git
 * run as the folder's owner afterwards (a folder left to the sandbox user gives "dubious ownership").
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { readRecordFile } from "../../src/run/record-reader.ts";
import { recordOwnership, restoreOwnership } from "../../src/run/sandbox/owner.ts";
import { fixtureRepo, ROOT } from "../run/scripted-support.ts";
import { chatCompletion, startChatServer, wireError } from "../support/chat-server.ts";

const root = process.getuid?.() === 0;
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Every entry under `dir` with an owner other than `uid:gid`, as `path uid:gid` (`.git` included). */
function otherOwners(dir: string, uid: number, gid: number): string[] {
  const found: string[] = [];
  const folders = [dir];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const info = lstatSync(path);
      if (info.uid !== uid || info.gid !== gid) found.push(`${path.slice(dir.length + 1)} ${info.uid}:${info.gid}`);
      if (info.isDirectory()) folders.push(path);
    }
  }
  return found.sort();
}

function chownAll(dir: string, uid: number): void {
  execFileSync("chown", ["-R", `${uid}:${uid}`, dir]);
}

describe.runIf(root)("armstudy run --dir as root gives the folder back to its owners", () => {
  it.each([
    ["a normal user's folder", 1000],
    ["root's folder", 0],
  ])("%s: same owners after the run, the agent's files included, and git status works as that owner", async (_label, owner) => {
    const repo = await fixtureRepo();
    temps.push(repo.dir);
    const outDir = mkdtempSync(join(tmpdir(), "armstudy-owner-out-"));
    temps.push(outDir);
    chownAll(repo.dir, owner);
    // One entry with an owner of its own: it keeps it.
    writeFileSync(join(repo.dir, "someone-else.txt"), "not the folder owner's\n");
    chownSync(join(repo.dir, "someone-else.txt"), 1001, 1001);
    const out = join(outDir, "run.jsonl");
    const cli = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
    const code = await main(
      ["run", "--arm", "ordinary", "--model", "scripted:fixtures/tasks/stockbook/personas/diligent.yaml", "--dir", repo.dir, "--handoff", "fixtures/tasks/stockbook/handoff.md", "--out", out],
      cli,
    );
    const { events } = await readRecordFile(out);
    const shellCalls = events.filter((event) => event.type === "tool.call" && event.name === "shell").length;
    const start = events[0];
    const status = spawnSync("setpriv", [`--reuid=${owner}`, `--regid=${owner}`, "--clear-groups", "git", "status", "--porcelain"], {
      cwd: repo.dir,
      env: { PATH: process.env.PATH, HOME: repo.dir, GIT_CONFIG_NOSYSTEM: "1" },
      encoding: "utf8",
    });
    expect({
      code,
      ranInSandbox: start?.type === "run.start" ? [start.sandbox?.kind, start.sandbox?.limitsKind] : null,
      shellCalls: shellCalls > 0,
      top: [lstatSync(repo.dir).uid, lstatSync(repo.dir).gid],
      others: otherOwners(repo.dir, owner, owner),
      git: [status.status, status.stderr, status.stdout.includes("someone-else.txt")],
    }).toEqual({
      code: 0,
      ranInSandbox: ["bwrap", "cgroup"],
      shellCalls: true,
      top: [owner, owner],
      others: ["someone-else.txt 1001:1001"],
      git: [0, "", true],
    });
  });

  it("gives the folder back when the run ends in a fault too (a model on loopback that makes a file with a shell call, then answers 400)", async () => {
    const server = await startChatServer((request, index) =>
      index === 0
        ? { json: chatCompletion({ toolCalls: [{ id: "call_1", name: "shell", arguments: { command: "mkdir -p made && touch made/by-agent.txt" } }], usage: { prompt: 10, completion: 5 } }) }
        : { status: 400, json: wireError("bad request on purpose") },
    );
    const repo = await fixtureRepo();
    temps.push(repo.dir);
    chownAll(repo.dir, 1000);
    try {
      const cli = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
      const code = await main(["run", "--arm", "ordinary", "--model", `openai-compatible:m@${server.baseUrl}`, "--dir", repo.dir, "--handoff", "fixtures/tasks/stockbook/handoff.md"], cli);
      const end = cli.out.join("").trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; status?: string }).at(-1);
      expect({ code: code !== 0, status: end?.status, made: lstatSync(join(repo.dir, "made", "by-agent.txt")).uid, others: otherOwners(repo.dir, 1000, 1000) }).toEqual({
        code: true,
        status: "error",
        made: 1000,
        others: [],
      });
    } finally {
      await server.close();
    }
  });
});

describe.runIf(root)("recordOwnership / restoreOwnership on a wide, deep tree", () => {
  it("gives 10,000 entries back, deep folders included, and keeps the ones with an owner of their own", () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-owner-tree-"));
    temps.push(dir);
    for (let a = 0; a < 20; a += 1) {
      const folder = join(dir, `pkg-${a}`, "lib");
      mkdirSync(folder, { recursive: true });
      for (let b = 0; b < 500; b += 1) writeFileSync(join(folder, `f${b}.js`), "");
    }
    let deep = dir;
    for (let level = 0; level < 600; level += 1) deep = join(deep, "d");
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, "bottom.txt"), "");
    chownAll(dir, 1000);
    chownSync(join(dir, "pkg-3", "lib", "f7.js"), 1002, 1003);
    const owned = recordOwnership(dir);
    // What the sandbox does to it during a run, and a file the agent makes.
    chownAll(dir, 345678);
    writeFileSync(join(deep, "new.txt"), "");
    chownSync(join(deep, "new.txt"), 345678, 345678);
    restoreOwnership(owned);
    expect({ others: otherOwners(dir, 1000, 1000), kept: owned.others.size }).toEqual({ others: ["pkg-3/lib/f7.js 1002:1003"], kept: 1 });
  });
});
