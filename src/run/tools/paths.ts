/**
 * Confinement: every path a tool touches must stay inside the work directory. A path is refused
 * when it is absolute, when any of its segments is `..`, or when a symbolic link along it (or the
 * link it names, even a dangling one) resolves outside. A name that merely starts with dots
 * (`..foo`, `...`) is an ordinary file name.
 */
import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "./types.ts";

const MAX_LINK_HOPS = 40;

function refuse(given: string, why: string): ToolError {
  return new ToolError("TOOL_PATH_REFUSED", `path ${JSON.stringify(given)} refused: ${why}. Give a path relative to the work directory, inside it.`);
}

/** Checks the text of a path before touching the disk. */
export function checkPathText(given: unknown, field = "path"): string {
  if (typeof given !== "string" || given.trim() === "") {
    throw new ToolError("TOOL_BAD_ARGUMENTS", `argument \`${field}\` must be a non-empty relative path`);
  }
  if (given.includes("\0")) throw refuse(given, "it contains a NUL character");
  if (path.posix.isAbsolute(given) || path.win32.isAbsolute(given) || /^[a-zA-Z]:/.test(given)) {
    throw refuse(given, "absolute paths are not allowed");
  }
  if (given === "~" || given.startsWith("~/")) throw refuse(given, "home-directory paths are not allowed");
  if (given.split(/[\\/]+/).includes("..")) throw refuse(given, "`..` segments are not allowed");
  return given;
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The real location `p` names: symbolic links resolved, including a dangling link at the end or
 * a link in a part of the path that does not exist yet.
 */
async function resolveReal(p: string, hops = 0): Promise<string> {
  if (hops > MAX_LINK_HOPS) throw new ToolError("TOOL_PATH_REFUSED", `too many symbolic links along ${p}`);
  try {
    return await realpath(p);
  } catch {
    // Part of the path does not exist (yet). Find the deepest existing ancestor-or-self.
  }
  let info;
  try {
    info = await lstat(p);
  } catch {
    info = undefined;
  }
  if (info?.isSymbolicLink()) {
    const target = await readlink(p);
    return resolveReal(path.resolve(path.dirname(p), target), hops + 1);
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  return path.join(await resolveReal(parent, hops), path.basename(p));
}

export interface ConfinedPath {
  /** Absolute path to use for the file operation. */
  absolute: string;
  /** The path relative to the work directory, with forward slashes, for records. */
  relative: string;
}

/** True when a segment of `relative` is a `.git` folder or file (any case: some file systems fold it). */
function insideGit(relative: string): boolean {
  return relative.split(/[\\/]+/).some((segment) => segment.toLowerCase() === ".git");
}

export interface ConfineOptions {
  /** A path to write: `.git` and anything under it are refused, also when a link leads there. */
  write?: boolean;
}

/** Resolves `given` inside `dir`, or throws a `TOOL_PATH_REFUSED` ToolError. */
export async function confine(dir: string, given: unknown, field = "path", options: ConfineOptions = {}): Promise<ConfinedPath> {
  const text = checkPathText(given, field);
  const root = await realpath(dir);
  const absolute = path.resolve(root, text);
  if (!isInside(root, absolute)) throw refuse(text, "it points outside the work directory");
  const real = await resolveReal(absolute);
  if (!isInside(root, real)) throw refuse(text, "a symbolic link along it leads outside the work directory");
  if (options.write === true && (insideGit(path.relative(root, absolute)) || insideGit(path.relative(root, real)))) {
    throw new ToolError("TOOL_PATH_REFUSED", `path ${JSON.stringify(text)} refused: .git and everything under it are git's own data; change files with the tools, and commit with \`git\` in the shell`);
  }
  const relative = path.relative(root, absolute).split(path.sep).join("/");
  return { absolute, relative: relative === "" ? "." : relative };
}

/**
 * Refuses a regular file with more than one hard link: its other name may be outside the work
 * directory (a link made to /etc/shadow reads it as root), and no path check can see where.
 */
export async function refuseHardLinks(target: ConfinedPath): Promise<void> {
  const info = await lstat(target.absolute).catch(() => undefined);
  if (info !== undefined && info.isFile() && info.nlink > 1) {
    throw new ToolError("TOOL_PATH_REFUSED", `path ${JSON.stringify(target.relative)} refused: it is a hard link (${info.nlink} names for one file), and its other names may lie outside the work directory`);
  }
}

export { exists as pathExists };
