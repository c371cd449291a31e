/**
 * Who the sandboxed process is. Run as root, armstudy hands each work directory to an
 * unprivileged user id of its own (derived from the folder's path, so concurrent runs rarely
 * share one) and the sandbox drops to it: root-only files stay unreadable even if bound, and the
 * process-count limit counts that user's processes only (the kernel never limits root's).
 * Run as anyone else, the sandbox runs as that user inside a user namespace.
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

function chownTree(path: string, uid: number): void {
  const info = lstatSync(path);
  lchownSync(path, uid, uid);
  if (!info.isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), uid);
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
