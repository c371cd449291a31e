/** Argument handling the commands share: flag parsing with a usage error, and a reply read from FILE or stdin. */
import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { nearestName } from "../core/nearest-name.ts";
import { NotUtf8Error, decodeUtf8Strict } from "../run/fs/utf8.ts";
import { InputError, UsageError } from "./errors.ts";
import type { CliIO } from "./io.ts";

/** `parseArgs(config)`; an unknown or malformed flag becomes a UsageError followed by `usage`. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${unknownOptionHint(error, Object.keys(config.options ?? {})) ?? message}\nusage: ${usage}`);
  }
}

/**
 * For a mistyped long flag, "Unknown option '--arms'; did you mean --arm?" when one known flag is at
 * most two edits away. Node's own message instead advises `--` for positionals, which a typo never needs.
 */
function unknownOptionHint(error: unknown, known: readonly string[]): string | null {
  if ((error as { code?: unknown }).code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return null;
  const typed = /Unknown option '(--[^'=]+)/.exec((error as Error).message)?.[1];
  if (typed === undefined) return null;
  const near = nearestName(typed.slice(2), known.filter((name) => name.length > 1));
  return near === null ? `Unknown option '${typed}'` : `Unknown option '${typed}'; did you mean --${near}?`;
}

/** The reply text from FILE (relative to the working directory), or from standard input for `-` or no FILE. */
export async function readReply(file: string | undefined, io: CliIO): Promise<string> {
  if (file === undefined || file === "-") return io.readStdin();
  try {
    return decodeUtf8Strict(await readFile(resolve(io.cwd, file)));
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new InputError(`${file}: ${error.message}; save the reply as UTF-8`, file);
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new InputError(`${file}: cannot read (${code}); pass a readable reply file, or - for standard input`, file);
  }
}

/**
 * Checks an output file flag (`--out`, `--record`) before any work starts: its folder is created,
 * and neither the path nor its folder may be in the way. Bad → InputError naming the flag.
 */
export async function prepareOutputFile(flag: string, path: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    const why = code === "EEXIST" || code === "ENOTDIR" ? "a file is in the way" : code;
    throw new InputError(`${flag} ${path}: cannot create its folder ${dirname(path)} (${why}); choose a path under a folder`, path);
  }
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory() === true) throw new InputError(`${flag} ${path} is a folder; give a file path, such as ${path}/record.jsonl`, path);
}
