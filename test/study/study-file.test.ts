import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadStudyFile, parseStudyFile, selectArms } from "../../src/study/study-file.ts";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const minimal = {
  repo: { fixture: "../fixtures/tasks/stockbook/repo" },
  handoff: "../fixtures/tasks/stockbook/handoff.md",
  checks: "../fixtures/tasks/stockbook/checks.yaml",
  arms: ["old-build", { name: "goal", model: "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml", goal: { rounds: 5 } }],
  model: "scripted:fixtures/tasks/stockbook/personas/diligent.yaml",
};

describe("parseStudyFile", () => {
  it("fills defaults and resolves paths against the study file's folder", () => {
    expect(parseStudyFile(minimal, "/p/arms/default.study.yaml")).toEqual({
      name: "default",
      question: null,
      description: "",
      file: "/p/arms/default.study.yaml",
      tasks: [
        {
          name: "handoff",
          description: "",
          tags: [],
          workExists: false,
          dir: null,
          file: "/p/arms/default.study.yaml",
          repo: { kind: "fixture", dir: "/p/fixtures/tasks/stockbook/repo" },
          handoffPath: "/p/fixtures/tasks/stockbook/handoff.md",
          checksPath: "/p/fixtures/tasks/stockbook/checks.yaml",
          checkFiles: null,
          setup: null,
          limits: null,
          checkTimeoutMs: null,
          persona: null,
          personasDir: null,
          flat: true,
        },
      ],
      taskEntries: null,
      armsDir: "/p/arms",
      arms: [{ name: "old-build" }, { name: "goal", model: "scripted:fixtures/tasks/stockbook/personas/early-stopper.yaml", goal: { rounds: 5 } }],
      runs: 3,
      model: "scripted:fixtures/tasks/stockbook/personas/diligent.yaml",
      seed: 1,
      limits: { maxRounds: 80, maxWallMs: 300_000 },
      checkTimeoutMs: 120_000,
      requests: { connectTimeoutMs: 10_000, idleTimeoutMs: 180_000, maxRetries: 4, retryDelayMs: 1000 },
    });
  });

  it("takes an existing repository and a ref", () => {
    const spec = parseStudyFile({ ...minimal, repo: { path: "../../other" } }, "/p/arms/x.study.yaml");
    expect(spec.tasks[0]?.repo).toEqual({ kind: "git", path: "/other", ref: "HEAD" });
  });

  it.each([
    [{ ...minimal, runs: 0 }, "arms/x.study.yaml: field runs: Too small: expected number to be >0"],
    [{ ...minimal, arms: [] }, "arms/x.study.yaml: field arms: list at least one arm"],
    [{ ...minimal, model: "" }, "arms/x.study.yaml: field model: must be a non-empty string"],
    [{ ...minimal, name: "a b" }, "arms/x.study.yaml: field name: must be letters, digits, '.', '_' or '-' (it names a folder under reports/)"],
    [{ ...minimal, extra: 1 }, 'arms/x.study.yaml: top level: Unrecognized key: "extra"'],
    [{ ...minimal, arms: ["goal", "goal"] }, 'arms/x.study.yaml: field arms.1: arm "goal" is listed twice; list each arm once.'],
    // Time limits: positive, at most 24 h, named by field (ADR 0084). 3e9 ms once made every run end at once.
    [{ ...minimal, limits: { maxWallMs: 3e9 } }, "arms/x.study.yaml: field limits.maxWallMs: must be at most 24 hours (86400000 ms)"],
    [{ ...minimal, limits: { maxWallMs: -5 } }, "arms/x.study.yaml: field limits.maxWallMs: must be a positive number of milliseconds"],
    [{ ...minimal, checkTimeoutMs: 86_400_001 }, "arms/x.study.yaml: field checkTimeoutMs: must be at most 24 hours (86400000 ms)"],
    [{ ...minimal, requests: { idleTimeoutMs: 0 } }, "arms/x.study.yaml: field requests.idleTimeoutMs: must be a positive number of milliseconds"],
    [{ ...minimal, requests: { connectTimeoutMs: 1e12 } }, "arms/x.study.yaml: field requests.connectTimeoutMs: must be at most 24 hours (86400000 ms)"],
    [{ ...minimal, requests: { maxRetries: 11 } }, "arms/x.study.yaml: field requests.maxRetries: Too big: expected number to be <=10"],
    [{ ...minimal, requests: { retries: 1 } }, 'arms/x.study.yaml: field requests: Unrecognized key: "retries"'],
    [{ ...minimal, arms: [{ name: "goal", goal: { hours: 25 } }] }, "arms/x.study.yaml: field arms.0.goal.hours: must be at most 24 hours"],
    [{ ...minimal, runs: 1001 }, "arms/x.study.yaml: field runs: Too big: expected number to be <=1000"],
  ])("names the path of a bad field (%#)", (value, message) => {
    expect(() => parseStudyFile(value, "arms/x.study.yaml")).toThrow(message);
  });

  it("reads YAML files and names unreadable or broken ones", async () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-study-"));
    temps.push(dir);
    const file = join(dir, "s.study.yaml");
    writeFileSync(file, "repo: { fixture: f }\nhandoff: h.md\nchecks: c.yaml\narms: [goal]\nmodel: scripted:x\nruns: 2\n");
    expect((await loadStudyFile(file)).runs).toEqual(2);
    writeFileSync(file, "repo: [\n");
    await expect(loadStudyFile(file)).rejects.toThrow(`${file}: not valid YAML`);
    await expect(loadStudyFile(join(dir, "none.study.yaml"))).rejects.toThrow(`cannot read study file ${join(dir, "none.study.yaml")}: ENOENT`);
  });
});

describe("selectArms", () => {
  const spec = parseStudyFile({ ...minimal, arms: ["old-build", "ordinary", "goal"] }, "/p/arms/default.study.yaml");
  it("keeps the study's order and settings, and adds arms the file does not list", () => {
    expect(selectArms(spec, []).map((a) => a.name)).toEqual(["old-build", "ordinary", "goal"]);
    expect(selectArms(spec, ["goal", "old-build"]).map((a) => a.name)).toEqual(["old-build", "goal"]);
    expect(selectArms(spec, ["codex-exec", "ordinary"])).toEqual([{ name: "ordinary" }, { name: "codex-exec" }]);
  });
});
