import { describe, expect, it } from "vitest";
import { checkEnvelope } from "../../../src/core/envelope/check.ts";
import { completionRow, dispatchRow, ledgerLine, LedgerRowError, newTaskId, summarizeCostLedger } from "../../../src/core/envelope/cost-ledger.ts";

const envelope = {
  branch: "b",
  commit_sha: "pending",
  files_changed: ["a.ts", "b.ts"],
  loc_added: 7,
  loc_removed: 1,
  f_criteria: { F1: "pass", F2: "fail" },
  synthesis_attestation: {},
  novel_decisions: [],
  notes: "",
  wall_clock_seconds: 90,
  task_id: "t-0000abcd",
};

describe("cost-ledger rows", () => {
  it("makes a task id from four random bytes", () => {
    expect(newTaskId(Uint8Array.from([0, 15, 160, 255, 9]))).toBe("t-000fa0ff");
    expect(() => newTaskId(new Uint8Array(3))).toThrow(LedgerRowError);
  });

  it("builds a dispatch row, leaving out what was not given", () => {
    expect(dispatchRow({ taskId: "t-0000abcd", at: "2026-05-20T10:00:00.000Z", chunk: "c1", meta: {} })).toEqual({
      v: 1,
      kind: "dispatch",
      task_id: "t-0000abcd",
      dispatched_at: "2026-05-20T10:00:00.000Z",
      chunk: "c1",
    });
    expect(() => dispatchRow({ taskId: "unknown", at: "2026-05-20T10:00:00.000Z" })).toThrow(
      'dispatch task id "unknown" cannot be correlated: use "t-" and 8 hex digits (an envelope\'s "unknown" has no ledger row)',
    );
  });

  it("builds a completion row from a checked envelope", () => {
    const { verdict } = checkEnvelope(envelope);
    expect(completionRow({ envelope, verdict, at: "2026-05-20T10:02:00.000Z", envelopePath: "out/e.yaml" })).toEqual({
      v: 1,
      kind: "completion",
      task_id: "t-0000abcd",
      completed_at: "2026-05-20T10:02:00.000Z",
      route: "iterate",
      status: "completed",
      wall_clock_seconds: 90,
      loc_added: 7,
      loc_removed: 1,
      files_changed: 2,
      f_pass: 1,
      f_fail: 1,
      envelope: "out/e.yaml",
    });
  });

  it("records a malformed envelope too, with nulls for what it lacks, and needs a task id", () => {
    const broken = { task_id: "t-0000abcd", loc_added: "many" };
    const { verdict } = checkEnvelope(broken);
    expect(completionRow({ envelope: broken, verdict, at: "2026-05-20T10:02:00Z" })).toEqual({
      v: 1,
      kind: "completion",
      task_id: "t-0000abcd",
      completed_at: "2026-05-20T10:02:00Z",
      route: "malformed",
      status: null,
      wall_clock_seconds: null,
      loc_added: null,
      loc_removed: null,
      files_changed: null,
      f_pass: 0,
      f_fail: 0,
    });
    expect(() => completionRow({ envelope: {}, verdict: checkEnvelope({}).verdict, at: "2026-05-20T10:02:00Z" })).toThrow(LedgerRowError);
    expect(completionRow({ envelope: {}, verdict: checkEnvelope({}).verdict, at: "2026-05-20T10:02:00Z", taskId: "t-11112222" }).task_id).toBe("t-11112222");
  });

  it("writes one JSON line per row", () => {
    expect(ledgerLine(dispatchRow({ taskId: "t-0000abcd", at: "2026-05-20T10:00:00Z" }))).toBe('{"v":1,"kind":"dispatch","task_id":"t-0000abcd","dispatched_at":"2026-05-20T10:00:00Z"}\n');
  });
});

describe("summarizeCostLedger", () => {
  const d = (id: string, at: string): string => ledgerLine(dispatchRow({ taskId: id, at }));
  const c = (id: string, at: string): string => ledgerLine(completionRow({ envelope: { ...envelope, task_id: id }, verdict: checkEnvelope({ ...envelope, task_id: id }).verdict, at }));

  it("correlates dispatch and completion rows by task id", () => {
    const text = d("t-00000001", "2026-05-20T10:00:00Z") + d("t-00000002", "2026-05-20T10:00:30Z") + c("t-00000001", "2026-05-20T10:02:00Z");
    expect(summarizeCostLedger(text)).toEqual({
      rows: 3,
      dispatched: 2,
      completed: 1,
      open: ["t-00000002"],
      routes: { iterate: 1 },
      wall_clock_seconds_total: 90,
      loc_added_total: 7,
      loc_removed_total: 1,
      tasks: [
        { task_id: "t-00000001", dispatched_at: "2026-05-20T10:00:00Z", completed_at: "2026-05-20T10:02:00Z", elapsed_seconds: 120, route: "iterate", status: "completed", wall_clock_seconds: 90 },
        { task_id: "t-00000002", dispatched_at: "2026-05-20T10:00:30Z", completed_at: null, elapsed_seconds: null, route: null, status: null, wall_clock_seconds: null },
      ],
      problems: [],
    });
  });

  it("lists torn lines, foreign rows, orphans, duplicates and time travel as problems", () => {
    const text = [
      d("t-00000001", "2026-05-20T10:00:00Z"),
      '{"v":1,"kind":"dispa',
      "\n",
      '{"v":2,"kind":"dispatch"}\n',
      d("t-00000001", "2026-05-20T10:00:05Z"),
      c("t-00000003", "2026-05-20T10:01:00Z"),
      c("t-00000001", "2026-05-20T09:59:00Z"),
      c("t-00000001", "2026-05-20T10:03:00Z"),
    ].join("");
    expect(summarizeCostLedger(text).problems).toEqual([
      { line: 2, task_id: null, message: "not JSON (a torn or hand-edited line?)" },
      { line: 3, task_id: null, message: "not a ledger row: v: Invalid input: expected 1" },
      { line: 4, task_id: "t-00000001", message: "second dispatch row for t-00000001 (first on line 1); task ids must be unique per dispatch" },
      { line: 7, task_id: "t-00000001", message: "second completion row for t-00000001" },
      { line: null, task_id: "t-00000001", message: "t-00000001 completed 60s before it was dispatched" },
      { line: null, task_id: "t-00000003", message: "completion for t-00000003 has no dispatch row" },
    ]);
  });

  it("summarises an empty ledger", () => {
    expect(summarizeCostLedger("")).toEqual({ rows: 0, dispatched: 0, completed: 0, open: [], routes: {}, wall_clock_seconds_total: 0, loc_added_total: 0, loc_removed_total: 0, tasks: [], problems: [] });
  });
});
