/**
 * Writes data/o200k-rank-table.bin, the compact o200k table (ADR 0162), from gpt-tokenizer's rank
 * list. Run after upgrading gpt-tokenizer: `node --import tsx scripts/o200k-table.ts`.
 * test/run/o200k-table-file.test.ts checks the committed file is exactly what this writes.
 */
import { writeFileSync } from "node:fs";
import { o200kRankList } from "../src/core/tokens/o200k.ts";
import { rankTableParts } from "../src/core/tokens/rank-table.ts";
import { encodeRankTable } from "../src/core/tokens/rank-table-file.ts";
import { O200K_TABLE_FILE, o200kListIdentity } from "../src/run/o200k-table-file.ts";

const bytes = encodeRankTable(rankTableParts(o200kRankList()), o200kListIdentity());
writeFileSync(O200K_TABLE_FILE, bytes);
console.log(`wrote ${O200K_TABLE_FILE}: ${bytes.length} bytes for ${o200kListIdentity()}`);
