import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { section, tempTree, writeTree } from "../run/arms/helpers.ts";

const reference = new Tiktoken(o200kBase);
const tiktoken = (text: string): number => reference.encode(text, [], []).length;

async function cli(args: string[], cwd = process.cwd()): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** A small arms folder: two sections with budgets, a budgets file, no baseline yet. */
function smallArms(extra: Record<string, string> = {}): string {
  return tempTree({
    "arms/tiny/arm.yaml": "description: tiny\n",
    "arms/tiny/sections/intro.md": section("intro", 10, "You help with code."),
    "arms/tiny/sections/reporting.md": section("reporting", 90, "Lead with the outcome."),
    "arms/budgets.yaml": "growth: { maxPercent: 10 }\nsections:\n  intro: { maxChars: 100, maxTokens: 20 }\n  reporting: { maxChars: 200 }\n",
    ...extra,
  });
}

describe("armstudy budget --json on the bundled arms", () => {
  it("prints exactly { arms: [{ arm, prefixHash, prefix, sections, violations }] } with js-tiktoken's counts", async () => {
    const { code, out, err } = await cli(["budget", "--json"]);
    expect([code, err]).toEqual([0, ""]);
    const report = JSON.parse(out) as { arms: { arm: string; prefixHash: string; prefix: { chars: number; tokens: number }; sections: Record<string, unknown>[]; violations: unknown[] }[] };
    expect(Object.keys(report)).toEqual(["arms"]);
    expect(report.arms.map((a) => a.arm)).toEqual(["goal", "old-build", "ordinary", "plan-after", "plan-before", "report-content"]);
    for (const arm of report.arms) {
      expect(Object.keys(arm)).toEqual(["arm", "prefixHash", "prefix", "sections", "violations"]);
      expect(Object.keys(arm.prefix)).toEqual(["chars", "tokens"]);
      for (const s of arm.sections) expect(Object.keys(s)).toEqual(["id", "chars", "tokens", "maxChars", "maxTokens", "over"]);
      expect(arm.violations).toEqual([]);
      const shown = await cli(["prompt", "show", "--arm", arm.arm, "--stable"]);
      const prefix = shown.out.slice(0, -1);
      expect(arm.prefix).toEqual({ chars: prefix.length, tokens: tiktoken(prefix) });
    }
  });
});

describe("armstudy budget on a small arms folder", () => {
  it("prints the table, the prefix totals and hash; exit 0", async () => {
    const dir = smallArms();
    const { code, out, err } = await cli(["budget"], dir);
    expect([code, err]).toEqual([0, ""]);
    expect(out).toMatchInlineSnapshot(`
      "tiny
        section        chars  tokens  max chars  max tokens  share  since baseline
        intro             19       5        100          20    25%
        reporting         22       5        200           -    11%
        stable prefix     43      10          -           -      -
        prefix hash: 746625ebf173ef3560d8a3f46772318ec37faaf2da3b3968d4eba1967d58ac8d
        baseline: none
        violations: none

      budget: 1 arm within budget (allowed prefix growth 10%).
      "
    `);
  });

  it("--update-baseline writes the baseline; a changed sentence changes only that section and the hash", async () => {
    const dir = smallArms();
    const first = await cli(["budget", "--update-baseline", "--json"], dir);
    expect(first.code).toBe(0);
    const baselineFile = join(dir, "arms/budget-baseline.json");
    const written = readFileSync(baselineFile, "utf8");
    expect(JSON.parse(written)).toEqual({
      version: 1,
      arms: {
        tiny: {
          prefixHash: "746625ebf173ef3560d8a3f46772318ec37faaf2da3b3968d4eba1967d58ac8d",
          prefix: { chars: 43, tokens: 10 },
          sections: {
            intro: { hash: expect.stringMatching(/^[0-9a-f]{64}$/), chars: 19, tokens: 5 },
            reporting: { hash: expect.stringMatching(/^[0-9a-f]{64}$/), chars: 22, tokens: 5 },
          },
        },
      },
    });
    // Rewriting an unchanged baseline leaves it byte for byte, and leaves no temp file behind.
    expect((await cli(["budget", "--update-baseline"], dir)).code).toBe(0);
    expect(readFileSync(baselineFile, "utf8")).toBe(written);
    expect(readdirSync(join(dir, "arms")).sort()).toEqual(["budget-baseline.json", "budgets.yaml", "tiny"]);

    writeTree(dir, { "arms/tiny/sections/intro.md": section("intro", 10, "You help with code, and you finish it.") });
    const after = await cli(["budget", "--json"], dir);
    const before = JSON.parse(first.out) as { arms: { prefixHash: string; sections: unknown[] }[] };
    const now = JSON.parse(after.out) as typeof before;
    expect(now.arms[0]?.prefixHash).not.toBe(before.arms[0]?.prefixHash);
    expect(now.arms[0]?.sections).toEqual([
      { id: "intro", chars: 38, tokens: 10, maxChars: 100, maxTokens: 20, over: false },
      before.arms[0]?.sections[1],
    ]);

    // +50% is over the allowed 10%: a violation, exit 1. Only intro and the prefix moved.
    const text = await cli(["budget"], dir);
    expect(text.code).toBe(1);
    expect(text.out).toBe(
      [
        "tiny",
        "  section        chars  tokens  max chars  max tokens  share  since baseline",
        "  intro             38      10        100          20    50%  changed (+19 chars, +5 tokens)",
        "  reporting         22       5        200           -    11%  same",
        "  stable prefix     62      15          -           -      -  +5 tokens (+50%)",
        "  prefix hash: c5c1f4293d3a5d88d9fe774c972af622914545b14cbb5cb0cb9a679a1788b70f (baseline: 746625ebf173ef3560d8a3f46772318ec37faaf2da3b3968d4eba1967d58ac8d)",
        "  sections changed since the baseline: intro (changed)",
        "  VIOLATION: the stable prefix of \"tiny\" grew 50% (10 → 15 o200k tokens), over the allowed 10%. Shrink it, or accept the growth with `npm run budget -- --update-baseline` and commit the baseline file.",
        "",
        "budget: 1 violation in 1 of 1 arms.",
        "",
      ].join("\n"),
    );

    // Accepting the growth: the change is still shown, the growth no longer fails the gate.
    const accepted = await cli(["budget", "--update-baseline"], dir);
    expect(accepted.code).toBe(0);
    expect((await cli(["budget"], dir)).code).toBe(0);
  });

  it("exits 1 on a section over budget, with --github annotations naming the file", async () => {
    const dir = smallArms({ "arms/tiny/sections/intro.md": section("intro", 10, "word ".repeat(30).trim()) });
    const { code, out } = await cli(["budget", "--github"], dir);
    expect(code).toBe(1);
    expect(out.split("\n").filter((line) => line.startsWith("::"))).toEqual([
      "::error file=arms/tiny/sections/intro.md,title=prompt budget%3A tiny::section \"intro\" is 149 characters, over its maxChars of 100; shorten it or raise its budget.",
      "::error file=arms/tiny/sections/intro.md,title=prompt budget%3A tiny::section \"intro\" is 30 o200k tokens, over its maxTokens of 20; shorten it or raise its budget.",
    ]);
  });

  it("with --json and --github keeps stdout one JSON object and puts annotations on stderr", async () => {
    const dir = smallArms({ "arms/budgets.yaml": "prefix: { maxTokens: 5 }\n" });
    const { code, out, err } = await cli(["budget", "--json", "--github"], dir);
    expect(code).toBe(1);
    expect(JSON.parse(out).arms[0].violations).toEqual([
      { kind: "prefix_over_budget", limit: "maxTokens", actual: 10, max: 5, message: 'the stable prefix of "tiny" is 10 o200k tokens, over its maxTokens of 5; shorten a section or raise the prefix budget.' },
    ]);
    expect(err).toBe('::error file=arms/budgets.yaml,title=prompt budget%3A tiny::the stable prefix of "tiny" is 10 o200k tokens, over its maxTokens of 5; shorten a section or raise the prefix budget.\n');
  });

  it("--arm checks only the named arms, in the order given", async () => {
    const dir = smallArms({ "arms/other/arm.yaml": "{}\n", "arms/other/sections/a.md": section("a", 1, "A.") });
    const { code, out } = await cli(["budget", "--json", "--arm", "tiny", "--arm", "other"], dir);
    expect([code, JSON.parse(out).arms.map((a: { arm: string }) => a.arm)]).toEqual([0, ["tiny", "other"]]);
  });

  it("--budgets and --baseline take other files", async () => {
    const dir = smallArms({ "strict.yaml": "sections:\n  intro: { maxChars: 5 }\n" });
    expect((await cli(["budget", "--budgets", "strict.yaml"], dir)).code).toBe(1);
    expect((await cli(["budget", "--update-baseline", "--baseline", "base.json"], dir)).code).toBe(0);
    expect(existsSync(join(dir, "base.json"))).toBe(true);
    expect(existsSync(join(dir, "arms/budget-baseline.json"))).toBe(false);
  });
});

describe("armstudy budget on bad input: exit 2, file and field named, nothing written", () => {
  const cases: [string, Record<string, string>, string[], string][] = [
    [
      "a section file with broken front matter",
      { "arms/tiny/sections/intro.md": "---\nid: intro\norder: ten\n---\nx\n" },
      [],
      "armstudy budget: arms/tiny/sections/intro.md: line 3: front matter.order: expected number, received string; fix the value.\n",
    ],
    [
      "a budget naming an unknown section",
      { "arms/budgets.yaml": "sections:\n  intro: { maxChars: 100 }\n  outro: { maxChars: 100 }\n" },
      [],
      'armstudy budget: arms/budgets.yaml: line 3: sections.outro: no arm has a section "outro" (sections: intro, reporting). Fix the id or remove the entry.\n',
    ],
    [
      "an arm that extends a missing arm",
      { "arms/child/arm.yaml": "extends: tinny\n" },
      [],
      'armstudy budget: arms/child/arm.yaml: line 1: extends: names arm "tinny", but arms/tinny/arm.yaml does not exist. Fix the name or create that arm.\n',
    ],
    [
      "an unknown arm on the command line",
      {},
      ["--arm", "tiny", "--arm", "tinny"],
      'armstudy budget: arms/tinny/arm.yaml: no arm "tinny" here (arms in arms: tiny). Did you mean "tiny"? Check the name or create the file.\n',
    ],
    [
      "a missing --budgets file",
      {},
      ["--budgets", "nope.yaml"],
      "armstudy budget: nope.yaml: cannot be read (ENOENT: no such file or directory, open '<dir>/nope.yaml'). Check the --budgets path.\n",
    ],
    [
      "a baseline that is not JSON",
      { "arms/budget-baseline.json": "{ not json" },
      [],
      "<json>",
    ],
  ];

  it.each(cases)("%s", async (_name, files, args, message) => {
    const dir = smallArms(files);
    const before = existsSync(join(dir, "arms/budget-baseline.json")) ? readFileSync(join(dir, "arms/budget-baseline.json"), "utf8") : null;
    const { code, out, err } = await cli(["budget", "--update-baseline", ...args], dir);
    expect([code, out]).toEqual([2, ""]);
    if (message === "<json>") expect(err).toMatch(/^armstudy budget: arms\/budget-baseline\.json: is not valid JSON \(.+\)\. Restore it from git, or delete it and run --update-baseline for every arm\.\n$/);
    else expect(err).toBe(message.replace("<dir>", dir));
    const after = existsSync(join(dir, "arms/budget-baseline.json")) ? readFileSync(join(dir, "arms/budget-baseline.json"), "utf8") : null;
    expect(after).toBe(before);
    expect(readdirSync(join(dir, "arms")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("an unknown git ref", async () => {
    const dir = smallArms({ "arms/pinned/arm.yaml": "prompt: { ref: no-such-tag, arm: tiny }\n" });
    const { git } = await import("../run/arms/helpers.ts");
    git(dir, "init", "-q");
    const { code, out, err } = await cli(["budget", "--update-baseline"], dir);
    expect([code, out]).toEqual([2, ""]);
    expect(err).toBe(
      `armstudy budget: arms/pinned/arm.yaml: line 1: prompt.ref: git ref "no-such-tag" is not a branch, commit or tag in ${dir}, nor a remote-tracking branch. Use a branch, commit hash or tag that exists (git log --oneline, git branch -a, git tag), or fetch it first (a shallow clone lacks history: git fetch --unshallow).\n`,
    );
    expect(existsSync(join(dir, "arms/budget-baseline.json"))).toBe(false);
  });

  it("an unknown flag is a usage error", async () => {
    const { code, err } = await cli(["budget", "--arms-dir", "x"]);
    expect(code).toBe(2);
    expect(err.split("\n")[0]).toBe("armstudy budget: Unknown option '--arms-dir'");
  });
});
