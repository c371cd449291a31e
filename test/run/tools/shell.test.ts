import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
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

/** True while `pid` is a live (not zombie) process. */
async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Field 3 is the state; a zombie (Z) or dead (X) process holds no resources.
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return stat !== "" && state !== "Z" && state !== "X";
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
      command: "sleep 30 & echo $! > child.pid; (sleep 31 & echo $! > grandchild.pid; wait) & echo started; sleep 30",
      timeout_seconds: 0.5,
    });
    expect(outcome).toEqual({
      ok: false,
      output: "timed out after 0.5 s; the command and its child processes were killed\nstarted\n",
      exitCode: null,
      isCommand: true,
    });
    const child = Number(await readFile(path.join(dir, "child.pid"), "utf8"));
    const grandchild = Number(await readFile(path.join(dir, "grandchild.pid"), "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([await alive(child), await alive(grandchild)]).toEqual([false, false]);
  });

  it("ends background processes a command leaves behind when it returns", async () => {
    const started = Date.now();
    const outcome = await shell({ command: "sleep 30 & echo $! > bg.pid; echo done" });
    expect(outcome).toEqual({ ok: true, output: "exit code: 0\ndone\n", exitCode: 0, isCommand: true });
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number(await readFile(path.join(dir, "bg.pid"), "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await alive(pid)).toBe(false);
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

  it("drops credentials from the environment a command sees", async () => {
    const env = { PATH: process.env.PATH, OPENAI_API_KEY: "sk-1", GITHUB_TOKEN: "gh", AWS_SECRET_ACCESS_KEY: "aws", HOME_DIR: "/h", LANG: "C" };
    const outcome = await shell({ command: "env | grep -E '^(OPENAI|GITHUB|AWS|HOME_DIR|LANG|PAGER)' | sort" }, { env });
    expect(outcome.output).toBe("exit code: 0\nHOME_DIR=/h\nLANG=C\nPAGER=cat\n");
  });

  it("reports bad arguments by field", async () => {
    expect(await shell({ command: 42 })).toEqual({
      ok: false,
      output: "shell: bad arguments — `command`: Invalid input: expected string, received number",
    });
  });
});
