/** Argument handling the commands share: flag parsing with a usage error, and a reply read from FILE or stdin. */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { InputError, UsageError } from "./errors.ts";
import type { CliIO } from "./io.ts";

/** `parseArgs(config)`; an unknown or malformed flag becomes a UsageError followed by `usage`. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\nusage: ${usage}`);
  }
}

/** The reply text from FILE (relative to the working directory), or from standard input for `-` or no FILE. */
export async function readReply(file: string | undefined, io: CliIO): Promise<string> {
  if (file === undefined || file === "-") return io.readStdin();
  try {
    return await readFile(resolve(io.cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new InputError(`${file}: cannot read (${code}); pass a readable reply file, or - for standard input`, file);
  }
}
