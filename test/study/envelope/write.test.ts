import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { envelopeFromRun } from "../../../src/core/envelope/emit.ts";
import { checkEnvelopeFile } from "../../../src/study/envelope/files.ts";
import { writeEnvelopeFile } from "../../../src/study/envelope/write.ts";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-emit-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("writeEnvelopeFile", () => {
  it("writes an envelope the checker reads back, leaving no temp file", async () => {
    const envelope = envelopeFromRun({
      taskId: "t-00000abc",
      branch: "run-1",
      acceptance: { checks: [{ id: "F1", command: "npm test", passed: true }] },
      diffNumstat: "3\t1\tsrc/a.ts\n",
      summary: "Done.",
      wallClockSeconds: 12,
    });
    const file = join(dir, "runs/ordinary/1/envelope.yaml");
    await writeEnvelopeFile(file, envelope);
    const result = await checkEnvelopeFile(file);
    expect([result.verdict.route, result.envelope]).toEqual(["commit", envelope]);
    expect(await readdir(join(dir, "runs/ordinary/1"))).toEqual(["envelope.yaml"]);
  });
});
