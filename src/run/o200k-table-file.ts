/**
 * The committed compact o200k table (data/o200k-rank-table.bin, ADR 0162): read it and hand it to
 * core's counter, so a command's first count maps ~4 MB of arrays instead of parsing
 * gpt-tokenizer's rank list and hashing it. The file names the rank list it was built from (the
 * package's version and the list's size); a file for another list, a damaged one or none at all
 * is not used, and the table is built from the list as before — the counts never depend on it.
 * Regenerate with `node --import tsx scripts/o200k-table.ts` (a test fails until you do).
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setO200kTableSource } from "../core/tokens/o200k.ts";
import { rankTableFromParts, type RankTableParts } from "../core/tokens/rank-table.ts";
import { decodeRankTable } from "../core/tokens/rank-table-file.ts";

export const O200K_TABLE_FILE = join(import.meta.dirname, "../../data/o200k-rank-table.bin");

/** Which rank list this process's gpt-tokenizer holds: its version and the list module's size. */
export function o200kListIdentity(): string {
  const require = createRequire(import.meta.url);
  const { version } = JSON.parse(readFileSync(require.resolve("gpt-tokenizer/package.json"), "utf8")) as { version: string };
  const list = require.resolve("gpt-tokenizer/bpeRanks/o200k_base");
  return `gpt-tokenizer ${version} o200k_base ${statSync(list).size} bytes`;
}

/** The committed table's arrays, or why they cannot serve this process's rank list. */
export function readO200kTableFile(file = O200K_TABLE_FILE): { parts: RankTableParts } | { problem: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { problem: `${file}: ${(error as Error).message}` };
  }
  const read = decodeRankTable(bytes, o200kListIdentity());
  return "problem" in read ? { problem: `${file}: ${read.problem}` } : read;
}

/** Makes this process's first count take the committed table (nothing is read until then). */
export function useO200kTableFile(file = O200K_TABLE_FILE): void {
  setO200kTableSource(() => {
    const read = readO200kTableFile(file);
    return "parts" in read ? rankTableFromParts(read.parts) : null;
  });
}
