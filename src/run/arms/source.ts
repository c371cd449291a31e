/**
 * Where arm files are read from: the working tree, or a git commit (`prompt: { ref }` pins a
 * pack to the files as they stood at that ref). Both answer the same three questions, so the
 * loader does not care which one it reads.
 */
import { readFile, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { simpleGit } from "simple-git";
import { PackError } from "../../core/prompt/errors.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../fs/utf8.ts";

export interface ArmSource {
  /** A file's text, or undefined when it does not exist. `path` is relative to the arms folder. */
  read(path: string): Promise<string | undefined>;
  /** Names in a folder (relative to the arms folder); empty when it does not exist. */
  list(path: string): Promise<string[]>;
  /** How messages name a file (relative to the cwd, or `ref:repo-path` for a git ref). */
  display(path: string): string;
}

/** Files as they are on disk under `armsDir`. */
export function workingTreeSource(armsDir: string, cwd: string): ArmSource {
  return {
    async read(path) {
      const shown = displayPath(join(armsDir, path), cwd);
      try {
        // Strict UTF-8: a byte that is not would otherwise reach the prompt as U+FFFD.
        return decodeUtf8Strict(await readFile(join(armsDir, path)));
      } catch (error) {
        if (isMissing(error)) return undefined;
        if (error instanceof NotUtf8Error) throw new PackError("UNREADABLE", shown, "", `${error.message}; save the file as UTF-8.`);
        const code = String((error as { code?: unknown }).code ?? error);
        if (code === "EISDIR") throw new PackError("UNREADABLE", shown, "", "is a folder, not a file; move it away or make it the file it should be.");
        throw new PackError("UNREADABLE", shown, "", `cannot be read (${code}); check its permissions.`);
      }
    },
    async list(path) {
      const dir = join(armsDir, path);
      let info;
      try {
        info = await stat(dir);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      // The arms folder itself being a file is reported by the loader as "holds no arms".
      if (!info.isDirectory()) {
        if (path === "") return [];
        throw new PackError("UNREADABLE", displayPath(dir, cwd), "", "is a file, but it should be a folder (one .md file per section); move the file away.");
      }
      return (await readdir(dir)).sort();
    },
    display(path) {
      return displayPath(join(armsDir, path), cwd);
    },
  };
}

/**
 * Files as they stood at `ref` in the git repository holding `armsDir`. Throws UNKNOWN_REF
 * (naming `file` and `field`, where the ref was written) when the ref does not name a commit.
 */
export async function gitRefSource(armsDir: string, ref: string, where: { file: string; field: string }): Promise<ArmSource> {
  const realArms = await realpath(armsDir);
  let root: string;
  try {
    root = (await simpleGit({ baseDir: realArms }).revparse(["--show-toplevel"])).trim();
  } catch {
    throw new PackError("UNKNOWN_REF", where.file, where.field, `"${ref}" cannot be read: ${realArms} is not inside a git repository. Remove the pin or run from a clone.`);
  }
  // Run from the top level: ls-tree run in a subfolder lists only entries under that subfolder.
  const git = simpleGit({ baseDir: root });
  let commit = await commitOf(git, ref);
  let shown = ref;
  if (commit === "") {
    // A fresh clone of another branch, or a CI checkout, has `main` only as origin/main: take the
    // one remote-tracking branch of that name, as `git checkout main` would (ADR 0210).
    const tracking = await remoteTrackingBranches(git, ref);
    if (tracking.length > 1) {
      throw new PackError(
        "UNKNOWN_REF",
        where.file,
        where.field,
        `git ref "${ref}" is not a local branch, commit or tag in ${root}, and more than one remote has it (${tracking.join(", ")}); write the one you mean, e.g. ref: ${tracking[0]}.`,
      );
    }
    if (tracking.length === 1) {
      shown = tracking[0] as string;
      commit = await commitOf(git, `refs/remotes/${shown}`);
    }
  }
  if (commit === "") {
    throw new PackError(
      "UNKNOWN_REF",
      where.file,
      where.field,
      `git ref "${ref}" is not a branch, commit or tag in ${root}, nor a remote-tracking branch. Use a branch, commit hash or tag that exists (git log --oneline, git branch -a, git tag), or fetch it first (a shallow clone lacks history: git fetch --unshallow).`,
    );
  }
  const prefix = relative(await realpath(root), realArms).split(sep).join("/");
  const repoPath = (path: string): string => [prefix, path].filter((part) => part !== "").join("/");
  const short = commit.slice(0, 12);
  return {
    async read(path) {
      try {
        return await git.show([`${commit}:${repoPath(path)}`]);
      } catch {
        return undefined;
      }
    },
    async list(path) {
      try {
        const out = await git.raw(["ls-tree", "--full-tree", "--name-only", `${commit}:${repoPath(path)}`]);
        return out.split("\n").filter((name) => name !== "").sort();
      } catch {
        return [];
      }
    },
    display(path) {
      return `${shown === short ? short : `${shown} (${short})`}:${repoPath(path)}`;
    },
  };
}

/** The commit `ref` names, or "" when it names none. */
async function commitOf(git: ReturnType<typeof simpleGit>, ref: string): Promise<string> {
  try {
    return (await git.raw(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`])).trim();
  } catch {
    return "";
  }
}

/** Remote-tracking branches named `branch` (`origin/main` for `main`), sorted. */
async function remoteTrackingBranches(git: ReturnType<typeof simpleGit>, branch: string): Promise<string[]> {
  let out: string;
  try {
    out = await git.raw(["for-each-ref", "--format=%(refname)", "refs/remotes/"]);
  } catch {
    return [];
  }
  return out
    .split("\n")
    .map((name) => name.replace(/^refs\/remotes\//, ""))
    .filter((name) => name.slice(name.indexOf("/") + 1) === branch && !name.endsWith("/HEAD"))
    .sort();
}

/** A path as the person would type it: relative to the cwd when inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel.split(sep).join("/");
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
