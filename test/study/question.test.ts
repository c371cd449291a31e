import { describe, expect, it } from "vitest";
import { parseStudyFile } from "../../src/study/study-file.ts";

const FILE = "/x/arms/q.study.yaml";
const base = { repo: { fixture: "../fixtures/tasks/stockbook/repo" }, handoff: "h.md", checks: "c.yaml", arms: ["ordinary", "goal"], model: "scripted:p.yaml" };
const primary = { metric: "falseCompletion", baseline: "ordinary", treatment: "goal", minDifference: 0.2 };

describe("the study's pre-stated question", () => {
  it("is built with defaults: direction from the metric, alpha 0.05, secondary metrics by name", () => {
    const spec = parseStudyFile({ ...base, decision: { adr: "ADR-0072", title: "goal loop" }, hypothesis: " fewer false claims ", primary, secondary: ["allChecksPassed", { metric: "toolCalls", direction: "higher" }] }, FILE);
    expect(spec.question).toEqual({
      decision: { adr: "ADR-0072", title: "goal loop" },
      hypothesis: "fewer false claims",
      primary: { ...primary, kind: "rate", direction: "lower", alpha: 0.05 },
      secondary: [
        { metric: "allChecksPassed", kind: "rate", direction: "higher" },
        { metric: "toolCalls", kind: "count", direction: "higher" },
      ],
    });
  });

  it("is null when the file states none", () => {
    expect(parseStudyFile(base, FILE).question).toEqual(null);
  });

  it.each([
    [{ hypothesis: "h" }, `${FILE}: field hypothesis: needs a \`primary:\` metric (metric, baseline, treatment, minDifference) that the verdict is drawn from.`],
    [{ primary }, `${FILE}: field hypothesis: state the hypothesis in words beside the primary metric.`],
    [{ hypothesis: "h", primary: { ...primary, baseline: "old-build" } }, `${FILE}: field primary.baseline: "old-build" is not one of the study's arms (ordinary, goal).`],
    [{ hypothesis: "h", primary: { ...primary, treatment: "ordinary" } }, `${FILE}: field primary.treatment: is the same arm as primary.baseline; compare two different arms.`],
    [{ hypothesis: "h", primary: { ...primary, minDifference: 20 } }, `${FILE}: field primary.minDifference: 20 is not a rate difference; give a fraction below 1 (0.2 = 20 percentage points).`],
    [{ hypothesis: "h", primary: { ...primary, metric: "toolCalls" } }, `${FILE}: field primary.direction: toolCalls has no better way of its own; say \`direction: lower\` or \`direction: higher\`.`],
  ])("refuses %j", (extra, message) => {
    expect(() => parseStudyFile({ ...base, ...extra }, FILE)).toThrow(message);
  });

  it("names an unknown metric and lists the known ones", () => {
    expect(() => parseStudyFile({ ...base, hypothesis: "h", primary: { ...primary, metric: "falseCompletions" } }, FILE)).toThrow(/field primary\.metric: is not a study metric; use one of claimedComplete, falseCompletion,/);
  });
});
