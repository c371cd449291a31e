import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";

const dir = mkdtempSync(join(tmpdir(), "armstudy-plan-cli-"));
writeFileSync(join(dir, "ready.md"), "Plan:\n\n<proposed_plan>\n1. Add the flag\n2. Test it\n</proposed_plan>\n");
writeFileSync(join(dir, "unclosed.md"), "<proposed_plan>\n- step\n");
mkdirSync(join(dir, "a-folder"));

async function run(args: string[], stdin?: string) {
  const io = memoryIO({ cwd: dir, ...(stdin !== undefined ? { stdin } : {}) });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("armstudy plan classify", () => {
  it("prints a plan_ready result from a file", async () => {
    expect(await run(["plan", "classify", "ready.md"])).toEqual({
      code: 0,
      out: "outcome: plan_ready\nplan:\n  1. Add the flag\n  2. Test it\n",
      err: "",
    });
  });

  it("prints the result object with --json, reading standard input for -", async () => {
    const result = await run(["plan", "classify", "-", "--json"], "The flag already exists; nothing to plan.");
    expect({ ...result, out: JSON.parse(result.out) }).toEqual({ code: 0, out: { outcome: "no_plan" }, err: "" });
  });

  it("reads standard input when FILE is absent", async () => {
    const result = await run(["plan", "classify", "--json"], "<plan_blocked>\nNeed the DB owner\n</plan_blocked>");
    expect(JSON.parse(result.out)).toEqual({ outcome: "blocked", blocked: "Need the DB owner" });
  });

  it("an invalid reply is a result: exit 0 with the rule and the repair instruction", async () => {
    const result = await run(["plan", "classify", "unclosed.md"]);
    expect(result.code).toBe(0);
    expect(result.out.split("\n").slice(0, 3)).toEqual([
      "outcome: invalid",
      "reason: unclosed_block (an outcome block is opened and never closed)",
      "repair instruction:",
    ]);
    expect(JSON.parse((await run(["plan", "classify", "unclosed.md", "--json"])).out)).toEqual({ outcome: "invalid", reason: "unclosed_block" });
  });

  it("exits 2 with the file named when the input cannot be read", async () => {
    expect(await run(["plan", "classify", "missing.md"])).toEqual({
      code: 2,
      out: "",
      err: "armstudy plan: missing.md: cannot read (ENOENT); pass a readable reply file, or - for standard input\n",
    });
    expect((await run(["plan", "classify", "a-folder"])).code).toBe(2);
  });

  it("exits 2 on a wrong action, an unknown flag or two files", async () => {
    const results = await Promise.all([
      run(["plan"]),
      run(["plan", "check", "ready.md"]),
      run(["plan", "classify", "--yaml"]),
      run(["plan", "classify", "ready.md", "unclosed.md"]),
    ]);
    // First sentence only: the option error's wording after it is Node's.
    expect(results.map((r) => [r.code, r.err.split(/[.\n]/)[0]])).toEqual([
      [2, "armstudy plan: name an action: the only action is classify"],
      [2, 'armstudy plan: unknown action "check": the only action is classify'],
      [2, "armstudy plan: Unknown option '--yaml'"],
      [2, "armstudy plan: classify reads one reply; got 2 files"],
    ]);
  });
});
