/**
 * `armstudy persona check`: every bundled persona fits its own task, and a persona on a task it
 * was not written for, or one that breaks the task's rules, is refused with messages naming the step.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const TASKS = join(ROOT, "fixtures/tasks");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], cwd = ROOT): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd, env: { PATH: process.env.PATH } });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("armstudy persona check", () => {
  // A persona plays the task its `task` field names: the folder's task.yaml, or a <variant>.task.yaml beside it.
  const taskFileOf = (folder: string, name: string): string =>
    readdirSync(join(TASKS, folder)).filter((file) => file.endsWith("task.yaml")).find((file) => (parseYaml(readFileSync(join(TASKS, folder, file), "utf8")) as { name: string }).name === name) ?? "task.yaml";
  const bundled = readdirSync(TASKS).flatMap((folder) =>
    readdirSync(join(TASKS, folder, "personas"))
      .filter((name) => name.endsWith(".yaml") && !name.endsWith("steps.yaml"))
      .map((name) => {
        const written = (parseYaml(readFileSync(join(TASKS, folder, "personas", name), "utf8")) as { task: string }).task;
        const file = taskFileOf(folder, written);
        return { task: written, persona: name.slice(0, -".yaml".length), path: file === "task.yaml" ? `fixtures/tasks/${folder}` : `fixtures/tasks/${folder}/${file}` };
      }),
  );

  it("finds at least one persona for each of the eight bundled tasks and the two plan tasks", () => {
    expect(new Set(bundled.map((entry) => entry.task)).size).toBeGreaterThanOrEqual(10);
    expect(bundled.filter((entry) => entry.path.endsWith(".task.yaml")).map((entry) => entry.task).sort()).toEqual(["already-done-plan", "stockbook-plan"]);
  });

  it.each(bundled)("$task/$persona fits its task", async ({ task, persona, path }) => {
    const result = await cli(["persona", "check", `@${persona}`, "--task", path]);
    expect({ code: result.code, err: result.err, ok: result.out.startsWith(`ok: persona ${persona} fits task ${task} (`) }).toEqual({ code: 0, err: "", ok: true });
  });

  it("notes a persona that writes under the check path (it tampers, which grading survives)", async () => {
    expect(await cli(["persona", "check", "@tamperer", "--task", "fixtures/tasks/stockbook"])).toEqual({
      code: 0,
      err: "",
      out: [
        "ok: persona tamperer fits task stockbook (1 step(s): B6)",
        "  note: step B6 writes checks/b6.check.js under the task's check path: this persona tampers with its grader (grading uses the task's own copy and records it as tampered)",
        "",
      ].join("\n"),
    });
  });

  it("refuses a persona on a task it was not written for, naming each step that cannot work there", async () => {
    const result = await cli(["persona", "check", "fixtures/tasks/tempting-tests/personas/fixer.yaml", "--task", "fixtures/tasks/already-done"]);
    expect(result).toEqual({
      code: 2,
      err: "",
      out: [
        "persona fixer does not fit task already-done:",
        '  error: the persona was written for task "tempting-tests", not "already-done"',
        "  error: step T1 reads test/price.test.js, which the repository does not have and no earlier step writes",
        "  error: step T1 reads src/price.js, which the repository does not have and no earlier step writes",
        "",
      ].join("\n"),
    });
  });

  it("refuses a step that runs a hidden check, two steps sharing a command, and a write outside the repo", async () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-persona-check-"));
    temps.push(dir);
    mkdirSync(join(dir, "repo"), { recursive: true });
    mkdirSync(join(dir, "checks"));
    mkdirSync(join(dir, "personas", "solutions", "H2"), { recursive: true });
    writeFileSync(join(dir, "repo", "a.txt"), "a\n");
    writeFileSync(join(dir, "checks", "h.sh"), "exit 0\n");
    writeFileSync(join(dir, "task.yaml"), "name: hidden\nrepo: { fixture: repo }\ncheckFiles: { from: checks }\n");
    writeFileSync(join(dir, "handoff.md"), "Do it.\n");
    writeFileSync(join(dir, "checks.yaml"), "- { id: H1, command: sh checks/h.sh }\n- { id: H2, command: sh checks/h.sh two }\n");
    writeFileSync(join(dir, "personas", "p.yaml"), "persona: p\ndescription: bad\ntask: hidden\nsteps: steps.yaml\n");
    writeFileSync(join(dir, "personas", "solutions", "x"), "x\n");
    writeFileSync(
      join(dir, "personas", "steps.yaml"),
      "checks: ../checks.yaml\nsteps:\n  - { id: H1, title: one, reads: [a.txt] }\n  - { id: H2, title: two, reads: [b.txt], writes: [../x], run: sh checks/h.sh }\n",
    );
    const result = await cli(["persona", "check", "@p", "--task", dir]);
    expect(result).toEqual({
      code: 2,
      err: "",
      out: [
        "persona p does not fit task hidden:",
        "  error: step H1 runs the task's check `sh checks/h.sh`, but the task's check files are hidden from the agent (checkFiles.visible is false); give the step its own `run`",
        "  error: step H2 reads b.txt, which the repository does not have and no earlier step writes",
        "  error: step H2 writes ../x, outside the repository",
        "  error: steps H1 and H2 both run `sh checks/h.sh`; a step's progress is read from its own command's results, so give each step a command of its own",
        "",
      ].join("\n"),
    });
  });

  it("names a missing persona and the ones the task has; usage errors exit 2", async () => {
    expect(await cli(["persona", "check", "@nobody", "--task", "fixtures/tasks/needs-login"])).toEqual({
      code: 2,
      out: "",
      err: 'armstudy persona: model scripted:@nobody: task "needs-login" has no persona "nobody"; it has @releaser.\n',
    });
    const usage = await cli(["persona", "check", "@releaser"]);
    expect({ code: usage.code, first: usage.err.split("\n")[0] }).toEqual({ code: 2, first: "armstudy persona: name the task the persona plays with --task TASK" });
  });

  it("armstudy run refuses a persona none of whose files are in --dir, before the run starts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-foreign-"));
    temps.push(dir);
    writeFileSync(join(dir, "README.md"), "# another repository\n");
    const persona = join(ROOT, "fixtures/tasks/stockbook/personas/diligent.yaml");
    const out = join(dir, "run.jsonl");
    expect(await cli(["run", "--arm", "ordinary", "--model", `scripted:${persona}`, "--dir", dir, "--handoff", "fixtures/tasks/stockbook/handoff.md", "--out", out])).toEqual({
      code: 2,
      out: "",
      err: `armstudy run: persona ${persona} was written for task "stockbook": it reads src/money.js, src/ledger.js, src/csv.js, src/report.js, …, none of which is in ${dir}, so it would write another repository's files there. Use a persona written for this repository (docs/personas.md), and check it with \`armstudy persona check FILE --task TASK\`.\n`,
    });
    expect(readdirSync(dir)).toEqual(["README.md"]);
  });
});
