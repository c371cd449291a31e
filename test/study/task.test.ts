/**
 * Task folders: task.yaml validated with messages that name the file and field, `tasks:` globs,
 * hostile values (fast-check), and a setup command that fails being the run's harness error.
 */
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadResults } from "../../src/render/results.ts";
import { defaultStudyDeps } from "../../src/study/deps.ts";
import { StudyInputError } from "../../src/study/errors.ts";
import { runStudy } from "../../src/study/runner.ts";
import { loadStudyFile } from "../../src/study/study-file.ts";
import { expandGlob, loadTask, loadTasks, parseTaskFile } from "../../src/study/task.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "armstudy-task-"));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A minimal task folder; `yaml` replaces task.yaml. */
function writeTask(dir: string, yaml: string, extra: Record<string, string> = {}): string {
  mkdirSync(join(dir, "repo"), { recursive: true });
  mkdirSync(join(dir, "checks"), { recursive: true });
  writeFileSync(join(dir, "repo", "README.md"), "# r\n");
  writeFileSync(join(dir, "checks", "c.sh"), "exit 0\n");
  writeFileSync(join(dir, "handoff.md"), "Do it.\n");
  writeFileSync(join(dir, "checks.yaml"), "- { id: C1, command: sh checks/c.sh }\n");
  writeFileSync(join(dir, "task.yaml"), yaml);
  for (const [path, text] of Object.entries(extra)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("task.yaml", () => {
  it("fills defaults and resolves paths against the task folder", async () => {
    const dir = writeTask(temp(), "name: t1\nrepo: { fixture: repo }\ncheckFiles: { from: checks }\n");
    expect(await loadTask(dir)).toEqual({
      name: "t1",
      description: "",
      tags: [],
      workExists: false,
      dir,
      file: join(dir, "task.yaml"),
      repo: { kind: "fixture", dir: join(dir, "repo") },
      handoffPath: join(dir, "handoff.md"),
      checksPath: join(dir, "checks.yaml"),
      checkFiles: { from: join(dir, "checks"), to: "checks", visible: false },
      setup: null,
      limits: null,
      checkTimeoutMs: null,
      persona: null,
      personasDir: join(dir, "personas"),
      flat: false,
    });
  });

  it.each([
    ["repo: { fixture: repo }\n", "field name: Invalid input: expected string, received undefined"],
    ["name: a b\nrepo: { fixture: repo }\n", "line 1: field name: must be letters, digits, '.', '_' or '-' (it names a folder under runs/)"],
    ["name: t\nrepo: { fixture: repo }\ncheckFiles: { from: checks, to: ../up }\n", "line 3: field checkFiles.to: must be a relative path inside the repository (no '..', not .git)"],
    ["name: t\nrepo: { fixture: repo }\ncheckFiles: { from: checks, to: .git/hooks }\n", "line 3: field checkFiles.to: must be a relative path inside the repository (no '..', not .git)"],
    ["name: t\nrepo: { fixture: repo }\nlimits: { maxWallMs: 3000000000 }\n", "line 3: field limits.maxWallMs: Too big: expected number to be <=86400000"],
    ["name: t\nrepo: { fixture: ../elsewhere }\n", 'line 2: field repo.fixture: "../elsewhere" is outside the task folder; keep a task\'s files in its folder.'],
    ["name: t\nrepo: { fixture: repo }\nsurprise: 1\n", 'line 3: top level: Unrecognized key: "surprise"'],
    ["name: t\nrepo: { git: ../r, commit: 1234567e12 }\n", 'line 2: field repo.commit: reads as a number: YAML takes a commit hash of digits (or digits and an e) as one; quote it, e.g. commit: "0123e45"'],
  ])("refuses %j naming the field", async (yaml, message) => {
    const dir = writeTask(temp(), yaml);
    await expect(loadTask(dir)).rejects.toThrow(`${join(dir, "task.yaml")}: ${message}`);
  });

  it("loads a <variant>.task.yaml beside task.yaml as a task of its own on the same repository, with workExists", async () => {
    const dir = writeTask(join(temp(), "t1"), "name: t1\nrepo: { fixture: repo }\n", { "plan.md": "Plan it.\n", "plan.task.yaml": "name: t1-plan\nworkExists: true\nrepo: { fixture: repo }\nhandoff: plan.md\n" });
    const variant = await loadTask(join(dir, "plan.task.yaml"));
    expect({ name: variant.name, workExists: variant.workExists, file: variant.file, repo: variant.repo, handoffPath: variant.handoffPath, personasDir: variant.personasDir }).toEqual({
      name: "t1-plan",
      workExists: true,
      file: join(dir, "plan.task.yaml"),
      repo: { kind: "fixture", dir: join(dir, "repo") },
      handoffPath: join(dir, "plan.md"),
      personasDir: join(dir, "personas"),
    });
    // A folder or a glob of folders still means task.yaml; the variant is named by its file.
    expect((await loadTasks(["*", "*/plan.task.yaml"], join(dir, ".."), "s.study.yaml")).map((task) => task.name)).toEqual(["t1", "t1-plan"]);
    writeFileSync(join(dir, "bad.task.yaml"), "name: t2\nworkExists: yes please\nrepo: { fixture: repo }\n");
    await expect(loadTask(join(dir, "bad.task.yaml"))).rejects.toThrow(`${join(dir, "bad.task.yaml")}: line 2: field workExists: Invalid input: expected boolean, received string`);
  });

  it("refuses check files that are still in the repository, and a folder that is not a task", async () => {
    const dir = writeTask(temp(), "name: t\nrepo: { fixture: repo }\ncheckFiles: { from: checks }\n", { "repo/checks/old.js": "x\n" });
    await expect(loadTask(dir)).rejects.toThrow(
      `${join(dir, "task.yaml")}: line 3: field checkFiles.to: the repository already has checks; check files live in the task folder only (move them out of the repo).`,
    );
    const empty = temp();
    await expect(loadTask(empty)).rejects.toThrow(`${empty} is not a task: it holds no task.yaml. A task is a folder with task.yaml, handoff.md and checks.yaml (docs/tasks.md).`);
  });

  it("never throws anything but a StudyInputError, whatever the value", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          parseTaskFile(value, "/x/task.yaml");
          return true;
        } catch (error) {
          return error instanceof StudyInputError && error.message.startsWith("/x/task.yaml");
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("tasks: entries", () => {
  it("expands globs in order, loads each task once, and refuses a glob that matches nothing or two tasks of one name", async () => {
    const root = temp();
    writeTask(join(root, "b-task"), "name: b\nrepo: { fixture: repo }\n");
    writeTask(join(root, "a-task"), "name: a\nrepo: { fixture: repo }\n");
    mkdirSync(join(root, "not-a-task"));
    expect(await expandGlob("*-task", root)).toEqual([join(root, "a-task"), join(root, "b-task"), join(root, "not-a-task")]);
    const tasks = await loadTasks(["b-task", "*"], root, "s.study.yaml");
    expect(tasks.map((task) => task.name)).toEqual(["b", "a"]);
    await expect(loadTasks(["zz*"], root, "s.study.yaml")).rejects.toThrow('s.study.yaml: field tasks.0: "zz*" matches no task folder (one holding task.yaml).');
    writeTask(join(root, "c-task"), "name: a\nrepo: { fixture: repo }\n");
    await expect(loadTasks(["*"], root, "s.study.yaml")).rejects.toThrow(`s.study.yaml: field tasks.0: two tasks are named "a" (${join(root, "a-task", "task.yaml")} and ${join(root, "c-task", "task.yaml")}); task names must be unique.`);
  });

  it("a study file gives either tasks or repo, handoff and checks", async () => {
    const root = temp();
    writeFileSync(join(root, "both.study.yaml"), "tasks: [x]\nrepo: { fixture: r }\narms: [a]\nmodel: scripted:p\n");
    await expect(loadStudyFile(join(root, "both.study.yaml"))).rejects.toThrow(`${join(root, "both.study.yaml")}: line 2: field repo: give either tasks (a suite) or repo, handoff and checks (one task), not both`);
    writeFileSync(join(root, "none.study.yaml"), "arms: [a]\nmodel: scripted:p\n");
    await expect(loadStudyFile(join(root, "none.study.yaml"))).rejects.toThrow(`${join(root, "none.study.yaml")}: field repo: required (or list task folders under tasks)`);
  });
});

describe("setup", () => {
  it("a setup command that fails is the run's harness error, with its output, and the agent never starts", async () => {
    const root = temp();
    const task = writeTask(join(root, "broken"), "name: broken\nrepo: { fixture: repo }\nsetup: echo building; echo 'no compiler' >&2; exit 3\npersona: p\n", {
      "personas/p.yaml": "persona: p\ndescription: d\ntask: broken\nsteps: steps.yaml\n",
      "personas/steps.yaml": "steps:\n  - { id: C1, title: one, run: 'true' }\n",
    });
    writeFileSync(join(root, "s.study.yaml"), [`tasks: [${task}]`, `armsDir: ${join(ROOT, "arms")}`, "arms: [ordinary]", "runs: 1", "model: scripted:@task", ""].join("\n"));
    const spec = await loadStudyFile(join(root, "s.study.yaml"));
    const outcome = await runStudy({ spec, deps: defaultStudyDeps({ env: { PATH: process.env.PATH } }), outDir: join(root, "out"), cacheRoot: join(ROOT, ".armstudy"), worktreeRoot: join(root, "wt"), cwd: ROOT });
    const [result] = (await loadResults(join(root, "out"))).results;
    expect({ errors: outcome.errors, status: result?.status, error: result?.error, toolCalls: result?.metrics.toolCalls }).toEqual({
      errors: 1,
      status: "error",
      error: "SetupError: task broken's setup `echo building; echo 'no compiler' >&2; exit 3` exited 3: building / no compiler",
      toolCalls: 0,
    });
  });
});
