/**
 * Prints ADR 0245's table: a blind second labeller scored as a reader on every twice-labelled split, against the first
 * labelling and against labels.yaml (test/core/report/labeller-as-reader.ts). Labels only.
 *
 *   node --import tsx scripts/experiments/labeller-as-reader.ts
 */
import { READER_FIELDS, type Tally, labellerAsReader, readerCell } from "../../test/core/report/labeller-as-reader.ts";

console.log(`| split (replies) | against | ${READER_FIELDS.join(" | ")} |`);
console.log(`|---|---|${READER_FIELDS.map(() => "---").join("|")}|`);
for (const row of labellerAsReader()) {
  console.log(`| ${row.split} (${row.replies}) | ${row.against} | ${READER_FIELDS.map((field) => readerCell(row.fields[field] as Tally)).join(" | ")} |`);
}
