import { describe, expect, it } from "vitest";
import { checkEnvelope } from "../../../src/core/envelope/check.ts";
import { parseEnvelopeText } from "../../../src/core/envelope/document.ts";
import { EmitError, envelopeFromRun, parseNumstat, renderEnvelopeYaml, type RunForEnvelope } from "../../../src/core/envelope/emit.ts";

describe("parseNumstat", () => {
  it("reads text, binary, renamed and quoted paths", () => {
    const numstat = [
      "10\t2\tsrc/a.ts",
      "-\t-\tassets/logo.png",
      "3\t3\tsrc/{old => new}/b.ts",
      "0\t0\tdocs/x.md => docs/y.md",
      "1\t0\t{a => }/c.ts",
      "1\t1\tx/{a => }/d.ts",
      "2\t0\t{ => lib}/e.ts",
      '4\t1\t"odd\\tname \\"q\\".ts"',
      '2\t0\t"caf\\303\\251.md"',
      "",
    ].join("\n");
    expect(parseNumstat(numstat)).toEqual([
      { path: "src/a.ts", added: 10, removed: 2 },
      { path: "assets/logo.png", added: null, removed: null },
      { path: "src/new/b.ts", added: 3, removed: 3 },
      { path: "docs/y.md", added: 0, removed: 0 },
      { path: "c.ts", added: 1, removed: 0 },
      { path: "x/d.ts", added: 1, removed: 1 },
      { path: "lib/e.ts", added: 2, removed: 0 },
      { path: 'odd\tname "q".ts', added: 4, removed: 1 },
      { path: "café.md", added: 2, removed: 0 },
    ]);
  });

  it("names a line it cannot read", () => {
    expect(() => parseNumstat("1\t2\tok.ts\nnot numstat\n")).toThrow(new EmitError('numstat line 2 is not "<added>\\t<removed>\\t<path>": "not numstat"'));
  });
});

const run: RunForEnvelope = {
  taskId: "t-5eed0001",
  branch: "armstudy/ordinary/run-3",
  acceptance: {
    checks: [
      { id: "F1", command: "npm test", passed: true },
      { id: "step-2", command: "node checks/report.js", passed: false },
    ],
  },
  diffNumstat: "12\t3\tsrc/report.ts\n-\t-\tdocs/chart.png\n5\t0\tsrc/report.test.ts\n",
  summary: "Added the report section; the chart check still fails.",
  wallClockSeconds: 83.4567,
};

describe("envelopeFromRun", () => {
  it("maps acceptance checks to F-criteria and the diff to files and line counts", () => {
    expect(envelopeFromRun(run)).toEqual({
      branch: "armstudy/ordinary/run-3",
      commit_sha: "pending",
      files_changed: ["src/report.ts", "docs/chart.png", "src/report.test.ts"],
      loc_added: 17,
      loc_removed: 3,
      f_criteria: { F1: "pass", "step-2": "fail" },
      synthesis_attestation: {},
      decision_ledger: [],
      novel_decisions: [],
      notes: "Added the report section; the chart check still fails.",
      wall_clock_seconds: 83.457,
      task_id: "t-5eed0001",
      status: "completed",
      capabilities_used: [],
      capabilities_rejected: [],
      downstream_iterate_outcome: null,
      merge_plan: null,
    });
  });

  it("emits envelopes that pass the check: iterate on a failing check, commit when all pass", () => {
    expect(checkEnvelope(envelopeFromRun(run)).verdict.route).toBe("iterate");
    const clean = envelopeFromRun({ ...run, taskId: undefined, acceptance: { checks: [{ id: "F1", command: "true", passed: true }] }, diffNumstat: "", summary: "word ".repeat(500) });
    const { verdict } = checkEnvelope(clean);
    expect([verdict.route, verdict.warnings, clean.task_id, clean.notes.split(" ").length, clean.notes.endsWith(" …")]).toEqual(["commit", [], "unknown", 200, true]);
  });

  it("round-trips through the YAML file form with the envelope: wrapper", () => {
    const yaml = renderEnvelopeYaml(envelopeFromRun(run));
    expect(yaml.startsWith("envelope:\n  branch: armstudy/ordinary/run-3\n")).toBe(true);
    const document = parseEnvelopeText(yaml);
    expect([document.wrapped, document.envelope]).toEqual([true, envelopeFromRun(run)]);
  });

  it("refuses inputs that would make a bad envelope", () => {
    expect(() => envelopeFromRun({ ...run, taskId: "T-1" })).toThrow('task id "T-1" is not "t-" and 8 hex digits (or "unknown")');
    expect(() => envelopeFromRun({ ...run, wallClockSeconds: Number.NaN })).toThrow("wallClockSeconds must be a finite number ≥ 0; got NaN");
    const twice = { checks: [run.acceptance.checks[0]!, run.acceptance.checks[0]!] };
    expect(() => envelopeFromRun({ ...run, acceptance: twice })).toThrow('two acceptance checks share the id "F1"; F-criterion ids must be unique');
    expect(() => envelopeFromRun({ ...run, acceptance: { checks: [{ id: " ", command: "x", passed: true }] } })).toThrow('acceptance check "x" has an empty id; every F-criterion needs one');
  });
});
