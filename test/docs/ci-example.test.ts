/**
 * docs/examples/study-ci.yml run as CI would run it: the workflow's own `npm run study` and
 * `npx armstudy` lines, in order, for a baseline (main) and for a pull request with a planted
 * regression (the goal arm's control removed). The shards merge, the threshold gate and the
 * baseline gate fail on the regression with ::error annotations, and pass on the baseline itself.
 *
 * Two liberties, for time: the study command gets `--arm ordinary --arm goal --runs 2` appended,
 * and the PR's study file is a copy of arms/ with the regression planted.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const workflow = parse(readFileSync(join(ROOT, "docs/examples/study-ci.yml"), "utf8"));

/** The workflow's run lines, per job, with the matrix value filled in; the job's `if:` kept. */
function runLines(job: string, shard?: number): Array<{ line: string; when: string | undefined }> {
  return (workflow.jobs[job].steps as Array<{ run?: string; if?: string }>)
    .filter((step) => step.run !== undefined && /(npm run study|npx armstudy)/.test(step.run))
    .map((step) => ({ line: (step.run as string).replaceAll("${{ matrix.shard }}", String(shard)), when: step.if }));
}

/** Splits a line into words the way sh would for these simple lines (double quotes, one redirect). */
function words(line: string): { argv: string[]; stdoutTo: string | null } {
  // Only a trailing `> FILE` is a redirect; a `>` inside a quoted gate expression is not.
  const redirect = /^(.*)\s>\s(\S+)$/.exec(line);
  const command = redirect?.[1] ?? line;
  const argv = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
  return { argv, stdoutTo: redirect?.[2] ?? null };
}

/** Runs one workflow line in `cwd` through the CLI; returns its exit code and output. */
async function runLine(line: string, cwd: string, studyFile: string) {
  const { argv, stdoutTo } = words(line);
  let args: string[];
  if (argv[0] === "npm") {
    // npm run study -- FILE ... → armstudy study FILE ...
    args = ["study", ...argv.slice(4).map((arg) => (arg === "arms/default.study.yaml" ? studyFile : arg)), "--arm", "ordinary", "--arm", "goal", "--runs", "2"];
  } else {
    args = argv.slice(2);
  }
  const io = memoryIO({ cwd });
  const code = await main(args, io);
  const out = io.out.join("");
  if (stdoutTo !== null) writeFileSync(resolve(cwd, stdoutTo), out);
  return { code, out, err: io.err.join("") };
}

const baselineWork = mkdtempSync(join(tmpdir(), "armstudy-ci-main-"));
const prWork = mkdtempSync(join(tmpdir(), "armstudy-ci-pr-"));
const results: Array<{ line: string; code: number; out: string }> = [];

beforeAll(async () => {
  // "main": both shards and the merge; its merged study is the PR's baseline artifact.
  for (const shard of [1, 2]) {
    for (const { line } of runLines("shard", shard)) expect((await runLine(line.replace("--out results", `--out ${baselineWork}/results`), ROOT, "arms/default.study.yaml")).code).toEqual(0);
  }
  const merge = runLines("gate").find(({ line }) => line.includes(" merge "));
  expect((await runLine((merge?.line ?? "").replaceAll("results/", `${baselineWork}/results/`), ROOT, "")).code).toEqual(0);
  cpSync(join(baselineWork, "results/merged"), join(prWork, "baseline"), { recursive: true });

  // The PR: the goal arm's control removed.
  const arms = join(prWork, "arms");
  cpSync(join(ROOT, "arms"), arms, { recursive: true });
  writeFileSync(join(arms, "goal/arm.yaml"), "description: the goal arm with its control removed (a planted regression)\nextends: ordinary\npolicies:\n  - name: none\n");
  const study = readFileSync(join(arms, "default.study.yaml"), "utf8")
    .replace("fixture: ../fixtures/tasks/stockbook/repo", `fixture: ${join(ROOT, "fixtures/tasks/stockbook/repo")}`)
    .replace("handoff: ../fixtures/tasks/stockbook/handoff.md", `handoff: ${join(ROOT, "fixtures/tasks/stockbook/handoff.md")}`)
    .replace("checks: ../fixtures/tasks/stockbook/checks.yaml", `checks: ${join(ROOT, "fixtures/tasks/stockbook/checks.yaml")}`);
  writeFileSync(join(arms, "default.study.yaml"), study);
  for (const shard of [1, 2]) {
    for (const { line } of runLines("shard", shard)) expect((await runLine(line.replace("--out results", `--out ${prWork}/results`), ROOT, join(arms, "default.study.yaml"))).code).toEqual(0);
  }
  for (const { line } of runLines("gate")) {
    const outcome = await runLine(line.replaceAll("results/", `${prWork}/results/`).replaceAll(" baseline", ` ${prWork}/baseline`).replace("> comparison.md", `> ${prWork}/comparison.md`), ROOT, "");
    results.push({ line, code: outcome.code, out: outcome.out });
  }
}, 240_000);

describe("docs/examples/study-ci.yml", () => {
  it("runs two shards per study, merges them, and its gates fail on the planted regression", () => {
    expect(results.map(({ line, code }) => [line.split(" ").slice(0, 3).join(" "), code])).toEqual([
      ["npx armstudy merge", 0],
      ["npx armstudy gate", 1],
      ["npx armstudy compare", 0],
      ["npx armstudy gate", 1],
    ]);
    const threshold = results[1]?.out.split("\n") ?? [];
    expect(threshold.filter((line) => line.startsWith("gate failed") || line.startsWith("::error"))).toEqual([
      "gate failed: goal.falseCompletion.rate > 0.2: is 1.",
      "::error title=armstudy gate::goal.falseCompletion.rate > 0.2: is 1.",
    ]);
    const baseline = results[3]?.out ?? "";
    expect(baseline).toMatch(/^gate failed: goal\.falseCompletion got worse than the baseline /m);
    expect(baseline).toMatch(/^::error title=armstudy gate::goal\.falseCompletion got worse/m);
    expect(readFileSync(join(prWork, "comparison.md"), "utf8").split("\n")[0]).toEqual(`## armstudy compare: ${prWork}/results/merged vs ${prWork}/baseline`);
  });

  it("the baseline's own gates pass", async () => {
    const { code, out } = await runLine(`npx armstudy gate ${baselineWork}/results/merged --fail-if "goal.falseCompletion.rate > 0.2" --fail-if-worse-than ${prWork}/baseline --github`, ROOT, "");
    expect({ code, out }).toEqual({ code: 0, out: "gates: all passed\n" });
  });
});
