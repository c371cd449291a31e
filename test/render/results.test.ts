/** Reading a results folder back: a hand-edited or foreign study.json / result.json is a coded error naming its field, never a crash. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { loadResults } from "../../src/render/results.ts";
import { armMeta, meta, result } from "./support.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-results-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeFolder(studyJson: unknown, resultJson: unknown): Promise<void> {
  await mkdir(join(dir, "runs", "ordinary", "run-1"), { recursive: true });
  await writeFile(join(dir, "study.json"), JSON.stringify(studyJson));
  await writeFile(join(dir, "runs", "ordinary", "run-1", "result.json"), JSON.stringify(resultJson));
}

async function reportExit(): Promise<{ code: number; err: string }> {
  const io = memoryIO({ cwd: dir });
  const code = await main(["report", "."], io);
  return { code, err: io.err.join("") };
}

describe("reading a results folder back", () => {
  it("a study.json with the right schema but missing fields names the field (exit 2, no stack trace)", async () => {
    await writeFolder({ schema: "armstudy.study/1", study: "s" }, result("ordinary", 1, 3));
    expect(await reportExit()).toEqual({
      code: 2,
      err: "armstudy report: ./study.json: field description: Invalid input: expected string, received undefined. armstudy study writes this file; restore it from the study's folder, or run the study again.\n",
    });
  });

  it("a result.json without its metrics names the field and the fix", async () => {
    const { metrics: _dropped, ...partial } = result("ordinary", 1, 3);
    await writeFolder(meta([armMeta("ordinary")], 1), partial);
    await expect(loadResults(dir)).rejects.toMatchObject({
      code: "STUDY_RESULTS",
      message: `${join(dir, "runs/ordinary/run-1/result.json")}: field metrics: Invalid input: expected object, received undefined. Delete the run folder and rerun with --resume.`,
    });
  });

  it("an empty object as result.json is refused, not counted as a run of no arm", async () => {
    await writeFolder(meta([armMeta("ordinary")], 1), {});
    await expect(loadResults(dir)).rejects.toMatchObject({
      message: `${join(dir, "runs/ordinary/run-1/result.json")}: field schema: Invalid input: expected "armstudy.result/1". Delete the run folder and rerun with --resume.`,
    });
  });

  it("runs/ that is a file is a coded error; stray files beside the run folders are ignored", async () => {
    await writeFolder(meta([armMeta("ordinary")], 1), result("ordinary", 1, 3));
    await writeFile(join(dir, "runs", ".DS_Store"), "");
    await writeFile(join(dir, "runs", "ordinary", "notes.txt"), "");
    expect((await loadResults(dir)).results.map((r) => [r.arm, r.runIndex])).toEqual([["ordinary", 1]]);

    await rm(join(dir, "runs"), { recursive: true });
    await writeFile(join(dir, "runs"), "not a folder");
    await expect(loadResults(dir)).rejects.toMatchObject({
      code: "STUDY_RESULTS",
      message: `${join(dir, "runs")}: cannot be listed (ENOTDIR); a results folder keeps each run in runs/<arm>/run-<i>/. Move the stray file away.`,
    });
  });
});
