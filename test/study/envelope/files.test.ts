import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkEnvelopeFile, EnvelopeFileError, readEnvelopeFile, readPlanFile } from "../../../src/study/envelope/files.ts";

const FIXTURES = join(import.meta.dirname, "../../../fixtures/envelopes");
let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-envelope-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<{ code: string; file: string; line: number | null; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EnvelopeFileError) return { code: error.code, file: error.file, line: error.line, message: error.message };
    throw error;
  }
  throw new Error("expected an EnvelopeFileError");
}

describe("envelope and plan files", () => {
  it("checks a fixture against its plan file", async () => {
    const result = await checkEnvelopeFile(join(FIXTURES, "example-3-ledger.yaml"), { plan: join(FIXTURES, "plans/usage-chart.md"), checkLedger: true });
    expect([result.verdict.route, result.verdict.plan, result.document.source, result.envelope?.task_id]).toEqual([
      "commit",
      { source: "plan", dimensions: ["placement_UsageChart", "cta_tier_download_csv"] },
      "yaml",
      "t-0b5d9e27",
    ]);
  });

  it("names a missing file, a folder, and a syntax error by the name the user gave", async () => {
    expect(await failure(readEnvelopeFile(join(dir, "none.yaml"), "none.yaml"))).toEqual({ code: "ENVELOPE_FILE", file: "none.yaml", line: null, message: "envelope none.yaml does not exist" });
    await mkdir(join(dir, "folder"));
    expect((await failure(readEnvelopeFile(join(dir, "folder")))).message).toBe(`envelope ${join(dir, "folder")} is a directory`);
    expect(await failure(readEnvelopeFile(join(FIXTURES, "unreadable.yaml"), "unreadable.yaml"))).toEqual({
      code: "ENVELOPE_FILE",
      file: "unreadable.yaml",
      line: 5,
      message: "envelope unreadable.yaml does not parse as YAML (line 5): Flow map in block collection must be sufficiently indented and end with a }",
    });
  });

  it("names a plan it cannot read", async () => {
    const plan = join(dir, "plan.md");
    await writeFile(plan, "# Plan\n\nsynthesis_dimensions:\n  - a\n\n[unclosed\n");
    expect(await failure(readPlanFile(plan, "plan.md"))).toEqual({
      code: "ENVELOPE_FILE",
      file: "plan.md",
      line: 3,
      message: "plan plan.md: line 3 has a synthesis_dimensions key that is not a top-level key of the front matter or of a fenced yaml block; move it to the top level of one so it can be read",
    });
    expect((await failure(readPlanFile(join(dir, "nope.md"), "nope.md"))).message).toBe("plan nope.md does not exist");
  });
});
