/**
 * Git for the study runner, through simple-git: a fixture folder materialised once as a repository
 * with a fixed author and date (so its commit is the same on every machine), one fresh clone of a
 * pinned commit per run, the diff a run left, and the clean-up of run folders a crashed study left.
 *
 * armstudy's git never trusts what a run could have written (ADR 0078). Every command runs with
 * hooks, fsmonitor and replace refs off, without system or global config, and with an environment
 * of its own that holds no secret. A run's folder is a clone whose `.git` belongs to the agent; the
 * diff is taken with armstudy's own index and object folder beside it (never the agent's `.git`,
 * its config or its hooks), against the source repository, which the sandbox binds read-only. The
 * source's working tree, index and branches are never touched.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, lstat, mkdir, readFile, readdir, readlink, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
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

/**
 * `-c` settings on every git command armstudy runs: no hook, no fsmonitor daemon, no untracked
 * cache written, ctime ignored (handing a folder to the sandbox user changes it, never the content).
 */
export const HARDENED_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.trustctime=false",
] as const;

/** The whole environment of armstudy's git: no inherited variable besides PATH and the locale, no config but the repository's. */
export function hardenedGitEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    LANG: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
  };
  return { ...env, ...extra };
}

/** armstudy's git, as the study runner uses it: `raw(args)` resolves with stdout. */
export interface Git {
  raw(args: readonly string[]): Promise<string>;
}

/** Largest output one git command may print (a patch): beyond it the command fails rather than grow memory. */
const MAX_GIT_OUTPUT = 256 * 1024 * 1024;

/** Git in `dir`, hardened as above; `env` adds variables (an identity, GIT_DIR). */
export function git(dir: string, env: Record<string, string> = {}): Git {
  const full = hardenedGitEnv(env);
  const config = HARDENED_CONFIG.flatMap((setting) => ["-c", setting]);
  return {
    raw: (args) =>
      new Promise((resolvePromise, reject) => {
        execFile("git", [...config, ...args], { cwd: dir, env: full, encoding: "utf8", maxBuffer: MAX_GIT_OUTPUT }, (error, stdout, stderr) => {
          if (error) reject(new Error(`git ${args.join(" ")} failed in ${dir}: ${stderr.trim() || error.message}`));
          else resolvePromise(stdout);
        });
      }),
  };
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

/** armstudy's own git state for a run folder (its index and object folder): beside the folder, never bound into the sandbox. */
export function runGitState(path: string): string {
  return `${path}${STATE_SUFFIX}`;
}

const STATE_SUFFIX = ".armstudy-git";

/** The object folder of `repoPath`, which a run's clone borrows from (read-only in the sandbox). */
export async function objectStore(repoPath: string): Promise<string> {
  const common = (await git(repoPath).raw(["rev-parse", "--git-common-dir"])).trim();
  return join(isAbsolute(common) ? common : resolve(repoPath, common), "objects");
}

/**
 * Makes a run folder under `root`: a clone of `repoPath` sharing its objects (`--shared`: nothing
 * copied, the source's objects read through `objects/info/alternates`), with `commit` checked out
 * detached. The clone's `.git` is the agent's to change; armstudy keeps a copy of the index as it
 * made it, and later diffs with that, never with the agent's `.git` (collectDiff).
 */
export async function addWorktree(repoPath: string, commit: string, root: string, label: string): Promise<string> {
  await mkdir(root, { recursive: true });
  const path = join(root, worktreeName(label));
  const state = runGitState(path);
  try {
    // --template= : no sample hooks, no info/exclude copied from the system template.
    await git(root).raw(["clone", "--quiet", "--shared", "--no-checkout", "--template=", "--", repoPath, path]);
    await git(path).raw(["checkout", "--quiet", "--detach", commit]);
    await mkdir(join(state, "objects"), { recursive: true });
    await copyFile(join(path, ".git", "index"), join(state, "index"));
    return path;
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Removes a run folder and armstudy's state beside it; tolerates folders already gone. Nothing in
 * the folder is read first: the agent may have made its `.git` say anything.
 */
export async function removeWorktree(_repoPath: string, path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
  await rm(runGitState(path), { recursive: true, force: true });
}

/**
 * What became of the `.git` armstudy made in a run folder: `null` when it is still a plain folder
 * (a symbolic link, a file pointing elsewhere or nothing at all is named). Only reported: the diff
 * never reads it either way.
 */
export async function checkRunGit(path: string): Promise<string | null> {
  const info = await lstat(join(path, ".git")).catch(() => undefined);
  if (info === undefined) return ".git was deleted";
  if (info.isSymbolicLink()) return `.git was replaced by a symbolic link to ${await readlink(join(path, ".git")).catch(() => "?")}`;
  if (info.isFile()) {
    const text = (await readFile(join(path, ".git"), "utf8").catch(() => "")).slice(0, 300).trim();
    return `.git was replaced by a file (${JSON.stringify(text)})`;
  }
  return info.isDirectory() ? null : ".git was replaced by something that is not a folder";
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
 * Start-up clean-up: removes the run folders under `root` whose owning process is gone (a study that
 * was killed) — clones, and worktrees registered by earlier versions — then lets git forget
 * registrations whose folders are missing. Worktrees of live
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
  // Run folders (and armstudy's state beside them) of dead owners: a crashed study's clones.
  // Nothing inside them is read; the owner's pid in the name is all that decides.
  if (existsSync(rootPath)) {
    for (const name of await readdir(rootPath)) {
      const path = join(rootPath, name);
      const pid = owned(path);
      if (pid === null || alive(pid) || removed.includes(path)) continue;
      await rm(path, { recursive: true, force: true });
      // armstudy's state goes with its folder and is not counted on its own.
      if (!path.endsWith(STATE_SUFFIX)) removed.push(path);
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

/**
 * Stages everything in the run folder and diffs it against the pinned commit — with armstudy's own
 * index and object folder (runGitState) and the source repository's git data, never the agent's
 * `.git`: its config, hooks, alternates or index cannot change what armstudy's git does or sees.
 */
export async function collectDiff(worktree: string, commit: string, repoPath: string, exclude: readonly string[] = []): Promise<RunDiff> {
  const state = runGitState(worktree);
  const common = (await git(repoPath).raw(["rev-parse", "--git-common-dir"])).trim();
  const gitDir = isAbsolute(common) ? common : resolve(repoPath, common);
  const repo = git(worktree, {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: worktree,
    GIT_INDEX_FILE: join(state, "index"),
    GIT_OBJECT_DIRECTORY: join(state, "objects"),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: join(gitDir, "objects"),
  });
  if (!existsSync(join(state, "index"))) await repo.raw(["read-tree", commit]);
  // --verbose: output spares simple-git's 50 ms wait after a silent process (see addWorktree).
  // Excluded paths (a task's check files the agent was given a copy of) are not the agent's work.
  await repo.raw(["add", "-A", "--verbose", "--", ".", ...exclude.map((path) => `:(exclude,literal)${path}`)]);
  const stat = await repo.raw(["diff", "--cached", "--stat", "--no-color", commit]);
  const patch = await repo.raw(["diff", "--cached", "--no-color", "--no-ext-diff", "--no-textconv", commit]);
  const numstat = await repo.raw(["diff", "--cached", "--numstat", "--no-ext-diff", "--no-textconv", commit]);
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
