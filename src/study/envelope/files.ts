/**
 * Envelope and plan files → the pure checks in src/core/envelope. A file that cannot be read or
 * holds no envelope throws `EnvelopeFileError` (the CLI's exit 2); a readable envelope always
 * yields a verdict, malformed or not.
 */
import { readFile } from "node:fs/promises";
import { type CheckResult, checkEnvelope } from "../../core/envelope/check.ts";
import { EnvelopeTextError, type EnvelopeDocument, parseEnvelopeText } from "../../core/envelope/document.ts";
import { extractSynthesisDimensions, PlanFormatError, type PlanDimensions } from "../../core/envelope/plan.ts";

/** A file that cannot be read or understood: missing, unreadable, a syntax error, no envelope. */
export class EnvelopeFileError extends Error {
  readonly code = "ENVELOPE_FILE";
  constructor(
    message: string,
    readonly file: string,
    readonly line: number | null = null,
  ) {
    super(message);
  }
}

async function readText(file: string, what: string, name: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "does not exist" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "is not readable (permission denied)" : `cannot be read (${String(code ?? error)})`;
    throw new EnvelopeFileError(`${what} ${name} ${why}`, name);
  }
}

/** Parses envelope text; `name` is the file name used in messages (`-` for standard input). */
export function parseEnvelopeFileText(text: string, name: string): EnvelopeDocument {
  try {
    return parseEnvelopeText(text);
  } catch (error) {
    if (error instanceof EnvelopeTextError) throw new EnvelopeFileError(`envelope ${name} ${error.message}`, name, error.line);
    throw error;
  }
}

/** `name` is how messages refer to the file (the argument as the user typed it). */
export async function readEnvelopeFile(file: string, name = file): Promise<EnvelopeDocument> {
  return parseEnvelopeFileText(await readText(file, "envelope", name), name);
}

export async function readPlanFile(file: string, name = file): Promise<PlanDimensions> {
  const text = await readText(file, "plan", name);
  try {
    return extractSynthesisDimensions(text);
  } catch (error) {
    if (error instanceof PlanFormatError) throw new EnvelopeFileError(`plan ${name}: ${error.message}`, name, error.line);
    throw error;
  }
}

export interface CheckFileOptions {
  plan?: string;
  checkLedger?: boolean;
}

/** Checks an envelope document; the document's own warnings (wrapper, fenced block) come first. */
export function checkEnvelopeDocument(document: EnvelopeDocument, plan: PlanDimensions | undefined, checkLedger: boolean): CheckResult {
  const result = checkEnvelope(document.envelope, { ...(plan === undefined ? {} : { plan }), checkLedger });
  return { ...result, verdict: { ...result.verdict, warnings: [...document.warnings, ...result.verdict.warnings] } };
}

export async function checkEnvelopeFile(file: string, options: CheckFileOptions = {}): Promise<CheckResult & { document: EnvelopeDocument }> {
  const plan = options.plan === undefined ? undefined : await readPlanFile(options.plan);
  const document = await readEnvelopeFile(file);
  return { ...checkEnvelopeDocument(document, plan, options.checkLedger === true), document };
}
