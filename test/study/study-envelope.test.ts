/**
 * `armstudy study --envelope`: each run also leaves an implementer envelope whose F-criteria are
 * the acceptance checks and whose file and line counts come from the run's own diff.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadResults } from "../../src/render/results.ts";
import { checkEnvelopeFile } from "../../src/study/envelope/files.ts";
import { runStudy } from "../../src/study/runner.ts";
import { fakeDeps, makeStudyWorld, tickingClock } from "./support/fakes.ts";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("runStudy with envelope", () => {
  it("writes a valid envelope per run from the acceptance checks and the diff", async () => {
    const root = mkdtempSync(join(tmpdir(), "armstudy-envelope-study-"));
    temps.push(root);
    const outDir = join(root, "out");
    await runStudy({
      spec: makeStudyWorld(root),
      deps: fakeDeps(),
      outDir,
      cacheRoot: join(root, ".armstudy"),
      worktreeRoot: join(root, "worktrees"),
      cwd: root,
      clockFactory: tickingClock(),
      heartbeatMs: 86_400_000,
      arms: ["lazy", "diligent"],
      runs: 1,
      envelope: true,
    });
    const { results } = await loadResults(outDir);
    expect(results.map((r) => [r.arm, r.files])).toEqual([
      ["diligent", { record: "record.jsonl", patch: "diff.patch", envelope: "envelope.yaml" }],
      ["lazy", { record: "record.jsonl", patch: "diff.patch", envelope: "envelope.yaml" }],
    ]);
    const lazy = await checkEnvelopeFile(join(outDir, "runs/lazy/run-1/envelope.yaml"));
    expect(lazy.envelope === null ? null : {
      branch: lazy.envelope.branch,
      files_changed: lazy.envelope.files_changed,
      loc_added: lazy.envelope.loc_added,
      loc_removed: lazy.envelope.loc_removed,
      f_criteria: lazy.envelope.f_criteria,
      notes: lazy.envelope.notes,
      status: lazy.envelope.status,
    }).toEqual({
      branch: "armstudy/lazy-1",
      files_changed: ["one.txt"],
      loc_added: 1,
      loc_removed: 0,
      f_criteria: { B1: "pass", B2: "fail" },
      notes: "Done: every step is complete.",
      status: "completed",
    });
    // A failing F-criterion routes the envelope back for another iteration.
    expect(lazy.verdict.route).toBe("iterate");
    const diligent = await checkEnvelopeFile(join(outDir, "runs/diligent/run-1/envelope.yaml"));
    expect([diligent.envelope?.f_criteria, diligent.verdict.route]).toEqual([{ B1: "pass", B2: "pass" }, "commit"]);
  });
});
