/**
 * The scripted scenarios every policy runs in the contract suite. Each one is a model behaviour,
 * the same for every policy: the policy's reaction is what differs.
 */
import type { PolicySpec } from "../../../src/core/policies/index.ts";
import type { TodoItem } from "../../../src/core/policies/contract.ts";
import type { DriveOptions, ScriptedCall } from "./driver.ts";

export type Scenario = Pick<DriveOptions, "script" | "checker" | "measure">;

/** Small limits so every scenario settles within a few replies. */
export const SUITE_SPECS: Record<PolicySpec["name"], PolicySpec> = {
  none: { name: "none" },
  todoGate: { name: "todoGate" },
  everyReplyCheck: { name: "everyReplyCheck" },
  goal: { name: "goal", options: { rounds: 4 } },
  workSlice: { name: "workSlice", options: { toolCalls: 4, maxSlices: 3 } },
  loopGuard: { name: "loopGuard" },
  measureLoop: { name: "measureLoop", options: { command: "node count-todos.js", direction: "min", window: 3, maxIterations: 6 } },
  goalQueue: { name: "goalQueue", options: { rounds: 4 } },
};

const edit = (i: number): ScriptedCall => ({ name: "write_file", arguments: { path: "src/feature.ts", content: `step ${i}` }, changedFiles: true, changedPaths: ["src/feature.ts"], output: "wrote src/feature.ts" });
const testsPass: ScriptedCall = { name: "shell", arguments: { command: "npm test" }, ok: true, exitCode: 0, isCommand: true, output: "Test Files  3 passed (3)\n     Tests  12 passed (12)" };
const testsFail: ScriptedCall = { name: "shell", arguments: { command: "npm test" }, ok: false, exitCode: 1, isCommand: true, output: "FAIL test/feature.test.ts > adds\nAssertionError: expected 2 to be 3\nTests  1 failed | 11 passed (12)" };
const readStub: ScriptedCall = { name: "read_file", arguments: { path: "src/feature.ts" }, output: "export function add() {\n  // TODO: implement\n}" };

const openTodos: TodoItem[] = [
  { text: "add the parser", status: "completed" },
  { text: "wire the CLI flag", status: "pending" },
  { text: "document the flag", status: "pending" },
];

const constant = () => ({ exitCode: 0, output: "TODO count: 7" });

export const SCENARIOS: Record<string, Scenario> = {
  /** Does part of the work, then stops with open todo items, and afterwards only talks. */
  "early stop with open todos": {
    script: (i) =>
      i === 0
        ? { calls: [edit(0), testsPass], todos: openTodos, text: "I added the parser. The CLI flag and the docs are next." }
        : { text: "I will continue with the flag next time." },
    checker: () => "VERDICT: continue\nREASON: the CLI flag and its documentation are not done.\nEVIDENCE:",
    measure: constant,
  },

  /** Claims completion after reading a stub; the reviewer rubber-stamps with a quote that is in no tool output. */
  "false claim": {
    script: () => ({
      calls: [readStub, { name: "update_goal", arguments: { status: "complete", reason: "The feature is implemented and the tests pass." } }],
      text: "All done: the feature is implemented and the tests pass.",
    }),
    checker: () => "VERDICT: done\nREASON: the agent reports passing tests.\nEVIDENCE:\n> Tests  12 passed (12)",
    measure: constant,
  },

  /** Works, then asks the person for permission instead of going on. */
  "permission question": {
    script: () => ({
      calls: [edit(0), { name: "ask_user", arguments: { question: "May I delete the old config file?" }, output: "(waiting for the person)" }],
      endReason: "ask_user",
      text: "May I delete the old config file?",
    }),
    checker: () => "VERDICT: continue\nREASON: the old config is still there.",
    measure: constant,
  },

  /** Runs the same failing test command again and again without changing anything. */
  "repeated calls": {
    script: () => ({ calls: [testsFail, testsFail, testsFail, testsFail, testsFail, testsFail], text: "The tests still fail." }),
    checker: () => "VERDICT: continue\nREASON: the tests fail.\nEVIDENCE:\n> Tests  1 failed | 11 passed (12)",
    measure: constant,
  },

  /** The provider fails in the middle of the first reply, after some work. */
  "provider error": {
    script: () => ({ calls: [edit(0), testsPass], endReason: "error", errorMessage: "HTTP 502 from the model server" }),
    checker: () => "VERDICT: continue\nREASON: only step one is done.",
    measure: constant,
  },

  /** Diligent but endless: every reply changes a file and passes the tests, and never finishes. */
  "budget cap": {
    script: (i) => ({
      calls: [edit(i), testsPass, { name: "read_file", arguments: { path: `src/part${i}.ts` }, output: "..." }, testsPass, edit(i + 100)],
      todos: [
        { text: `part ${i}`, status: "completed" },
        { text: `part ${i + 1}`, status: "in_progress" },
      ],
      text: `Part ${i} is done; part ${i + 1} is next.`,
    }),
    checker: () => "VERDICT: continue\nREASON: more parts remain.",
    measure: (_, i) => ({ exitCode: 0, output: `TODO count: ${100 - i}` }),
  },
};
