/**
 * Grading the agent cannot touch. A task's check files live in its own folder, outside the repo.
 * After the agent stops, the runner asks here which files under the check path the agent modified,
 * deleted or added (`tampered`, compared with what it was given: the task's copy when the checks are
 * visible, nothing when they are hidden), then puts the task's own copy in place over whatever is
 * there, so the checks always run against the task's files. Nothing here follows a link the agent
 * made: paths are walked with lstat, and a link or file where a folder belongs is removed first.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { cp, lstat, mkdir, readdir, readlink, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TamperedPath } from "../render/results.ts";

export interface CheckFiles {
  /** The task's folder of check files (absolute). */
  from: string;
  /** Where they go in the worktree (relative, `/`-separated). */
  to: string;
  /** The agent got a copy before it started. */
  visible: boolean;
}

/** Where the run's final reply is put for checks that grade it (relative to the worktree). */
export const FINAL_REPLY_PATH = ".armstudy/final-reply.md";

async function digestFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Every entry under `root` as relative path → a fingerprint (file content hash, link target); links are not followed. */
export async function fingerprints(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const top = await lstat(root).catch(() => undefined);
  if (top === undefined) return out;
  if (!top.isDirectory()) {
    out.set("", top.isSymbolicLink() ? `link:${await readlink(root)}` : top.isFile() ? `file:${await digestFile(root)}` : "other");
    return out;
  }
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(path, relative);
      else if (entry.isSymbolicLink()) out.set(relative, `link:${await readlink(path)}`);
      else if (entry.isFile()) out.set(relative, `file:${await digestFile(path)}`);
      else out.set(relative, "other");
    }
  };
  await walk(root, "");
  return out;
}

/** One hash of a folder's files (paths and contents), for study.json: a changed check file is a different study. */
export async function folderHash(root: string): Promise<string> {
  const hash = createHash("sha256");
  for (const [path, print] of await fingerprints(root)) hash.update(`${path}\0${print}\n`);
  return hash.digest("hex");
}

/** Compares the check path in the worktree with what the agent was given; sorted by path. */
export async function detectTampering(worktree: string, files: CheckFiles): Promise<TamperedPath[]> {
  const given = files.visible ? await fingerprints(files.from) : new Map<string, string>();
  const found = await fingerprints(join(worktree, files.to));
  const shown = (relative: string): string => (relative === "" ? files.to : `${files.to}/${relative}`);
  const out: TamperedPath[] = [];
  for (const [path, print] of given) {
    const now = found.get(path);
    if (now === undefined) out.push({ path: shown(path), kind: "deleted" });
    else if (now !== print) out.push({ path: shown(path), kind: "modified" });
  }
  for (const path of found.keys()) if (!given.has(path)) out.push({ path: shown(path), kind: "added" });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Makes `relative`'s parent folders real folders inside the worktree (a link or a file the agent
 * put there is removed), removes whatever is at `relative`, and returns its absolute path.
 */
async function clearPlace(worktree: string, relative: string): Promise<string> {
  const parts = relative.split("/");
  let dir = worktree;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    const info = await lstat(dir).catch(() => undefined);
    if (info !== undefined && !info.isDirectory()) await rm(dir, { force: true });
    await mkdir(dir, { recursive: true });
  }
  const target = join(worktree, relative);
  await rm(target, { recursive: true, force: true });
  return target;
}

/** Puts the task's own check files at their place in the worktree (before the agent when visible, and for grading). */
export async function placeCheckFiles(worktree: string, files: CheckFiles): Promise<void> {
  const target = await clearPlace(worktree, files.to);
  await cp(files.from, target, { recursive: true, errorOnExist: false, force: true, verbatimSymlinks: true });
}

/** Writes the run's final reply where grading checks can read it (`ARMSTUDY_FINAL_REPLY`). */
export async function placeFinalReply(worktree: string, text: string): Promise<string> {
  const target = await clearPlace(worktree, FINAL_REPLY_PATH);
  await writeFile(target, text);
  return FINAL_REPLY_PATH;
}
