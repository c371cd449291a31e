/**
 * What a command inside the sandbox can still do: name its user, commit in its own clone, read a
 * folder armstudy bound for it (also through a symbolic link, at its real place too), and write
 * only where it was given. Real bubblewrap, real commands.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxCommand } from "../../src/run/sandbox/command.ts";
import { probeSandbox } from "../../src/run/sandbox/probe.ts";

const sandbox = probeSandbox({ env: process.env });
const temp = mkdtempSync(join(tmpdir(), "armstudy-sandbox-command-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function run(dir: string, command: string, extra: { readable?: string[]; env?: Record<string, string> } = {}): { status: number | null; out: string } {
  const wrapped = sandboxCommand(sandbox, { argv: ["bash", "-c", command], dir, network: "none", ...extra }, { PATH: process.env.PATH, LANG: "C.UTF-8" });
  const result = spawnSync(wrapped.file, wrapped.args, { env: wrapped.env, encoding: "utf8", timeout: 30_000 });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe.skipIf(sandbox.kind !== "bwrap")("inside the sandbox", () => {
  it("the user has a name and git a default identity, so a commit works", () => {
    const dir = mkdtempSync(join(temp, "work-"));
    const result = run(dir, "git init -q . && echo x > a && git add a && git commit -qm one && git log --format='%an <%ae>' && whoami");
    expect(result).toEqual({ status: 0, out: "agent <agent@armstudy.invalid>\nagent\n" });
  });

  it("reads a bound folder, also through a link to it, and writes nowhere but the work directory", () => {
    const dir = mkdtempSync(join(temp, "work-"));
    const real = join(temp, "install");
    mkdirSync(real);
    writeFileSync(join(real, "tool.txt"), "installed\n");
    const link = join(temp, "install-link");
    symlinkSync(real, link);
    const result = run(dir, `cat ${link}/tool.txt ${real}/tool.txt; touch ${real}/new 2>/dev/null || echo read-only; echo "$EXTRA"`, { readable: [link], env: { EXTRA: "given" } });
    expect(result).toEqual({ status: 0, out: "installed\ninstalled\nread-only\ngiven\n" });
  });
});
