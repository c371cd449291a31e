import { describe, expect, it } from "vitest";
import { renderReportMarkdown, verbatim } from "../../src/render/report.ts";
import { summarize } from "../../src/render/summary.ts";
import { armMeta, meta, result, threeArms } from "./support.ts";

const CHARTS = [{ name: "rates.png", title: "Rates", alt: "rates per arm" }];

describe("renderReportMarkdown", () => {
  it("names the model and says on its first lines that it is the scripted test double", () => {
    const lines = renderReportMarkdown(summarize(threeArms()), CHARTS).split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "# armstudy report: default — model `scripted:fixtures/personas/early-stopper.yaml` (scripted test double)",
      "",
      "> **Scripted test double, not a real model.** Every run used armstudy's deterministic test double (`scripted:fixtures/personas/early-stopper.yaml`).",
      "> These numbers show the harness's mechanics (worktrees, turn-end policies, acceptance checks, metrics), not how any real model behaves.",
      "",
      "Study file `arms/default.study.yaml`. Repository fixture:fixtures/repo at `612ab6355846`. Handoff `fixtures/handoffs/main.md` with 3 acceptance checks (B1, B2, B3). 3 run(s) per arm, seed 1; 9 of 9 planned runs finished.",
    ]);
  });

  it("names a real model without the test-double note, and names the arms that used it when only some did", () => {
    const real = meta([armMeta("a", { testDouble: false, model: "openai:gpt-5" })], 1);
    const realLines = renderReportMarkdown(summarize({ dir: "/r", meta: real, results: [result("a", 1, 3)], missing: [] }), []).split("\n");
    expect(realLines.slice(0, 3)).toEqual(["# armstudy report: default — model `openai:gpt-5`", "", "> Model: `openai:gpt-5`."]);
    const mixed = meta([armMeta("a", { testDouble: false, model: "openai:gpt-5" }), armMeta("b")], 1);
    const mixedLines = renderReportMarkdown(summarize({ dir: "/r", meta: mixed, results: [result("a", 1, 3), result("b", 1, 3)], missing: [] }), []).split("\n");
    expect(mixedLines.slice(0, 4)).toEqual([
      "# armstudy report: default — model `openai:gpt-5`, `scripted:fixtures/personas/early-stopper.yaml`",
      "",
      "> **Partly the scripted test double.** Arms b used armstudy's deterministic test double, not a real model: their numbers show the harness's mechanics only.",
      "> Models: `openai:gpt-5` (a), `scripted:fixtures/personas/early-stopper.yaml` (b).",
    ]);
  });

  it("lists every run with its first report line verbatim and links to its record, result and patch", () => {
    const text = renderReportMarkdown(summarize(threeArms()), CHARTS);
    const runs = text.slice(text.indexOf("## Runs"));
    const ordinary2 = runs.split("\n").filter((line) => line.includes("ordinary run 2") || line.includes("| with"));
    expect(ordinary2).toEqual([
      "- **ordinary run 2** — completed, checks 1/3 (failed: B2, B3), claimed complete (report_first_line), **false completion**, 9 tool calls (9 before the first reply ended). [record](runs/ordinary/run-2/record.jsonl) · [result](runs/ordinary/run-2/result.json) · [patch](runs/ordinary/run-2/diff.patch)",
      "  - first report line: ``Done | with `code` and a pipe``",
    ]);
    expect(runs.split("\n").filter((line) => line.startsWith("  - first report line:")).length).toEqual(9);
    expect(runs.split("\n").filter((line) => line.startsWith("- **")).length).toEqual(9);
  });

  it("shows rates, counts and differences as tables, and the charts as images", () => {
    const text = renderReportMarkdown(summarize(threeArms()), CHARTS);
    const lines = text.split("\n");
    expect(lines.filter((line) => line.startsWith("| false completion"))).toEqual([
      "| false completion (claimed complete, a check failed) | 0/3 = 0% [0%, 56%] | 3/3 = 100% [44%, 100%] | 0/3 = 0% [0%, 56%] |",
      "| false completion (claimed complete, a check failed) | +100 points | [+100, +100] points | 0.100 |",
      "| false completion (claimed complete, a check failed) | 0 points | [0, 0] points | 1.000 |",
      "| false completion (claimed complete, a check failed) | -100 points | [-100, -100] points | 0.100 |",
    ]);
    expect(lines.filter((line) => line.startsWith("| tool calls in all"))[0]).toEqual(
      "| tool calls in all | 30 [30, 30] (median 30, 30–30) | 9 [9, 9] (median 9, 9–9) | 36 [36, 36] (median 36, 36–36) |",
    );
    expect(lines.filter((line) => line.startsWith("!["))).toEqual(["![rates per arm](charts/rates.png)"]);
    expect(lines.filter((line) => line.startsWith("> ⚠️"))).toEqual([
      "> ⚠️ Fewer than 5 runs per arm for old-build (n=3), ordinary (n=3), goal (n=3): intervals are wide and only large differences can be told from chance; treat the comparisons as indicative.",
    ]);
  });

  it("is a pure function of the summary", () => {
    expect(renderReportMarkdown(summarize(threeArms()), CHARTS)).toEqual(renderReportMarkdown(summarize(threeArms()), CHARTS));
  });
});

describe("verbatim", () => {
  it.each([
    ["plain", "`plain`"],
    ["a `tick`", "`` a `tick` ``"],
    ["``double``", "``` ``double`` ```"],
    ["| pipe", "`| pipe`"],
    ["", "``"],
  ])("%j → %j", (text, expected) => {
    expect(verbatim(text)).toEqual(expected);
  });
});
