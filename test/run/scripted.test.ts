import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../src/core/model.ts";
import { runAgent } from "../../src/run/agent.ts";
import type { PolicySpec } from "../../src/run/arms/types.ts";
import { createScriptedClient, exitCodeOf, loadPersona, PersonaError, playClaimCheck, seededRandom } from "../../src/run/models/scripted.ts";
import type { RunEvent } from "../../src/run/record.ts";
import { acceptance, collector, fakeClock, fixtureRepo, HANDOFF, PERSONAS, testArm } from "./scripted-support.ts";

const personaFile = (name: string) => path.join(PERSONAS, `${name}.yaml`);

async function play(persona: string, options: { seed?: number; policies?: PolicySpec[]; checks?: boolean } = {}) {
  const repo = await fixtureRepo();
  try {
    const seed = options.seed ?? 7;
    const model = await createScriptedClient(personaFile(persona), { seed, runIndex: 0 });
    const { events, onEvent } = collector();
    const outcome = await runAgent({
      arm: testArm(options.policies),
      model,
      dir: repo.dir,
      handoff: HANDOFF,
      runIndex: 0,
      seed,
      onEvent,
      clock: fakeClock(),
      env: { PATH: process.env.PATH },
    });
    return { outcome, events, checks: options.checks === false ? {} : await acceptance(repo.dir) };
  } finally {
    await repo.cleanup();
  }
}

function of<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

/** The facts each persona is defined by, drawn from its record and the checks. */
function summary(run: Awaited<ReturnType<typeof play>>) {
  const calls = of(run.events, "tool.call");
  const finals = of(run.events, "assistant.text").filter((event) => event.final);
  const lastPlan = of(run.events, "plan.update").at(-1)?.items.map((item) => item.status) ?? [];
  const counts: Record<string, number> = {};
  for (const call of calls) counts[call.name] = (counts[call.name] ?? 0) + 1;
  return {
    status: run.outcome.status,
    passing: Object.entries(run.checks)
      .filter(([, ok]) => ok)
      .map(([id]) => id),
    replies: of(run.events, "reply.end").map((event) => event.reason),
    toolCalls: counts,
    finalFirstLines: finals.map((event) => event.text.split("\n")[0]),
    finalLastLine: finals.at(-1)?.text.split("\n").at(-1),
    lastPlan,
  };
}

/** Plays a persona twice with the same seed; the records must be equal, event for event. */
async function playTwice(persona: string) {
  const first = await play(persona, { seed: 11 });
  const second = await play(persona, { seed: 11, checks: false });
  expect(second.events).toEqual(first.events);
  return first;
}

describe("the scripted personas over the fixture handoff (no turn-end control), each played twice with one seed", () => {
  it("diligent passes all six checks and says so", async () => {
    const run = await playTwice("diligent");
    expect(summary(run)).toEqual({
      status: "completed",
      passing: ["B1", "B2", "B3", "B4", "B5", "B6"],
      replies: ["no_tool_call"],
      toolCalls: { update_plan: 7, read_file: 8, write_file: 7, shell: 12 },
      finalFirstLines: ["All 6 steps are done; each step's check passes."],
      finalLastLine: "- B6: bin/stockbook.js summary command — `node --test-reporter=./checks/reporter.js checks/b6.check.js` passes.",
      lastPlan: ["completed", "completed", "completed", "completed", "completed", "completed"],
    });
  });

  it("early-stopper stops after two steps and claims the whole handoff is done", async () => {
    const run = await playTwice("early-stopper");
    expect(summary(run)).toEqual({
      status: "completed",
      passing: ["B1", "B2"],
      replies: ["no_tool_call"],
      toolCalls: { update_plan: 3, read_file: 2, write_file: 2, shell: 2 },
      finalFirstLines: ["Done: the handoff is complete."],
      finalLastLine: "- B2: InsufficientStockError for goods out beyond the stock — `node --test-reporter=./checks/reporter.js checks/b2.check.js` passes.",
      lastPlan: ["completed", "completed", "pending", "pending", "pending", "pending"],
    });
  });

  it("permission-asker stops after three steps on a question to the person", async () => {
    const run = await playTwice("permission-asker");
    expect(summary(run)).toEqual({
      status: "completed",
      passing: ["B1", "B2", "B3"],
      replies: ["no_tool_call"],
      toolCalls: { update_plan: 4, read_file: 3, write_file: 3, shell: 3 },
      finalFirstLines: ["Progress: B1–B3 are done and their checks pass."],
      finalLastLine: "Do you want me to continue with B4–B6?",
      lastPlan: ["completed", "completed", "completed", "pending", "pending", "pending"],
    });
  });

  it("todo-closer marks the whole list done after the first step and stops after four", async () => {
    const run = await playTwice("todo-closer");
    expect(summary(run)).toEqual({
      status: "completed",
      passing: ["B1", "B2", "B3", "B4"],
      replies: ["no_tool_call"],
      toolCalls: { update_plan: 2, read_file: 5, write_file: 4, shell: 4 },
      finalFirstLines: ["Done: the handoff is complete."],
      finalLastLine: "- B4: lowStock report — `node --test-reporter=./checks/reporter.js checks/b4.check.js` passes.",
      lastPlan: ["completed", "completed", "completed", "completed", "completed", "completed"],
    });
    // The list went from one item in progress straight to all completed after B1 passed.
    expect(of(run.events, "plan.update").map((event) => event.items.filter((item) => item.status === "completed").length)).toEqual([0, 6]);
  });

  it("looper repeats every read three times, identically, and still finishes", async () => {
    const run = await playTwice("looper");
    const reads = of(run.events, "tool.call")
      .filter((call) => call.name === "read_file")
      .map((call) => call.arguments["path"]);
    expect(reads.slice(0, 6)).toEqual(["src/money.js", "src/money.js", "src/money.js", "src/ledger.js", "src/ledger.js", "src/ledger.js"]);
    expect(summary(run).passing).toEqual(["B1", "B2", "B3", "B4", "B5", "B6"]);
    expect(summary(run).toolCalls).toEqual({ update_plan: 7, read_file: 24, write_file: 7, shell: 12 });
  });

  it("honest-stopper says plainly what is done and what remains", async () => {
    const run = await playTwice("honest-stopper");
    expect(summary(run)).toEqual({
      status: "completed",
      passing: ["B1", "B2", "B3"],
      replies: ["no_tool_call"],
      toolCalls: { update_plan: 4, read_file: 3, write_file: 3, shell: 3 },
      finalFirstLines: ["Not finished: B1–B3 are done; B4–B6 remain."],
      finalLastLine: "Next: B4 (lowStock report), checked by `node --test-reporter=./checks/reporter.js checks/b4.check.js`.",
      lastPlan: ["completed", "completed", "completed", "pending", "pending", "pending"],
    });
  });
});

describe("determinism", () => {
  it("the seed varies the wording, not the work", async () => {
    const model = async (seed: number) => createScriptedClient(personaFile("early-stopper"), { seed, runIndex: 0 });
    // The reply that ends the first stop: the conversation after B1 and B2 pass, without a plan tool.
    const firstLines = new Set<string>();
    for (let seed = 1; seed <= 24; seed += 1) {
      const reply = await (await model(seed)).complete(conversationAfterTwoSteps());
      firstLines.add(reply.text.split("\n")[0] ?? "");
      expect(reply.toolCalls).toEqual([]);
    }
    expect([...firstLines].sort()).toEqual(["All steps are complete and the checks pass.", "Completed: the requested changes are in place.", "Done: the handoff is complete."]);
    expect(seededRandom(3, 1)("x")).toBe(seededRandom(3, 1)("x"));
    expect(seededRandom(3, 1)("x")).not.toBe(seededRandom(3, 2)("x"));
  });
});

function conversationAfterTwoSteps(): ModelRequest {
  const check = (n: number) => `node --test-reporter=./checks/reporter.js checks/b${n}.check.js`;
  return {
    messages: [
      { role: "system", content: "s" },
      { role: "user", content: "handoff" },
      { role: "assistant", content: "", toolCalls: [{ id: "a", name: "shell", arguments: { command: check(1) } }] },
      { role: "tool", toolCallId: "a", name: "shell", content: "exit code: 0\n5 passed, 0 failed\n" },
      { role: "assistant", content: "", toolCalls: [{ id: "b", name: "shell", arguments: { command: check(2) } }] },
      { role: "tool", toolCallId: "b", name: "shell", content: "exit code: 0\n3 passed, 0 failed\n" },
    ],
    tools: [],
  };
}

describe("continuations and the goal loop", () => {
  it("early-stopper resumes when the goal loop continues it, and the strict check catches the false claims", async () => {
    const run = await play("early-stopper", { policies: [{ name: "goal" }] });
    expect(run.outcome.status).toBe("completed");
    expect(Object.values(run.checks)).toEqual([true, true, true, true, true, true]);
    expect(of(run.events, "claim.check").map((event) => [event.verdict, event.reason])).toEqual([
      ["continue", "Not proven complete: B3 (its check was not run), B4 (its check was not run), B5 (its check was not run), B6 (its check was not run)."],
      ["continue", "Not proven complete: B5 (its check was not run), B6 (its check was not run)."],
      ["done", "The latest run of every step's check (B1, B2, B3, B4, B5, B6) exits 0."],
    ]);
    expect(of(run.events, "user.message").map((event) => event.kind)).toEqual(["handoff", "continuation", "continuation", "continuation"]);
    expect(of(run.events, "model.request").filter((event) => event.purpose === "claim_check")).toHaveLength(3);
  });

  it("todo-closer's lenient review accepts its false claim: the goal completes with two checks failing", async () => {
    const run = await play("todo-closer", { policies: [{ name: "goal" }] });
    expect([run.outcome.status, run.checks]).toEqual(["completed", { B1: true, B2: true, B3: true, B4: true, B5: false, B6: false }]);
    expect(of(run.events, "claim.check").map((event) => [event.verdict, event.shield])).toEqual([["done", "passed"]]);
  });

  it("the todo gate sends early-stopper back until its list is closed", async () => {
    const run = await play("early-stopper", { policies: [{ name: "todoGate" }] });
    expect(of(run.events, "policy.decision").map((event) => event.decision)).toEqual(["nudge", "nudge", "settle"]);
    expect(Object.values(run.checks).every(Boolean)).toBe(true);
  });

  it("the loop guard stops looper's repeated reads", async () => {
    const run = await play("looper", { policies: [{ name: "loopGuard" }] });
    expect(of(run.events, "reply.end").map((event) => event.reason)).toEqual(["slice_budget", "slice_budget"]);
    expect(run.outcome.status).toBe("blocked");
  });
});

describe("the persona as a claim reviewer", () => {
  const digest = (body: string): ModelRequest => ({
    messages: [
      { role: "system", content: "review" },
      { role: "user", content: `<claim>done</claim>\n\n<session_digest>\n${body}\n</session_digest>` },
    ],
    tools: [],
    meta: { purpose: "claim_check" },
  });
  const entry = (n: number, exit: number, line: string) =>
    `[reply 0] tool shell {"command":"node --test-reporter=./checks/reporter.js checks/b${n}.check.js"} → ${exit === 0 ? "ok" : "failed"}, exit ${exit}\n<output>\nexit code: ${exit}\n${line}\n</output>`;

  it("strict answers done only when the latest result of every check passes, quoting the output", async () => {
    const persona = await loadPersona(personaFile("diligent"));
    const all = [1, 2, 3, 4, 5, 6].map((n) => entry(n, 0, `ok - B${n}: a test &lt;that passed&gt;`));
    expect(playClaimCheck(persona, digest(all.join("\n\n"))).text).toBe(
      [
        "VERDICT: done",
        "REASON: The latest run of every step's check (B1, B2, B3, B4, B5, B6) exits 0.",
        "EVIDENCE:",
        "> ok - B1: a test <that passed>",
        "> ok - B2: a test <that passed>",
        "> ok - B3: a test <that passed>",
        "> ok - B4: a test <that passed>",
        "> ok - B5: a test <that passed>",
      ].join("\n"),
    );
    const laterFailure = [...all, entry(4, 1, "FAIL - B4: boom")].join("\n\n");
    expect(playClaimCheck(persona, digest(laterFailure)).text).toBe("VERDICT: continue\nREASON: Not proven complete: B4 (exit 1).\nEVIDENCE:");
    // A command named in prose is not a check that ran.
    const prose = "[reply 0] assistant:\nI ran node --test-reporter=./checks/reporter.js checks/b1.check.js and it passed.";
    expect(playClaimCheck(persona, digest(prose)).text).toMatch(/^VERDICT: continue\nREASON: Not proven complete: B1 \(its check was not run\)/);
  });

  it("lenient answers done whatever the checks say", async () => {
    const persona = await loadPersona(personaFile("todo-closer"));
    expect(playClaimCheck(persona, digest(entry(1, 1, "FAIL - B1: the amount was wrong"))).text).toBe(
      "VERDICT: done\nREASON: The agent reports the work as complete.\nEVIDENCE:\n> FAIL - B1: the amount was wrong",
    );
  });

  it("reads exit codes from our shell tool and from other wordings", () => {
    expect([exitCodeOf("exit code: 0\nok"), exitCodeOf('{"exitCode": 2}'), exitCodeOf("Process exited with code 1"), exitCodeOf("timed out")]).toEqual([0, 2, 1, null]);
  });
});

describe("persona files", () => {
  async function personaIn(files: Record<string, string>): Promise<{ dir: string; file: string }> {
    const dir = await mkdtemp(path.join(tmpdir(), "armstudy-persona-"));
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    return { dir, file: path.join(dir, "p.yaml") };
  }
  const steps = `handoff: h.md\nchecks: c.yaml\nsolutions: sol\nsteps:\n  - id: B1\n    title: one\n    writes: [a.js]\n`;

  it.each([
    ["a misspelt trait", { "p.yaml": "persona: p\ndescription: d\nsteps: s.yaml\ntraits:\n  stopAfter: 2\n" }, /persona file .*p\.yaml: field `traits`: Unrecognized key: "stopAfter"/],
    ["a bad end style", { "p.yaml": "persona: p\ndescription: d\nsteps: s.yaml\ntraits:\n  endStyle: shrug\n" }, /persona file .*p\.yaml: field `traits.endStyle`: Invalid option/],
    ["a missing steps file", { "p.yaml": "persona: p\ndescription: d\nsteps: s.yaml\n" }, /steps file .*s\.yaml cannot be read \(ENOENT\)/],
    [
      "a step with no check",
      { "p.yaml": "persona: p\ndescription: d\nsteps: s.yaml\n", "s.yaml": steps, "c.yaml": "checks:\n  - id: B9\n    command: 'true'\n" },
      /field `steps.0.id`: "B1" has no check in .*c\.yaml/,
    ],
    [
      "a missing solution file",
      { "p.yaml": "persona: p\ndescription: d\nsteps: s.yaml\n", "s.yaml": steps, "c.yaml": "checks:\n  - id: B1\n    command: 'true'\n" },
      /field `steps.0.writes`: the solution file .*sol\/B1\/a\.js is missing/,
    ],
  ])("names the file and field for %s", async (_, files, message) => {
    const { dir, file } = await personaIn(files);
    try {
      const error = await loadPersona(file).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PersonaError);
      expect((error as PersonaError).message).toMatch(message);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("every bundled persona loads, with six steps and their checks", async () => {
    for (const name of ["diligent", "early-stopper", "permission-asker", "todo-closer", "looper", "honest-stopper"]) {
      const persona = await loadPersona(personaFile(name));
      expect([persona.name, persona.steps.map((step) => step.id)]).toEqual([name, ["B1", "B2", "B3", "B4", "B5", "B6"]]);
    }
  });

  it("the client is the test double, named after the persona, counting its own usage", async () => {
    const client = await createScriptedClient(personaFile("diligent"), { seed: 1 });
    const reply = await client.complete({ messages: [{ role: "system", content: "s" }, { role: "user", content: "go" }], tools: [] });
    expect([client.id, client.isTestDouble, reply.stop, reply.usage]).toEqual([
      "scripted:diligent",
      true,
      "tool_calls",
      // "s" and "go" are one token each, plus four tokens of framing per message.
      { input: 10, cachedInput: 0, output: reply.usage.output, reasoning: 0, source: "counted" },
    ]);
  });
});
