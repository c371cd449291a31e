import type { CliIO } from "./io.ts";

/** One CLI command: `armstudy <name> ...args`. Returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}
