/**
 * Atomic writes for the results folder: write a temporary file beside the target, then rename it
 * over the target. A reader (or a resumed study) sees the old file or the whole new one, never half.
 */
import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";

export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, content);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}
