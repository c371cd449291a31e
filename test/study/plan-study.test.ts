/**
 * `armstudy study arms/plan.study.yaml`: the plan suite (ADR 0125) — a plan handoff whose work is
 * needed and one whose work already exists — under the two plan arms ADR-0077 compares, with the
 * scripted double playing each task's planner. Every run offers only read-only tools and changes
 * nothing. The double's ending follows from what it read, its persona's data and the arm's rule,
 * so the figures are the harness's mechanics, not a model's behaviour: on the work-exists task the
 * planner says there is nothing to plan, which plan-before repairs into a plan and plan-after keeps.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { wilson } from "../../src/measure/stats.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

type Rate = { count: number; n: number; rate: number | null; ci95: [number, number] | null };
type Figures = { runs: number; firstOutcomes: Record<string, Rate>; outcomes: Record<string, Rate>; repaired: Rate; noPlanTurnedIntoPlan: Rate; requestsPerRun: { mean: number } };
type Plan = Figures & { byTaskType: Record<string, Figures | null>; plansForExistingWork: Rate };

const counts = (r: Record<string, Rate>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.count]));
const brief = (f: Figures) => ({ runs: f.runs, first: counts(f.firstOutcomes), final: counts(f.outcomes), repaired: f.repaired.count, noPlanToPlan: f.noPlanTurnedIntoPlan.count, requests: f.requestsPerRun.mean });

describe("the plan study", () => {
  it("compares plan-before and plan-after per task type: outcomes, repairs, requests and plans for work that exists", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "armstudy-plan-study-")), "results");
    temps.push(resolve(out, ".."));
    const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH } });
    const code = await main(["study", "arms/plan.study.yaml", "--runs", "3", "--out", out], io);
    expect({ code, err: io.err.join("") }).toEqual({ code: 0, err: "" });
    const study = JSON.parse(readFileSync(join(out, "study.json"), "utf8")) as { tasks: Array<{ name: string; workExists?: boolean }> };
    expect(study.tasks.map((t) => ({ name: t.name, workExists: t.workExists ?? false }))).toEqual([
      { name: "stockbook-plan", workExists: false },
      { name: "already-done-plan", workExists: true },
    ]);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as { arms: Array<{ name: string; rates: { allChecksPassed: { count: number } }; plan: Plan }> };
    const arm = (name: string) => summary.arms.find((a) => a.name === name)!;
    const none = { plan_ready: 0, blocked: 0, no_plan: 0, invalid: 0 };
    // Work needed: the planner finds P1 there, plans P2 and P3 in a block it leaves open; both rules repair it.
    const needed = { runs: 3, first: { ...none, invalid: 3 }, final: { ...none, plan_ready: 3 }, repaired: 3, noPlanToPlan: 0, requests: 5 };
    expect(brief(arm("plan-before").plan.byTaskType["workNeeded"]!)).toEqual(needed);
    expect(brief(arm("plan-after").plan.byTaskType["workNeeded"]!)).toEqual(needed);
    // Work exists: "nothing to plan" — repaired into a plan under the earlier rule, a valid ending after ADR-0077.
    expect(brief(arm("plan-before").plan.byTaskType["workExists"]!)).toEqual({ runs: 3, first: { ...none, no_plan: 3 }, final: { ...none, plan_ready: 3 }, repaired: 3, noPlanToPlan: 3, requests: 4 });
    expect(brief(arm("plan-after").plan.byTaskType["workExists"]!)).toEqual({ runs: 3, first: { ...none, no_plan: 3 }, final: { ...none, no_plan: 3 }, repaired: 0, noPlanToPlan: 0, requests: 3 });
    expect(brief(arm("plan-before").plan)).toEqual({ runs: 6, first: { ...none, no_plan: 3, invalid: 3 }, final: { ...none, plan_ready: 6 }, repaired: 6, noPlanToPlan: 3, requests: 4.5 });
    expect(arm("plan-before").plan.plansForExistingWork).toEqual({ count: 3, n: 3, rate: 1, ci95: wilson(3, 3) });
    expect(arm("plan-after").plan.plansForExistingWork).toEqual({ count: 0, n: 3, rate: 0, ci95: wilson(0, 3) });
    expect(wilson(3, 3)?.map((x) => Math.round(x * 100))).toEqual([44, 100]);
    // Every run changed nothing.
    expect(summary.arms.map((a) => a.rates.allChecksPassed.count)).toEqual([6, 6]);

    const report = readFileSync(join(out, "report.md"), "utf8");
    const section = report.slice(report.indexOf("| arm | tasks | runs |"), report.indexOf("## Final report"));
    expect(section.trim().split("\n")).toEqual([
      "| arm | tasks | runs | first: plan_ready / blocked / no_plan / invalid | final: plan_ready / blocked / no_plan / invalid | repaired | no_plan → plan | requests per run (mean) |",
      "|---|---|---|---|---|---|---|---|",
      "| plan-before | work exists | 3 | 0/3 / 0/3 / 3/3 / 0/3 | 3/3 / 0/3 / 0/3 / 0/3 | 3/3 | 3/3 | 4.0 |",
      "| plan-before | work needed | 3 | 0/3 / 0/3 / 0/3 / 3/3 | 3/3 / 0/3 / 0/3 / 0/3 | 3/3 | 0/3 | 5.0 |",
      "| plan-before | all | 6 | 0/6 / 0/6 / 3/6 / 3/6 | 6/6 / 0/6 / 0/6 / 0/6 | 6/6 | 3/6 | 4.5 |",
      "| plan-after | work exists | 3 | 0/3 / 0/3 / 3/3 / 0/3 | 0/3 / 0/3 / 3/3 / 0/3 | 0/3 | 0/3 | 3.0 |",
      "| plan-after | work needed | 3 | 0/3 / 0/3 / 0/3 / 3/3 | 3/3 / 0/3 / 0/3 / 0/3 | 3/3 | 0/3 | 5.0 |",
      "| plan-after | all | 6 | 0/6 / 0/6 / 3/6 / 3/6 | 3/6 / 0/6 / 3/6 / 0/6 | 3/6 | 0/6 | 4.0 |",
      "",
      "Plans for work that exists: runs on tasks whose requested work is already in the repository that ended with a plan (Wilson 95% interval).",
      "",
      "| arm | plans for work that exists | 95% interval |",
      "|---|---|---|",
      "| plan-before | 3/3 = 100% | 44%–100% |",
      "| plan-after | 0/3 = 0% | 0%–56% |",
    ]);
    // The mechanics-only label stands on the report: the model is the scripted double.
    expect(report).toContain("the scripted test double");

    // Only read-only tools were called; the planner read the files its steps name, each once.
    const record = (task: string) =>
      readFileSync(join(out, `runs/${task}/plan-after/run-1/record.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; name?: string; arguments?: { path?: string }; text?: string; final?: boolean });
    expect(record("stockbook-plan").filter((e) => e.type === "tool.call").map((e) => `${e.name} ${e.arguments?.path}`)).toEqual(["read_file src/report.js", "read_file src/money.js", "read_file package.json"]);
    expect(record("already-done-plan").filter((e) => e.type === "tool.call").map((e) => `${e.name} ${e.arguments?.path}`)).toEqual(["read_file src/dates.js", "read_file test/dates.test.js"]);
    expect(record("stockbook-plan").filter((e) => e.type === "assistant.text" && e.final).map((e) => e.text)).toEqual([
      "I read `src/report.js`, `src/money.js`, `package.json`.\n\nAlready in place: P1 (a summary of the store (items, units in stock, their value)).\n\n<proposed_plan>\n1. P2: parseAmount reads signed amounts with thousands separators such as -1,250.50.\n2. P3: a stockbook command that prints the summary.",
      "I read `src/report.js`, `src/money.js`, `package.json`.\n\nAlready in place: P1 (a summary of the store (items, units in stock, their value)).\n\n<proposed_plan>\n1. P2: parseAmount reads signed amounts with thousands separators such as -1,250.50.\n2. P3: a stockbook command that prints the summary.\n</proposed_plan>",
    ]);
  }, 180_000);
});
