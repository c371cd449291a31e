/**
 * Intent freshness on disk: `<workdir>/.build-loop/intent.md`. The check never throws — it is
 * advisory, and any failure to check becomes the `unchecked` verdict. Stamping is a real write:
 * it fails loudly when there is no intent file to stamp.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { INTENT_FILE, type IntentFreshness, intentFreshness, RunIdError, readStamps, stampIntentText, uncheckedFreshness, validateRunId } from "../../core/envelope/intent.ts";
import { writeFileAtomic } from "../../run/fs/atomic-write.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../../run/fs/utf8.ts";
import { EnvelopeFileError } from "./files.ts";

export function intentPath(workdir: string): string {
  return join(workdir, INTENT_FILE);
}

export async function checkIntentFreshness(workdir: string, runId: string): Promise<IntentFreshness & { file: string }> {
  const file = intentPath(workdir);
  try {
    validateRunId(runId);
  } catch (error) {
    return { ...uncheckedFreshness(runId, error instanceof Error ? error.message : String(error)), file };
  }
  try {
    const info = await stat(workdir);
    if (!info.isDirectory()) return { ...uncheckedFreshness(runId, `workdir ${workdir} is not a directory`), file };
  } catch {
    return { ...uncheckedFreshness(runId, `workdir ${workdir} does not exist`), file };
  }
  try {
    return { ...intentFreshness(await readFile(file, "utf8"), runId), file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ...intentFreshness(null, runId), file };
    return { ...uncheckedFreshness(runId, `${file} cannot be read (${String(code ?? error)})`), file };
  }
}

export async function stampIntentFile(workdir: string, runId: string): Promise<{ file: string; previous: string[] }> {
  const file = intentPath(workdir);
  try {
    validateRunId(runId);
  } catch (error) {
    if (error instanceof RunIdError) throw new EnvelopeFileError(error.message, file);
    throw error;
  }
  let text: string;
  try {
    // Strict: stamping rewrites the file, and must not replace bytes it cannot decode.
    text = decodeUtf8Strict(await readFile(file));
  } catch (error) {
    if (error instanceof NotUtf8Error) {
      throw new EnvelopeFileError(`${file}: ${error.message}; save it as UTF-8, then stamp it (the file is left as it was)`, file, error.line);
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw new EnvelopeFileError(
      code === "ENOENT" ? `${file} does not exist: write the intent restatement first, then stamp it` : `${file} cannot be read (${String(code ?? error)})`,
      file,
    );
  }
  await writeFileAtomic(file, stampIntentText(text, runId));
  return { file, previous: readStamps(text) };
}
