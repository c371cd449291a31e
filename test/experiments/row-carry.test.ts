/**
 * The pure pieces of the carry screen (scripts/experiments/row-carry-screen.ts, docs/decisions/0243): each row's field
 * and push, the tallies by repository, the buckets, the one-repository rows, the screen and the names it lets through.
 * The dev figures are the script's to print, not a test's to assert.
 */
import { describe, expect, it } from "vitest";
import { type FiredReply, bucketsByField, carryRows, carryingRows, confusion, devNames, oneRepoRows, ownRepoOnly, rowTarget } from "../../scripts/experiments/row-carry-screen.ts";

const labels = (claims: boolean, unfinished: boolean, reason: boolean, permission: boolean) => ({ claimsComplete: claims, statesUnfinished: unfinished, givesReasonAndNext: reason, asksPermission: permission });

describe("a row's field and push", () => {
  it("follows the group, with the notes that take a verdict back pushing to false and the conjunctive rows given their partner", () => {
    expect(["complete.word", "unfinished.still", "mark.progress", "steps.subset", "continue.ask", "reason.cause", "permission.menu", "review.no-claim", "midtask.no-state", "filler.thanks", "content.plan", "window.unread"].map((id) => rowTarget(id, id === "steps.subset" ? "steps" : id.endsWith("no-claim") || id.endsWith("no-state") || id.startsWith("content") ? "content" : id.startsWith("window") ? "window" : (id.split(".")[0] as string)))).toEqual([
      { field: "claimsComplete", pushes: true },
      { field: "statesUnfinished", pushes: true },
      { field: "statesUnfinished", pushes: true },
      { field: "statesUnfinished", pushes: true },
      { field: "statesUnfinished", pushes: true, given: "asksPermission" },
      { field: "givesReasonAndNext", pushes: true, given: "statesUnfinished" },
      { field: "asksPermission", pushes: true },
      { field: "claimsComplete", pushes: false },
      { field: "statesUnfinished", pushes: false },
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("the tallies", () => {
  const replies: FiredReply[] = [
    { file: "001-a.md", repo: "o/one", ids: ["permission.x", "reason.y"], labels: labels(false, false, false, true) },
    { file: "002-b.md", repo: "o/one", ids: ["permission.x", "reason.y"], labels: labels(false, true, true, false) },
    { file: "003-c.md", repo: "o/two", ids: ["permission.x", "permission.z"], labels: labels(false, false, false, true) },
    { file: "004-d.md", repo: "written", ids: ["permission.x", "reason.y"], labels: labels(false, true, false, true) },
  ];
  const rows = carryRows(
    [
      { id: "permission.x", group: "permission" },
      { id: "permission.z", group: "permission" },
      { id: "reason.y", group: "reason" },
      { id: "unfinished.never", group: "unfinished" },
      { id: "filler.f", group: "filler" },
    ],
    replies,
  );

  it("counts fires, scored replies and agreement per repository; a reason row is scored only where the label says unfinished", () => {
    expect(rows.map((row) => [row.id, row.replies, row.scored, row.agree, [...row.repos], row.agreeingRepos])).toEqual([
      ["permission.x", 4, 4, 3, [["o/one", { fires: 2, scored: 2, agree: 1 }], ["o/two", { fires: 1, scored: 1, agree: 1 }], ["written", { fires: 1, scored: 1, agree: 1 }]], 2],
      ["permission.z", 1, 1, 1, [["o/two", { fires: 1, scored: 1, agree: 1 }]], 1],
      ["reason.y", 3, 2, 1, [["o/one", { fires: 2, scored: 1, agree: 1 }], ["written", { fires: 1, scored: 1, agree: 0 }]], 1],
      ["unfinished.never", 0, 0, 0, [], 0],
    ]);
  });

  it("buckets rows per field by repositories, with or without the written group", () => {
    expect(bucketsByField(rows)).toEqual({
      claimsComplete: { "0": 0, "1": 0, "2": 0, "≥3": 0 },
      statesUnfinished: { "0": 1, "1": 0, "2": 0, "≥3": 0 },
      givesReasonAndNext: { "0": 0, "1": 0, "2": 1, "≥3": 0 },
      asksPermission: { "0": 0, "1": 1, "2": 0, "≥3": 1 },
    });
    expect(bucketsByField(rows, "written")).toEqual({
      claimsComplete: { "0": 0, "1": 0, "2": 0, "≥3": 0 },
      statesUnfinished: { "0": 1, "1": 0, "2": 0, "≥3": 0 },
      givesReasonAndNext: { "0": 0, "1": 1, "2": 0, "≥3": 0 },
      asksPermission: { "0": 0, "1": 1, "2": 1, "≥3": 0 },
    });
  });

  it("keeps a row that agrees in two repositories, fewer once the written group is not counted", () => {
    expect([...carryingRows(rows)]).toEqual(["permission.x"]);
    expect([...carryingRows(rows, 2, "written")]).toEqual([]);
    expect([...oneRepoRows(rows)]).toEqual([["permission.z", "o/two"]]);
  });

  it("counts the replies whose rows for a field are all one-repository rows", () => {
    const targets = new Map(rows.map((row) => [row.id, row.target]));
    const own = ownRepoOnly([...replies, { file: "005-e.md", repo: "o/two", ids: ["permission.z"], labels: labels(false, false, false, false) }], targets, oneRepoRows(rows));
    expect(own).toEqual({
      claimsComplete: { withRows: 0, ownOnly: 0, pushedRight: 0 },
      statesUnfinished: { withRows: 0, ownOnly: 0, pushedRight: 0 },
      givesReasonAndNext: { withRows: 3, ownOnly: 0, pushedRight: 0 },
      asksPermission: { withRows: 5, ownOnly: 1, pushedRight: 0 },
    });
  });
});

describe("scores and names", () => {
  it("counts TP, FP and FN", () => {
    expect(confusion([{ got: true, want: true }, { got: true, want: false }, { got: false, want: true }, { got: false, want: false }, { got: true, want: true }])).toEqual({ tp: 2, fp: 1, fn: 1 });
  });

  it("lets through only names neither blocked nor numbered 3400–3599", () => {
    expect(devNames(["0101-a.md", "3399-b.md", "3400-c.md", "3599-d.md", "3600-e.md", "0102-f.md"], new Set(["0102-f.md"]))).toEqual(["0101-a.md", "3399-b.md", "3600-e.md"]);
  });
});
