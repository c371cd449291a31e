import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-cli-intent-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[], cwd = dir): Promise<{ exit: number; out: string; err: string }> {
  const io = memoryIO({ cwd });
  const exit = await main(args, io);
  return { exit, out: io.out.join(""), err: io.err.join("") };
}

describe("armstudy intent", () => {
  it("stamps the intent file and reports freshness for this run and the next", async () => {
    await mkdir(join(dir, ".build-loop"));
    await writeFile(join(dir, ".build-loop/intent.md"), "## Restated intent\nAdd the chart.\n");
    expect(await cli(["intent", "freshness", "--workdir", dir, "--run-id", "run-41"])).toEqual({
      exit: 0,
      out: "intent: unstamped — .build-loop/intent.md carries no run id; re-run the intent restatement and re-stamp\n",
      err: "",
    });
    expect(await cli(["intent", "stamp", "--run-id", "run-41"])).toEqual({ exit: 0, out: `stamped ${join(dir, ".build-loop/intent.md")} for run run-41 (was unstamped)\n`, err: "" });
    expect(JSON.parse((await cli(["intent", "freshness", "--run-id", "run-41", "--json"])).out)).toEqual({
      verdict: "fresh",
      run_id: "run-41",
      stamped: ["run-41"],
      message: "intent: fresh — .build-loop/intent.md is stamped for run run-41",
      file: join(dir, ".build-loop/intent.md"),
    });
    expect(await cli(["intent", "freshness", "--workdir", ".", "--run-id", "run-42"])).toEqual({
      exit: 0,
      out: "intent: stale — .build-loop/intent.md is stamped for run run-41, not run-42; re-run the intent restatement and re-stamp\n",
      err: "",
    });
    expect(JSON.parse((await cli(["intent", "stamp", "--run-id", "run-42", "--json"])).out)).toEqual({ file: join(dir, ".build-loop/intent.md"), run_id: "run-42", previous: ["run-41"] });
    expect(await readFile(join(dir, ".build-loop/intent.md"), "utf8")).toBe("<!-- intent_run_id: run-42 -->\n## Restated intent\nAdd the chart.\n");
  });

  it("freshness always exits 0: missing file, missing workdir, missing or bad flags", async () => {
    expect(await cli(["intent", "freshness", "--run-id", "r1"])).toEqual({ exit: 0, out: "intent: missing — no .build-loop/intent.md; write the restatement and stamp it\n", err: "" });
    expect(await cli(["intent", "freshness", "--workdir", "nowhere", "--run-id", "r1"])).toEqual({ exit: 0, out: `intent: unchecked — workdir ${join(dir, "nowhere")} does not exist\n`, err: "" });
    expect(await cli(["intent", "freshness"])).toEqual({
      exit: 0,
      out: "intent: unchecked — --run-id is required; usage: armstudy intent freshness --run-id ID [--workdir DIR] [--json]\n",
      err: "",
    });
    const bad = await cli(["intent", "freshness", "--run-id", "r1", "--bogus", "--json"]);
    expect([bad.exit, JSON.parse(bad.out).verdict]).toEqual([0, "unchecked"]);
  });

  it("stamp fails loudly (exit 2) when there is nothing to stamp", async () => {
    expect(await cli(["intent", "stamp", "--run-id", "r1"])).toEqual({
      exit: 2,
      out: "",
      err: `armstudy intent: ${join(dir, ".build-loop/intent.md")} does not exist: write the intent restatement first, then stamp it\n`,
    });
    expect((await cli(["intent", "stamp"])).err).toMatch(/^armstudy intent: --run-id is required\n/);
    expect((await cli(["intent"])).exit).toBe(2);
  });
});
