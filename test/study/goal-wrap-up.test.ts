/**
 * Under the study's default hard caps (80 requests, 5 minutes) a goal arm whose model keeps working
 * reaches the request cap long before the goal's own 30 rounds; the goal still gets its wrap-up
 * round (ADR 0101). With `limits.goalCapsFirst` the caps are raised above the goal's own.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { parseStudyFile } from "../../src/study/study-file.ts";
import { runLimitsFor } from "../../src/study/limits.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("a hard cap inside a goal, at the study's defaults", () => {
  it("reaches the goal's wrap-up round, recorded, and settles budget_limited", async () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-wrap-up-"));
    temps.push(dir);
    // A persona that repeats every read 20 times: the six steps need far more than 80 requests.
    writeFileSync(
      join(dir, "slow.yaml"),
      [
        "persona: slow",
        "description: does every step, repeating each read twenty times",
        "task: stockbook",
        `steps: ${join(ROOT, "fixtures/tasks/stockbook/personas/steps.yaml")}`,
        "traits:",
        "  repeatsCalls: 20",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "wrap.study.yaml"),
      [
        `repo: { fixture: ${join(ROOT, "fixtures/tasks/stockbook/repo")} }`,
        `handoff: ${join(ROOT, "fixtures/tasks/stockbook/handoff.md")}`,
        `checks: ${join(ROOT, "fixtures/tasks/stockbook/checks.yaml")}`,
        `armsDir: ${join(ROOT, "arms")}`,
        "arms: [goal]",
        "runs: 1",
        `model: scripted:${join(dir, "slow.yaml")}`,
        "",
      ].join("\n"),
    );
    const out = join(dir, "results");
    const io = memoryIO({ cwd: dir, env: { PATH: process.env.PATH } });
    const code = await main(["study", join(dir, "wrap.study.yaml"), "--out", out], io);
    expect({ code, err: io.err.join("") }).toEqual({ code: 0, err: "" });
    const events = readFileSync(join(out, "runs/goal/run-1/record.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = events.filter((e) => e.type === "model.request" && e.purpose === "agent").length;
    const marks = events
      .filter((e) => (e.type === "policy.decision" && e.policy === "hardCap") || (e.type === "goal.update" && e.to === "budget_limited") || e.type === "run.end")
      .map((e) => (e.type === "run.end" ? { end: e.status, reason: e.reason } : e.type === "goal.update" ? { goal: e.to, reason: e.reason } : { hardCap: e.decision, reason: e.reason }));
    expect(marks).toEqual([
      { goal: "budget_limited", reason: "hard cap reached: hard cap: 80 model requests reached; one wrap-up round follows" },
      { hardCap: "continue", reason: "hard cap: 80 model requests reached; goal cap reached: one wrap-up round" },
      { hardCap: "settle", reason: "hard cap: 80 model requests reached; the wrap-up round used its 8 requests" },
      { end: "budget_limited", reason: "hard cap: 80 model requests reached; the wrap-up round used its 8 requests" },
    ]);
    expect(requests).toBe(88);
  }, 120_000);

  it("goalCapsFirst raises a goal arm's request and wall caps above the goal's own rounds and hours", () => {
    const spec = parseStudyFile(
      { repo: { fixture: "r" }, handoff: "h.md", checks: "c.yaml", model: "scripted:p.yaml", arms: ["goal"], limits: { maxRounds: 80, maxWallMs: 300_000, goalCapsFirst: true } },
      "s.study.yaml",
    );
    expect(runLimitsFor(spec.limits, [{ name: "goal", options: { rounds: 5, hours: 1 } }])).toEqual({ maxRounds: 240, maxWallMs: 3_960_000 });
    expect(runLimitsFor(spec.limits, [{ name: "goal" }])).toEqual({ maxRounds: 1240, maxWallMs: 31_680_000 });
    expect(runLimitsFor(spec.limits, [{ name: "none" }])).toEqual({ maxRounds: 80, maxWallMs: 300_000 });
    expect(runLimitsFor({ maxRounds: 80 }, [{ name: "goal" }])).toEqual({ maxRounds: 80 });
  });
});
