import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { envelopeFromRun } from "../../../src/core/envelope/emit.ts";
import { checkEnvelopeFile } from "../../../src/study/envelope/files.ts";
import { writeEnvelopeFile } from "../../../src/study/envelope/write.ts";
import { finalReplyText, writeRunEnvelope } from "../../../src/study/envelope/run.ts";
import type { RunEvent } from "../../../src/run/record.ts";

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

describe("writeRunEnvelope", () => {
  it("writes envelope.yaml from a run's checks, numstat and last final reply", async () => {
    const events: RunEvent[] = [
      { t: 1, type: "assistant.text", text: "Working on it.", final: true },
      { t: 2, type: "assistant.text", text: "Step 1 and 2 done; step 3's check still fails.", final: true },
      { t: 3, type: "assistant.text", text: "(thinking aloud)", final: false },
    ];
    const { file, envelope } = await writeRunEnvelope({
      folder: join(dir, "ordinary/0"),
      branch: "armstudy/ordinary-0",
      acceptance: {
        checks: [
          { id: "step-1", command: "node checks/one.js", passed: true },
          { id: "step-3", command: "node checks/three.js", passed: false },
        ],
      },
      diffNumstat: "4\t0\tsrc/one.ts\n2\t1\tsrc/three.ts\n",
      events,
      wallClockSeconds: 31.2,
    });
    expect(file).toBe(join(dir, "ordinary/0/envelope.yaml"));
    expect([envelope.notes, envelope.f_criteria, envelope.files_changed, envelope.loc_added, envelope.loc_removed, envelope.task_id]).toEqual([
      "Step 1 and 2 done; step 3's check still fails.",
      { "step-1": "pass", "step-3": "fail" },
      ["src/one.ts", "src/three.ts"],
      6,
      1,
      "unknown",
    ]);
    const checked = await checkEnvelopeFile(file);
    expect([checked.verdict.route, checked.verdict.failing_criteria]).toEqual(["iterate", ["step-3"]]);
  });

  it("uses an empty note when the run never gave a final reply", () => {
    expect(finalReplyText([{ t: 1, type: "assistant.text", text: "partial", final: false }])).toBe("");
  });
});
