/**
 * Which limits a run gets (ADR 0114): a cgroup of its own where one can be made, else per-process
 * rlimits — and the record says which, with why. The fallback is seen for real: `armstudy run`
 * started as an ordinary user, who may not make cgroups, on a folder of its own.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeGroups, probeGroupsUncached, withRunGroup } from "../../src/run/sandbox/cgroup.ts";
import { probeSandbox } from "../../src/run/sandbox/probe.ts";
import { describeSandbox, DEFAULT_SANDBOX_LIMITS, type RunSandbox } from "../../src/run/sandbox/types.ts";
import { fixtureRepo, ROOT } from "../run/scripted-support.ts";

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tables(mounts: string): { mounts: string; self: string } {
  const dir = mkdtempSync(join(tmpdir(), "armstudy-cgroup-tables-"));
  temps.push(dir);
  writeFileSync(join(dir, "mounts"), mounts);
  writeFileSync(join(dir, "cgroup"), "4:memory:/\n8:pids:/\n2:cpuacct:/\n");
  return { mounts: join(dir, "mounts"), self: join(dir, "cgroup") };
}

describe("the cgroup probe", () => {
  it("falls back to per-process limits, saying why, where no controller is mounted or no group can be made", () => {
    const none = probeGroupsUncached(tables("proc /proc proc rw 0 0\n"));
    const missing = probeGroupsUncached(tables("cgroup /nonexistent/memory cgroup rw,memory 0 0\ncgroup /nonexistent/pids cgroup rw,pids 0 0\ncgroup /nonexistent/cpuacct cgroup rw,cpuacct 0 0\n"));
    expect([none, missing]).toEqual([
      { kind: "ulimit", reason: "no cgroup v1 memory controller is mounted" },
      { kind: "ulimit", reason: "cannot make a cgroup under /nonexistent/memory (ENOENT)" },
    ]);
    const sandbox = probeSandbox({ env: process.env });
    if (sandbox.kind !== "bwrap") throw new Error(`no sandbox here: ${sandbox.reason}`);
    const run: RunSandbox = { sandbox: { ...sandbox, groups: missing }, network: "none", readable: [] };
    const grouped = withRunGroup(run);
    expect({ group: grouped.run.group, note: describeSandbox(grouped.run) }).toEqual({
      group: undefined,
      note: { kind: "bwrap", version: sandbox.version, network: "none", limits: DEFAULT_SANDBOX_LIMITS, limitsKind: "ulimit", limitsReason: "cannot make a cgroup under /nonexistent/memory (ENOENT)" },
    });
  });

  it.runIf(process.getuid?.() === 0)("as root on this machine makes a group per run, with the caps written, and removes it", () => {
    const support = probeGroups();
    if (support.kind !== "cgroup") throw new Error(`no cgroup here: ${support.reason}`);
    const sandbox = probeSandbox({ env: process.env });
    if (sandbox.kind !== "bwrap") throw new Error(`no sandbox here: ${sandbox.reason}`);
    const grouped = withRunGroup({ sandbox, network: "none", readable: [] });
    const files = grouped.run.group?.joinFiles ?? [];
    const dirs = files.map((file) => file.slice(0, -"/cgroup.procs".length));
    const caps = [readFileSync(join(dirs[0] ?? "", "memory.limit_in_bytes"), "utf8").trim(), readFileSync(join(dirs[1] ?? "", "pids.max"), "utf8").trim()];
    const note = describeSandbox(grouped.run).limitsKind;
    grouped.close();
    expect({ controllers: files.length, caps, note, removed: dirs.map((dir) => existsSync(dir)) }).toEqual({
      controllers: 3,
      caps: [String(DEFAULT_SANDBOX_LIMITS.memoryBytes), String(DEFAULT_SANDBOX_LIMITS.processes)],
      note: "cgroup",
      removed: [false, false, false],
    });
  });
});

describe.runIf(process.getuid?.() === 0)("armstudy run as an ordinary user", () => {
  it("has per-process limits, and run.start says so with the reason", async () => {
    const repo = await fixtureRepo();
    temps.push(repo.dir);
    const home = mkdtempSync(join(tmpdir(), "armstudy-user-home-"));
    temps.push(home);
    execFileSync("chown", ["-R", "1000:1000", repo.dir, home]);
    const run = spawnSync(
      "setpriv",
      ["--reuid=1000", "--regid=1000", "--clear-groups", process.execPath, join(ROOT, "bin", "armstudy.js"), "run", "--arm", "ordinary", "--model", "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml", "--dir", repo.dir, "--handoff", "fixtures/tasks/stockbook/handoff.md"],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: home, TMPDIR: home }, encoding: "utf8", timeout: 120_000 },
    );
    const start = JSON.parse(run.stdout.split("\n")[0] ?? "{}") as { type?: string; sandbox?: { kind?: string; limitsKind?: string; limitsReason?: string } };
    expect({ status: run.status, type: start.type, kind: start.sandbox?.kind, limits: start.sandbox?.limitsKind, reason: /^cannot make a cgroup under \/sys\/fs\/cgroup\/memory.* \(EACCES\)$/.test(start.sandbox?.limitsReason ?? "") }).toEqual({
      status: 0,
      type: "run.start",
      kind: "bwrap",
      limits: "ulimit",
      reason: true,
    });
  });
});
