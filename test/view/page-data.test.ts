import { describe, expect, it } from "vitest";
import type { RunResult } from "../../src/render/results.ts";
import { runFlags } from "../../src/view/page-data.ts";

const base = {
  status: "completed",
  reason: null,
  error: null,
  metrics: { falseCompletion: false, permissionStop: false },
} as unknown as RunResult;
const none = { falseCompletion: false, permissionStop: false, error: false, tampered: false, hitCap: false };

describe("runFlags", () => {
  it("reads the flags a result carries and is false for fields it lacks", () => {
    expect(runFlags(base)).toEqual(none);
    expect(runFlags({ ...base, metrics: { ...base.metrics, falseCompletion: true, permissionStop: true } })).toEqual({ ...none, falseCompletion: true, permissionStop: true });
    expect(runFlags({ ...base, status: "error", error: "the agent loop threw" })).toEqual({ ...none, error: true });
  });

  it("reads `tampered` in the shapes a grader may record it", () => {
    for (const tampered of [true, ["checks/b1.check.js"], { files: ["checks/b1.check.js"] }]) expect(runFlags({ ...base, tampered } as unknown as RunResult).tampered).toEqual(true);
    for (const tampered of [false, [], {}, null]) expect(runFlags({ ...base, tampered } as unknown as RunResult).tampered).toEqual(false);
    expect(runFlags({ ...base, acceptance: { tampered: ["x"] } } as unknown as RunResult).tampered).toEqual(true);
    // What the agent did to armstudy's .git (null when it is still a plain folder).
    expect(runFlags({ ...base, gitTampered: ".git was deleted" }).tampered).toEqual(true);
    expect(runFlags({ ...base, gitTampered: null }).tampered).toEqual(false);
  });

  it("sees a cap in the status, the reason, or a cap field", () => {
    expect(runFlags({ ...base, status: "budget_limited", reason: "hard cap: 120 model requests reached" }).hitCap).toEqual(true);
    expect(runFlags({ ...base, status: "unfinished", reason: "hard cap: wall time 300000 ms reached" }).hitCap).toEqual(true);
    expect(runFlags({ ...base, cap: "tokens" } as unknown as RunResult).hitCap).toEqual(true);
    expect(runFlags({ ...base, reason: "claim accepted by the check" }).hitCap).toEqual(false);
  });
});
