import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dispatchRow } from "../../../src/core/envelope/cost-ledger.ts";
import { appendLedgerRow, readLedgerSummary } from "../../../src/study/envelope/cost-ledger.ts";
import { EnvelopeFileError } from "../../../src/study/envelope/files.ts";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "../../..");
let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-ledger-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const row = (n: number) => dispatchRow({ taskId: `t-${n.toString(16).padStart(8, "0")}`, at: "2026-05-20T10:00:00Z" });

describe("appendLedgerRow", () => {
  it("creates the folder and appends whole lines", async () => {
    const file = join(dir, "nested/cost-ledger.jsonl");
    await appendLedgerRow(file, row(1));
    await appendLedgerRow(file, row(2));
    expect(await readFile(file, "utf8")).toBe(
      '{"v":1,"kind":"dispatch","task_id":"t-00000001","dispatched_at":"2026-05-20T10:00:00Z"}\n{"v":1,"kind":"dispatch","task_id":"t-00000002","dispatched_at":"2026-05-20T10:00:00Z"}\n',
    );
  });

  it("starts a new line after a torn last line, so the new row stays whole", async () => {
    const file = join(dir, "ledger.jsonl");
    await writeFile(file, '{"v":1,"kind":"disp');
    await appendLedgerRow(file, row(3));
    const summary = await readLedgerSummary(file);
    expect([summary.rows, summary.problems]).toEqual([1, [{ line: 1, task_id: null, message: "not JSON (a torn or hand-edited line?)" }]]);
  });

  it("keeps every row whole under concurrent appends in one process", async () => {
    const file = join(dir, "ledger.jsonl");
    await Promise.all(Array.from({ length: 200 }, (_, n) => appendLedgerRow(file, row(n))));
    const summary = await readLedgerSummary(file);
    expect([summary.rows, summary.dispatched, summary.problems]).toEqual([200, 200, []]);
  });

  it("keeps every row whole when several processes append at once", async () => {
    const file = join(dir, "ledger.jsonl");
    const worker = join(import.meta.dirname, "append-worker.ts");
    await Promise.all(["a1", "b2", "c3"].map((prefix) => run(process.execPath, ["--import", "tsx", worker, file, "60", prefix], { cwd: ROOT })));
    const summary = await readLedgerSummary(file);
    expect([summary.rows, summary.dispatched, summary.problems]).toEqual([180, 180, []]);
  });
});

describe("readLedgerSummary", () => {
  it("names a missing ledger", async () => {
    const file = join(dir, "none.jsonl");
    await expect(readLedgerSummary(file)).rejects.toThrow(new EnvelopeFileError(`cost ledger ${file} does not exist`, file));
  });
});
