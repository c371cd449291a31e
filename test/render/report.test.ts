import { describe, expect, it } from "vitest";
import { fmt, renderReportMarkdown, verbatim } from "../../src/render/report.ts";
import { summarize } from "../../src/render/summary.ts";
import { armMeta, meta, result, threeArms } from "./support.ts";

const CHARTS = [{ name: "rates.png", title: "Rates", alt: "rates per arm" }];

describe("renderReportMarkdown", () => {
  it("names the model and says on its first lines that it is the scripted test double", () => {
    const lines = renderReportMarkdown(summarize(threeArms()), CHARTS).split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "# armstudy report: default — model `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml` (scripted test double)",
      "",
      "> **Scripted test double, not a real model.** Every run used armstudy's deterministic test double (`scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml`).",
      "> These numbers show the harness's mechanics (worktrees, turn-end policies, acceptance checks, metrics), not how any real model behaves.",
      "",
      "Study file `arms/default.study.yaml`. Repository fixture:fixtures/tasks/stockbook/repo at `612ab6355846`. Handoff `fixtures/tasks/stockbook/handoff.md` with 3 acceptance checks (B1, B2, B3). 3 run(s) per arm, seed 1; 9 of 9 planned runs finished.",
    ]);
  });

  it("names a real model without the test-double note, and names the arms that used it when only some did", () => {
    const real = meta([armMeta("a", { testDouble: false, model: "openai:gpt-5" })], 1);
    const realLines = renderReportMarkdown(summarize({ dir: "/r", meta: real, results: [result("a", 1, 3)], missing: [] }), []).split("\n");
    expect(realLines.slice(0, 3)).toEqual(["# armstudy report: default — model `openai:gpt-5`", "", "> Model: `openai:gpt-5`."]);
    const mixed = meta([armMeta("a", { testDouble: false, model: "openai:gpt-5" }), armMeta("b")], 1);
    const mixedLines = renderReportMarkdown(summarize({ dir: "/r", meta: mixed, results: [result("a", 1, 3), result("b", 1, 3)], missing: [] }), []).split("\n");
    expect(mixedLines.slice(0, 4)).toEqual([
      "# armstudy report: default — model `openai:gpt-5`, `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml`",
      "",
      "> **Partly the scripted test double.** Arms b used armstudy's deterministic test double, not a real model: their numbers show the harness's mechanics only.",
      "> Models: `openai:gpt-5` (a), `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml` (b).",
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

  it("answers on the first screen which arm did what: an at-a-glance table before the details", () => {
    const lines = renderReportMarkdown(summarize(threeArms()), CHARTS).split("\n");
    expect(lines.slice(lines.indexOf("## At a glance"), lines.indexOf("## Arms"))).toEqual([
      "## At a glance",
      "",
      "| arm | turn-end control | every check passed | false completion | permission stop | checks passed | tool calls | tokens |",
      "|---|---|---|---|---|---|---|---|",
      "| old-build | none | 3/3 | 0/3 | 0/3 | 3 of 3 | 30 | 21,000 |",
      "| ordinary | none | 0/3 | 3/3 | 0/3 | 1 of 3 | 9 | 21,000 |",
      "| goal | goal (at most 30 rounds or 8 h) | 3/3 | 0/3 | 0/3 | 3 of 3 | 36 | 21,000 |",
      "",
      "Rates are runs where it happened / runs; checks, tool calls and tokens are means per run. Their intervals are under [Per arm](#per-arm); differences between arms, with intervals and Fisher's exact p, under [Differences between arms](#differences-between-arms).",
      "",
      "With the scripted test double every run of an arm takes the same steps, so its intervals are (close to) a single point: the table shows what each arm's control does with this persona, not how often a real model would need it.",
      "",
      "Under the scripted test double (mechanics, not a model's behaviour): ordinary against old-build: every check passed in 0/3 runs against 3/3; a false completion claim in 3/3 runs against 0/3; 21 fewer tool calls per run. goal against old-build: 2 more claim checks, 6 more tool calls per run.",
      "",
    ]);
    // Within the first screen: after the title, the test-double box, the study line and the warning.
    expect(lines.indexOf("## At a glance")).toEqual(9);
  });

  it("labels a real client's arm: its own loop and prompt, and tokens counted by the persona server", () => {
    const client = armMeta("codex-exec", { agent: "codex", prefix: null, policies: [], goal: null, description: "the real Codex CLI" });
    const loaded = { dir: "/r", meta: meta([armMeta("ordinary"), client], 1), missing: [], results: [result("ordinary", 1, 1, { falseCompletion: true }), result("codex-exec", 1, 1, { falseCompletion: true, toolCalls: 6, tokens: { prefix: 0, input: 60_425, cachedInput: 0, output: 1306, reasoning: 0, total: 61_731, source: "persona-server" } }, { agent: "codex" })] };
    const lines = renderReportMarkdown(summarize(loaded), []).split("\n");
    const glance = lines.slice(lines.indexOf("## At a glance"), lines.indexOf("## Arms"));
    expect(glance.filter((line) => line.startsWith("| codex-exec") || line.startsWith("Tokens:"))).toEqual([
      "| codex-exec | none (codex's own loop) | 0/1 | 1/1 | 0/1 | 1 of 3 | 6 | 61,731 |",
      "Tokens: ordinary — armstudy's o200k count; codex-exec — persona server's o200k count of what the client sent (no model).",
    ]);
    expect(lines.filter((line) => line.startsWith("| codex-exec |") || line.startsWith("| ordinary |"))).toEqual([
      "| ordinary | none | 0/1 | 1/1 | 0/1 | 1 of 3 | 10 | 21,000 |",
      "| codex-exec | none (codex's own loop) | 0/1 | 1/1 | 0/1 | 1 of 3 | 6 | 61,731 |",
      "| ordinary | armstudy | `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml` (test double) | none | 1,008 tokens, 4,000 chars, `ordinary-has` | the ordinary arm |",
      "| codex-exec | codex | `scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml` (test double) | none | client's own prompt (not measured) | the real Codex CLI |",
      // What each arm did: hand-built results carry no turn counts, so those cells are "–".
      "| ordinary | completed ×1 | none | – | – | – | none |",
      "| codex-exec | completed ×1 | none | – | – | – | none |",
    ]);
    expect(lines.filter((line) => line.startsWith("| token counts from") || line.startsWith("| tokens in all"))).toEqual([
      "| token counts from | armstudy's o200k count | persona server's o200k count of what the client sent (no model) |",
      "| tokens in all | 21,000 [21,000, 21,000] (median 21,000, 21,000–21,000) | 61,731 [61,731, 61,731] (median 61,731, 61,731–61,731) |",
      "| tokens in all | +40,731 | [+40,731, +40,731] | |",
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

describe("fmt", () => {
  it.each([
    [null, 1, "–"],
    [Number.NaN, 1, "–"],
    [0, 1, "0"],
    [999, 1, "999"],
    [1000, 1, "1,000"],
    [261671.66666, 1, "261,671.7"],
    [-221164.7, 1, "-221,164.7"],
    [1234567, 1, "1,234,567"],
    [0.01234, 4, "0.0123"],
  ] as const)("%s (%s digits) → %j", (value, digits, expected) => {
    expect(fmt(value, digits)).toEqual(expected);
  });
});

describe("differences between arms", () => {
  const intro = (text: string): string | undefined => {
    const lines = text.split("\n");
    return lines[lines.indexOf("## Differences between arms") + 2];
  };

  it("warns about many comparisons with the Bonferroni threshold when more than one pair is compared", () => {
    expect(intro(renderReportMarkdown(summarize(threeArms()), CHARTS))).toBe(
      "Each difference is the second arm minus the first (rates in percentage points); intervals are percentile bootstraps (each arm resampled on its own); p is Fisher's exact two-sided test on the 2×2 table of runs. An interval that spans 0 is no evidence of a difference. 3 pairs are compared: even between arms that do not differ, about one comparison in twenty reaches p < 0.05, so across all of them read p against 0.017 (Bonferroni).",
    );
  });

  it("says nothing of multiple comparisons for a single pair", () => {
    const two = meta([armMeta("a"), armMeta("b")], 1);
    const text = renderReportMarkdown(summarize({ dir: "/r", meta: two, results: [result("a", 1, 3), result("b", 1, 3)], missing: [] }), []);
    expect(intro(text)?.endsWith("An interval that spans 0 is no evidence of a difference.")).toBe(true);
  });
});
