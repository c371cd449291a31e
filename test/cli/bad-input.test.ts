/**
 * The adversarial pass over the commands' input: each case feeds what a user might, and expects
 * exit 2, one message naming the file or flag and the fix, and nothing half-written.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";

const ROOT = resolve(import.meta.dirname, "../..");
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-cli-bad-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd: dir });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("armstudy run --out", () => {
  const runArgs = (out: string) => [
    "run",
    "--arm",
    "ordinary",
    "--arms-dir",
    join(ROOT, "arms"),
    "--model",
    `scripted:${join(ROOT, "fixtures/tasks/stockbook/personas/diligent.yaml")}`,
    "--dir",
    "work",
    "--handoff",
    join(ROOT, "fixtures/tasks/stockbook/handoff.md"),
    "--out",
    out,
    "--max-rounds",
    "2",
  ];

  it("a folder as --out is refused before the run starts, and no .partial is left", async () => {
    await mkdir(join(dir, "work"));
    await mkdir(join(dir, "records"));
    expect(await cli(runArgs("records"))).toEqual({
      code: 2,
      out: "",
      err: `armstudy run: --out ${join(dir, "records")} is a folder; give a file path, such as ${join(dir, "records")}/record.jsonl\n`,
    });
    expect((await readdir(dir)).sort()).toEqual(["records", "work"]);
  });

  it("a handoff that is not UTF-8 is refused naming its line, before anything is written", async () => {
    await mkdir(join(dir, "work"));
    await writeFile(join(dir, "handoff.md"), Buffer.from([0x46, 0x69, 0x78, 0x0a, 0xff, 0x0a]));
    const args = runArgs("out/record.jsonl");
    args[args.indexOf("--handoff") + 1] = "handoff.md";
    expect(await cli(args)).toEqual({
      code: 2,
      out: "",
      err: `armstudy run: --handoff ${join(dir, "handoff.md")}: line 2: is not UTF-8 text; save it as UTF-8\n`,
    });
    expect((await readdir(dir)).sort()).toEqual(["handoff.md", "work"]);
  });

  it("an --out under a file is refused with the folder that cannot be made", async () => {
    await mkdir(join(dir, "work"));
    await writeFile(join(dir, "notes"), "keep");
    expect(await cli(runArgs("notes/record.jsonl"))).toEqual({
      code: 2,
      out: "",
      err: `armstudy run: --out ${join(dir, "notes/record.jsonl")}: cannot create its folder ${join(dir, "notes")} (a file is in the way); choose a path under a folder\n`,
    });
  });
});

describe("armstudy envelope ledger append", () => {
  it("a folder as the ledger, or a ledger under a file, exits 2 naming it", async () => {
    await mkdir(join(dir, "ledgers"));
    await writeFile(join(dir, "notes"), "keep");
    expect(await cli(["envelope", "ledger", "append", "ledgers", "--dispatch", "--task-id", "t-00c0ffee"])).toEqual({
      code: 2,
      out: "",
      err: `armstudy envelope: cost ledger ${join(dir, "ledgers")} cannot be appended to (it is a folder); give the path of a JSONL file\n`,
    });
    expect(await cli(["envelope", "ledger", "append", "notes/cost.jsonl", "--dispatch", "--task-id", "t-00c0ffee"])).toEqual({
      code: 2,
      out: "",
      err: `armstudy envelope: cost ledger ${join(dir, "notes/cost.jsonl")} cannot be appended to (a file is in the way of its folder); give the path of a JSONL file\n`,
    });
    expect((await readdir(dir)).sort()).toEqual(["ledgers", "notes"]);
  });
});

describe("armstudy intent stamp", () => {
  it("refuses an intent file that is not UTF-8 and leaves its bytes as they were", async () => {
    const latin1 = Buffer.from([0x23, 0x20, 0x49, 0x6e, 0x74, 0x65, 0x6e, 0x74, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x0a]); // "# Intent\nCafé\n" in Latin-1
    await mkdir(join(dir, ".build-loop"));
    await writeFile(join(dir, ".build-loop", "intent.md"), latin1);
    expect(await cli(["intent", "stamp", "--run-id", "run-42"])).toEqual({
      code: 2,
      out: "",
      err: `armstudy intent: ${join(dir, ".build-loop/intent.md")}: line 2: is not UTF-8 text; save it as UTF-8, then stamp it (the file is left as it was)\n`,
    });
    expect(await readFile(join(dir, ".build-loop", "intent.md"))).toEqual(latin1);
  });
});

describe("armstudy analyze --record", () => {
  const session = join(ROOT, "fixtures/sessions/pi-mono/before-compaction.jsonl");

  it("a folder as --record is named as the problem, not the session file", async () => {
    await mkdir(join(dir, "records"));
    expect(await cli(["analyze", session, "--record", "records"])).toEqual({
      code: 2,
      out: "",
      err: `armstudy analyze: --record ${join(dir, "records")} is a folder; give a file path, such as ${join(dir, "records")}/record.jsonl\n`,
    });
    expect(await readdir(join(dir, "records"))).toEqual([]);
  });

  it("a --record under a file exits 2 naming the folder; one in a new folder is written there", async () => {
    await writeFile(join(dir, "notes"), "keep");
    expect(await cli(["analyze", session, "--record", "notes/pi.jsonl"])).toEqual({
      code: 2,
      out: "",
      err: `armstudy analyze: --record ${join(dir, "notes/pi.jsonl")}: cannot create its folder ${join(dir, "notes")} (a file is in the way); choose a path under a folder\n`,
    });
    const { code } = await cli(["analyze", session, "--record", "new/pi.jsonl"]);
    expect({ code, files: await readdir(join(dir, "new")) }).toEqual({ code: 0, files: ["pi.jsonl"] });
  });
});

describe("armstudy budget --update-baseline --baseline FILE", () => {
  const args = (baseline: string) => ["budget", "--arms", join(ROOT, "arms"), "--arm", "ordinary", "--baseline", baseline, "--update-baseline", "--json"];

  it("a baseline in a folder that does not exist yet is written there (was exit 1 with a temp file's path)", async () => {
    const { code } = await cli(args("ci/baseline.json"));
    expect({ code, files: await readdir(join(dir, "ci")) }).toEqual({ code: 0, files: ["baseline.json"] });
  });
});

describe("plan classify / report analyze FILE", () => {
  it("a reply file that is not UTF-8 exits 2 naming its line (was classified with U+FFFD in it)", async () => {
    await writeFile(join(dir, "reply.md"), Buffer.from([0x44, 0x6f, 0x6e, 0x65, 0x2e, 0x0a, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await cli(["plan", "classify", "reply.md"])).toEqual({ code: 2, out: "", err: "armstudy plan: reply.md: line 3: is not UTF-8 text; save the reply as UTF-8\n" });
    expect(await cli(["report", "analyze", "reply.md", "--json"])).toEqual({ code: 2, out: "", err: "armstudy report: reply.md: line 3: is not UTF-8 text; save the reply as UTF-8\n" });
  });
});

describe("armstudy run --model record:/replay:", () => {
  const runWith = (model: string) =>
    cli(["run", "--arm", "ordinary", "--arms-dir", join(ROOT, "arms"), "--model", model, "--dir", ".", "--handoff", join(ROOT, "fixtures/tasks/stockbook/handoff.md"), "--max-rounds", "1"]);
  const forms = "Forms: openai:MODEL, openai-compatible:MODEL@BASE_URL[#KEY_ENV], ollama:MODEL[@BASE_URL], scripted:FILE, replay:DIR, record:DIR=SPEC";

  it("record:DIR= with nothing after = names the whole spec (was: model spec \"\" has no kind)", async () => {
    expect(await runWith("record:cassettes=")).toEqual({
      code: 2,
      out: "",
      err: `armstudy run: model spec "record:cassettes=": record needs DIR=SPEC, such as record:cassettes/run1=openai:gpt-5. ${forms}\n`,
    });
  });

  it("a file as the record or replay folder exits 2 naming it (record was EEXIST, exit 1)", async () => {
    await writeFile(join(dir, "tape"), "keep");
    const persona = `scripted:${join(ROOT, "fixtures/tasks/stockbook/personas/diligent.yaml")}`;
    expect(await runWith(`record:tape=${persona}`)).toEqual({
      code: 2,
      out: "",
      err: `armstudy run: record folder ${join(dir, "tape")} cannot be created (a file is in the way); record into a folder: record:DIR=SPEC\n`,
    });
    expect(await runWith("replay:tape")).toEqual({
      code: 2,
      out: "",
      err: `armstudy run: replay folder ${join(dir, "tape")} is a file; give the folder the cassettes were recorded into\n`,
    });
    expect(await readFile(join(dir, "tape"), "utf8")).toEqual("keep");
  });
});

describe("compare / gate / power on a folder that is not a study", () => {
  const notStudy = (folder: string) =>
    `${join(dir, folder)} is not a study results folder: study.json is missing. Pass a folder that \`armstudy study\` wrote (reports/<study>/<stamp>).`;

  it("exits 2 naming the folder, as report, view and merge do (was exit 1, a gate's 'fired' code)", async () => {
    await mkdir(join(dir, "empty"));
    expect(await cli(["compare", "nope", "empty"])).toEqual({ code: 2, out: "", err: `armstudy compare: ${notStudy("nope")}\n` });
    expect(await cli(["gate", "nope", "--fail-if", "goal.falseCompletion.rate > 0.2"])).toEqual({ code: 2, out: "", err: `armstudy gate: ${notStudy("nope")}\n` });
    expect(await cli(["power", "empty"])).toEqual({ code: 2, out: "", err: `armstudy power: ${notStudy("empty")}\n` });
    expect((await readdir(dir)).sort()).toEqual(["empty"]);
  });
});

describe("a mistyped flag", () => {
  const firstLine = async (args: string[]) => {
    const { code, out, err } = await cli(args);
    return { code, out, first: err.split("\n")[0] };
  };

  it("names the flag it is one or two letters from (was Node's advice about positionals after --)", async () => {
    expect(await firstLine(["study", "--arms", "goal"])).toEqual({ code: 2, out: "", first: "armstudy study: Unknown option '--arms'; did you mean --arm?" });
    expect(await firstLine(["budget", "--jsn"])).toEqual({ code: 2, out: "", first: "armstudy budget: Unknown option '--jsn'; did you mean --json?" });
    expect(await firstLine(["analyze", "x.jsonl", "--reocrd", "out.jsonl"])).toEqual({ code: 2, out: "", first: "armstudy analyze: Unknown option '--reocrd'; did you mean --record?" });
    expect(await readdir(dir)).toEqual([]);
  });

  it("far from every flag, says only that it is unknown", async () => {
    expect(await firstLine(["budget", "--frobnicate"])).toEqual({ code: 2, out: "", first: "armstudy budget: Unknown option '--frobnicate'" });
  });
});

describe("armstudy power", () => {
  it("a --difference or --sd out of range says the range in words (was 'from 5e-324 to 1.7976931348623157e+308')", async () => {
    const first = async (args: string[]) => {
      const { code, out, err } = await cli(args);
      return { code, out, first: err.split("\n")[0] };
    };
    expect(await first(["power", "--baseline-rate", "0.6", "--difference", "0"])).toEqual({ code: 2, out: "", first: "armstudy power: --difference 0: give a number above 0" });
    expect(await first(["power", "--sd=-1", "--difference", "2"])).toEqual({ code: 2, out: "", first: "armstudy power: --sd -1: give a number of at least 0" });
    expect(await first(["power", "--baseline-rate", "1.5", "--difference", "0.2"])).toEqual({ code: 2, out: "", first: "armstudy power: --baseline-rate 1.5: give a number from 0 to 1" });
  });
});

describe("armstudy analyze on a file cut short in its first line", () => {
  it("says which line is not JSON, not only that no line is (exit 2, nothing recorded)", async () => {
    const session = await readFile(join(ROOT, "fixtures/sessions/offline-real-clients/pi-session.jsonl"), "utf8");
    await writeFile(join(dir, "cut.jsonl"), session.slice(0, 40));
    const { code, out, err } = await cli(["analyze", "cut.jsonl", "--record", "cut.record.jsonl"]);
    expect({ code, out, first: err.split(". Known:")[0] }).toEqual({
      code: 2,
      out: "",
      first: `armstudy analyze: ${join(dir, "cut.jsonl")}: not a session format armstudy reads (no JSON object lines; line 1 is not valid JSON (cut short, or not a JSON line): ${JSON.stringify(session.slice(0, 40))})`,
    });
    expect(await readdir(dir)).toEqual(["cut.jsonl"]);
  });
});

describe("a mistyped arm", () => {
  it("names the arm it is nearest to, with the list, and runs nothing", async () => {
    const arms = join(ROOT, "arms");
    const { code, out, err } = await cli(["prompt", "show", "--arm", "gaol", "--arms", arms]);
    const names = (await readdir(arms, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    expect({ code, out, err }).toEqual({
      code: 2,
      out: "",
      err: `armstudy prompt: ${join(arms, "gaol/arm.yaml")}: no arm "gaol" here (arms in ${arms}: ${names.join(", ")}). Did you mean "goal"? Check the name or create the file.\n`,
    });
  });
});
