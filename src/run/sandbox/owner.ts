/**
 * Who the sandboxed process is. Run as root, armstudy hands each work directory to an
 * unprivileged user id of its own (derived from the folder's path, so concurrent runs rarely
 * share one) and the sandbox drops to it: root-only files stay unreadable even if bound, and the
 * process-count limit counts that user's processes only (the kernel never limits root's).
 * Run as anyone else, the sandbox runs as that user inside a user namespace.
 *
 * A folder armstudy did not make (`armstudy run --dir`) is given back to its owners when the run
 * ends (`recordOwnership` / `restoreOwnership`); a study's per-run clone is removed instead.
 */
import { lchownSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The first id of the range sandbox users are taken from; no real account lives there. */
export const SANDBOX_UID_BASE = 300_000;
const SANDBOX_UID_SPAN = 100_000;

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** FNV-1a of the path, folded into the range. */
export function sandboxUidFor(dir: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < dir.length; index += 1) {
    hash ^= dir.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return SANDBOX_UID_BASE + (hash % SANDBOX_UID_SPAN);
}

/**
 * Every entry under `root` (and `root` itself), depth first with an explicit stack: no recursion
 * to overflow on a deep tree, one readdir per folder (its entries' types come with it) and no
 * lstat per entry. Symbolic links are visited, never followed.
 */
function walkTree(root: string, visit: (path: string, isDirectory: boolean) => void): void {
  const rootIsDirectory = lstatSync(root).isDirectory();
  visit(root, rootIsDirectory);
  if (!rootIsDirectory) return;
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      // Removed while we walked (the agent's own processes are gone by now, but be safe).
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      visit(path, entry.isDirectory());
      if (entry.isDirectory()) folders.push(path);
    }
  }
}

function chownTree(path: string, uid: number, gid = uid): void {
  walkTree(path, (entry) => {
    try {
      lchownSync(entry, uid, gid);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  });
}

/**
 * Who owned a folder armstudy did not make (`armstudy run --dir`) before the sandbox user got it:
 * the folder's own owner, and every entry under it that had another one (usually none).
 */
export interface Ownership {
  dir: string;
  uid: number;
  gid: number;
  others: Map<string, { uid: number; gid: number }>;
}

/** Reads who owns `dir` and everything under it, to give it back after the run (`restoreOwnership`). */
export function recordOwnership(dir: string): Ownership {
  const top = lstatSync(dir);
  const others = new Map<string, { uid: number; gid: number }>();
  walkTree(dir, (path) => {
    const info = lstatSync(path);
    if (info.uid !== top.uid || info.gid !== top.gid) others.set(path, { uid: info.uid, gid: info.gid });
  });
  return { dir, uid: top.uid, gid: top.gid, others };
}

/**
 * Gives `dir` back as it was: every entry — the agent's new files too — to the folder's owner,
 * then each entry that had an owner of its own to that one. Entries gone since are skipped.
 */
export function restoreOwnership(owned: Ownership): void {
  if (!isRoot()) return;
  chownTree(owned.dir, owned.uid, owned.gid);
  for (const [path, { uid, gid }] of owned.others) {
    try {
      lchownSync(path, uid, gid);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/**
 * The user id the sandbox runs as for `dir`, handing the folder over first when it is still
 * root's (once per work directory; later calls find it handed over). Null when not root.
 */
export function sandboxOwner(dir: string): number | null {
  if (!isRoot()) return null;
  const current = lstatSync(dir).uid;
  if (current >= SANDBOX_UID_BASE && current < SANDBOX_UID_BASE + SANDBOX_UID_SPAN) return current;
  const uid = sandboxUidFor(dir);
  chownTree(dir, uid);
  return uid;
}

/** Hands `path` (a folder armstudy made for the sandbox, e.g. a client's home) to `uid`. */
export function giveTo(path: string, uid: number): void {
  chownTree(path, uid);
}

/** Gives a file armstudy itself wrote in a work directory to the directory's sandbox user. */
export function matchOwner(path: string, root: string): void {
  if (!isRoot()) return;
  const owner = lstatSync(root).uid;
  if (owner !== 0 && lstatSync(path).uid !== owner) chownTree(path, owner);
}
