/**
 * Git for the study runner, through simple-git: a fixture folder materialised once as a repository
 * with a fixed author and date (so its commit is the same on every machine), detached worktrees of a
 * pinned commit, the diff a run left, and the clean-up of worktrees a crashed study left behind.
 *
 * The source repository's working tree, index and branches are never touched: worktrees are added
 * detached, and every command that changes state runs inside a worktree.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, readFile, readdir, readlink, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve, sep } from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import { StudyInputError } from "./errors.ts";

/** The identity every materialised fixture commit carries, so its hash never depends on the machine. */
export const FIXTURE_IDENTITY = {
  GIT_AUTHOR_NAME: "armstudy fixture",
  GIT_AUTHOR_EMAIL: "fixture@armstudy.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00+0000",
  GIT_COMMITTER_NAME: "armstudy fixture",
  GIT_COMMITTER_EMAIL: "fixture@armstudy.invalid",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00+0000",
} as const;

const FIXTURE_MESSAGE = "armstudy fixture\n";

/** A simple-git instance for `dir`; git's own config and hooks stay as the user has them otherwise. */
export function git(dir: string, env?: Record<string, string>): SimpleGit {
  const instance = simpleGit({
    baseDir: dir,
    maxConcurrentProcesses: 4,
    trimmed: false,
    ...(env ? { allowEnvironment: Object.keys(env) } : {}),
  });
  if (!env) return instance;
  // simple-git replaces the whole environment with .env(); keep only what git needs to run.
  const base: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) if (process.env[name] !== undefined) base[name] = process.env[name] as string;
  return instance.env({ ...base, ...env });
}

async function walkFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await visit(path);
      else out.push(path);
    }
  };
  await visit(root);
  return out.sort();
}

/** A content hash of a folder: paths, executable bits, symlink targets and bytes (not times). */
export async function hashFolder(root: string): Promise<string> {
  const hash = createHash("sha256");
  for (const path of await walkFiles(root)) {
    const info = await lstat(path);
    hash.update(relative(root, path).split(sep).join("/"));
    hash.update("\0");
    if (info.isSymbolicLink()) {
      hash.update(`link:${await readlink(path)}`);
    } else {
      hash.update(info.mode & 0o111 ? "x" : "-");
      hash.update("\0");
      hash.update(await readFile(path));
    }
    hash.update("\0");
  }
  return hash.digest("hex");
}

export interface MaterialisedRepo {
  /** The repository the worktrees are added to. */
  repoPath: string;
  /** The pinned commit every run starts from. */
  commit: string;
}

/**
 * Makes `fixtureDir` a git repository under `cacheRoot` (once per content): one commit with the
 * fixed identity and date. Reuses the cached repository when the folder has not changed; concurrent
 * callers build in a temporary folder and the first rename wins.
 */
export async function materialiseFixture(fixtureDir: string, cacheRoot: string): Promise<MaterialisedRepo> {
  if (!existsSync(fixtureDir) || !(await stat(fixtureDir)).isDirectory()) {
    throw new StudyInputError("STUDY_REPO", `fixture folder ${fixtureDir} does not exist; fix the study file's repo.fixture path.`);
  }
  const contentHash = (await hashFolder(fixtureDir)).slice(0, 16);
  const reposDir = join(cacheRoot, "repos");
  const target = join(reposDir, `${basename(fixtureDir)}-${contentHash}`);
  const cached = await readCommit(target);
  if (cached !== null) return { repoPath: target, commit: cached };

  await mkdir(reposDir, { recursive: true });
  const building = join(reposDir, `.building-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await copyFolder(fixtureDir, building);
    const repo = git(building, { ...FIXTURE_IDENTITY });
    await repo.raw(["init", "-q", "-b", "main"]);
    await repo.raw(["config", "core.autocrlf", "false"]);
    await repo.raw(["config", "commit.gpgsign", "false"]);
    await repo.raw(["add", "-A"]);
    await repo.raw(["commit", "-q", "--no-verify", "--allow-empty", "-m", FIXTURE_MESSAGE]);
    try {
      await rename(building, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      // Another study materialised the same content first; use theirs.
    }
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  const commit = await readCommit(target);
  if (commit === null) throw new StudyInputError("STUDY_REPO", `could not materialise fixture ${fixtureDir} as a git repository at ${target}.`);
  return { repoPath: target, commit };
}

async function readCommit(repoPath: string): Promise<string | null> {
  if (!existsSync(join(repoPath, ".git"))) return null;
  try {
    return (await git(repoPath).raw(["rev-parse", "--verify", "HEAD^{commit}"])).trim();
  } catch {
    return null;
  }
}

async function copyFolder(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.name === ".git") continue;
    const source = join(from, entry.name);
    const destination = join(to, entry.name);
    if (entry.isDirectory()) await copyFolder(source, destination);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), destination);
    else {
      const info = await stat(source);
      await writeFile(destination, await readFile(source), { mode: info.mode & 0o777 });
    }
  }
}

/** Resolves `ref` in an existing repository to the commit the runs pin. */
export async function resolveCommit(repoPath: string, ref: string): Promise<MaterialisedRepo> {
  if (!existsSync(repoPath)) throw new StudyInputError("STUDY_REPO", `repository ${repoPath} does not exist; fix the study file's repo.path.`);
  try {
    const commit = (await git(repoPath).raw(["rev-parse", "--verify", "--end-of-options", `${ref}^{commit}`])).trim();
    const top = (await git(repoPath).raw(["rev-parse", "--show-toplevel"])).trim();
    return { repoPath: top, commit };
  } catch (error) {
    throw new StudyInputError("STUDY_REPO", `${repoPath}: ref "${ref}" does not name a commit (${(error as Error).message.trim().split("\n")[0]}); fix the study file's repo.ref.`);
  }
}

/** Where worktrees live unless a caller says otherwise: outside any repository. */
export function defaultWorktreeRoot(): string {
  return join(tmpdir(), "armstudy-worktrees");
}

/** Worktree folder names carry the owner's pid, so a later study can tell a crashed owner's leftovers. */
const WORKTREE_NAME = /^armstudy-(\d+)-/;

export function worktreeName(label: string, pid = process.pid): string {
  const safe = label.replace(/[^A-Za-z0-9._-]+/g, "_");
  return `armstudy-${pid}-${safe}-${randomBytes(3).toString("hex")}`;
}

/** Adds a detached worktree of `commit` at a fresh path under `root` and returns the path. */
export async function addWorktree(repoPath: string, commit: string, root: string, label: string): Promise<string> {
  await mkdir(root, { recursive: true });
  // Concurrent adds to one repository can trip over each other's registrations; retry briefly.
  for (let attempt = 1; ; attempt += 1) {
    const path = join(root, worktreeName(label));
    try {
      // Not --quiet on purpose: simple-git waits an extra 50 ms after a git process that printed
      // nothing (its completion plugin), which would double the cost of a worktree.
      await git(repoPath).raw(["worktree", "add", "--detach", path, commit]);
      return path;
    } catch (error) {
      await rm(path, { recursive: true, force: true });
      if (attempt >= 3) throw error;
      await new Promise((resolveDelay) => setTimeout(resolveDelay, 100 * attempt));
    }
  }
}

/**
 * Removes a worktree and its registration; tolerates a folder that is already gone.
 *
 * The fast path spawns no process: it reads the worktree's `.git` file (`gitdir: <repo>/.git/
 * worktrees/<id>`), deletes the folder, then deletes that administrative folder — exactly what
 * `git worktree prune` does for a worktree whose folder is gone (see gitrepository-layout,
 * "worktrees/<id>"). Anything unexpected falls back to `git worktree remove --force --force`.
 */
export async function removeWorktree(repoPath: string, path: string): Promise<void> {
  const pointer = await readFile(join(path, ".git"), "utf8").catch(() => "");
  const adminDir = pointer.startsWith("gitdir:") ? pointer.slice("gitdir:".length).trim() : "";
  const commonDir = resolve(repoPath, ".git", "worktrees");
  if (adminDir !== "" && resolve(adminDir, "..") === commonDir && existsSync(join(adminDir, "HEAD"))) {
    await rm(path, { recursive: true, force: true });
    // Move the registration out of worktrees/ in one step, so a concurrent `git worktree add`
    // that lists worktrees never sees it half deleted; then delete it at leisure.
    const trash = join(commonDir, "..", `armstudy-removed-${process.pid}-${randomBytes(4).toString("hex")}`);
    await rename(adminDir, trash);
    await rm(trash, { recursive: true, force: true });
    return;
  }
  try {
    await git(repoPath).raw(["worktree", "remove", "--force", "--force", path]);
  } catch {
    await rm(path, { recursive: true, force: true });
    await git(repoPath)
      .raw(["worktree", "prune"])
      .catch(() => undefined);
  }
}

/** The paths of a repository's linked worktrees (the main working tree excluded). */
export async function listWorktrees(repoPath: string): Promise<string[]> {
  const text = await git(repoPath).raw(["worktree", "list", "--porcelain"]);
  const paths = text
    .split("\n")
    .filter((line) => line.startsWith("worktree "))
    .map((line) => line.slice("worktree ".length));
  return paths.slice(1);
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Start-up clean-up: removes the worktrees under `root` whose owning process is gone (a study that
 * was killed), then lets git forget registrations whose folders are missing. Worktrees of live
 * studies are left alone. Returns the removed paths.
 */
export async function pruneStaleWorktrees(repoPath: string, root: string, alive: (pid: number) => boolean = isAlive): Promise<string[]> {
  const removed: string[] = [];
  const rootPath = resolve(root);
  const owned = (path: string): number | null => {
    if (resolve(path, "..") !== rootPath) return null;
    const match = WORKTREE_NAME.exec(basename(path));
    return match ? Number(match[1]) : null;
  };
  for (const path of await listWorktrees(repoPath)) {
    const pid = owned(path);
    if (pid !== null && !alive(pid)) {
      await removeWorktree(repoPath, path);
      removed.push(path);
    }
  }
  // Folders of dead owners that git no longer lists (their registration was pruned elsewhere).
  if (existsSync(rootPath)) {
    const gitDir = resolve(repoPath, (await git(repoPath).raw(["rev-parse", "--git-common-dir"])).trim());
    for (const name of await readdir(rootPath)) {
      const path = join(rootPath, name);
      const pid = owned(path);
      if (pid === null || alive(pid) || removed.includes(path)) continue;
      const pointer = await readFile(join(path, ".git"), "utf8").catch(() => "");
      const target = pointer.startsWith("gitdir:") ? pointer.slice("gitdir:".length).trim() : "";
      if (target === "" || target.startsWith(gitDir + sep) || !existsSync(target)) {
        await rm(path, { recursive: true, force: true });
        removed.push(path);
      }
    }
  }
  await git(repoPath).raw(["worktree", "prune"]);
  return removed;
}

export interface RunDiff {
  /** `git diff --stat` against the pinned commit, after `git add -A` (so new files count). */
  stat: string;
  patch: string;
  /** `git diff --numstat` text: what an implementer envelope counts lines from. */
  numstat: string;
  files: number;
  insertions: number;
  deletions: number;
}

/** Stages everything in the worktree (its own index) and diffs it against the pinned commit. */
export async function collectDiff(worktree: string, commit: string, exclude: readonly string[] = []): Promise<RunDiff> {
  const repo = git(worktree);
  // --verbose: output spares simple-git's 50 ms wait after a silent process (see addWorktree).
  // Excluded paths (a task's check files the agent was given a copy of) are not the agent's work.
  await repo.raw(["add", "-A", "--verbose", "--", ".", ...exclude.map((path) => `:(exclude,literal)${path}`)]);
  const stat = await repo.raw(["diff", "--cached", "--stat", "--no-color", commit]);
  const patch = await repo.raw(["diff", "--cached", "--no-color", "--no-ext-diff", commit]);
  const numstat = await repo.raw(["diff", "--cached", "--numstat", commit]);
  let files = 0;
  let insertions = 0;
  let deletions = 0;
  for (const line of numstat.split("\n")) {
    if (line.trim() === "") continue;
    const [added, removed] = line.split("\t");
    files += 1;
    insertions += added === "-" ? 0 : Number(added);
    deletions += removed === "-" ? 0 : Number(removed);
  }
  return { stat, patch, numstat, files, insertions, deletions };
}
