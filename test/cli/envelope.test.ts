import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { ENVELOPE_FIXTURES as FIXTURES, type Expected, envelopeFixtureCases } from "../support/envelope-fixtures.ts";

const cases = envelopeFixtureCases();

async function cli(args: string[], options: { cwd?: string; stdin?: string } = {}): Promise<{ exit: number; out: string; err: string }> {
  const io = memoryIO({ cwd: options.cwd ?? FIXTURES, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });
  const exit = await main(args, io);
  return { exit, out: io.out.join(""), err: io.err.join("") };
}

const flags = (expected: Expected): string[] => [...(expected.plan === null ? [] : ["--plan", expected.plan]), ...(expected.checkLedger ? ["--check-ledger"] : [])];

describe("armstudy envelope check on the fixtures", () => {
  it.each(cases)("$file --json: exit $expected.exit", async ({ file, expected }) => {
    const result = await cli(["envelope", "check", file, ...flags(expected), "--json"]);
    if (expected.exit === 2) {
      expect(result).toEqual({ exit: 2, out: "", err: expected.error });
      return;
    }
    expect(result.exit).toBe(expected.exit);
    expect(result.err).toBe("");
    expect(JSON.parse(result.out)).toEqual({ file, ...(expected.verdict as object) });
  });

  it.each(cases.filter(({ expected }) => expected.exit !== 2))("$file in text: the same route and exit", async ({ file, expected }) => {
    const result = await cli(["envelope", "check", file, ...flags(expected)]);
    expect([result.exit, result.out.split("\n")[0]]).toEqual([expected.exit, `${file}: ${(expected.verdict as { route: string }).route}`]);
  });
});

describe("armstudy envelope check", () => {
  it("prints the verdict, its reasons and follow-ups as text", async () => {
    const result = await cli(["envelope", "check", "example-2-rich.yaml", "--plan", "plans/notification-settings.md", "--check-ledger"]);
    expect(result).toEqual({
      exit: 0,
      err: "",
      out: [
        "example-2-rich.yaml: scope_review",
        "  plan dimensions: empty_state_pattern, error_banner_pattern, autosave_pattern, toggle_grouping; ledger checked",
        "because:",
        "  R3     novel_decisions: 1 novel decision(s) (autosave_burst) beside a plan with synthesis dimensions: send the diff to scope review before committing",
        "then:",
        '  R6     f_criteria.F3: F3 is "fail": route to Iterate with F3 as the entry point',
        "",
      ].join("\n"),
    });
  });

  it("reads standard input for -", async () => {
    const stdin = readFileSync(join(FIXTURES, "rule-5-blocked-without-decisions.yaml"), "utf8");
    const result = await cli(["envelope", "check", "-", "--json"], { stdin });
    expect([result.exit, JSON.parse(result.out).route]).toEqual([1, "malformed"]);
  });

  it("exits 2 on usage errors and unreadable plans", async () => {
    expect(await cli(["envelope"])).toEqual({
      exit: 2,
      out: "",
      err: expect.stringMatching(/^armstudy envelope: missing subcommand: use check or ledger\nusage: armstudy envelope check FILE/) as unknown as string,
    });
    expect((await cli(["envelope", "check"])).err).toMatch(/^armstudy envelope: expected exactly one envelope FILE, got none\n/);
    expect((await cli(["envelope", "check", "a.yaml", "--bogus"])).exit).toBe(2);
    expect(await cli(["envelope", "check", "example-1-minimal.yaml", "--plan", "plans/missing.md"])).toEqual({ exit: 2, out: "", err: "armstudy envelope: plan plans/missing.md does not exist\n" });
    expect(await cli(["envelope", "check", "missing.yaml"])).toEqual({ exit: 2, out: "", err: "armstudy envelope: envelope missing.yaml does not exist\n" });
  });

  it("prints its usage for --help", async () => {
    const result = await cli(["envelope", "check", "--help"]);
    expect([result.exit, result.out.split("\n")[0]]).toEqual([0, "Check implementer envelopes against build-loop's envelope contract; keep the cost ledger."]);
  });
});

describe("armstudy envelope ledger", () => {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "armstudy-cli-ledger-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("appends a dispatch and a completion row, then summarises them", async () => {
    const ledger = join(dir, "cost-ledger.jsonl");
    const dispatched = await cli(["envelope", "ledger", "append", ledger, "--dispatch", "--task-id", "t-7c1e44b0", "--chunk", "c2", "--model", "small", "--meta", "tier=fast", "--json"]);
    expect(dispatched.exit).toBe(0);
    const dispatchRow = JSON.parse(dispatched.out) as Record<string, unknown>;
    expect({ ...dispatchRow, dispatched_at: "<now>" }).toEqual({ v: 1, kind: "dispatch", task_id: "t-7c1e44b0", dispatched_at: "<now>", chunk: "c2", model: "small", meta: { tier: "fast" } });
    expect(Number.isNaN(Date.parse(String(dispatchRow.dispatched_at)))).toBe(false);

    const completed = await cli(["envelope", "ledger", "append", ledger, "--complete", join(FIXTURES, "example-2-rich.yaml"), "--plan", join(FIXTURES, "plans/notification-settings.md")]);
    expect(completed).toEqual({ exit: 0, out: "t-7c1e44b0 scope_review\n", err: "" });

    const generated = await cli(["envelope", "ledger", "append", ledger, "--dispatch"]);
    expect(generated.out).toMatch(/^t-[0-9a-f]{8}\n$/);
    const open = generated.out.trim();

    const summary = await cli(["envelope", "ledger", ledger], { cwd: dir });
    expect(summary.exit).toBe(0);
    expect(summary.out.split("\n").slice(0, 2)).toEqual([`${ledger}: 3 rows, 2 dispatched, 1 completed, 1 open`, "  routes: scope_review 1"]);
    expect(summary.out.split("\n").slice(2)).toEqual(["  implementer wall clock: 688s; lines +312 -9", `  open: ${open}`, ""]);

    const json = JSON.parse((await cli(["envelope", "ledger", "cost-ledger.jsonl", "--json"], { cwd: dir })).out) as { file: string; tasks: { task_id: string; route: string | null }[] };
    expect([json.file, json.tasks.map((task) => [task.task_id, task.route])]).toEqual(["cost-ledger.jsonl", [["t-7c1e44b0", "scope_review"], [open, null]]]);
  });

  it("exits 1 when the ledger has problems and 2 when it is missing", async () => {
    const ledger = join(dir, "l.jsonl");
    await cli(["envelope", "ledger", "append", ledger, "--complete", join(FIXTURES, "rule-6-failing-criterion.yaml")]);
    const result = await cli(["envelope", "ledger", "l.jsonl"], { cwd: dir });
    expect([result.exit, result.out.split("\n").slice(-3)]).toEqual([1, ["problems:", "  completion for t-2468ace0 has no dispatch row", ""]]);
    expect(await cli(["envelope", "ledger", "none.jsonl"], { cwd: dir })).toEqual({ exit: 2, out: "", err: `armstudy envelope: cost ledger ${join(dir, "none.jsonl")} does not exist\n` });
  });

  it("refuses a completion it cannot correlate and bad append flags, writing nothing", async () => {
    const ledger = join(dir, "l.jsonl");
    expect(await cli(["envelope", "ledger", "append", ledger, "--complete", join(FIXTURES, "rule-1-empty-sentinels.yaml")])).toEqual({
      exit: 2,
      out: "",
      err: 'armstudy envelope: completion task id "unknown" cannot be correlated: use "t-" and 8 hex digits (an envelope\'s "unknown" has no ledger row)\n',
    });
    expect((await cli(["envelope", "ledger", "append", ledger])).err).toMatch(/^armstudy envelope: give exactly one of --dispatch or --complete ENVELOPE\n/);
    expect((await cli(["envelope", "ledger", "append", ledger, "--dispatch", "--meta", "novalue"])).err).toBe('armstudy envelope: --meta takes KEY=VALUE; got "novalue"\n');
    expect((await cli(["envelope", "ledger", "append", ledger, "--dispatch", "--task-id", "t-XYZ"])).exit).toBe(2);
    expect(await readdir(dir)).toEqual([]);
    expect(await readFile(join(FIXTURES, "rule-1-empty-sentinels.yaml"), "utf8")).toMatch(/^# Rule 1/);
  });
});
