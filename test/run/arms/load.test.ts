import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PackError } from "../../../src/core/prompt/errors.ts";
import { renderReportingGuidance } from "../../../src/core/report/guidance.ts";
import { listArmNames, loadArm, loadArms } from "../../../src/run/arms/load.ts";
import { git, section, tempTree, writeTree } from "./helpers.ts";

const reference = new Tiktoken(o200kBase);
const tiktoken = (text: string): number => reference.encode(text, [], []).length;

/** The PackError a load throws, as a plain value. */
async function loadError(run: () => Promise<unknown>): Promise<{ code: string; file: string; field: string; message: string }> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof PackError)) throw error;
    return { code: error.code, file: error.file, field: error.field, message: error.message };
  }
  throw new Error("expected the load to fail");
}

describe("the bundled arms", () => {
  it("load with their agent, policies, goal limits and sections", async () => {
    const arms = await loadArms("arms", ["goal", "old-build", "ordinary"]);
    expect(
      arms.map((arm) => ({
        name: arm.name,
        agent: arm.agent,
        policies: arm.policies,
        goal: arm.goal,
        extends: arm.extends,
        sections: arm.prompt?.sections.map((s) => `${s.id}@${s.origin}`),
      })),
    ).toEqual([
      {
        name: "goal",
        agent: "armstudy",
        policies: [{ name: "goal" }],
        goal: { rounds: 30, hours: 8 },
        extends: "ordinary",
        sections: [
          "identity@arms/ordinary/sections/identity.md",
          "personality@arms/ordinary/sections/personality.md",
          "autonomy@arms/ordinary/sections/autonomy.md",
          "permission@arms/ordinary/sections/permission.md",
          "steering@arms/ordinary/sections/steering.md",
          "writing@arms/ordinary/sections/writing.md",
          "todo@arms/ordinary/sections/todo.md",
          "work-slice@arms/ordinary/sections/work-slice.md",
          "plan@arms/ordinary/sections/plan.md",
          "goal@arms/goal/sections/goal.md",
          "reporting@arms/ordinary/arm.yaml",
        ],
      },
      {
        name: "old-build",
        agent: "armstudy",
        policies: [{ name: "todoGate", options: { maxNudges: 3 } }],
        goal: undefined,
        extends: null,
        sections: [
          "identity@arms/old-build/sections/identity.md",
          "autonomy@arms/old-build/sections/autonomy.md",
          "permission@arms/old-build/sections/permission.md",
          "steering@arms/old-build/sections/steering.md",
          "writing@arms/old-build/sections/writing.md",
          "todo@arms/old-build/sections/todo.md",
          "work-slice@arms/old-build/sections/work-slice.md",
          "plan@arms/old-build/sections/plan.md",
          "reporting@arms/old-build/sections/reporting.md",
        ],
      },
      {
        name: "ordinary",
        agent: "armstudy",
        policies: [{ name: "none" }],
        goal: undefined,
        extends: null,
        sections: [
          "identity@arms/ordinary/sections/identity.md",
          "personality@arms/ordinary/sections/personality.md",
          "autonomy@arms/ordinary/sections/autonomy.md",
          "permission@arms/ordinary/sections/permission.md",
          "steering@arms/ordinary/sections/steering.md",
          "writing@arms/ordinary/sections/writing.md",
          "todo@arms/ordinary/sections/todo.md",
          "work-slice@arms/ordinary/sections/work-slice.md",
          "plan@arms/ordinary/sections/plan.md",
          "reporting@arms/ordinary/arm.yaml",
        ],
      },
    ]);
  });

  it("are within their budgets, with counts equal to js-tiktoken's", async () => {
    for (const arm of await loadArms("arms")) {
      const prompt = arm.prompt;
      // Real-client arms (codex, claude, pi) run the client's own prompt: nothing to budget.
      expect([arm.name, prompt === null]).toEqual([arm.name, arm.agent !== "armstudy"]);
      if (prompt === null) continue;
      expect([arm.name, prompt.violations]).toEqual([arm.name, []]);
      expect(prompt.prefixTokens).toBe(tiktoken(prompt.stablePrefix));
      expect(prompt.sections.every((s) => s.maxChars !== null && s.maxTokens !== null)).toBe(true);
    }
  });

  it("render ordinary's reporting section from the builtin renderer, last in the prefix", async () => {
    const arm = await loadArm("arms", "ordinary");
    expect(arm.prompt?.stablePrefix.endsWith(`\n\n${renderReportingGuidance().trim()}`)).toBe(true);
  });

  it("apply per-arm budget overrides over the shared ones", async () => {
    const [old, ordinary] = await loadArms("arms", ["old-build", "ordinary"]);
    const reporting = (arm: typeof old) => arm?.prompt?.sections.find((s) => s.id === "reporting");
    expect([reporting(old)?.maxChars, reporting(old)?.maxTokens]).toEqual([18000, 4500]);
    expect([reporting(ordinary)?.maxChars, reporting(ordinary)?.maxTokens]).toEqual([12000, 3000]);
  });
});

const BASE = {
  "base/arm.yaml": "description: the base\npolicies:\n  - name: none\nsections:\n  - { id: reporting, builtin: reporting }\n",
  "base/sections/a.md": section("a", 10, "Section A."),
  "base/sections/b.md": section("b", 20, "Section B."),
  "base/sections/c.md": section("c", 30, "Section C."),
};

describe("extends", () => {
  it("inherits sections and settings, overrides by id in place, adds and removes", async () => {
    const dir = tempTree({
      ...BASE,
      "child/arm.yaml": "extends: base\nsections:\n  - { id: c, remove: true }\n",
      "child/sections/b.md": section("b", 20, "Child B."),
      "child/sections/d.md": section("d", 15, "Child D."),
    });
    const child = await loadArm(dir, "child");
    expect({ description: child.description, policies: child.policies, agent: child.agent, extends: child.extends }).toEqual({
      description: "the base",
      policies: [{ name: "none" }],
      agent: "armstudy",
      extends: "base",
    });
    expect(child.prompt?.stablePrefix).toBe(`Section A.\n\nChild D.\n\nChild B.\n\n${renderReportingGuidance().trim()}`);
    expect(child.prompt?.sections.map((s) => s.origin)).toEqual([join(dir, "base/sections/a.md"), join(dir, "child/sections/d.md"), join(dir, "child/sections/b.md"), join(dir, "base/arm.yaml")]);
  });

  it("lets a child replace its parent's policies and goal limits", async () => {
    const dir = tempTree({ ...BASE, "looped/arm.yaml": "extends: base\npolicies:\n  - name: goal\ngoal: { rounds: 3 }\n" });
    const arm = await loadArm(dir, "looped");
    expect([arm.policies, arm.goal]).toEqual([[{ name: "goal" }], { rounds: 3 }]);
  });
});

describe("other arm shapes", () => {
  it("a real-client arm has no pack and no prompt: the client's own", async () => {
    const dir = tempTree({ "codex-own/arm.yaml": "agent: codex\ndescription: the real Codex CLI\n" });
    const arm = await loadArm(dir, "codex-own");
    expect({ ...arm, dir: "" }).toEqual({
      name: "codex-own",
      dir: "",
      description: "the real Codex CLI",
      agent: "codex",
      policies: [{ name: "none" }],
      file: join(dir, "codex-own/arm.yaml"),
      extends: null,
      promptRef: null,
      pack: null,
      prompt: null,
    });
  });

  it("compiles dynamic sections and placeholders with the given inputs", async () => {
    const dir = tempTree({
      "dyn/arm.yaml": "sections: []\n",
      "dyn/sections/a.md": section("a", 1, "Stable."),
      "dyn/sections/where.md": section("where", 1, "Work in {{dir}}.", "stable: false\n"),
    });
    const arm = await loadArm(dir, "dyn", { inputs: { dir: "/w" } });
    expect([arm.prompt?.stablePrefix, arm.prompt?.text, arm.prompt?.violations]).toEqual(["Stable.", "Stable.\n\nWork in /w.", []]);
  });
});

describe("bad input names the file and the field", () => {
  // line: where the field sits in the file, named first in the message (ADR 0212).
  const cases: [string, Record<string, string>, string, { line?: number; code: string; file: string; field: string; problem: string }][] = [
    [
      "broken front matter",
      { ...BASE, "base/sections/b.md": "---\nid: b\norder: 20\n" },
      "base",
      { code: "FRONT_MATTER", file: "base/sections/b.md", field: "front matter", problem: "not closed: add a line `---` after the last front-matter field." },
    ],
    [
      "a budget naming an unknown section",
      { ...BASE, "budgets.yaml": "sections:\n  a: { maxChars: 10 }\n  reportng: { maxChars: 10 }\n" },
      "base",
      { line: 3, code: "BUDGET_UNKNOWN_SECTION", file: "budgets.yaml", field: "sections.reportng", problem: 'no arm has a section "reportng"; did you mean "reporting"? (sections: a, b, c, reporting). Fix the id or remove the entry.' },
    ],
    [
      "an arm budget naming a section that arm lacks",
      { ...BASE, "other/arm.yaml": "sections: []\n", "other/sections/x.md": section("x", 1, "X."), "budgets.yaml": "arms:\n  other:\n    sections:\n      a: { maxTokens: 5 }\n" },
      "other",
      { line: 4, code: "BUDGET_UNKNOWN_SECTION", file: "budgets.yaml", field: "arms.other.sections.a", problem: 'arm "other" has no section "a" (its sections: x). Fix the id or remove the entry.' },
    ],
    [
      "a budget naming an unknown arm",
      { ...BASE, "budgets.yaml": "arms:\n  bse:\n    prefix: { maxTokens: 5 }\n" },
      "base",
      { line: 2, code: "BUDGET_UNKNOWN_ARM", file: "budgets.yaml", field: "arms.bse", problem: 'there is no arm "bse"; did you mean "base"? (arms: base). Fix the name or remove the entry.' },
    ],
    [
      "a misspelt budget field",
      { ...BASE, "budgets.yaml": "sections:\n  a: { maxChar: 10 }\n" },
      "base",
      { line: 2, code: "FIELD", file: "budgets.yaml", field: "sections.a.maxChar", problem: "unknown field; remove it or fix its spelling. Known fields here: maxChars, maxTokens." },
    ],
    [
      "an arm that extends a missing arm",
      { ...BASE, "child/arm.yaml": "extends: bsae\n" },
      "child",
      { line: 1, code: "EXTENDS_MISSING", file: "child/arm.yaml", field: "extends", problem: 'names arm "bsae", but bsae/arm.yaml does not exist. Fix the name or create that arm.' },
    ],
    [
      "an extends cycle",
      { "x/arm.yaml": "extends: y\n", "y/arm.yaml": "extends: x\n" },
      "x",
      { line: 1, code: "EXTENDS_CYCLE", file: "y/arm.yaml", field: "extends", problem: '"x" leads back to itself (x → y → x); break the cycle.' },
    ],
    [
      "an unknown builtin",
      { "a/arm.yaml": "sections:\n  - { id: reporting, builtin: reportng }\n" },
      "a",
      { line: 2, code: "UNKNOWN_BUILTIN", file: "a/arm.yaml", field: "sections.0.builtin", problem: '"reportng" is not a builtin section. Builtins: reporting.' },
    ],
    [
      "a misspelt arm field",
      { "a/arm.yaml": "polices:\n  - name: none\n" },
      "a",
      { line: 1, code: "FIELD", file: "a/arm.yaml", field: "polices", problem: "unknown field; remove it or fix its spelling. Known fields here: name, description, extends, agent, prompt, sections, policies, goal, mode, plan, context." },
    ],
    [
      "an unknown policy",
      { "a/arm.yaml": "policies:\n  - name: todogate\n" },
      "a",
      {
        line: 2,
        code: "FIELD",
        file: "a/arm.yaml",
        field: "policies.0.name",
        problem: 'expected one of "none"|"todoGate"|"everyReplyCheck"|"goal"|"workSlice"|"loopGuard"|"measureLoop"|"goalQueue"; fix the value.',
      },
    ],
    [
      "an unknown agent",
      { "a/arm.yaml": "agent: gemini\n" },
      "a",
      { line: 1, code: "FIELD", file: "a/arm.yaml", field: "agent", problem: 'expected one of "armstudy"|"codex"|"claude"|"pi"; fix the value.' },
    ],
    [
      "goal limits without a goal policy",
      { "a/arm.yaml": "goal: { rounds: 3 }\n" },
      "a",
      { line: 1, code: "FIELD", file: "a/arm.yaml", field: "goal", problem: "sets goal limits, but the arm has no `goal` policy. Add `- name: goal` under policies, or remove goal." },
    ],
    [
      "a real-client arm with sections",
      { "c/arm.yaml": "agent: claude\n", "c/sections/a.md": section("a", 1, "A.") },
      "c",
      { code: "FIELD", file: "c/sections/a.md", field: "", problem: "a claude arm runs the client with its own prompt, so it has no prompt pack; remove the sections folder." },
    ],
    [
      "a reporting section that is not stable",
      { "a/arm.yaml": "sections:\n  - { id: reporting, builtin: reporting, stable: false }\n" },
      "a",
      { line: 2, code: "FIELD", file: "a/arm.yaml", field: "sections.0.stable", problem: "the reporting section always ends the stable prefix; remove `stable: false`." },
    ],
    [
      "a reporting section file that may be cut",
      { "a/arm.yaml": "{}\n", "a/sections/r.md": section("reporting", 1, "R.", "cut: tail\n") },
      "a",
      { line: 4, code: "FIELD", file: "a/sections/r.md", field: "front matter.cut", problem: "the reporting section is never cut (over budget is a violation); remove `cut: tail`." },
    ],
    [
      "two sections with one id",
      { "a/arm.yaml": "{}\n", "a/sections/one.md": section("x", 1, "1."), "a/sections/two.md": section("x", 2, "2.") },
      "a",
      { line: 2, code: "DUPLICATE_SECTION", file: "a/sections/two.md", field: "front matter.id", problem: 'section id "x" is already used by a/sections/one.md; give one of them another id.' },
    ],
    [
      "a sections entry with neither builtin nor remove",
      { "a/arm.yaml": "sections:\n  - { id: x, order: 3 }\n" },
      "a",
      { line: 2, code: "FIELD", file: "a/arm.yaml", field: "sections.0", problem: "needs `builtin: NAME` (a render-function section) or `remove: true`; markdown sections come from sections/*.md on their own." },
    ],
    [
      "removing a section that is not inherited",
      { ...BASE, "child/arm.yaml": "extends: base\nsections:\n  - { id: z, remove: true }\n" },
      "child",
      { line: 3, code: "FIELD", file: "child/arm.yaml", field: "sections.0.id", problem: 'there is no inherited section "z" to remove (inherited: a, b, c, reporting).' },
    ],
    [
      "YAML that does not parse",
      { "a/arm.yaml": "policies: [\n" },
      "a",
      { code: "YAML", file: "a/arm.yaml", field: "line 2", problem: expect.stringMatching(/^is not valid YAML: .+\. Fix the syntax/) as unknown as string },
    ],
    [
      "a missing arm",
      { ...BASE },
      "nope",
      { code: "ARM_NOT_FOUND", file: "nope/arm.yaml", field: "", problem: 'no arm "nope" here (arms in .: base). Check the name or create the file.' },
    ],
  ];

  it.each(cases)("%s", async (_name, files, arm, expected) => {
    const dir = tempTree(files);
    const error = await loadError(() => loadArm(dir, arm, { cwd: dir }));
    const { problem, line, ...rest } = expected;
    const where = `${expected.file}${line === undefined ? "" : `: line ${line}`}${expected.field === "" ? "" : `: ${expected.field}`}`;
    expect(error).toEqual({ ...rest, message: typeof problem === "string" ? `${where}: ${problem}` : expect.any(String) });
    if (typeof problem !== "string") expect(error.message.slice(`${expected.file}: ${expected.field}: `.length)).toEqual(problem);
  });

  it("loading one arm checks the budgets file against that arm only, and arm names against the folder (ADR 0211)", async () => {
    const dir = tempTree({
      ...BASE,
      "other/arm.yaml": "sections: []\n",
      "other/sections/x.md": section("x", 1, "X."),
      "budgets.yaml": "sections:\n  x: { maxChars: 10 }\narms:\n  other:\n    sections:\n      a: { maxTokens: 5 }\n",
    });
    const arm = await loadArm(dir, "base", { cwd: dir });
    expect(arm.pack?.sections.map((s) => [s.id, s.budget])).toEqual([["a", {}], ["b", {}], ["c", {}], ["reporting", {}]]);
    expect(await loadError(() => loadArms(dir, undefined, { cwd: dir }))).toMatchObject({ code: "BUDGET_UNKNOWN_SECTION", field: "arms.other.sections.a" });
    writeTree(dir, { "budgets.yaml": "arms:\n  othr:\n    prefix: { maxTokens: 5 }\n" });
    expect((await loadError(() => loadArm(dir, "base", { cwd: dir }))).message).toEqual(`budgets.yaml: line 2: arms.othr: there is no arm "othr"; did you mean "other"? (arms: base, other). Fix the name or remove the entry.`);
  });

  it("a budgets file given by path must exist", async () => {
    const dir = tempTree(BASE);
    const error = await loadError(() => loadArm(dir, "base", { cwd: dir, budgetsFile: "nope.yaml" }));
    expect(error).toMatchObject({ code: "FIELD", file: "nope.yaml", field: "" });
    expect(error.message).toMatch(/^nope\.yaml: cannot be read \(ENOENT.*\)\. Check the --budgets path\.$/);
  });
});

describe("prompt: { ref } reads the pack as it stood at a git ref", () => {
  function repoWithHistory(): { root: string; arms: string; v1: string } {
    const root = tempTree();
    git(root, "init", "-q");
    writeTree(root, {
      "arms/main/arm.yaml": "sections:\n  - { id: reporting, builtin: reporting }\n",
      "arms/main/sections/a.md": section("a", 1, "Old wording."),
      "arms/main/sections/gone.md": section("gone", 2, "Removed later."),
    });
    git(root, "add", ".");
    git(root, "commit", "-q", "-m", "v1");
    git(root, "tag", "v1");
    const v1 = git(root, "rev-parse", "HEAD");
    writeTree(root, { "arms/main/sections/a.md": section("a", 1, "New wording.") });
    git(root, "rm", "-q", "arms/main/sections/gone.md");
    git(root, "commit", "-q", "-am", "v2");
    return { root, arms: join(root, "arms"), v1 };
  }

  it("by tag and by commit, for another arm's pack, keeping the pinning arm's own policies", async () => {
    const { root, arms, v1 } = repoWithHistory();
    writeTree(root, {
      "arms/then/arm.yaml": "description: main as of v1\nprompt: { ref: v1, arm: main }\npolicies:\n  - name: todoGate\n",
      // Quoted: a hash of digits (and an e) would read as a YAML number (the next test).
      "arms/then-hash/arm.yaml": `prompt: { ref: "${v1.slice(0, 10)}", arm: main }\n`,
    });
    const [now, then, byHash] = await loadArms(arms, ["main", "then", "then-hash"], { cwd: root });
    const reporting = renderReportingGuidance().trim();
    expect(now?.prompt?.stablePrefix).toBe(`New wording.\n\n${reporting}`);
    expect(then?.prompt?.stablePrefix).toBe(`Old wording.\n\nRemoved later.\n\n${reporting}`);
    expect(byHash?.prompt?.stablePrefix).toBe(then?.prompt?.stablePrefix);
    expect([then?.policies, then?.promptRef, then?.description]).toEqual([[{ name: "todoGate" }], { ref: "v1", arm: "main" }, "main as of v1"]);
    expect(then?.prompt?.sections.map((s) => s.origin)).toEqual([`v1 (${v1.slice(0, 12)}):arms/main/sections/a.md`, `v1 (${v1.slice(0, 12)}):arms/main/sections/gone.md`, `v1 (${v1.slice(0, 12)}):arms/main/arm.yaml`]);
  });

  it("an unknown ref is an error naming arm.yaml and prompt.ref", async () => {
    const { root, arms } = repoWithHistory();
    writeTree(root, { "arms/then/arm.yaml": "prompt: { ref: v9 }\n" });
    const error = await loadError(() => loadArm(arms, "then", { cwd: root }));
    expect(error).toEqual({
      code: "UNKNOWN_REF",
      file: "arms/then/arm.yaml",
      field: "prompt.ref",
      message: `arms/then/arm.yaml: line 1: prompt.ref: git ref "v9" is not a branch, commit or tag in ${root}, nor a remote-tracking branch. Use a branch, commit hash or tag that exists (git log --oneline, git branch -a, git tag), or fetch it first (a shallow clone lacks history: git fetch --unshallow).`,
    });
  });

  it("a branch that exists only as a remote-tracking branch (a fresh clone of another branch, a CI checkout) is read from it", async () => {
    const { root } = repoWithHistory();
    git(root, "checkout", "-q", "-b", "feature");
    writeTree(root, { "arms/then/arm.yaml": "prompt: { ref: main, arm: main }\n" });
    git(root, "add", ".");
    git(root, "commit", "-q", "-m", "pin main");
    const mainTip = git(root, "rev-parse", "main");
    const clone = tempTree();
    git(clone, "clone", "-q", "-b", "feature", root, "repo");
    const repo = join(clone, "repo");
    const then = await loadArm(join(repo, "arms"), "then", { cwd: repo });
    expect(then.prompt?.stablePrefix).toBe(`New wording.\n\n${renderReportingGuidance().trim()}`);
    expect(then.prompt?.sections.map((s) => s.origin)).toEqual([`origin/main (${mainTip.slice(0, 12)}):arms/main/sections/a.md`, `origin/main (${mainTip.slice(0, 12)}):arms/main/arm.yaml`]);
    // Two remotes with that branch: no guess, the message names both.
    git(repo, "remote", "add", "upstream", root);
    git(repo, "fetch", "-q", "upstream");
    const error = await loadError(() => loadArm(join(repo, "arms"), "then", { cwd: repo }));
    expect(error).toEqual({
      code: "UNKNOWN_REF",
      file: "arms/then/arm.yaml",
      field: "prompt.ref",
      message: `arms/then/arm.yaml: line 1: prompt.ref: git ref "main" is not a local branch, commit or tag in ${repo}, and more than one remote has it (origin/main, upstream/main); write the one you mean, e.g. ref: origin/main.`,
    });
  });

  it("an unquoted hash that YAML reads as a number says to quote it", async () => {
    const { root, arms } = repoWithHistory();
    writeTree(root, { "arms/then/arm.yaml": "prompt: { ref: 1234567e12 }\n" });
    const error = await loadError(() => loadArm(arms, "then", { cwd: root }));
    expect(error).toEqual({
      code: "FIELD",
      file: "arms/then/arm.yaml",
      field: "prompt.ref",
      message: 'arms/then/arm.yaml: line 1: prompt.ref: reads as a number: YAML takes a commit hash of digits (or digits and an e) as one; quote it, e.g. ref: "0123e45"; fix the value.',
    });
  });

  it("an arm missing at the ref is an error naming the pin", async () => {
    const { root, arms } = repoWithHistory();
    writeTree(root, { "arms/then/arm.yaml": "prompt: { ref: v1, arm: mian }\n" });
    const error = await loadError(() => loadArm(arms, "then", { cwd: root }));
    expect(error).toMatchObject({ code: "EXTENDS_MISSING", file: "arms/then/arm.yaml", field: "prompt.arm" });
  });

  it("a pinned arm cannot also have its own sections", async () => {
    const { root, arms } = repoWithHistory();
    writeTree(root, { "arms/then/arm.yaml": "prompt: { ref: v1, arm: main }\n", "arms/then/sections/x.md": section("x", 1, "X.") });
    const error = await loadError(() => loadArm(arms, "then", { cwd: root }));
    expect(error).toMatchObject({ code: "FIELD", file: "arms/then/arm.yaml", field: "prompt.ref" });
  });
});

describe("any arm.yaml or budgets.yaml text", () => {
  it("loads or fails with a PackError, never another error", async () => {
    const { default: fc } = await import("fast-check");
    const dir = tempTree({ ...BASE });
    const keys = ["description", "extends", "agent", "prompt", "sections", "policies", "goal", "name", "id", "builtin", "remove", "ref", "maxChars", "growth", "arms", "prefix"];
    const yamlish = fc.array(
      fc.oneof(
        fc.constantFrom(...keys).map((k) => `${k}: `),
        fc.constantFrom("\n", "  ", "- ", "{ ", " }", "[", "]", ", ", "base", "reporting", "true", "12", "-3", "null", "~", "&a ", "*a", "'", '"', "goal", "none", "codex", ": "),
        fc.string({ maxLength: 6 }),
      ),
      { maxLength: 24 },
    );
    await fc.assert(
      fc.asyncProperty(yamlish, yamlish, async (armParts, budgetParts) => {
        writeTree(dir, { "fuzz/arm.yaml": armParts.join(""), "budgets.yaml": budgetParts.join("") });
        try {
          await loadArm(dir, "fuzz", { cwd: dir });
        } catch (error) {
          if (!(error instanceof PackError)) throw error;
        }
      }),
      { numRuns: 150 },
    );
  });
});
