/**
 * The plan double decides from what its reads returned (ADR 0125), not by seed: the same persona
 * plans a step whose `exists` text is missing from the file it read, leaves out a step whose text
 * is there, says "nothing to plan" when every step is there, and a failed read counts as missing.
 */
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyPlanReply } from "../../../src/core/plan/classify.ts";
import type { Message, ModelRequest } from "../../../src/core/model.ts";
import { PLAN_TOOLS } from "../../../src/core/plan/run.ts";
import { loadPersona } from "../../../src/run/models/scripted-persona.ts";
import { playPlanTurn } from "../../../src/run/models/scripted-plan.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const tools = PLAN_TOOLS.map((name) => ({ name, description: name, parameters: {} }));

/** A plan request after the persona read each file and got `contents[path]` back. */
function afterReads(contents: Record<string, string>): ModelRequest {
  const messages: Message[] = [{ role: "user", content: "Plan it." }];
  Object.entries(contents).forEach(([path, content], i) => {
    messages.push({ role: "assistant", content: "", toolCalls: [{ id: `r${i}`, name: "read_file", arguments: { path } }] });
    messages.push({ role: "tool", toolCallId: `r${i}`, name: "read_file", content });
  });
  return { messages, tools };
}

describe("the plan double", () => {
  it("reads each file its steps name once, in order, before it decides", async () => {
    const persona = await loadPersona(resolve(ROOT, "fixtures/tasks/already-done/personas/planner.yaml"));
    expect(playPlanTurn(persona, afterReads({})).toolCalls).toEqual([{ id: "plan-read-1", name: "read_file", arguments: { path: "src/dates.js" } }]);
    expect(playPlanTurn(persona, afterReads({ "src/dates.js": "x" })).toolCalls).toEqual([{ id: "plan-read-2", name: "read_file", arguments: { path: "test/dates.test.js" } }]);
  });

  it("plans only the steps whose text it did not find, and concludes no_plan when it found them all", async () => {
    const persona = await loadPersona(resolve(ROOT, "fixtures/tasks/already-done/personas/planner.yaml"));
    const code = 'const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(t);\nthrow new RangeError("no day");';
    expect(playPlanTurn(persona, afterReads({ "src/dates.js": code, "test/dates.test.js": 'parseIsoDate("2023-02-30")' }))).toEqual({
      text: "Nothing to plan: the work the request describes is already in place. I read `src/dates.js`, `test/dates.test.js` and found each part there.\n\nAlready in place: Q1 (parseIsoDate accepts YYYY-MM-DD); Q2 (impossible dates such as 2023-02-30 are a RangeError); Q3 (test/dates.test.js covers both).",
      toolCalls: [],
    });
    // The same persona on a repository without the RangeError, and whose test file could not be read.
    expect(playPlanTurn(persona, afterReads({ "src/dates.js": 'const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(t);', "test/dates.test.js": "error: ENOENT" }))).toEqual({
      text: "I read `src/dates.js`, `test/dates.test.js`.\n\nAlready in place: Q1 (parseIsoDate accepts YYYY-MM-DD).\n\n<proposed_plan>\n1. Q2: impossible dates such as 2023-02-30 are a RangeError.\n2. Q3: test/dates.test.js covers both.\n</proposed_plan>",
      toolCalls: [],
    });
  });

  it("sent back after a no_plan reply, wraps a plan that restates the request; after an open block, closes it", async () => {
    const persona = await loadPersona(resolve(ROOT, "fixtures/tasks/stockbook/personas/planner.yaml"));
    const first = playPlanTurn(persona, afterReads({ "src/report.js": "export function summary(", "src/money.js": "", "package.json": "{}" }));
    expect(first.text.endsWith("<proposed_plan>\n1. P2: parseAmount reads signed amounts with thousands separators such as -1,250.50.\n2. P3: a stockbook command that prints the summary.")).toBe(true);
    const sentBack = (text: string): ModelRequest => {
      const request = afterReads({ "src/report.js": "", "src/money.js": "", "package.json": "" });
      return { ...request, messages: [...request.messages, { role: "assistant", content: text }, { role: "user", content: "Repair it." }] };
    };
    expect(playPlanTurn(persona, sentBack(first.text))).toEqual({ text: `${first.text}\n</proposed_plan>`, toolCalls: [] });
    expect(playPlanTurn(persona, sentBack("Nothing to plan."))).toEqual({ text: "<proposed_plan>\n1. Confirm that the requested work is in place.\n2. Report it.\n</proposed_plan>", toolCalls: [] });
  });
});

describe("the plan double on any repository content (fast-check)", () => {
  it("ends with no_plan exactly when every step's text was found, else with a plan (left open when the persona leaves it open)", async () => {
    const personas = await Promise.all(["already-done", "stockbook"].map((task) => loadPersona(resolve(ROOT, `fixtures/tasks/${task}/personas/planner.yaml`))));
    for (const persona of personas) {
      const files = [...new Set(persona.steps.flatMap((step) => step.reads))];
      const markers = persona.steps.map((step) => step.exists ?? "");
      fc.assert(
        fc.property(
          // Per file: text around it (tags and markers of other steps included), and which step markers it holds.
          fc.array(fc.tuple(fc.string(), fc.constantFrom("", "<proposed_plan>", "</plan_blocked>", ...markers), fc.subarray(persona.steps.map((_, i) => i))), { minLength: files.length, maxLength: files.length }),
          (parts) => {
            const contents = Object.fromEntries(files.map((file, i) => {
              const [noise, extra, held] = parts[i]!;
              const own = held.filter((index) => persona.steps[index]!.reads.includes(file)).map((index) => markers[index]);
              return [file, [noise, extra, ...own].join("\n")];
            }));
            const done = persona.steps.every((step) => step.reads.some((path) => (contents[path] ?? "").includes(step.exists ?? "\u0000never")));
            const reply = playPlanTurn(persona, afterReads(contents));
            const outcome = classifyPlanReply(reply.text).outcome;
            expect(reply.toolCalls).toEqual([]);
            expect(outcome).toEqual(done ? "no_plan" : persona.traits.leavesPlanOpen ? "invalid" : "plan_ready");
          },
        ),
        { numRuns: 200 },
      );
    }
  });
});
