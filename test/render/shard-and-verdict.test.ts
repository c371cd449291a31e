import { describe, expect, it } from "vitest";
import { renderReportMarkdown } from "../../src/render/report.ts";
import type { StudyQuestion } from "../../src/render/results.ts";
import { summarize } from "../../src/render/summary.ts";
import { armMeta, meta, result } from "./support.ts";

const question: StudyQuestion = {
  decision: { adr: "ADR-0072", title: "goal loop", link: "https://example.org/adr-0072" },
  hypothesis: "Fewer false completions with the goal loop.",
  primary: { metric: "falseCompletion", kind: "rate", baseline: "ordinary", treatment: "goal", direction: "lower", minDifference: 0.2, alpha: 0.05 },
  secondary: [],
};

function study(testDouble: boolean, falseGoal: number, runs: number) {
  const arms = [armMeta("ordinary", { testDouble }), armMeta("goal", { testDouble })];
  const results = [];
  for (let i = 1; i <= runs; i += 1) {
    results.push(result("ordinary", i, 1, { falseCompletion: true }, { testDouble }));
    results.push(result("goal", i, 3, { falseCompletion: i <= falseGoal }, { testDouble }));
  }
  return { dir: "/r", meta: meta(arms, runs, { question }), results, missing: [] };
}

describe("the report's verdict and shard label", () => {
  it("a real model's clear difference is supported, stated on the first lines", () => {
    // Newcombe by hand: Wilson 20/20 = [0.839, 1], 1/20 = [0.009, 0.236]; −0.95 − 0.041 and −0.95 + √(0.186² + 0.161²).
    const lines = renderReportMarkdown(summarize(study(false, 1, 20)), []).split("\n");
    expect(lines.slice(0, 12)).toEqual([
      "# armstudy report: default — model `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml`",
      "",
      "> Model: `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml`.",
      "",
      "**Verdict on ADR-0072 ([goal loop](https://example.org/adr-0072)): supported.**",
      "",
      "Hypothesis, stated before the runs: Fewer false completions with the goal loop.",
      "",
      "Primary metric: falseCompletion, goal vs ordinary, expected lower by at least 20 percentage points (alpha 0.05).",
      "Observed: ordinary 100% (n=20), goal 5% (n=20); difference -95 points, 95% interval [-99 points, -70 points].",
      "",
      "The interval lies wholly on the stated side and the difference reaches the one that matters.",
    ]);
  });

  it("an inconclusive verdict says how many runs per arm would settle it", () => {
    const lines = renderReportMarkdown(summarize(study(false, 2, 3)), []).split("\n");
    expect(lines[4]).toEqual("**Verdict on ADR-0072 ([goal loop](https://example.org/adr-0072)): inconclusive.**");
    expect(lines[11]).toEqual("The interval does not settle it. About 35 runs per arm would detect the stated difference at 80% power from the observed ordinary rate.");
  });

  it("a shard says so in its heading and its warnings", () => {
    const shard = summarize({ ...study(true, 0, 2), meta: meta([armMeta("ordinary"), armMeta("goal")], 2, { shard: { index: 1, count: 2 } }) });
    const lines = renderReportMarkdown(shard, []).split("\n");
    expect(lines[0]).toEqual("# armstudy report: default — model `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml` (scripted test double) — shard 1 of 2");
    expect(shard.warnings[0]).toEqual("This folder is shard 1 of 2 of the study: its numbers cover its own runs only. Merge all 2 shards with `armstudy merge` for the study's results.");
    expect(shard.shard).toEqual({ index: 1, count: 2 });
  });
});

describe("the description and the study's own model", () => {
  it("leaves out the study file's description when --model replaced its model, and says why", () => {
    const base = study(true, 0, 1);
    const loaded = { ...base, meta: { ...base.meta, description: "the early-stopper persona plays…", model: "scripted:fixtures/tasks/stockbook/personas/diligent.yaml", studyFileModel: "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml" } };
    const lines = renderReportMarkdown(summarize(loaded), []).split("\n");
    expect(lines.filter((line) => line.includes("early-stopper persona plays"))).toEqual([]);
    expect(lines.filter((line) => line.startsWith("The study file's description is left out"))).toEqual([
      "The study file's description is left out: it speaks of its own model (`scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml`), and `--model` replaced it.",
    ]);
    const own = renderReportMarkdown(summarize({ ...base, meta: { ...base.meta, description: "the early-stopper persona plays…" } }), []);
    expect(own.split("\n").filter((line) => line.includes("early-stopper persona plays"))).toEqual(["the early-stopper persona plays…"]);
  });
});
