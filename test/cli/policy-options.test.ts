/**
 * A mistyped policy option fails when the arm loads, in every command that loads arms: exit 2, the
 * arm file, the option and the allowed ones named, and no run started.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { parseStudyFile } from "../../src/study/study-file.ts";

const ROOT = resolve(import.meta.dirname, "../..");
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-cli-options-"));
  await cp(join(ROOT, "arms/old-build"), join(dir, "arms/typo"), { recursive: true });
  const yaml = await readFile(join(dir, "arms/typo/arm.yaml"), "utf8");
  await writeFile(join(dir, "arms/typo/arm.yaml"), yaml.replace("maxNudges: 3", "maxNudgez: 3"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd: dir });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const PROBLEM = 'arms/typo/arm.yaml: line 10: policies.0.options.maxNudgez: policy "todoGate": unknown option "maxNudgez" (allowed: maxNudges). Fix the option name or value in arms/typo/arm.yaml.';

describe("a mistyped policy option (maxNudgez)", () => {
  it("fails budget, prompt show, run and study with exit 2 naming the file, the option and the allowed ones", async () => {
    await writeFile(
      join(dir, "arms/typo.study.yaml"),
      [
        `repo: { fixture: ${join(ROOT, "fixtures/tasks/stockbook/repo")} }`,
        `handoff: ${join(ROOT, "fixtures/tasks/stockbook/handoff.md")}`,
        `checks: ${join(ROOT, "fixtures/tasks/stockbook/checks.yaml")}`,
        "arms: [typo]",
        "runs: 1",
        `model: scripted:${join(ROOT, "fixtures/tasks/stockbook/personas/diligent.yaml")}`,
        "",
      ].join("\n"),
    );
    const persona = `scripted:${join(ROOT, "fixtures/tasks/stockbook/personas/diligent.yaml")}`;
    const handoff = join(ROOT, "fixtures/tasks/stockbook/handoff.md");
    const results = {
      budget: await cli(["budget", "--arm", "typo", "--arms", "arms", "--budgets", join(ROOT, "arms/budgets.yaml")]),
      prompt: await cli(["prompt", "show", "--arm", "typo", "--arms", "arms"]),
      run: await cli(["run", "--arm", "typo", "--arms-dir", "arms", "--model", persona, "--dir", ".", "--handoff", handoff, "--out", "out/record.jsonl"]),
      study: await cli(["study", "arms/typo.study.yaml", "--out", "results"]),
    };
    expect(Object.fromEntries(Object.entries(results).map(([name, r]) => [name, { code: r.code, out: r.out, problem: r.err.includes(PROBLEM) }]))).toEqual({
      budget: { code: 2, out: "", problem: true },
      prompt: { code: 2, out: "", problem: true },
      run: { code: 2, out: "", problem: true },
      study: { code: 2, out: "", problem: true },
    });
    // Nothing ran: no record, no results folder.
    expect((await readdir(dir)).sort()).toEqual(["arms"]);
  });

  it("a study file's replacement policies are checked the same way", () => {
    const study = {
      repo: { fixture: "repo" },
      handoff: "h.md",
      checks: "c.yaml",
      model: "scripted:p.yaml",
      arms: [{ name: "ordinary", policies: [{ name: "goal", options: { round: 3 } }] }],
    };
    expect(() => parseStudyFile(study, "s.study.yaml")).toThrow(
      's.study.yaml: field arms.0.policies.0.options.round: policy "goal": unknown option "round" (allowed: objective, rounds, hours, elapsedTime). Fix the option name or value.',
    );
  });

  it("options of a policy that takes none, and combinations, are named too", async () => {
    await writeFile(join(dir, "arms/typo/arm.yaml"), "policies:\n  - name: none\n    options: { quiet: true }\n");
    expect((await cli(["prompt", "show", "--arm", "typo", "--arms", "arms"])).err).toContain(
      'arms/typo/arm.yaml: line 3: policies.0.options.quiet: policy "none": unknown option "quiet" (this policy takes no options).',
    );
    await writeFile(join(dir, "arms/typo/arm.yaml"), "policies:\n  - name: goal\n  - name: everyReplyCheck\n");
    expect((await cli(["prompt", "show", "--arm", "typo", "--arms", "arms"])).err).toContain(
      'arms/typo/arm.yaml: line 1: policies: policies "goal" and "everyReplyCheck" both check claims',
    );
  });
});
