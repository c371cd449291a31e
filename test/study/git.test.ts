import { afterEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addWorktree,
  collectDiff,
  hashFolder,
  listWorktrees,
  materialiseFixture,
  pruneStaleWorktrees,
  removeWorktree,
  resolveCommit,
  runGitState,
} from "../../src/study/git.ts";
import { StudyInputError } from "../../src/study/errors.ts";

const temps: string[] = [];
function temp(prefix = "armstudy-git-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sh = (cwd: string, ...args: string[]): string => execFileSync("git", args, { cwd, encoding: "utf8" });

function fixtureFolder(): string {
  const dir = temp("armstudy-fixture-");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "add.js"), "export const add = (a, b) => a + b;\n");
  writeFileSync(join(dir, "README.md"), "# tiny\n");
  writeFileSync(join(dir, "check.sh"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(dir, "check.sh"), 0o755);
  return dir;
}

describe("materialiseFixture", () => {
  it("gives the same commit on every machine and reuses the cached repository", async () => {
    const fixture = fixtureFolder();
    const first = await materialiseFixture(fixture, temp());
    const second = await materialiseFixture(fixture, temp());
    // Fixed author, committer, dates and message: the commit is a pure function of the content.
    expect(first.commit).toEqual("e1754c9a44a2201b32a531d26bd72a4e97b1f6f8");
    expect(second.commit).toEqual(first.commit);
    expect(sh(first.repoPath, "log", "-1", "--format=%an <%ae> %ad %cn %cd%n%s", "--date=iso-strict")).toEqual(
      "armstudy fixture <fixture@armstudy.invalid> 2026-01-01T00:00:00+00:00 armstudy fixture 2026-01-01T00:00:00+00:00\narmstudy fixture\n",
    );
    const cacheRoot = temp();
    const a = await materialiseFixture(fixture, cacheRoot);
    const builtAt = statSync(join(a.repoPath, ".git", "HEAD")).mtimeMs;
    const b = await materialiseFixture(fixture, cacheRoot);
    expect(b).toEqual(a);
    expect(statSync(join(b.repoPath, ".git", "HEAD")).mtimeMs).toEqual(builtAt);
    expect(readdirSync(join(cacheRoot, "repos"))).toEqual([a.repoPath.split("/").pop()]);
  });

  it("makes a new repository when the content changes, and keeps the executable bit", async () => {
    const fixture = fixtureFolder();
    const cacheRoot = temp();
    const before = await materialiseFixture(fixture, cacheRoot);
    writeFileSync(join(fixture, "README.md"), "# tiny, changed\n");
    const after = await materialiseFixture(fixture, cacheRoot);
    expect(after.commit).not.toEqual(before.commit);
    expect(after.repoPath).not.toEqual(before.repoPath);
    expect(sh(after.repoPath, "ls-files", "-s", "check.sh").slice(0, 6)).toEqual("100755");
    expect(await hashFolder(fixture)).not.toEqual("");
  });

  it("lets concurrent callers race to the same repository", async () => {
    const fixture = fixtureFolder();
    const cacheRoot = temp();
    const results = await Promise.all([1, 2, 3].map(() => materialiseFixture(fixture, cacheRoot)));
    expect(new Set(results.map((r) => `${r.repoPath} ${r.commit}`)).size).toEqual(1);
    expect(readdirSync(join(cacheRoot, "repos")).filter((name) => name.startsWith(".building"))).toEqual([]);
  });

  it("names a missing folder", async () => {
    await expect(materialiseFixture("/nonexistent/fixture", temp())).rejects.toThrow(StudyInputError);
    await expect(materialiseFixture("/nonexistent/fixture", temp())).rejects.toThrow(
      "fixture folder /nonexistent/fixture does not exist; fix the study file's repo.fixture path.",
    );
  });
});

describe("worktrees and diffs", () => {
  it("makes a detached clone, diffs new and changed files, and removes it without touching the source", async () => {
    const { repoPath, commit } = await materialiseFixture(fixtureFolder(), temp());
    const statusBefore = sh(repoPath, "status", "--porcelain");
    const branchesBefore = sh(repoPath, "branch", "-a");
    const root = temp();
    const wt = await addWorktree(repoPath, commit, root, "goal-1");
    // A clone of its own, sharing the source's objects: the source registers nothing.
    expect(await listWorktrees(repoPath)).toEqual([]);
    expect(statSync(join(wt, ".git")).isDirectory()).toEqual(true);
    expect(readFileSync(join(wt, ".git", "objects", "info", "alternates"), "utf8").trim()).toEqual(join(repoPath, ".git", "objects"));
    expect(sh(wt, "rev-parse", "HEAD").trim()).toEqual(commit);
    // Detached: HEAD is no branch, so no branch of the source moves.
    expect(() => sh(wt, "symbolic-ref", "-q", "HEAD")).toThrow();
    writeFileSync(join(wt, "README.md"), "# tiny\nmore\n");
    writeFileSync(join(wt, "src", "new.js"), "export const two = 2;\nexport const three = 3;\n");
    // An agent that commits must not hide its work: the diff is against the pinned commit.
    sh(wt, "-c", "user.name=a", "-c", "user.email=a@b.c", "commit", "-qam", "agent commit");
    const diff = await collectDiff(wt, commit, repoPath);
    expect({ files: diff.files, insertions: diff.insertions, deletions: diff.deletions }).toEqual({ files: 2, insertions: 3, deletions: 0 });
    expect(diff.stat).toEqual(" README.md  | 1 +\n src/new.js | 2 ++\n 2 files changed, 3 insertions(+)\n");
    expect(diff.patch.split("\n").filter((line) => line.startsWith("+++ "))).toEqual(["+++ b/README.md", "+++ b/src/new.js"]);
    await removeWorktree(repoPath, wt);
    expect(existsSync(wt)).toEqual(false);
    expect(await listWorktrees(repoPath)).toEqual([]);
    // No administrative leftovers for `git worktree prune` to find.
    expect(existsSync(join(repoPath, ".git", "worktrees")) ? readdirSync(join(repoPath, ".git", "worktrees")) : []).toEqual([]);
    expect(sh(repoPath, "worktree", "prune", "--dry-run", "-v")).toEqual("");
    expect(sh(repoPath, "status", "--porcelain")).toEqual(statusBefore);
    expect(sh(repoPath, "branch", "-a")).toEqual(branchesBefore);
  });

  it("resolves a ref of an existing repository and names a bad one", async () => {
    const { repoPath, commit } = await materialiseFixture(fixtureFolder(), temp());
    expect(await resolveCommit(repoPath, "main")).toEqual({ repoPath, commit });
    await expect(resolveCommit(repoPath, "no-such-ref")).rejects.toThrow(/ref "no-such-ref" does not name a commit .*; fix the study file's repo.ref\./);
  });
});

describe("pruneStaleWorktrees", () => {
  it("removes the run folders of dead owners with armstudy's state beside them, and keeps live ones", async () => {
    const { repoPath, commit } = await materialiseFixture(fixtureFolder(), temp());
    const root = temp();
    const live = await addWorktree(repoPath, commit, root, "live");
    const crashed = await addWorktree(repoPath, commit, root, "crashed");
    // Simulate a crash of another process: its folders carry a pid that is gone.
    const deadName = crashed.replace(/armstudy-\d+-/, "armstudy-999999-");
    renameSync(crashed, deadName);
    renameSync(runGitState(crashed), runGitState(deadName));
    const removed = await pruneStaleWorktrees(repoPath, root, (pid) => pid === process.pid);
    expect(removed).toEqual([deadName]);
    expect(readdirSync(root).sort()).toEqual([live.split("/").pop(), runGitState(live).split("/").pop()].sort());
    await removeWorktree(repoPath, live);
    expect(readdirSync(root)).toEqual([]);
  });
});
