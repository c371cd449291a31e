/**
 * The reporting history as three bundled arms (ADR-0073 old-build, ADR-0074 report-content,
 * ADR-0076 ordinary), so `budget` and a study can compare them. The ADR-0074 text is checked the
 * way its ADR asks: the content questions, the evidence rule, the by-hand rule, the ending ban,
 * heading freedom, three examples, its size (~8.9 k characters) and the 12,000 budget.
 */
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadArms } from "../../../src/run/arms/load.ts";
import { loadStudyFile } from "../../../src/study/study-file.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

describe("three reporting arms", () => {
  it("load beside each other with different reporting sections within their budgets", async () => {
    const arms = await loadArms(join(ROOT, "arms"), ["old-build", "report-content", "ordinary"], { cwd: ROOT });
    const reporting = arms.map((arm) => arm.prompt?.sections.find((s) => s.id === "reporting"));
    expect(reporting.map((s) => s !== undefined)).toEqual([true, true, true]);
    expect(new Set(arms.map((a) => a.prompt?.prefixHash)).size).toBe(3);
    const content = reporting[1]!;
    expect(content.chars).toBeGreaterThanOrEqual(8_500);
    expect(content.chars).toBeLessThanOrEqual(9_300);
    expect(content.chars).toBeLessThanOrEqual(12_000);
    // The reporting section stays last in the stable prefix.
    const stable = arms[1]!.prompt!.sections.filter((s) => s.stable !== false);
    expect(stable.at(-1)?.id).toBe("reporting");
    expect((await loadStudyFile(join(ROOT, "arms/reporting.study.yaml"))).arms.map((a) => a.name)).toEqual(["old-build", "report-content", "ordinary"]);
  });

  it("the ADR-0074 text asks content questions, not blocks", async () => {
    const [arm] = await loadArms(join(ROOT, "arms"), ["report-content"], { cwd: ROOT });
    const text = arm!.prompt!.text;
    for (const question of ["**What happened?**", "**What changed or was decided?**", "**What can only a person check?**", "**What do they do next?**"]) expect(text).toContain(question);
    expect(text).toContain("The commands you ran are evidence, not instructions.");
    expect(text).toContain("When nothing needs a person, leave the block out entirely.");
    expect(text).toContain('never end with "Nothing needed", "Nothing needed next", "No action required"');
    expect(text).toContain("There is no required heading and no preferred set.");
    expect(["**A screen change.**", "**A backend change.**", "**A publish.**"].filter((title) => text.includes(title))).toHaveLength(3);
    // No example ends on a banned phrase.
    expect(/Nothing needed\.?\s*$/m.test(text.split("### Three examples")[1] ?? "")).toBe(false);
  });
});
