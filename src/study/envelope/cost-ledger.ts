/**
 * The cost ledger on disk (JSONL). Each row is appended with one write of one whole line to a
 * file opened for appending, so concurrent writers interleave whole lines, never fragments. A file
 * whose last line was torn (no final newline) gets a newline first, so the new row stays whole.
 */
import { mkdir, open, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type LedgerRow, type LedgerSummary, ledgerLine, summarizeCostLedger } from "../../core/envelope/cost-ledger.ts";
import { EnvelopeFileError } from "./files.ts";

export async function appendLedgerRow(file: string, row: LedgerRow): Promise<void> {
  const line = ledgerLine(row);
  let handle;
  try {
    await mkdir(dirname(file), { recursive: true });
    handle = await open(file, "a+");
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code ?? error);
    const why = code === "EISDIR" ? "it is a folder" : code === "EEXIST" || code === "ENOTDIR" ? "a file is in the way of its folder" : code;
    throw new EnvelopeFileError(`cost ledger ${file} cannot be appended to (${why}); give the path of a JSONL file`, file);
  }
  try {
    const { size } = await handle.stat();
    let prefix = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = "\n";
    }
    const bytes = Buffer.from(prefix + line, "utf8");
    const { bytesWritten } = await handle.write(bytes, 0, bytes.length);
    if (bytesWritten !== bytes.length) throw new EnvelopeFileError(`short write to ${file}: ${bytesWritten} of ${bytes.length} bytes`, file);
  } finally {
    await handle.close();
  }
}

export async function readLedgerSummary(file: string): Promise<LedgerSummary> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EnvelopeFileError(code === "ENOENT" ? `cost ledger ${file} does not exist` : `cost ledger ${file} cannot be read (${String(code ?? error)})`, file);
  }
  return summarizeCostLedger(text);
}
