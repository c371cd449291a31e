/**
 * `study --plan-runs` and `power DIR` take a pilot: finished runs of both arms of the primary
 * metric. A newer results folder that ran only one of them (the guide's `--arm old-build` resume
 * example leaves one) is no pilot: it must be passed over, or named as the reason, not read as
 * "no number of runs detects a zero difference". Real studies of the scripted double, in a temp cwd.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const cwd = mkdtempSync(join(tmpdir(), "armstudy-plan-runs-"));

async function cli(args: string[]) {
  const io = memoryIO({ cwd });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const studyFile = join(cwd, "pilot.study.yaml");
const both = "reports/pilot/20260101-000000";
const onlyOrdinary = "reports/pilot/20260102-000000";

beforeAll(async () => {
  writeFileSync(
    studyFile,
    stringify({
      name: "pilot",
      decision: { adr: "ADR-0072", title: "A /goal loop whose completion claim is checked" },
      hypothesis: "The goal arm ends on fewer false completion claims than the ordinary reply.",
      primary: { metric: "falseCompletion", baseline: "ordinary", treatment: "goal", minDifference: 0.2 },
      repo: { fixture: join(ROOT, "fixtures/tasks/stockbook/repo") },
      handoff: join(ROOT, "fixtures/tasks/stockbook/handoff.md"),
      checks: join(ROOT, "fixtures/tasks/stockbook/checks.yaml"),
      armsDir: join(ROOT, "arms"),
      arms: ["ordinary", "goal"],
      runs: 1,
      model: `scripted:${join(ROOT, "fixtures/tasks/stockbook/personas/early-stopper.yaml")}`,
    }),
  );
  expect((await cli(["study", studyFile, "--out", both, "--json"])).code).toEqual(0);
  expect((await cli(["study", studyFile, "--arm", "ordinary", "--out", onlyOrdinary, "--json"])).code).toEqual(0);
}, 180_000);

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("a pilot needs finished runs of both primary arms", () => {
  it("--plan-runs passes over the newer folder that ran ordinary alone and plans from the one that ran both", async () => {
    const fromBoth = await cli(["power", both]);
    expect(fromBoth.code).toEqual(0);
    expect(await cli(["study", studyFile, "--plan-runs"])).toEqual({ code: 0, out: `pilot: ${both}\n${fromBoth.out}`, err: "" });
  });

  it("power DIR on a folder with no runs of the treatment arm exits 2 naming the arm and what to do", async () => {
    expect(await cli(["power", onlyOrdinary])).toEqual({
      code: 2,
      out: "",
      err: `armstudy power: ${onlyOrdinary}: no finished runs of goal, so it cannot be the pilot for falseCompletion (goal vs ordinary); run both arms (armstudy study --arm ordinary --arm goal), or give --baseline-rate and --difference.\n`,
    });
  });

  it("--plan-runs with no folder that ran both arms says so and plans nothing", async () => {
    await rm(join(cwd, both), { recursive: true, force: true });
    expect(await cli(["study", studyFile, "--plan-runs"])).toEqual({
      code: 0,
      out: "no results of study pilot with finished runs of both ordinary and goal yet to use as a pilot: run both arms first, or use armstudy power --baseline-rate R --difference 0.2\n",
      err: "",
    });
  });
});
