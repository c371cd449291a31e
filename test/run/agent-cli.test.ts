import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { readRecordFile } from "../../src/run/record-reader.ts";
import { acceptance, fixtureRepo, ROOT } from "./scripted-support.ts";

const io = (extra: Parameters<typeof memoryIO>[0] = {}) => memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH }, ...extra });

describe("armstudy run", () => {
  it("runs the scripted persona over the fixture handoff in a temp git repo and writes a valid record", async () => {
    const repo = await fixtureRepo();
    const outDir = await mkdtemp(path.join(tmpdir(), "armstudy-run-out-"));
    try {
      const out = path.join(outDir, "run.jsonl");
      const cli = io();
      const code = await main(
        ["run", "--arm", "ordinary", "--model", "scripted:fixtures/tasks/stockbook/personas/diligent.yaml", "--dir", repo.dir, "--handoff", "fixtures/tasks/stockbook/handoff.md", "--out", out, "--seed", "4"],
        cli,
      );
      expect([code, cli.out, cli.err]).toEqual([
        0,
        [],
        [`armstudy run: ordinary with scripted:diligent (scripted test double): completed — the model ended its reply\nrecord: ${out}\n`],
      ]);
      expect(await readdir(outDir)).toEqual(["run.jsonl"]);
      const { events, warnings } = await readRecordFile(out);
      expect(warnings).toEqual([]);
      expect([events[0]?.type, events[0]?.type === "run.start" && [events[0].arm, events[0].model, events[0].testDouble, events[0].seed]]).toEqual([
        "run.start",
        ["ordinary", "scripted:diligent", true, 4],
      ]);
      expect(events.at(-1)).toMatchObject({ type: "run.end", status: "completed" });
      expect(Object.values(await acceptance(repo.dir))).toEqual([true, true, true, true, true, true]);
    } finally {
      await repo.cleanup();
      await rm(outDir, { recursive: true, force: true });
    }
  });

  it("writes the record to stdout without --out", async () => {
    const repo = await fixtureRepo();
    try {
      const cli = io();
      const code = await main(
        ["run", "--arm", "ordinary", "--model", "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml", "--dir", repo.dir, "--handoff", "fixtures/tasks/stockbook/handoff.md"],
        cli,
      );
      const lines = cli.out.join("").trimEnd().split("\n");
      expect([code, JSON.parse(lines[0] ?? "{}").type, JSON.parse(lines.at(-1) ?? "{}").type]).toEqual([0, "run.start", "run.end"]);
    } finally {
      await repo.cleanup();
    }
  });

  const USAGE = "usage: armstudy run --arm NAME --model SPEC --dir DIR --handoff FILE [--out FILE] [--seed N] [--run-index N] [--arms-dir DIR] [--max-rounds N] [--max-minutes N] [--max-tokens N] [--max-cost-usd X] [--heartbeat-seconds N] [--no-sandbox]";
  it.each([
    [["run"], `armstudy run: missing --arm, --model, --dir, --handoff\n${USAGE}\n`],
    [["run", "--bogus"], `armstudy run: Unknown option '--bogus'\n${USAGE}\n`],
    [["run", "--arm", "ordinary", "--model", "scripted:x", "--dir", "no/such/dir", "--handoff", "h.md"], `armstudy run: --dir ${path.join(ROOT, "no/such/dir")} does not exist; give the work directory the agent should run in\n`],
    [["run", "--arm", "ordinary", "--model", "scripted:x", "--dir", ".", "--handoff", "no-such.md"], `armstudy run: --handoff ${path.join(ROOT, "no-such.md")} cannot be read (ENOENT); check the path\n`],
    [["run", "--arm", "ordinary", "--model", "scripted:x", "--dir", ".", "--handoff", "fixtures/tasks/stockbook/handoff.md", "--seed", "x"], 'armstudy run: --seed must be a whole number, got "x"\n'],
    // 40,000 minutes is past 2^31 ms: Node would fire the wall cap at once (ADR 0084).
    [["run", "--arm", "ordinary", "--model", "scripted:x", "--dir", ".", "--handoff", "h.md", "--max-minutes", "40000"], 'armstudy run: --max-minutes must be at most 24 hours (1440 minutes), got "40000"\n'],
    [
      ["run", "--arm", "ordinary", "--model", "nonsense", "--dir", ".", "--handoff", "fixtures/tasks/stockbook/handoff.md"],
      'armstudy run: model spec "nonsense": it has no kind before a colon. Forms: openai:MODEL, openai-compatible:MODEL@BASE_URL[#KEY_ENV], ollama:MODEL[@BASE_URL], scripted:FILE, replay:DIR, record:DIR=SPEC\n',
    ],
    [
      ["run", "--arm", "ordinary", "--model", "scripted:fixtures/tasks/stockbook/personas/none.yaml", "--dir", ".", "--handoff", "fixtures/tasks/stockbook/handoff.md"],
      `armstudy run: persona file ${path.join(ROOT, "fixtures/tasks/stockbook/personas/none.yaml")} cannot be read (ENOENT); check the path\n`,
    ],
  ])("bad input %j exits 2 with a message", async (args, message) => {
    const cli = io();
    expect([await main(args, cli), cli.err.join(""), cli.out]).toEqual([2, message, []]);
  });
});
