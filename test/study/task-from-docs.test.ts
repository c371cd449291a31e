/**
 * A task written from docs/tasks.md alone: the page's complete example (a new repository, its
 * task.yaml, handoff, hidden checks and its own persona) is written to a temp folder exactly as the
 * page shows it, validated with `armstudy persona check`, and run as a study with `scripted:@task`.
 * The same task pointed at a git repository and commit runs the same way.
 */
import { afterAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { loadResults } from "../../src/render/results.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every file the example shows: a line naming `greeting/…` in backticks, then a fenced block. */
function exampleFiles(markdown: string): Map<string, string> {
  const section = markdown.slice(markdown.indexOf("## A complete example"), markdown.indexOf("## A study file with one handoff"));
  const files = new Map<string, string>();
  const pattern = /^`(greeting\/[^`]+)`[^\n]*\n\n```[a-z]*\n([\s\S]*?)^```$/gm;
  for (const match of section.matchAll(pattern)) files.set(match[1] as string, match[2] as string);
  return files;
}

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd, env: { PATH: process.env.PATH } });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("a task written from docs/tasks.md on a new repository", () => {
  it("validates and runs with its own persona, graded by its own hidden checks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-docs-task-"));
    temps.push(dir);
    const files = exampleFiles(readFileSync(join(ROOT, "docs/tasks.md"), "utf8"));
    expect([...files.keys()].sort()).toEqual([
      "greeting/checks.yaml",
      "greeting/checks/shout.check.mjs",
      "greeting/handoff.md",
      "greeting/personas/careful.yaml",
      "greeting/personas/solutions/G1/greet.js",
      "greeting/personas/steps.yaml",
      "greeting/repo/greet.js",
      "greeting/task.yaml",
    ]);
    for (const [path, text] of files) {
      mkdirSync(dirname(join(dir, "my-tasks", path)), { recursive: true });
      writeFileSync(join(dir, "my-tasks", path), text);
    }
    expect(await cli(["persona", "check", "my-tasks/greeting/personas/careful.yaml", "--task", "my-tasks/greeting"], dir)).toEqual({
      code: 0,
      err: "",
      out: "ok: persona careful fits task greeting (1 step(s): G1)\n",
    });

    const studyFile = (tasks: string) =>
      [`tasks: [${tasks}]`, `armsDir: ${join(ROOT, "arms")}`, "arms: [ordinary, goal]", "runs: 1", "model: scripted:@task", ""].join("\n");
    writeFileSync(join(dir, "mine.study.yaml"), studyFile("my-tasks/*"));
    const run = await cli(["study", "mine.study.yaml", "--out", "out", "-j", "2", "--json"], dir);
    expect({ code: run.code, err: run.err, ran: JSON.parse(run.out).ran }).toEqual({ code: 0, err: "", ran: 2 });
    const results = (await loadResults(join(dir, "out"))).results;
    expect(results.map((r) => ({ task: r.task, arm: r.arm, passed: r.acceptance.passed, failed: r.acceptance.failed, tampered: r.tampered, claimed: r.metrics.claimedComplete }))).toEqual([
      { task: "greeting", arm: "ordinary", passed: 2, failed: 0, tampered: [], claimed: true },
      { task: "greeting", arm: "goal", passed: 2, failed: 0, tampered: [], claimed: true },
    ]);
    // The checks ran from the task folder: the repository never held them, and the agent's diff does not either.
    const patch = readFileSync(join(dir, "out", "runs", "ordinary", "run-1", "diff.patch"), "utf8");
    expect({ greet: patch.includes("+++ b/greet.js"), checks: patch.includes("checks/") }).toEqual({ greet: true, checks: false });

    // The same task on an existing git repository at a commit.
    const gitRepo = join(dir, "service");
    cpSync(join(dir, "my-tasks", "greeting", "repo"), gitRepo, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: gitRepo, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@x.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@x.invalid" } });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "service");
    const commit = git("rev-parse", "HEAD").trim();
    writeFileSync(join(gitRepo, "greet.js"), "console.log('changed after the pinned commit');\n");
    const taskYaml = readFileSync(join(dir, "my-tasks", "greeting", "task.yaml"), "utf8").replace("repo: { fixture: repo }", `repo: { git: ../../service, commit: "${commit}" }`);
    writeFileSync(join(dir, "my-tasks", "greeting", "task.yaml"), taskYaml);
    rmSync(join(dir, "my-tasks", "greeting", "repo"), { recursive: true });
    const again = await cli(["study", "mine.study.yaml", "--out", "out-git", "--arm", "ordinary", "--json"], dir);
    expect({ code: again.code, err: again.err }).toEqual({ code: 0, err: "" });
    const [gitRun] = (await loadResults(join(dir, "out-git"))).results;
    expect({ failed: gitRun?.acceptance.failed, commit: JSON.parse(readFileSync(join(dir, "out-git", "study.json"), "utf8")).repo.commit }).toEqual({ failed: 0, commit });
  });
});
