/** Bad input to study, merge and their files: exit 2, one message naming the file or field, nothing half-written. */
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { StudyInputError } from "../../src/study/errors.ts";
import { loadChecks, parseChecks } from "../../src/study/checks.ts";
import { loadStudyFile } from "../../src/study/study-file.ts";
import { armMeta, meta, result } from "../render/support.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-bad-input-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd: dir });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** A results folder of one study holding the given runs of `ordinary` (result.json text per run). */
async function resultsFolder(name: string, runs: Record<number, string>): Promise<void> {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, "study.json"), JSON.stringify(meta([armMeta("ordinary")], 2)));
  for (const [index, text] of Object.entries(runs)) {
    await mkdir(join(dir, name, "runs", "ordinary", `run-${index}`), { recursive: true });
    await writeFile(join(dir, name, "runs", "ordinary", `run-${index}`, "result.json"), text);
  }
}

describe("armstudy merge", () => {
  it("a broken result.json in a shard is named where it is, and no merged folder is left behind", async () => {
    await resultsFolder("s1", { 1: JSON.stringify(result("ordinary", 1, 3)) });
    await resultsFolder("s2", { 2: '{"schema":' });
    expect(await cli(["merge", "s1", "s2", "--out", "merged"])).toEqual({
      code: 2,
      out: "",
      err: "armstudy merge: s2/runs/ordinary/run-2/result.json: cannot be read (Unexpected end of JSON input). Delete the run folder and rerun with --resume.\n",
    });
    expect(await readdir(dir)).toEqual(["s1", "s2"]);
  });

  it("an --out that is a file is refused before anything is read or written", async () => {
    await resultsFolder("s1", { 1: JSON.stringify(result("ordinary", 1, 3)) });
    await writeFile(join(dir, "taken"), "keep me");
    expect(await cli(["merge", "s1", "--out", "taken"])).toEqual({
      code: 2,
      out: "",
      err: "armstudy merge: --out taken is a file, not a folder; choose a new folder.\n",
    });
    expect(existsSync(join(dir, "s1", "report.md"))).toEqual(false);
  });
});

describe("acceptance checks files", () => {
  const problem = (value: unknown): { code: string; message: string } => {
    try {
      parseChecks(value, "main.checks.yaml");
    } catch (error) {
      if (error instanceof StudyInputError) return { code: error.code, message: error.message };
      throw error;
    }
    throw new Error("expected the checks to be refused");
  };
  const footer = "\nA checks file lists checks as { id, command, timeoutMs? }.";

  it("a wrong type inside either form names the field (was 'top level: Invalid input' from the union)", () => {
    expect(problem({ checks: [{ id: "B1", command: true }] })).toEqual({
      code: "STUDY_CHECKS",
      message: `main.checks.yaml: field checks.0.command: Invalid input: expected string, received boolean${footer}`,
    });
    expect(problem([{ id: "B1", command: "npm test", timeoutMs: "soon" }])).toEqual({
      code: "STUDY_CHECKS",
      message: `main.checks.yaml: field 0.timeoutMs: Invalid input: expected number, received string${footer}`,
    });
  });

  it("an empty file says it is empty", () => {
    expect(problem(null)).toEqual({ code: "STUDY_CHECKS", message: `main.checks.yaml: is empty${footer}` });
  });
});

describe("armstudy study: the handoff", () => {
  const ROOT = join(import.meta.dirname, "../..");
  const studyFile = (handoff: string) =>
    [
      "name: handoff-probe",
      "repo:",
      `  fixture: ${join(ROOT, "fixtures/tasks/stockbook/repo")}`,
      `handoff: ${handoff}`,
      `checks: ${join(ROOT, "fixtures/tasks/stockbook/checks.yaml")}`,
      `armsDir: ${join(ROOT, "arms")}`,
      "arms: [ordinary]",
      "runs: 1",
      `model: scripted:${join(ROOT, "fixtures/tasks/stockbook/personas/diligent.yaml")}`,
      "",
    ].join("\n");

  it("an empty handoff, or one that is not UTF-8, stops the study before any run, with no results folder", async () => {
    await writeFile(join(dir, "empty.md"), "\n  \n");
    await writeFile(join(dir, "latin1.md"), Buffer.from([0x46, 0x69, 0x78, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await writeFile(join(dir, "empty.study.yaml"), studyFile("empty.md"));
    await writeFile(join(dir, "latin1.study.yaml"), studyFile("latin1.md"));
    expect(await cli(["study", "empty.study.yaml", "--out", "out"])).toEqual({
      code: 2,
      out: "",
      err: "armstudy study: empty.study.yaml: field handoff: empty.md: is empty; the handoff is every run's first message.\n",
    });
    expect(await cli(["study", "latin1.study.yaml", "--out", "out"])).toEqual({
      code: 2,
      out: "",
      err: "armstudy study: latin1.study.yaml: field handoff: latin1.md: line 2: is not UTF-8 text; save it as UTF-8.\n",
    });
    expect(existsSync(join(dir, "out"))).toEqual(false);
  });
});

describe("armstudy study --out", () => {
  const DILIGENT = `scripted:${join(import.meta.dirname, "../../fixtures/tasks/stockbook/personas/diligent.yaml")}`;
  it("a file as --out exits 2 naming it (was EEXIST, exit 1)", async () => {
    await writeFile(join(dir, "taken"), "keep");
    const { code, err } = await cli(["study", join(import.meta.dirname, "../../arms/default.study.yaml"), "--runs", "1", "--arm", "ordinary", "--model", DILIGENT, "--out", "taken"]);
    expect({ code, err }).toEqual({ code: 2, err: "armstudy study: --out taken is a file, not a folder; choose a new folder for the results.\n" });
  });

  it("a results folder whose study.json is broken is not started over: exit 2, the folder untouched", async () => {
    await resultsFolder("old", { 1: JSON.stringify(result("ordinary", 1, 3)) });
    await writeFile(join(dir, "old", "study.json"), '{"schema":');
    const { code, err } = await cli(["study", join(import.meta.dirname, "../../arms/default.study.yaml"), "--runs", "1", "--arm", "ordinary", "--model", DILIGENT, "--out", "old"]);
    expect({ code, err }).toEqual({
      code: 2,
      err: `armstudy study: ${join(dir, "old", "study.json")}: cannot be read (Unexpected end of JSON input). armstudy study writes this file; restore it from the study's folder, or run the study again.\n`,
    });
    expect({ meta: await readFile(join(dir, "old", "study.json"), "utf8"), files: (await readdir(join(dir, "old"))).sort() }).toEqual({ meta: '{"schema":', files: ["runs", "study.json"] });
  });
});

describe("armstudy study --model scripted:FILE", () => {
  it("a persona file that is missing or not YAML exits 2 like the other model spec errors (was exit 1)", async () => {
    await writeFile(join(dir, "broken.yaml"), "persona: [\n");
    const study = join(import.meta.dirname, "../../arms/default.study.yaml");
    const missing = await cli(["study", study, "--runs", "1", "--arm", "ordinary", "--model", "scripted:none.yaml", "--out", "out"]);
    expect(missing).toEqual({ code: 2, out: "", err: `armstudy study: persona file ${join(dir, "none.yaml")} cannot be read (ENOENT); check the path\n` });
    const broken = await cli(["study", study, "--runs", "1", "--arm", "ordinary", "--model", "scripted:broken.yaml", "--out", "out"]);
    expect({ code: broken.code, firstLine: broken.err.split("\n")[0] }).toEqual({
      code: 2,
      firstLine: `armstudy study: persona file ${join(dir, "broken.yaml")} is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:`,
    });
    expect(existsSync(join(dir, "out"))).toEqual(false);
  });
});

describe("study and checks files that are not UTF-8", () => {
  it("are refused naming the line (were parsed with U+FFFD in a name, a description or a command)", async () => {
    const latin1 = (text: string) => Buffer.from(text, "latin1");
    await writeFile(join(dir, "s.study.yaml"), latin1("name: s\ndescription: Café\n"));
    await writeFile(join(dir, "c.yaml"), latin1("- id: B1\n  command: echo café\n"));
    const messages = await Promise.all([loadStudyFile(join(dir, "s.study.yaml")), loadChecks(join(dir, "c.yaml"))].map((p) => p.then(() => "accepted", (error: StudyInputError) => `${error.code}: ${error.message}`)));
    expect(messages).toEqual([
      `STUDY_FILE: ${join(dir, "s.study.yaml")}: line 2: is not UTF-8 text; save it as UTF-8.`,
      `STUDY_CHECKS: ${join(dir, "c.yaml")}: line 2: is not UTF-8 text; save it as UTF-8.`,
    ]);
  });
});

describe("armstudy study: a wrong field in the study file", () => {
  const ROOT = join(import.meta.dirname, "../..");
  const lines = [
    "name: typo",
    "repo:",
    `  fixture: ${join(ROOT, "fixtures/tasks/stockbook/repo")}`,
    `handoff: ${join(ROOT, "fixtures/tasks/stockbook/handoff.md")}`,
    `checks: ${join(ROOT, "fixtures/tasks/stockbook/checks.yaml")}`,
    `armsDir: ${join(ROOT, "arms")}`,
    "arms: [ordinary]",
    "runs: 1",
    "model: scripted:x.yaml",
    "limits: { maxRounds: 10 }",
  ];
  const withLine = (index: number, text: string) => [...lines.slice(0, index), text, ...lines.slice(index + 1), ""].join("\n");
  const footer = "\nSee docs/study-files.md for the fields.\n";

  it("names the line of a misspelt key and the field it meant, a wrong type and a nested misspelt key, and writes nothing", async () => {
    await writeFile(join(dir, "key.study.yaml"), withLine(7, "run: 1"));
    await writeFile(join(dir, "type.study.yaml"), withLine(7, "runs: five"));
    await writeFile(join(dir, "nested.study.yaml"), withLine(9, "limits:\n  maxRound: 10"));
    expect(await cli(["study", "key.study.yaml", "--out", "out"])).toEqual({ code: 2, out: "", err: `armstudy study: ${join(dir, "key.study.yaml")}: line 8: top level: Unrecognized key: "run"; did you mean "runs"?${footer}` });
    expect(await cli(["study", "type.study.yaml", "--out", "out"])).toEqual({ code: 2, out: "", err: `armstudy study: ${join(dir, "type.study.yaml")}: line 8: field runs: Invalid input: expected number, received string${footer}` });
    expect(await cli(["study", "nested.study.yaml", "--out", "out"])).toEqual({ code: 2, out: "", err: `armstudy study: ${join(dir, "nested.study.yaml")}: line 11: field limits: Unrecognized key: "maxRound"; did you mean "maxRounds"?${footer}` });
    expect((await readdir(dir)).sort()).toEqual(["key.study.yaml", "nested.study.yaml", "type.study.yaml"]);
  });

  it("names the line of a mistyped option of a policy the study file gives an arm", async () => {
    await writeFile(join(dir, "policy.study.yaml"), withLine(6, "arms:\n  - name: ordinary\n    policies:\n      - name: goal\n        options:\n          round: 3"));
    expect(await cli(["study", "policy.study.yaml", "--out", "out"])).toEqual({
      code: 2,
      out: "",
      err: `armstudy study: ${join(dir, "policy.study.yaml")}: line 12: field arms.0.policies.0.options.round: policy "goal": unknown option "round" (allowed: objective, rounds, hours, elapsedTime). Fix the option name or value.\n`,
    });
    expect((await readdir(dir)).sort()).toEqual(["policy.study.yaml"]);
  });
});

describe("armstudy study: a wrong field in a task file or the checks it names (ADR 0212)", () => {
  const ROOT = join(import.meta.dirname, "../..");
  const task = () => join(dir, "t/stockbook");
  beforeEach(async () => {
    await cp(join(ROOT, "fixtures/tasks/stockbook"), task(), { recursive: true });
    await writeFile(join(dir, "suite.study.yaml"), `name: suite\ntasks: [t/stockbook]\narmsDir: ${join(ROOT, "arms")}\narms: [ordinary]\nruns: 1\nmodel: scripted:@task\n`);
  });
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(join(task(), file), "utf8");
    expect(text.includes(from)).toBe(true);
    await writeFile(join(task(), file), text.replace(from, to));
  };
  const study = () => cli(["study", "suite.study.yaml", "--out", "out"]);

  it("task.yaml: a misspelt key names the key's line, a wrong type its value's line, and nothing is written", async () => {
    await edit("task.yaml", "  visible: true", "  visble: true");
    expect(await study()).toEqual({ code: 2, out: "", err: `armstudy study: ${task()}/task.yaml: line 15: field checkFiles: Unrecognized key: "visble"; did you mean "visible"?\nSee docs/tasks.md for the fields.\n` });
    await edit("task.yaml", "  visble: true", "  visible: yes please");
    expect(await study()).toEqual({ code: 2, out: "", err: `armstudy study: ${task()}/task.yaml: line 15: field checkFiles.visible: Invalid input: expected boolean, received string\nSee docs/tasks.md for the fields.\n` });
    await edit("task.yaml", "  visible: yes please", "  visible: true");
    await edit("task.yaml", "handoff: handoff.md", "handoff: ../../handoff.md");
    expect(await study()).toEqual({ code: 2, out: "", err: `armstudy study: ${task()}/task.yaml: line 10: field handoff: "../../handoff.md" is outside the task folder; keep a task's files in its folder.\n` });
    expect((await readdir(dir)).sort()).toEqual(["suite.study.yaml", "t"]);
  });

  it("checks.yaml: a wrong type, a misspelt or unknown key and a repeated id name their line", async () => {
    await edit("checks.yaml", "  - id: B2\n", "  - id: B2\n    timeoutMs: fast\n");
    expect(await study()).toEqual({
      code: 2,
      out: "",
      err: `armstudy study: ${task()}/checks.yaml: line 9: field checks.1.timeoutMs: Invalid input: expected number, received string\nA checks file lists checks as { id, command, timeoutMs? }.\n`,
    });
    // A misspelt key is an error, not a field silently dropped: its check would run with the default timeout.
    await edit("checks.yaml", "  - id: B2\n    timeoutMs: fast\n", "  - id: B2\n    timout: 30\n");
    expect(await study()).toEqual({
      code: 2,
      out: "",
      err: `armstudy study: ${task()}/checks.yaml: line 9: field checks.1: Unrecognized key: "timout"; did you mean "timeout"?\nA checks file lists checks as { id, command, timeoutMs? }.\n`,
    });
    await edit("checks.yaml", "  - id: B2\n    timout: 30\n", "  - id: B2\n");
    await edit("checks.yaml", "handoff: handoff.md\n", "handoff: handoff.md\nparallel: false\n");
    expect(await study()).toEqual({
      code: 2,
      out: "",
      err: `armstudy study: ${task()}/checks.yaml: line 4: top level: Unrecognized key: "parallel"; the fields here are checks, sequential, handoff\nA checks file lists checks as { id, command, timeoutMs? }.\n`,
    });
    await edit("checks.yaml", "parallel: false\n", "");
    await edit("checks.yaml", "  - id: B2\n", "  - id: B1\n");
    expect(await study()).toEqual({ code: 2, out: "", err: `armstudy study: ${task()}/checks.yaml: line 8: field checks.1.id: "B1" is used twice; ids must be unique.\n` });
    // The checks are read after the fixture repository is cached in .armstudy/; no results folder is made.
    expect((await readdir(dir)).sort()).toEqual([".armstudy", "suite.study.yaml", "t"]);
  });
});
