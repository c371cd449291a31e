/**
 * The budget baseline (arms/budget-baseline.json): each arm's stable prefix and section hashes
 * as last accepted. `npm run budget` compares against it; `--update-baseline` rewrites it. The file
 * has no timestamps, so an unchanged pack rewrites it byte for byte.
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import type { Baseline } from "../../core/prompt/budget-report.ts";
import { PackError, packErrorFromIssues } from "../../core/prompt/errors.ts";
import { writeJsonAtomic } from "../fs/atomic-write.ts";
import { displayPath } from "./source.ts";

const size = { chars: z.number().int().nonnegative(), tokens: z.number().int().nonnegative() };
const baselineSchema = z.strictObject({
  version: z.literal(1),
  arms: z.record(
    z.string(),
    z.strictObject({
      prefixHash: z.string().regex(/^[0-9a-f]{64}$/),
      prefix: z.strictObject(size),
      sections: z.record(z.string(), z.strictObject({ hash: z.string().regex(/^[0-9a-f]{64}$/), ...size })),
    }),
  ),
});

/** The baseline at `path`, or null when the file does not exist and `mustExist` is false. */
export async function readBaseline(path: string, cwd: string, mustExist: boolean): Promise<Baseline | null> {
  const file = displayPath(path, cwd);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT" && !mustExist) return null;
    throw new PackError("BASELINE", file, "", `cannot be read (${(error as Error).message}). Check the --baseline path, or create it with --update-baseline.`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new PackError("BASELINE", file, "", `is not valid JSON (${(error as Error).message}). Restore it from git, or delete it and run --update-baseline for every arm.`);
  }
  const parsed = baselineSchema.safeParse(data);
  if (!parsed.success) throw packErrorFromIssues(parsed.error.issues, file);
  return parsed.data;
}

/** Writes the baseline atomically: a temp file beside it (its folder created), then a rename. */
export async function writeBaseline(path: string, baseline: Baseline, cwd = process.cwd()): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeJsonAtomic(path, baseline);
  } catch (error) {
    const code = String((error as { code?: unknown }).code ?? (error as Error).message);
    const why = code === "EISDIR" ? "it is a folder" : code === "EEXIST" || code === "ENOTDIR" ? "a file is in the way of its folder" : code;
    throw new PackError("BASELINE", displayPath(path, cwd), "", `cannot be written (${why}). Check the --baseline path.`);
  }
}
