/**
 * Writes src/core/report/derived-gates.ts: the gate of every row of the analyzer's table that has no written gate,
 * derived from its expression (src/core/report/literals.ts, ADR 0237). Run after adding or changing a row:
 * `node --import tsx scripts/derived-gates.ts`. test/core/report/derived-gates.test.ts checks the committed file is
 * exactly what this writes.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROW_GATES } from "../src/core/report/gates.ts";
import { derivedGatesModule } from "../src/core/report/literals.ts";
import { REPORT_PATTERNS } from "../src/core/report/patterns.ts";

export const DERIVED_GATES_FILE = join(import.meta.dirname, "../src/core/report/derived-gates.ts");
const ungated = REPORT_PATTERNS.filter((row) => !ROW_GATES.has(row.id)).map((row) => row.pattern);
const source = derivedGatesModule(ungated);
writeFileSync(DERIVED_GATES_FILE, source);
console.log(`wrote ${DERIVED_GATES_FILE}: gates for ${source.split("\n").filter((line) => line.startsWith("  [")).length} of ${ungated.length} rows with no written gate`);
