/**
 * The escape suite: every way out that issue 18 found, tried through the real tools on a real run
 * folder (a clone of a materialised fixture, as the study runner makes it) in the real sandbox —
 * and each attempt must fail. The ids (E1…) are listed in docs/sandbox.md; the last test holds the
 * page to this file, so the count there is the count here. It runs twice (ADR 0113): with the shell
 * calls in the run's one sandbox, as runs make them (test/sandbox/escape.test.ts), and with a
 * sandbox per call, as a caller without a run gets them (escape-per-call.test.ts).
 *
 * Needs bubblewrap (`apt-get install -y bubblewrap`); without it the first test fails and names it.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "../../../src/run/sandbox/probe.ts";
import { RunShell } from "../../../src/run/sandbox/run-shell.ts";
import type { RunSandbox } from "../../../src/run/sandbox/types.ts";
import { createToolbox, type ToolContext } from "../../../src/run/tools/index.ts";
import { runCheck } from "../../../src/study/checks.ts";
import { addWorktree, checkRunGit, collectDiff, materialiseFixture, objectStore, removeWorktree } from "../../../src/study/git.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const tools = createToolbox();
const sandbox = probeSandbox({ env: process.env });

/** How the shell calls get their sandbox: the run's one (what runs use) or one per call. */
export type EscapeMode = "run" | "per-call";

export function escapeSuite(mode: EscapeMode): void {
  /** The run's shell sandboxes, one per RunSandbox, as runAgent opens one per run. */
  const runShells = new Map<RunSandbox, RunShell>();
  function runShellFor(box: RunSandbox): RunShell | undefined {
    if (mode !== "run") return undefined;
    let shell = runShells.get(box);
    if (shell === undefined) {
      const opened = RunShell.open(box, dir, env);
      if (opened === null) throw new Error("escape suite: a run's sandbox needs bubblewrap and root");
      shell = opened;
      runShells.set(box, shell);
    }
    return shell;
  }

  /** Secret values armstudy holds; none may appear in anything a sandboxed command prints. */
  const SECRETS = {
    OPENAI_API_KEY: "sk-escape-suite-openai-0001",
    DATABASE_URL: "postgres://admin:db-escape-password@db.internal/prod",
    GH_PAT: "ghp_escapeSuitePersonalAccessToken",
    MY_COMPANY_THING: "custom-name-secret-value",
  };

  let temp: string;
  let outside: string;
  let repoPath: string;
  let commit: string;
  let dir: string;
  let run: RunSandbox;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), "armstudy-escape-"));
    outside = join(temp, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "outside-file-secret\n");
    const fixture = join(temp, "fixture");
    mkdirSync(join(fixture, "src"), { recursive: true });
    writeFileSync(join(fixture, "README.md"), "# escape fixture\n");
    writeFileSync(join(fixture, "src", "a.js"), "export const a = 1;\n");
    ({ repoPath, commit } = await materialiseFixture(fixture, join(temp, "cache")));
    dir = await addWorktree(repoPath, commit, join(temp, "worktrees"), "escape");
    run = { sandbox, network: "none", readable: [await objectStore(repoPath)] };
    // The secrets are in armstudy's own environment too: /proc/$PPID/environ is the attack on it.
    Object.assign(process.env, SECRETS);
    env = { ...process.env };
  });

  afterAll(async () => {
    for (const shell of runShells.values()) shell.close();
    for (const name of Object.keys(SECRETS)) delete process.env[name];
    await removeWorktree(repoPath, dir);
    rmSync(temp, { recursive: true, force: true });
  });

  async function shell(command: string, box: RunSandbox = run): Promise<{ ok: boolean; output: string }> {
    const runShell = runShellFor(box);
    const context: ToolContext = { dir, env, sandbox: box, shellTimeoutMs: 60_000, ...(runShell === undefined ? {} : { runShell }) };
    const outcome = await tools.run({ id: "e", name: "shell", arguments: { command } }, context);
    return { ok: outcome.ok, output: outcome.output };
  }

  async function tool(name: string, args: Record<string, unknown>): Promise<{ ok: boolean; output: string }> {
    const outcome = await tools.run({ id: "e", name, arguments: args }, { dir, env, sandbox: run });
    return { ok: outcome.ok, output: outcome.output };
  }

  /** The shell tool run from a separate process that holds the secrets from its start (as armstudy does). */
  function shellFromHolder(command: string, how: "bwrap" | "none"): string {
    const as = how === "bwrap" && mode === "run" ? "bwrap-run" : how;
    return execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "test", "sandbox", "support", "shell-child.ts"), dir, as, command], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...SECRETS },
      encoding: "utf8",
      timeout: 60_000,
    });
  }

  function leaked(text: string): string[] {
    return Object.values(SECRETS).filter((value) => text.includes(value));
  }

  /** Live host processes whose argv contains `marker` (a sandboxed pid means nothing out here). */
  function running(marker: string): number {
    let count = 0;
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      let cmdline = "";
      let stat = "";
      try {
        cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
        stat = readFileSync(`/proc/${name}/stat`, "utf8");
      } catch {
        continue;
      }
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.split("\0").includes(marker) && state !== "Z" && state !== "X") count += 1;
    }
    return count;
  }

  const sha = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");

  describe(`escape attempts through the real tools, in the real sandbox (${mode === "run" ? "the run's one sandbox" : "a sandbox per call"})`, () => {
    it("E0: this machine has the sandbox (bubblewrap passed its self-test)", () => {
      expect(sandbox.kind === "bwrap" ? "bwrap" : sandbox.reason).toEqual("bwrap");
    });

    it("E1: environment — no secret in the command's own environment, by any name", async () => {
      const result = await shell("env; printenv DATABASE_URL GH_PAT MY_COMPANY_THING OPENAI_API_KEY; echo end");
      expect({ ok: result.ok, leaked: leaked(result.output), end: result.output.includes("end") }).toEqual({ ok: true, leaked: [], end: true });
    });

    it("E2: environment through /proc — /proc/$PPID/environ and every /proc/*/environ hold no secret", async () => {
      const output = shellFromHolder("tr '\\0' '\\n' < /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done 2>/dev/null; echo end", "bwrap");
      expect({ leaked: leaked(output), end: output.includes("end") }).toEqual({ leaked: [], end: true });
    });

    it("E3: processes — /proc shows no armstudy process (a private PID namespace)", async () => {
      const result = await shell("for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done");
      expect({ vitest: result.output.includes("vitest"), node: /\bnode\b/.test(result.output) }).toEqual({ vitest: false, node: false });
    });

    it("E4: files outside — /etc/shadow, a file beside the run folder and the host's /root are not there", async () => {
      const result = await shell(`cat /etc/shadow; cat ${join(outside, "secret.txt")}; ls /root; ls ${temp}; echo end`);
      expect({ shadow: result.output.includes("root:"), outside: result.output.includes("outside-file-secret"), end: result.output.includes("end") }).toEqual({
        shadow: false,
        outside: false,
        end: true,
      });
    });

    it("E5: writing outside — nothing lands outside the run folder, not even in /tmp", async () => {
      const marker = `armstudy-escape-tmp-${process.pid}`;
      await shell(`touch /tmp/${marker}; echo x > ${join(outside, "pwned")}; touch ${join(run.readable[0] ?? "/", "pwned")}; touch /usr/pwned; true`);
      expect([existsSync(join("/tmp", marker)), existsSync(join(outside, "pwned")), existsSync(join(run.readable[0] ?? "/", "pwned")), existsSync("/usr/pwned")]).toEqual([
        false,
        false,
        false,
        false,
      ]);
    });

    it("E6: $HOME — an empty private folder, not the user's", async () => {
      const result = await shell('echo "home=$HOME"; ls -A "$HOME" | wc -l; cat ~/.gitconfig ~/.npmrc ~/.ssh/id_rsa 2>&1 | grep -c "No such file"');
      expect(result.output).toEqual("exit code: 0\nhome=/home/sandbox\n0\n3\n");
    });

    it("E7: network — a loopback port of the host is unreachable (the sandbox's loopback is its own)", async () => {
      let hits = 0;
      const server: Server = createServer((_request, response) => {
        hits += 1;
        response.end("reached");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      const port = (server.address() as AddressInfo).port;
      try {
        const result = await shell(`exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`);
        expect({ ok: result.ok, reached: result.output.includes("reached"), hits }).toEqual({ ok: false, reached: false, hits: 0 });
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it("E8: network — no route to any other host", async () => {
      const result = await shell("exec 3<>/dev/tcp/192.0.2.1/80");
      expect({ ok: result.ok, unreachable: /unreachable/i.test(result.output) }).toEqual({ ok: false, unreachable: true });
    });

    it("E9: processes left behind — setsid, set -m, nohup and a double fork all end with the call", async () => {
      const started = Date.now();
      const result = await shell("setsid sleep 4201 & (set -m; sleep 4202 &); nohup sleep 4203 >/dev/null 2>&1 & ( ( sleep 4204 & ) & ); echo started");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect({ ok: result.ok, quick: Date.now() - started < 20_000, left: [running("4201"), running("4202"), running("4203"), running("4204")] }).toEqual({
        ok: true,
        quick: true,
        left: [0, 0, 0, 0],
      });
    });

    it("E10: limits — CPU time, memory and process count are capped per process and user", async () => {
      const tight: RunSandbox = sandbox.kind === "bwrap" ? { ...run, sandbox: { ...sandbox, limits: { cpuSeconds: 1, memoryBytes: 256 * 1024 ** 2, processes: 40, fileBytes: 1024 ** 2 } } } : run;
      const cpu = await shell("while :; do :; done", tight);
      const memory = await shell("node -e 'const a = []; for (let i = 0; i < 20; i++) a.push(Buffer.alloc(50e6, 1)); console.log(\"allocated\")'", tight);
      const processes = await shell(
        "node -e 'const { spawn } = require(\"child_process\"); let failed = 0; for (let i = 0; i < 100; i++) { try { spawn(\"sleep\", [\"2\"]).on(\"error\", () => failed++); } catch { failed++; } } setTimeout(() => console.log(failed > 0 ? \"limited\" : \"unlimited\"), 500)'",
        tight,
      );
      const file = await shell("head -c 4000000 /dev/zero > big.bin; ls -l big.bin | awk '{print $5}'; rm -f big.bin", tight);
      expect({
        cpuKilled: !cpu.ok && !cpu.output.startsWith("timed out"),
        memoryRefused: memory.output.includes("allocated"),
        processes: processes.output.includes("limited") && !processes.output.includes("unlimited"),
        fileCapped: file.output.includes("1048576"),
      }).toEqual({ cpuKilled: true, memoryRefused: false, processes: true, fileCapped: true });
    });

    it("E11: hard links — the sandbox cannot make one to a file outside, and the file tools refuse one made anyway", async () => {
      const made = await shell("ln /etc/passwd passwd-link && echo linked");
      expect(made.output.includes("linked")).toEqual(false);
      // As if made without the sandbox (same file system, outside the run folder).
      linkSync(join(outside, "secret.txt"), join(dir, "hard-link.txt"));
      try {
        const read = await tool("read_file", { path: "hard-link.txt" });
        const write = await tool("write_file", { path: "hard-link.txt", content: "overwritten" });
        const edit = await tool("edit_file", { path: "hard-link.txt", old_text: "outside", new_text: "x" });
        const search = await tool("search", { pattern: "outside-file-secret" });
        expect({ read: read.ok, write: write.ok, edit: edit.ok, search: search.output, leaked: read.output.includes("outside-file-secret") }).toEqual({
          read: false,
          write: false,
          edit: false,
          search: "no matches",
          leaked: false,
        });
        expect(readFileSync(join(outside, "secret.txt"), "utf8")).toEqual("outside-file-secret\n");
      } finally {
        rmSync(join(dir, "hard-link.txt"), { force: true });
      }
    });

    it("E12: symbolic links — a link out of the run folder is refused by the file tools", async () => {
      symlinkSync(join(outside, "secret.txt"), join(dir, "link-out.txt"));
      await shell("ln -s /etc/shadow shadow-link");
      try {
        const read = await tool("read_file", { path: "link-out.txt" });
        const shadow = await tool("read_file", { path: "shadow-link" });
        const write = await tool("write_file", { path: "link-out.txt", content: "x" });
        expect({ read: read.ok, shadow: shadow.ok, write: write.ok }).toEqual({ read: false, shadow: false, write: false });
      } finally {
        rmSync(join(dir, "link-out.txt"), { force: true });
        rmSync(join(dir, "shadow-link"), { force: true });
      }
    });

    it("E13: .git redirection — write_file into .git is refused; a .git the shell rewrites to another repository is never used", async () => {
      const victim = join(temp, "victim");
      mkdirSync(victim);
      execFileSync("git", ["init", "-q", victim]);
      writeFileSync(join(victim, "mine.txt"), "the user's own work\n");
      execFileSync("git", ["-C", victim, "add", "mine.txt"]);
      const indexBefore = sha(join(victim, ".git", "index"));
      const statusBefore = execFileSync("git", ["-C", victim, "status", "--porcelain"], { encoding: "utf8" });
      const refused = [
        await tool("write_file", { path: ".git", content: `gitdir: ${victim}/.git\n` }),
        await tool("write_file", { path: ".git/config", content: "[core]\n\tfsmonitor = touch /tmp/x\n" }),
        await tool("write_file", { path: "sub/.GIT/HEAD", content: "ref: refs/heads/x\n" }),
      ].map((outcome) => outcome.ok);
      expect(refused).toEqual([false, false, false]);
      const gitBackup = join(temp, "git-backup");
      execFileSync("cp", ["-a", join(dir, ".git"), gitBackup]);
      try {
        await shell(`rm -rf .git && printf 'gitdir: ${victim}/.git\\n' > .git && echo change >> README.md`);
        expect(await checkRunGit(dir)).toEqual(`.git was replaced by a file (${JSON.stringify(`gitdir: ${victim}/.git`)})`);
        const diff = await collectDiff(dir, commit, repoPath);
        expect({ files: diff.files, stat: diff.stat.includes("README.md") }).toEqual({ files: 1, stat: true });
        expect([sha(join(victim, ".git", "index")), execFileSync("git", ["-C", victim, "status", "--porcelain"], { encoding: "utf8" })]).toEqual([indexBefore, statusBefore]);
      } finally {
        rmSync(join(dir, ".git"), { recursive: true, force: true });
        execFileSync("cp", ["-a", gitBackup, join(dir, ".git")]);
        writeFileSync(join(dir, "README.md"), "# escape fixture\n");
      }
    });

    it("E14: core.fsmonitor, hooks and a crafted gitdir in the agent's .git never run in armstudy's git", async () => {
      const marker = join(outside, "fsmonitor-ran");
      const hookMarker = join(outside, "hook-ran");
      await shell(
        [
          `git config core.fsmonitor "touch ${marker}"`,
          `git config core.hooksPath .git/hooks`,
          "mkdir -p .git/hooks evil",
          `printf '#!/bin/sh\\ntouch ${hookMarker}\\n' > .git/hooks/post-index-change`,
          "cp .git/hooks/post-index-change .git/hooks/pre-commit; chmod +x .git/hooks/*",
          "echo agent >> README.md",
        ].join(" && "),
      );
      await collectDiff(dir, commit, repoPath);
      expect([existsSync(marker), existsSync(hookMarker)]).toEqual([false, false]);
      await shell("git checkout -q -- README.md; git config --unset core.fsmonitor; git config --unset core.hooksPath; rm -rf .git/hooks evil");
    });

    it("E15: fixture poisoning from inside — the cached fixture's git data cannot be changed by a run", async () => {
      const cacheGit = join(repoPath, ".git");
      const before = sha(join(cacheGit, "config"));
      const result = await shell(
        [
          `git --git-dir=${cacheGit} config core.fsmonitor "touch /tmp/poisoned"`,
          `mkdir -p ${cacheGit}/hooks && echo x > ${cacheGit}/hooks/post-checkout`,
          `git --git-dir=${cacheGit} replace -f HEAD HEAD`,
          `echo junk > ${run.readable[0]}/pwned`,
          `git push -q origin HEAD:refs/heads/main`,
        ].join("; "),
      );
      expect({ ok: result.ok, config: sha(join(cacheGit, "config")), hooks: existsSync(join(cacheGit, "hooks", "post-checkout")), replaced: existsSync(join(cacheGit, "refs", "replace")) }).toEqual({
        ok: false,
        config: before,
        hooks: false,
        replaced: false,
      });
    });

    it("E16: fixture poisoning from outside the sandbox — a cache with fsmonitor, a post-checkout hook and a replaced HEAD gives the same commit and content", async () => {
      const fixture = join(temp, "poison-fixture");
      mkdirSync(fixture);
      writeFileSync(join(fixture, "file.txt"), "original\n");
      const cache = join(temp, "poison-cache");
      const first = await materialiseFixture(fixture, cache);
      const marker = join(outside, "poison-ran");
      const git = (...args: string[]): string => execFileSync("git", ["-C", first.repoPath, ...args], { encoding: "utf8" });
      // What an unconfined run (`--no-sandbox`) could do to the cache.
      git("config", "core.fsmonitor", `touch ${marker}`);
      writeFileSync(join(first.repoPath, ".git", "hooks", "post-checkout"), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
      writeFileSync(join(first.repoPath, "file.txt"), "poisoned\n");
      git("-c", "user.name=x", "-c", "user.email=x@y", "commit", "-qam", "poison");
      const poisoned = git("rev-parse", "HEAD").trim();
      git("replace", first.commit, poisoned);
      git("reset", "-q", "--hard", first.commit);
      rmSync(marker, { force: true });
      const second = await materialiseFixture(fixture, cache);
      const clone = await addWorktree(second.repoPath, second.commit, join(temp, "worktrees"), "poison");
      try {
        const diff = await collectDiff(clone, second.commit, second.repoPath);
        expect({ commit: second.commit, content: readFileSync(join(clone, "file.txt"), "utf8"), ran: existsSync(marker), files: diff.files }).toEqual({
          commit: first.commit,
          content: "original\n",
          ran: false,
          files: 0,
        });
      } finally {
        await removeWorktree(second.repoPath, clone);
      }
    });

    it("E17: acceptance checks run in the sandbox too — no secret, no file outside, nothing written outside", async () => {
      const result = await runCheck(
        { id: "hostile", command: `env; tr '\\0' '\\n' < /proc/$PPID/environ; cat ${join(outside, "secret.txt")}; touch ${join(outside, "check-wrote")}; exit 0` },
        { cwd: dir, timeoutMs: 30_000, env, sandbox: run },
      );
      expect({ leaked: leaked(result.output), outside: result.output.includes("outside-file-secret"), wrote: existsSync(join(outside, "check-wrote")) }).toEqual({
        leaked: [],
        outside: false,
        wrote: false,
      });
    });

    it("E18: processes left across calls — a process one call leaves (ignoring every signal it may) is gone before the call returns, and the next call finds none", async () => {
      const first = await shell("setsid bash -c 'trap \"\" TERM HUP INT QUIT USR1 USR2; while :; do echo tick >> ticks.txt; sleep 0.05; done' >/dev/null 2>&1 & sleep 0.3; echo started");
      const ticks = (): number => readFileSync(join(dir, "ticks.txt"), "utf8").length;
      const after = ticks();
      await new Promise((resolve) => setTimeout(resolve, 400));
      const later = ticks();
      const next = await shell("pgrep -c -f 'tick[s].txt'; true");
      rmSync(join(dir, "ticks.txt"), { force: true });
      expect({ first: first.output, ticking: after > 0, stillWriting: later !== after, next: next.output }).toEqual({
        first: "exit code: 0\nstarted\n",
        ticking: true,
        stillWriting: false,
        next: "exit code: 0\n0\n",
      });
    });

    it("E19: the launcher and the sandbox's init are out of reach — no signal, trace, environment, file descriptor, pipe or command inbox of a process the call did not start; the next call runs as usual", async () => {
      const result = await shell(
        [
          "for p in $(ls /proc | grep -E '^[0-9]+$'); do",
          '  [ "$p" = "$$" ] && continue; [ -e "/proc/$p" ] || continue',
          '  kill -9 "$p" 2>/dev/null && echo "killed $p"',
          '  cat "/proc/$p/environ" >/dev/null 2>&1 && echo "environ $p"',
          '  ls "/proc/$p/fd" >/dev/null 2>&1 && echo "fds $p"',
          '  for fd in 0 1 2 3; do (echo injected > "/proc/$p/fd/$fd") 2>/dev/null && echo "wrote $p/$fd"; done',
          '  timeout 1 strace -p "$p" -o /dev/null >/dev/null 2>&1; [ $? = 124 ] && echo "traced $p"',
          "done",
          "{ cat /run/armstudy-shell/command; } >/dev/null 2>&1 && echo inbox-read",
          "{ echo x > /run/armstudy-shell/command; } 2>/dev/null && echo inbox-written",
          "echo done",
        ].join("\n"),
      );
      const next = await shell("echo still-here");
      expect({ output: result.output, next: next.output }).toEqual({ output: "exit code: 0\ndone\n", next: "exit code: 0\nstill-here\n" });
    });

    it("E20: faking the end of a call — marker-like lines and closed output do not end a call early or change its exit code", async () => {
      const fake = `armstudy-call-end-${"0".repeat(32)}`;
      const result = await shell(`echo before; echo '${fake} 0'; echo '${fake}' >&2; exec >&- 2>&-; sleep 0.2; exit 7`);
      expect({ ok: result.ok, head: result.output.split("\n")[0], before: result.output.includes("before\n"), fakes: result.output.split(fake).length - 1 }).toEqual({
        ok: false,
        head: "exit code: 7",
        before: true,
        fakes: 2,
      });
    });

    it("control: without the sandbox (--no-sandbox) the same attempts do reach armstudy's environment, the outside file and the host", async () => {
      // Proof that the attempts above can succeed, so their failing means the sandbox stopped them.
      const output = shellFromHolder(`tr '\\0' '\\n' < /proc/$PPID/environ; cat ${join(outside, "secret.txt")}`, "none");
      expect({ leaked: leaked(output), outside: output.includes("outside-file-secret") }).toEqual({ leaked: Object.values(SECRETS), outside: true });
    });

    it("docs/sandbox.md lists exactly these attempts", () => {
      const page = readFileSync(join(ROOT, "docs", "sandbox.md"), "utf8");
      const listed = [...page.matchAll(/^\| (E\d+) \|/gm)].map((match) => match[1]);
      const source = readFileSync(new URL(import.meta.url), "utf8");
      const here = [...source.matchAll(/^ {4}it\("(E\d+):/gm)].map((match) => match[1]);
      expect(listed).toEqual(here);
    });
  });
}
