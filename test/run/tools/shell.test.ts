import { mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolbox, type ToolContext } from "../../../src/run/tools/index.ts";

let dir: string;
const tools = createToolbox();

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-shell-")));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function shell(args: Record<string, unknown>, extra: Partial<ToolContext> = {}) {
  return tools.run({ id: "s1", name: "shell", arguments: args }, { dir, env: { PATH: process.env.PATH }, ...extra });
}

/**
 * Live (not zombie) host processes whose command line contains `marker`. The command's own pids
 * are its sandbox's (a private PID namespace), so the host's /proc is searched by command line.
 */
async function running(marker: string): Promise<number> {
  let count = 0;
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "");
    if (!cmdline.split("\0").includes(marker)) continue;
    const stat = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    // Field 3 is the state; a zombie (Z) or dead (X) process holds no resources.
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    if (stat !== "" && state !== "Z" && state !== "X") count += 1;
  }
  return count;
}

describe("shell", () => {
  it("runs in the work directory and reports the exit code with the output", async () => {
    expect(await shell({ command: "pwd; echo err >&2; exit 3" })).toEqual({
      ok: false,
      output: `exit code: 3\n${dir}\nerr\n`,
      exitCode: 3,
      isCommand: true,
    });
    expect(await shell({ command: "true" })).toEqual({ ok: true, output: "exit code: 0\n(no output)", exitCode: 0, isCommand: true });
  });

  it("kills the whole process group on timeout, leaving no child behind", async () => {
    const outcome = await shell({
      command: "sleep 3011 & (sleep 3012 & wait) & echo started; sleep 30",
      timeout_seconds: 0.5,
    });
    expect(outcome).toEqual({
      ok: false,
      output: "timed out after 0.5 s; the command and its child processes were killed\nstarted\n",
      exitCode: null,
      isCommand: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([await running("3011"), await running("3012")]).toEqual([0, 0]);
  });

  it("ends background processes a command leaves behind when it returns", async () => {
    const started = Date.now();
    const outcome = await shell({ command: "sleep 3021 & setsid sleep 3022 & (set -m; sleep 3023 &) ; echo done" });
    expect(outcome).toEqual({ ok: true, output: "exit code: 0\ndone\n", exitCode: 0, isCommand: true });
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([await running("3021"), await running("3022"), await running("3023")]).toEqual([0, 0, 0]);
  });

  it("kills the group when the run is aborted", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const outcome = await shell({ command: "echo go; sleep 30" }, { signal: controller.signal });
    expect(outcome).toEqual({
      ok: false,
      output: "stopped: the run was aborted; the command and its child processes were killed\ngo\n",
      exitCode: null,
      isCommand: true,
    });
  });

  it("caps long output, keeping the head and tail and marking the cut", async () => {
    const outcome = await shell({ command: "for i in $(seq 1 2000); do echo line-$i; done" }, { outputLimit: 100 });
    expect(outcome.output).toBe(
      "exit code: 0\nline-1\nline-2\nline-3\nline-4\nline-5\nline-6\nline-7\nl\n[… 18793 characters elided …]\nline-1996\nline-1997\nline-1998\nline-1999\nline-2000\n",
    );
  });

  it("gives a command only the allow-listed environment, never the run's own", async () => {
    const env = { PATH: process.env.PATH, OPENAI_API_KEY: "sk-1", GITHUB_TOKEN: "gh", DATABASE_URL: "postgres://u:pw@db/x", HOME_DIR: "/h", LANG: "C" };
    const outcome = await shell({ command: "env | grep -E '^(OPENAI|GITHUB|DATABASE|HOME_DIR|LANG|PAGER)' | sort" }, { env });
    expect(outcome.output).toBe("exit code: 0\nLANG=C\nPAGER=cat\n");
  });

  it("reports bad arguments by field", async () => {
    expect(await shell({ command: 42 })).toEqual({
      ok: false,
      output: "shell: bad arguments — `command`: Invalid input: expected string, received number",
    });
  });
});
