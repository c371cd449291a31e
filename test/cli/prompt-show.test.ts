import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { loadArms } from "../../src/run/arms/load.ts";
import { section, tempTree } from "../run/arms/helpers.ts";

async function cli(args: string[], cwd = process.cwd()): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ cwd });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

// Every bundled arm, found on disk, so a new arm gets a snapshot without editing this file. Arms
// that run a real client (codex, claude, pi) use the client's own prompt and have none to show.
const all = await loadArms("arms", undefined, { budgetsFile: null });
const bundled = all.filter((arm) => arm.prompt !== null).map((arm) => arm.name);
const clients = all.filter((arm) => arm.prompt === null).map((arm) => [arm.name, arm.agent] as const);

describe("armstudy prompt show", () => {
  it("finds the bundled prompt arms", () => {
    expect(bundled).toEqual(expect.arrayContaining(["goal", "old-build", "ordinary"]));
  });

  it.each(bundled)("prints exactly what the %s arm's model sees", async (arm) => {
    const { code, out, err } = await cli(["prompt", "show", "--arm", arm]);
    expect([code, err]).toEqual([0, ""]);
    await expect(out).toMatchFileSnapshot(`./__snapshots__/prompt-show/${arm}.txt`);
  });

  it.runIf(clients.length > 0).each(clients)("says the %s arm (%s) has the client's own prompt, exit 2", async (arm, agent) => {
    expect(await cli(["prompt", "show", "--arm", arm])).toEqual({
      code: 2,
      out: "",
      err: `armstudy prompt: arms/${arm}/arm.yaml: agent: a ${agent} arm runs the client with its own prompt; armstudy has no prompt to show for it.\n`,
    });
  });

  it("--stable prints the stable prefix only; --input fills dynamic sections", async () => {
    const dir = tempTree({
      "arms/a/arm.yaml": "{}\n",
      "arms/a/sections/one.md": section("one", 1, "Stable text."),
      "arms/a/sections/where.md": section("where", 2, "Work in {{dir}}.", "stable: false\n"),
    });
    expect(await cli(["prompt", "show", "--arm", "a", "--input", "dir=/tmp/w=1"], dir)).toEqual({ code: 0, out: "Stable text.\n\nWork in /tmp/w=1.\n", err: "" });
    expect(await cli(["prompt", "show", "--arm", "a", "--stable"], dir)).toEqual({
      code: 0,
      out: "Stable text.\n",
      err: 'armstudy prompt: section "where" uses {{dir}} but no input "dir" was given; pass it (armstudy prompt show --input dir=VALUE) or remove the placeholder.\n',
    });
  });

  it("ignores the budgets file (a broken one does not block showing a prompt)", async () => {
    const dir = tempTree({ "arms/a/arm.yaml": "{}\n", "arms/a/sections/one.md": section("one", 1, "Text."), "arms/budgets.yaml": "sections:\n  nope: { maxChars: 1 }\n" });
    expect(await cli(["prompt", "show", "--arm", "a"], dir)).toEqual({ code: 0, out: "Text.\n", err: "" });
  });

  it.each([
    [["prompt"], "armstudy prompt: missing subcommand"],
    [["prompt", "list"], 'armstudy prompt: unknown subcommand "list"'],
    [["prompt", "show"], "armstudy prompt: --arm is required"],
    [["prompt", "show", "--arm", "goal", "--input", "novalue"], 'armstudy prompt: --input "novalue" is not NAME=VALUE'],
    [["prompt", "show", "--arm", "goal", "--bogus"], "armstudy prompt: Unknown option '--bogus'"],
  ])("%j is a usage error (exit 2)", async (args, first) => {
    const { code, out, err } = await cli(args);
    expect([code, out, err.split("\n")[0]]).toEqual([2, "", first]);
  });

  it("names the file for a missing arm and for a real-client arm (exit 2)", async () => {
    const dir = tempTree({ "arms/codex/arm.yaml": "agent: codex\n" });
    expect(await cli(["prompt", "show", "--arm", "codex"], dir)).toEqual({
      code: 2,
      out: "",
      err: "armstudy prompt: arms/codex/arm.yaml: agent: a codex arm runs the client with its own prompt; armstudy has no prompt to show for it.\n",
    });
    expect(await cli(["prompt", "show", "--arm", "nope"], dir)).toEqual({
      code: 2,
      out: "",
      err: 'armstudy prompt: arms/nope/arm.yaml: no arm "nope" here (arms in arms: codex). Check the name or create the file.\n',
    });
  });
});
