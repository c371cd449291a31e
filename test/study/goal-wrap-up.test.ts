/**
 * Under the study's default hard caps (80 requests, 5 minutes) a goal arm whose model keeps working
 * reaches the request cap long before the goal's own 30 rounds; the goal still gets its wrap-up
 * round (ADR 0101), and so it does at the wall-time cap, on a timer of its own (ADR 0126). With
 * `limits.goalCapsFirst` the caps are raised above the goal's own.
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

/** Runs a one-run goal study on the stockbook with `model` and extra study-file lines; the run's record. */
async function goalStudyRecord(dir: string, model: string, extra: string[] = []): Promise<Record<string, unknown>[]> {
  writeFileSync(
    join(dir, "goal.study.yaml"),
    [
      `repo: { fixture: ${join(ROOT, "fixtures/tasks/stockbook/repo")} }`,
      `handoff: ${join(ROOT, "fixtures/tasks/stockbook/handoff.md")}`,
      `checks: ${join(ROOT, "fixtures/tasks/stockbook/checks.yaml")}`,
      `armsDir: ${join(ROOT, "arms")}`,
      "arms: [goal]",
      "runs: 1",
      `model: ${model}`,
      ...extra,
      "",
    ].join("\n"),
  );
  const out = join(dir, "results");
  const io = memoryIO({ cwd: dir, env: { PATH: process.env.PATH } });
  const code = await main(["study", join(dir, "goal.study.yaml"), "--out", out], io);
  expect({ code, err: io.err.join("") }).toEqual({ code: 0, err: "" });
  return readFileSync(join(out, "runs/goal/run-1/record.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

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
    const events = await goalStudyRecord(dir, `scripted:${join(dir, "slow.yaml")}`);
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

  it("the wall-time cap inside a goal: the wrap-up round is given, on its own timer, which ends it for good (ADR 0126)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-wall-wrap-up-"));
    temps.push(dir);
    // One step whose command outlives the 2 s cap, and the wrap-up's 10 s after it: only the caps end the run.
    writeFileSync(join(dir, "steps.yaml"), ["steps:", "  - id: W1", "    title: a command that takes longer than the run may", "    reads: [src/money.js]", '    run: "sleep 60"', ""].join("\n"));
    writeFileSync(join(dir, "sleeper.yaml"), ["persona: sleeper", "description: runs a command that outlives every cap", "task: stockbook", "steps: steps.yaml", ""].join("\n"));
    const events = await goalStudyRecord(dir, `scripted:${join(dir, "sleeper.yaml")}`, ["limits: { maxRounds: 80, maxWallMs: 2000 }"]);
    const marks = events
      .filter((e) => (e.type === "policy.decision" && e.policy === "hardCap") || (e.type === "goal.update" && e.to === "budget_limited") || e.type === "run.end" || (e.type === "user.message" && e.kind === "continuation"))
      .map((e) => (e.type === "run.end" ? { end: e.status, reason: e.reason } : e.type === "goal.update" ? { goal: e.to } : e.type === "user.message" ? { wrapUpMessage: String(e.text).includes("This is the last round") } : { hardCap: e.decision, reason: e.reason }));
    const reason = "hard cap: wall time 2000 ms reached; the wrap-up round used its 10000 ms";
    expect(marks).toEqual([
      // The goal's own opening continuation, then the cap.
      { wrapUpMessage: false },
      { goal: "budget_limited" },
      { hardCap: "continue", reason: "hard cap: wall time 2000 ms reached; goal cap reached: one wrap-up round" },
      { wrapUpMessage: true },
      { hardCap: "settle", reason },
      { end: "budget_limited", reason },
    ]);
    // Both runs of the command were cut by a cap, and the run ended within the cap plus the round's allowance.
    const sleeps = events.filter((e) => e.type === "tool.result" && e.name === "shell");
    expect(sleeps.map((e) => e.ok)).toEqual([false, false]);
    const end = events.at(-1) as { wallMs: number };
    expect(end.wallMs).toBeLessThan(2000 + 10_000 + 20_000);
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
