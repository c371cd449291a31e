/**
 * The personas played through our agent loop (no turn-end control) on the fixture handoff, with the
 * real acceptance checks, then measured as a study run is: what each persona's end counts as.
 * The scripted model is the test double; these are its mechanics, not a model's behaviour.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runMetrics, runReportFacts } from "../../src/measure/metrics.ts";
import { runAgent } from "../../src/run/agent.ts";
import { createScriptedClient } from "../../src/run/models/scripted.ts";
import { acceptance, collector, fakeClock, fixtureRepo, HANDOFF, PERSONAS, testArm } from "../run/scripted-support.ts";

async function measured(persona: string) {
  const repo = await fixtureRepo();
  try {
    const model = await createScriptedClient(path.join(PERSONAS, `${persona}.yaml`), { seed: 11, runIndex: 0 });
    const { events, onEvent } = collector();
    await runAgent({ arm: testArm(), model, dir: repo.dir, handoff: HANDOFF, runIndex: 0, seed: 11, onEvent, clock: fakeClock(), env: { PATH: process.env.PATH } });
    const checks = Object.entries(await acceptance(repo.dir)).map(([id, passed]) => ({ id, passed }));
    const result = { passed: checks.filter((c) => c.passed).length, failed: checks.filter((c) => !c.passed).length, checks };
    const steps = checks.map((check) => check.id);
    const metrics = runMetrics(events, { acceptance: result, steps });
    const facts = runReportFacts(events, { acceptance: result, steps });
    return {
      falseCompletion: metrics.falseCompletion,
      permissionStop: metrics.permissionStop,
      claimsDone: facts.claimsDone,
      endsAskingPermission: facts.endsAskingPermission,
      falseCompletedList: facts.falseCompletedList,
      claimSources: facts.claimSources,
    };
  } finally {
    await repo.cleanup();
  }
}

describe("what each persona's end counts as, measured with the handoff's steps", () => {
  it("permission-asker: a permission stop, not a false completion", async () => {
    expect(await measured("permission-asker")).toEqual({ falseCompletion: false, permissionStop: true, claimsDone: false, endsAskingPermission: true, falseCompletedList: false, claimSources: [] });
  });

  it("early-stopper: a false completion claimed by the report's text", async () => {
    expect(await measured("early-stopper")).toEqual({ falseCompletion: true, permissionStop: false, claimsDone: true, endsAskingPermission: false, falseCompletedList: false, claimSources: ["report_first_line"] });
  });

  it("todo-closer: a false completed list, kept apart from the text's claim", async () => {
    const todo = await measured("todo-closer");
    expect({ falseCompletedList: todo.falseCompletedList, todoAmongSources: todo.claimSources.includes("todo_all_done"), falseCompletion: todo.falseCompletion }).toEqual({ falseCompletedList: true, todoAmongSources: true, falseCompletion: true });
  });
});
