/**
 * Errors the CLI turns into an exit code and one clear message. The message names the file, line
 * or field that is wrong and what to do about it.
 */
export class UsageError extends Error {
  readonly code = "USAGE";
  readonly exitCode = 2;
}

/** Bad input: a file that does not parse, a field that does not validate, a missing arm. */
export class InputError extends Error {
  readonly code = "INPUT";
  readonly exitCode = 2;
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
  }
}
