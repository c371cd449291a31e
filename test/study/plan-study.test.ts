/**
 * `armstudy study arms/plan.study.yaml`: the two plan arms ADR-0077 compares, with the scripted
 * double in plan runs. Every run offers only read-only tools and changes nothing; the report shows
 * outcome rates, the repair rate and requests per plan run. The numbers are the harness's
 * mechanics (the double picks its endings by seed), not a model's behaviour.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("the plan study", () => {
  it("compares plan-before and plan-after: read-only runs, outcomes, repairs and requests in the report", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "armstudy-plan-study-")), "results");
    temps.push(resolve(out, ".."));
    const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
    const code = await main(["study", "arms/plan.study.yaml", "--runs", "5", "--out", out], io);
    expect({ code, err: io.err.join("") }).toEqual({ code: 0, err: "" });
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
      arms: Array<{ name: string; rates: { allChecksPassed: { count: number } }; plan: { repaired: { count: number; n: number }; outcomes: Record<string, { count: number }>; firstOutcomes: Record<string, { count: number }>; noPlanTurnedIntoPlan: { count: number }; requestsPerRun: { mean: number } } }>;
    };
    const row = (name: string) => {
      const arm = summary.arms.find((a) => a.name === name)!;
      const counts = (r: Record<string, { count: number }>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.count]));
      return { unchanged: arm.rates.allChecksPassed.count, first: counts(arm.plan.firstOutcomes), final: counts(arm.plan.outcomes), repaired: arm.plan.repaired.count, noPlanToPlan: arm.plan.noPlanTurnedIntoPlan.count, requests: arm.plan.requestsPerRun.mean };
    };
    // Paired seeds: both arms' first replies end the same way; only the harness's rule differs.
    expect(row("plan-before")).toEqual({ unchanged: 5, first: { plan_ready: 2, blocked: 0, no_plan: 1, invalid: 2 }, final: { plan_ready: 5, blocked: 0, no_plan: 0, invalid: 0 }, repaired: 3, noPlanToPlan: 1, requests: 7.6 });
    expect(row("plan-after")).toEqual({ unchanged: 5, first: { plan_ready: 2, blocked: 0, no_plan: 1, invalid: 2 }, final: { plan_ready: 4, blocked: 0, no_plan: 1, invalid: 0 }, repaired: 2, noPlanToPlan: 0, requests: 7.4 });
    const report = readFileSync(join(out, "report.md"), "utf8");
    expect(report).toContain("| plan-before | 2/5 / 0/5 / 1/5 / 2/5 | 5/5 / 0/5 / 0/5 / 0/5 | 3/5 | 1/5 | 7.6 |");
    expect(report).toContain("| plan-after | 2/5 / 0/5 / 1/5 / 2/5 | 4/5 / 0/5 / 1/5 / 0/5 | 2/5 | 0/5 | 7.4 |");
    // Only read-only tools were offered and called.
    const record = readFileSync(join(out, "runs/plan-after/run-1/record.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; name?: string });
    expect([...new Set(record.filter((e) => e.type === "tool.call").map((e) => e.name))]).toEqual(["read_file"]);
  }, 180_000);
});
