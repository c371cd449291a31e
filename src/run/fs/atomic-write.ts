/**
 * Whole-file writes that never leave half a file: write a temporary file beside the target, then
 * rename it over the target. A reader (or a resumed study) sees the old file or the whole new one;
 * a failed write removes its temporary file.
 */
import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temp, content, { flag: "wx" });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** `value` as indented JSON with a final newline, written atomically. */
export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}
