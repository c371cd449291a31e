/**
 * The ADR's question end to end on real studies (the scripted test double on real worktrees): the
 * report opens with the verdict, `compare` shows the differences, and a CI gate fails on a planted
 * regression — the goal arm with its control removed — and passes against itself.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "armstudy-verdict-"));

async function cli(args: string[]) {
  const io = memoryIO({ cwd: ROOT });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

function studyFile(name: string, goalPolicies?: unknown): string {
  const file = join(dir, `${name}.study.yaml`);
  writeFileSync(
    file,
    stringify({
      name: "gate-demo",
      decision: { adr: "ADR-0072", title: "A /goal loop whose completion claim is checked" },
      hypothesis: "The goal arm ends on fewer false completion claims than the ordinary reply.",
      primary: { metric: "falseCompletion", baseline: "ordinary", treatment: "goal", minDifference: 0.2 },
      secondary: ["allChecksPassed"],
      repo: { fixture: join(ROOT, "fixtures/tasks/stockbook/repo") },
      handoff: join(ROOT, "fixtures/tasks/stockbook/handoff.md"),
      checks: join(ROOT, "fixtures/tasks/stockbook/checks.yaml"),
      armsDir: join(ROOT, "arms"),
      arms: ["ordinary", goalPolicies === undefined ? "goal" : { name: "goal", policies: goalPolicies }],
      runs: 2,
      model: "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml",
    }),
  );
  return file;
}

const base = join(dir, "base");
const broken = join(dir, "broken");

beforeAll(async () => {
  expect((await cli(["study", studyFile("base"), "--out", base, "--json"])).code).toEqual(0);
  // The planted regression: someone removed the goal arm's control.
  expect((await cli(["study", studyFile("broken", [{ name: "none" }]), "--out", broken, "--json"])).code).toEqual(0);
}, 120_000);

describe("a study answers its ADR's question", () => {
  it("opens its report with the verdict: mechanics only under the test double", () => {
    // Newcombe: Wilson 2/2 = [0.342, 1], 0/2 = [0, 0.658]; upper end −1 + √(0.658² + 0.658²) = −0.07.
    const report = readFileSync(join(base, "report.md"), "utf8").split("\n");
    const at = report.indexOf("**Verdict on ADR-0072 (A /goal loop whose completion claim is checked): mechanics only.**");
    // On the first screen: after the title, the test-double and sandbox notes.
    expect(at).toBeLessThan(10);
    expect(report.slice(at, at + 7)).toEqual([
      "**Verdict on ADR-0072 (A /goal loop whose completion claim is checked): mechanics only.**",
      "",
      "Hypothesis, stated before the runs: The goal arm ends on fewer false completion claims than the ordinary reply.",
      "",
      "Primary metric: falseCompletion, goal vs ordinary, expected lower by at least 20 percentage points (alpha 0.05).",
      "Observed: ordinary 100% (n=2), goal 0% (n=2); difference -100 points, 95% interval [-100 points, -7 points].",
      "",
    ]);
    const summary = JSON.parse(readFileSync(join(base, "summary.json"), "utf8"));
    expect(summary.verdict.primary.kind).toEqual("mechanics-only");
  });

  it("compare shows the regression, beyond its interval", async () => {
    const { code, out } = await cli(["compare", base, broken, "--json"]);
    expect(code).toEqual(0);
    const goal = JSON.parse(out).pairs.find((pair: { a: { arm: string } }) => pair.a.arm === "goal");
    const falseCompletion = goal.metrics.find((m: { metric: string }) => m.metric === "falseCompletion");
    expect({ a: falseCompletion.a, b: falseCompletion.b, difference: falseCompletion.difference, change: falseCompletion.change }).toEqual({
      a: { n: 2, value: 0 },
      b: { n: 2, value: 1 },
      difference: 1,
      change: "worse",
    });
  });

  it("a CI gate fails on the planted regression with ::error lines, and passes against itself", async () => {
    const failing = await cli(["gate", broken, "--fail-if-worse-than", base, "--github"]);
    expect(failing.code).toEqual(1);
    const lines = failing.out.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("::error")).length).toBeGreaterThan(0);
    expect(lines.some((line) => line.startsWith("gate failed: goal.falseCompletion got worse than the baseline"))).toEqual(true);
    const passing = await cli(["gate", base, "--fail-if-worse-than", base]);
    expect(passing).toEqual({ code: 0, out: "gates: all passed\n", err: "" });
    const threshold = await cli(["report", broken, "--fail-if", "goal.falseCompletion.rate > 0.2"]);
    expect(threshold.code).toEqual(1);
    expect(threshold.out.split("\n").filter((line) => line.startsWith("gate failed"))).toEqual(["gate failed: goal.falseCompletion.rate > 0.2: is 1."]);
  });

  it("power plans runs from the pilot and says a test-double pilot is mechanics", async () => {
    const { code, out } = await cli(["power", base]);
    expect(code).toEqual(0);
    expect(out).toEqual(
      [
        "primary metric: falseCompletion (alpha 0.05, power 0.8)",
        "baseline rate: 100% (pilot, 2 runs)",
        "runs per arm, independent arms: 35",
        "runs per arm, paired by run index (pilot discordance 100%): 194",
        "note: the pilot ran the scripted test double, whose rates are the harness's mechanics, not a model's: plan from a real pilot or from --baseline-rate guesses.",
        "",
      ].join("\n"),
    );
  });
});
