/**
 * One broken arm in arms/ (ADR 0211): a command that names its arms runs; a command that reads
 * every arm (`budget`, as CI runs it) still stops on it, naming the file. The real CLI as a child
 * process over a copy of the real arms/ folder.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin/armstudy.js");
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-broken-arm-"));
  await cp(join(ROOT, "arms"), join(dir, "arms"), { recursive: true });
  await mkdir(join(dir, "arms/broken"));
  await writeFile(join(dir, "arms/broken/arm.yaml"), "polices:\n  - name: none\n");
  await writeFile(
    join(dir, "one.study.yaml"),
    [
      "name: one",
      "repo:",
      `  fixture: ${join(ROOT, "fixtures/tasks/stockbook/repo")}`,
      `handoff: ${join(ROOT, "fixtures/tasks/stockbook/handoff.md")}`,
      `checks: ${join(ROOT, "fixtures/tasks/stockbook/checks.yaml")}`,
      "armsDir: arms",
      "arms: [ordinary]",
      "runs: 1",
      `model: scripted:${join(ROOT, "fixtures/tasks/stockbook/personas/early-stopper.yaml")}`,
      "limits: { maxRounds: 20 }",
      "",
    ].join("\n"),
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function armstudy(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir, encoding: "utf8", timeout: 60_000 }, (error, out, err) => {
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, out, err });
    });
  });
}

const BROKEN = "arms/broken/arm.yaml: line 1: polices: unknown field; remove it or fix its spelling. Known fields here: name, description, extends, agent, prompt, sections, policies, goal, mode, plan, context.\n";

describe("a broken arm the command does not name", () => {
  it("does not stop a study of another arm", async () => {
    const result = await armstudy(["study", "one.study.yaml", "--out", "out"]);
    expect({ code: result.code, err: result.err, tail: result.out.split("\n").slice(-4) }).toEqual({
      code: 0,
      err: "",
      tail: ["1 run(s) finished, 0 already done", "report: out/report.md", "view: out/report.html", ""],
    });
  }, 60_000);

  it("still stops `budget` (every arm), naming the file, with exit 2 and nothing on stdout", async () => {
    expect(await armstudy(["budget"])).toEqual({ code: 2, out: "", err: `armstudy budget: ${BROKEN}` });
  }, 60_000);

  it("stops a command whose arm extends it, naming the broken file", async () => {
    await mkdir(join(dir, "arms/child"));
    await writeFile(join(dir, "arms/child/arm.yaml"), "extends: broken\n");
    expect(await armstudy(["budget", "--arm", "child"])).toEqual({ code: 2, out: "", err: `armstudy budget: ${BROKEN}` });
    expect(await armstudy(["study", "one.study.yaml", "--arm", "child", "--out", "out"])).toEqual({ code: 2, out: "", err: `armstudy study: ${BROKEN}` });
    expect((await readdir(dir)).sort()).toEqual(["arms", "one.study.yaml"]);
  }, 60_000);

  it("`budget --arm ordinary` checks the arm it names, and no other", async () => {
    const result = await armstudy(["budget", "--arm", "ordinary"]);
    const lines = result.out.split("\n");
    expect({ code: result.code, err: result.err, first: lines[0], last: lines.at(-2) }).toEqual({ code: 0, err: "", first: "ordinary", last: "budget: 1 arm within budget (allowed prefix growth 5%)." });
  }, 60_000);
});

describe("an arm file's or budgets file's field error names its line (ADR 0212)", () => {
  const typo = (text: string) => writeFile(join(dir, "arms/broken/arm.yaml"), text);
  const budget = async () => (await armstudy(["budget", "--arm", "broken"])).err;

  it("a misspelt nested key at the key, a wrong type at the value, a bad policy option at its own key", async () => {
    await typo("description: a typo\nextends: ordinary\npolicies:\n  - name: todoGate\n    option: { maxNudges: 3 }\n");
    expect(await budget()).toEqual("armstudy budget: arms/broken/arm.yaml: line 5: policies.0.option: unknown field; remove it or fix its spelling. Known fields here: name, options.\n");
    await typo("description: a typo\nextends: ordinary\npolicies:\n  - name: goal\ngoal:\n  rounds: many\n");
    expect(await budget()).toEqual("armstudy budget: arms/broken/arm.yaml: line 6: goal.rounds: expected number, received string; fix the value.\n");
    await typo("description: a typo\nextends: ordinary\npolicies:\n  - name: todoGate\n    options:\n      maxNudgez: 3\n");
    expect(await budget()).toEqual(
      'armstudy budget: arms/broken/arm.yaml: line 6: policies.0.options.maxNudgez: policy "todoGate": unknown option "maxNudgez" (allowed: maxNudges). Fix the option name or value in arms/broken/arm.yaml.\n',
    );
  }, 60_000);

  it("a misspelt budgets.yaml key names its line", async () => {
    const text = await readFile(join(dir, "arms/budgets.yaml"), "utf8");
    const line = text.split("\n").findIndex((l) => l.startsWith("  todo: ")) + 1;
    await writeFile(join(dir, "arms/budgets.yaml"), text.replace("  todo:        { maxChars:", "  todo:        { maxChar:"));
    expect(await armstudy(["budget", "--arm", "ordinary"])).toEqual({
      code: 2,
      out: "",
      err: `armstudy budget: arms/budgets.yaml: line ${line}: sections.todo.maxChar: unknown field; remove it or fix its spelling. Known fields here: maxChars, maxTokens.\n`,
    });
  }, 60_000);
});
