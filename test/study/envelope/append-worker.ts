/** Test helper (not a test): appends N dispatch rows to a ledger, as one of several processes. */
import { dispatchRow } from "../../../src/core/envelope/cost-ledger.ts";
import { appendLedgerRow } from "../../../src/study/envelope/cost-ledger.ts";

const [file = "", count = "0", prefix = "00"] = process.argv.slice(2);
for (let index = 0; index < Number(count); index++) {
  const taskId = `t-${prefix}${index.toString(16).padStart(6, "0")}`;
  await appendLedgerRow(file, dispatchRow({ taskId, at: "2026-05-20T10:00:00Z", meta: { pad: "x".repeat(200 + (index % 50)) } }));
}
