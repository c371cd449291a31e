/** What a command may touch of the outside world, injected so commands are testable in-process. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input (for `-` file arguments). */
  readStdin: () => Promise<string>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** True when stdout is a terminal (progress lines redraw in place). */
  isTTY: boolean;
  /** True when stderr is a terminal (a progress line there while stdout goes to a file); defaults to isTTY. */
  stderrTTY?: boolean;
}

export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    stderrTTY: Boolean(process.stderr.isTTY),
  };
}

/** Captures a command's output, for tests. */
export function memoryIO(overrides: Partial<CliIO> & { stdin?: string } = {}): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const { stdin = "", ...rest } = overrides;
  return {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    cwd: process.cwd(),
    env: {},
    isTTY: false,
    ...rest,
    out,
    err,
  };
}
