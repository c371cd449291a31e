/**
 * The results-folder lock (ADR 0084): the study writing a folder holds `study.lock` (its pid) so a
 * second `armstudy study --resume` on the same folder is refused instead of interleaving records.
 * A lock whose pid is no longer alive is stale (a study killed with SIGKILL) and is taken over.
 */
import { open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { StudyInputError } from "./errors.ts";

export const LOCK_FILE = "study.lock";

export interface FolderLock {
  file: string;
  release(): Promise<void>;
}

/** True when a process with this pid exists (EPERM: it exists, owned by someone else). */
export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function holderOf(file: string): Promise<number | null> {
  try {
    const value = JSON.parse(await readFile(file, "utf8")) as { pid?: unknown };
    return typeof value.pid === "number" ? value.pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock of `dir` for this process, or throws STUDY_LOCKED naming the holder's pid.
 * `shown` is the folder as messages name it.
 */
export async function lockResultsFolder(dir: string, shown: string, pid = process.pid): Promise<FolderLock> {
  const file = join(dir, LOCK_FILE);
  const body = `${JSON.stringify({ pid, startedAt: new Date().toISOString() })}\n`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(file, "wx");
      await handle.writeFile(body);
      await handle.close();
      return {
        file,
        release: async () => {
          // Only our own lock is removed: never one a later study took over.
          if ((await holderOf(file)) === pid) await rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await holderOf(file);
    if (holder !== null && holder !== pid && pidAlive(holder)) {
      throw new StudyInputError(
        "STUDY_LOCKED",
        `${shown} is being written by another armstudy study (pid ${holder}). Wait for it to finish, stop it, or choose another --out.`,
      );
    }
    // Stale (its process is gone), our own, or unreadable: take it over.
    await rm(file, { force: true });
  }
  throw new StudyInputError("STUDY_LOCKED", `${shown}: could not take the lock ${LOCK_FILE}; another study keeps taking it. Choose another --out.`);
}
