/**
 * A goal driven end to end through the policy, the reducer, the claim check and the evidence
 * shield, by the reference driver (docs/goal-loop.md): set → working rounds → a claim the shield
 * rejects → a claim the check accepts; then the next goal in the queue runs into its rounds cap,
 * gets its one wrap-up round and settles budget_limited.
 */
import { describe, expect, it } from "vitest";
import { renderBudgetLimit } from "../../../src/core/goal/index.ts";
import type { ScriptedCall, ScriptedReply } from "../policies/driver.ts";
import { drive } from "../policies/driver.ts";

const PASS = "Test Files  2 passed (2)\n     Tests  9 passed (9)";
const edit = (path: string): ScriptedCall => ({ name: "write_file", arguments: { path }, changedFiles: true, output: `wrote ${path}` });
const test = (output: string, ok = true): ScriptedCall => ({ name: "shell", arguments: { command: "npm test" }, ok, exitCode: ok ? 0 : 1, isCommand: true, output });
const claim = (reason: string): ScriptedCall => ({ name: "update_goal", arguments: { status: "complete", reason } });

const SCRIPT: ScriptedReply[] = [
  // Goal 1, round 1 (the person's): work starts.
  { calls: [{ name: "get_goal" }, edit("src/parser.ts"), test("Tests  1 failed | 8 passed (9)", false)], text: "Parser started; one test fails." },
  // Round 2: more work, then an early claim; the reviewer "quotes" a line no tool printed.
  { calls: [edit("src/parser.ts"), claim("The parser is done.")], text: "The parser is finished." },
  // Round 3: the tests really pass; claim again; the reviewer quotes the real output.
  { calls: [test(PASS), claim("npm test passes: 9 tests.")], text: "All 9 tests pass." },
  // Goal 2 rounds 1–3: diligent work, no claim. Then the wrap-up round.
  { calls: [edit("README.md"), test(PASS)], text: "Docs section drafted." },
  { calls: [edit("README.md")], text: "Examples added." },
  { calls: [edit("docs/cli.md")], text: "CLI page started." },
  { calls: [], text: "Wrap-up: README and CLI docs drafted; the CLI page needs its examples next." },
];

const CHECKS = [
  "VERDICT: done\nREASON: the parser is finished.\nEVIDENCE:\n> All parser tests pass",
  `VERDICT: done\nREASON: npm test passes.\nEVIDENCE:\n> Tests  9 passed (9)`,
];

describe("a goal from set to the cap", () => {
  it("runs every step with provenance, checks and prompts in order", async () => {
    const result = await drive({
      specs: [{ name: "goalQueue", options: { items: ["Write the parser so that npm test passes.", "Document the parser in README.md and docs/cli.md."], rounds: 3 } }],
      script: (i) => SCRIPT[i]!,
      checker: (i) => CHECKS[i]!,
    });

    // Every goal change, who made it and why.
    expect(result.log.filter((e) => e.type === "goal.update")).toEqual([
      { t: 0, type: "goal.update", from: null, to: "active", by: "person", reason: "queue item 1 of 2, set by the person" },
      { t: 120_000, type: "goal.update", from: "active", to: "active", by: "check", reason: "claim sent back by the check: evidence not found" },
      { t: 180_000, type: "goal.update", from: "active", to: "complete", by: "check", reason: "claim accepted by the check: npm test passes." },
      { t: 180_000, type: "goal.update", from: "complete", to: "active", by: "person", reason: "queue item 2 of 2, set by the person" },
      { t: 360_000, type: "goal.update", from: "active", to: "budget_limited", by: "system", reason: "cap reached: 3 rounds; one wrap-up round follows" },
    ]);

    // The shield rejected the first claim; the second passed with a real quote.
    expect(result.log.filter((e) => e.type === "claim.check")).toEqual([
      { type: "claim.check", verdict: "continue", reason: "evidence not found", evidence: ["All parser tests pass"], shield: "rejected" },
      { type: "claim.check", verdict: "done", reason: "npm test passes.", evidence: ["Tests 9 passed (9)"], shield: "passed" },
    ]);

    // What the checker was asked: the claim and the reply's last words, never the continuation prompt.
    const firstCheck = result.requests[0]!.messages[1]!.content;
    expect(firstCheck).toContain("<claim>\nThe parser is done.\n\nThe reply that made the claim ended with:\nThe parser is finished.\n</claim>");
    expect(firstCheck).not.toContain("This message comes from the harness");

    // The decisions, in order.
    expect(result.log.filter((e) => e.type === "decision").map((e) => (e.type === "decision" ? `${e.kind}${e.status ? `/${e.status}` : ""}: ${e.reason}` : ""))).toEqual([
      "continue: goal active: next round",
      "check_claim: completion claim from round 2",
      "continue: goal active: next round",
      "check_claim: completion claim from round 3",
      "continue: queue item 1 complete; starting queue item 2 of 2",
      "continue: goal active: next round",
      "continue: goal active: next round",
      "continue: goal cap reached: one wrap-up round",
      "settle/budget_limited: queue item 2 of 2: the wrap-up round after the cap is over",
    ]);

    // The person's first message, the goal prompt, then one hidden prompt per automatic round.
    const messages = result.log.flatMap((e) => (e.type === "message" ? [e] : []));
    expect(messages.map((m) => m.kind)).toEqual(["handoff", "continuation", "continuation", "continuation", "continuation", "continuation", "continuation", "continuation"]);
    expect(messages[3]!.text).toContain("Your last completion claim was not accepted. The reviewer said:\n\n<review_reason>\nevidence not found\n</review_reason>");
    expect(messages[4]!.text).toContain("<goal_objective>\nDocument the parser in README.md and docs/cli.md.\n</goal_objective>");
    expect(messages[7]!.text).toBe(
      renderBudgetLimit(
        {
          objective: "Document the parser in README.md and docs/cli.md.",
          rounds: 3,
          elapsedMs: 180_000,
        } as Parameters<typeof renderBudgetLimit>[0],
        "3 rounds",
      ),
    );

    expect([result.status, result.view.replies.length]).toEqual(["budget_limited", 7]);
  });
});
