import { describe, expect, it } from "vitest";
import { type PlanResult, PLAN_RULES, classifyPlanReply, findOutcomeTags } from "../../../src/core/plan/classify.ts";

const plan = (body: string): string => `<proposed_plan>\n${body}\n</proposed_plan>`;
const blocked = (body: string): string => `<plan_blocked>\n${body}\n</plan_blocked>`;

describe("classifyPlanReply: the ADR-0077 outcome table", () => {
  const table: Array<[string, string, PlanResult]> = [
    ["one complete plan block", `Here is the plan.\n\n${plan("1. Add the flag\n2. Test it")}`, { outcome: "plan_ready", plan: "1. Add the flag\n2. Test it" }],
    ["a plan block with prose after it", `${plan("- step")}\n\nTell me if the order matters.`, { outcome: "plan_ready", plan: "- step" }],
    ["one complete blocked block", blocked("Which database should the cache use? ask_user was declined."), { outcome: "blocked", blocked: "Which database should the cache use? ask_user was declined." }],
    ["prose with no tag", "The feature already exists in src/cache.ts; nothing to plan.", { outcome: "no_plan" }],
    ["an empty reply", "", { outcome: "invalid", reason: "empty_reply" }],
    ["a whitespace-only reply", " \n\t\r\n", { outcome: "invalid", reason: "empty_reply" }],
    ["an opened, never closed plan", "<proposed_plan>\n- step one\n", { outcome: "invalid", reason: "unclosed_block" }],
    ["a close with no open", "- step\n</proposed_plan>", { outcome: "invalid", reason: "unopened_close" }],
    ["an open inside an open", "<proposed_plan>\n<proposed_plan>\n- a\n</proposed_plan>", { outcome: "invalid", reason: "nested_block" }],
    ["an empty plan block", "<proposed_plan>\n \n</proposed_plan>", { outcome: "invalid", reason: "empty_block" }],
    ["an empty blocked block", "<plan_blocked></plan_blocked>", { outcome: "invalid", reason: "empty_block" }],
    ["two plan blocks", `${plan("- a")}\n${plan("- b")}`, { outcome: "invalid", reason: "duplicate_block" }],
    ["two blocked blocks", `${blocked("x")}\n${blocked("y")}`, { outcome: "invalid", reason: "duplicate_block" }],
    ["a plan and a blocked block", `${plan("- a")}\n${blocked("b")}`, { outcome: "invalid", reason: "conflicting_blocks" }],
    ["crossed tags", "<proposed_plan>\n- a\n</plan_blocked>", { outcome: "invalid", reason: "conflicting_blocks" }],
    ["the legacy clarification block", "<plan_clarification>\nWhich file?\n</plan_clarification>", { outcome: "invalid", reason: "legacy_clarification" }],
    ["a clarification beside a good plan", `${plan("- a")}\n<plan_clarification>\nok?\n</plan_clarification>`, { outcome: "invalid", reason: "legacy_clarification" }],
    ["a stray tag in prose", "I will put it in <proposed_plan> tags next time.", { outcome: "invalid", reason: "unclosed_block" }],
    ["a block written on one line", "<proposed_plan>- add the flag</proposed_plan>", { outcome: "plan_ready", plan: "- add the flag" }],
    ["CRLF line endings", "<proposed_plan>\r\n- a\r\n</proposed_plan>\r\n", { outcome: "plan_ready", plan: "- a" }],
    ["indented tag lines", "  <proposed_plan>\n  - a\n  </proposed_plan>", { outcome: "plan_ready", plan: "- a" }],
    ["near-miss tags are text", "<proposed-plan>\n- a\n</proposed-plan>\n<PROPOSED_PLAN>x</PROPOSED_PLAN>\n< proposed_plan >", { outcome: "no_plan" }],
  ];
  it.each(table)("%s", (_name, text, expected) => {
    expect(classifyPlanReply(text)).toEqual(expected);
  });

  it("names every invalid reason in PLAN_RULES, in checking order", () => {
    expect(Object.keys(PLAN_RULES)).toEqual([
      "empty_reply",
      "legacy_clarification",
      "conflicting_blocks",
      "unopened_close",
      "nested_block",
      "unclosed_block",
      "duplicate_block",
      "empty_block",
    ]);
  });
});

describe("classifyPlanReply: tags inside code are text", () => {
  const cases: Array<[string, string, PlanResult]> = [
    ["a fenced example of the format", "The reply format is:\n\n```\n<proposed_plan>\n- step\n</proposed_plan>\n```\n\nNo plan is needed here.", { outcome: "no_plan" }],
    ["a tilde fence", "~~~md\n<plan_blocked>\nx\n</plan_blocked>\n~~~", { outcome: "no_plan" }],
    ["a four-backtick fence not closed by three", "````\n```\n<proposed_plan>\n```\n````\ndone", { outcome: "no_plan" }],
    ["a tilde line does not close a backtick fence", "```\n~~~\n<proposed_plan>\n```", { outcome: "no_plan" }],
    ["a fence indented by three spaces", "   ```\n<proposed_plan>\n   ```", { outcome: "no_plan" }],
    ["an unclosed fence runs to the end", "Example:\n```\n<proposed_plan>\n- a\n", { outcome: "no_plan" }],
    ["inline code", "Wrap the plan in `<proposed_plan>` and `</proposed_plan>`; none is needed now.", { outcome: "no_plan" }],
    ["a double-backtick span holding a backtick", "Use ``<proposed_plan>` ``here; nothing to plan.", { outcome: "no_plan" }],
    ["a code span across lines of one paragraph", "Quote `<proposed_plan>\n</proposed_plan>` like this.", { outcome: "no_plan" }],
    [
      "a plan about the plan tags",
      plan("1. Teach the parser that `<proposed_plan>` inside code is text.\n2. Add a test:\n\n```\n<plan_blocked>\nx\n</plan_blocked>\n```"),
      { outcome: "plan_ready", plan: "1. Teach the parser that `<proposed_plan>` inside code is text.\n2. Add a test:\n\n```\n<plan_blocked>\nx\n</plan_blocked>\n```" },
    ],
  ];
  it.each(cases)("%s", (_name, text, expected) => {
    expect(classifyPlanReply(text)).toEqual(expected);
  });

  const notCode: Array<[string, string, PlanResult]> = [
    ["a fence indented by four spaces is not a fence", "    ```\n<proposed_plan>\n- a\n</proposed_plan>", { outcome: "plan_ready", plan: "- a" }],
    ["two backticks are not a fence", "``\n<proposed_plan>\n- a\n</proposed_plan>", { outcome: "plan_ready", plan: "- a" }],
    ["```x``` on its own line is inline code, not a fence", "```x```\n<proposed_plan>\n- a\n</proposed_plan>", { outcome: "plan_ready", plan: "- a" }],
    ["an unmatched backtick is literal", "Run `npm test\n\n<proposed_plan>\n- a\n</proposed_plan>", { outcome: "plan_ready", plan: "- a" }],
    ["a stray backtick in a step cannot swallow the closing tag", "<proposed_plan>\n- quote a ` here\n</proposed_plan>\nThen `x` runs.", { outcome: "plan_ready", plan: "- quote a ` here" }],
    ["runs of different lengths do not pair", "Use `` and ` here <proposed_plan>- a</proposed_plan>", { outcome: "plan_ready", plan: "- a" }],
    ["a blank line ends a code span", "Quote `<proposed_plan>\n\n- a\n\n</proposed_plan>` here", { outcome: "plan_ready", plan: "- a" }],
  ];
  it.each(notCode)("%s", (_name, text, expected) => {
    expect(classifyPlanReply(text)).toEqual(expected);
  });

  it("finds tags with their offsets, skipping code", () => {
    const text = "`<proposed_plan>`\n<plan_blocked>\nx\n</plan_blocked>";
    expect(findOutcomeTags(text)).toEqual([
      { name: "plan_blocked", closing: false, start: 18, end: 32 },
      { name: "plan_blocked", closing: true, start: 35, end: 50 },
    ]);
  });
});

/**
 * Codex's own parser (codex-rs/utils/stream-parser, `ProposedPlanParser`; see
 * ../shared/research/session-formats.md §2) is line-based with no fence awareness: a line that is
 * exactly a tag opens or closes a block even inside a ``` fence, a tag sharing its line with text is
 * ignored, and an unterminated block is closed at the end. This small model of it documents where
 * we differ on purpose (ADR-0077: quoted plan syntax is text).
 */
function codexLikeLastPlan(text: string): string | null {
  let active = false;
  let buffer = "";
  let last: string | null = null;
  for (const line of text.split("\n")) {
    const tag = line.trim();
    if (!active && tag === "<proposed_plan>") {
      active = true;
      buffer = "";
    } else if (active && tag === "</proposed_plan>") {
      active = false;
      last = buffer;
    } else if (active) {
      buffer += `${line}\n`;
    }
  }
  return active ? buffer : last;
}

describe("deliberate differences from Codex's plan parser", () => {
  it("a tag line inside a fence: Codex sees a plan, we see a quote", () => {
    const text = "The format looks like this:\n\n```\n<proposed_plan>\n- step\n</proposed_plan>\n```\n\nNothing to plan: the flag already exists.";
    expect(codexLikeLastPlan(text)).toBe("- step\n");
    expect(classifyPlanReply(text)).toEqual({ outcome: "no_plan" });
  });

  it("an unterminated block: Codex closes it, we ask for the block to be finished", () => {
    const text = "<proposed_plan>\n- step\n";
    expect(codexLikeLastPlan(text)).toBe("- step\n\n");
    expect(classifyPlanReply(text)).toEqual({ outcome: "invalid", reason: "unclosed_block" });
  });

  it("a tag sharing its line with text: Codex ignores it, we count it", () => {
    const text = "Plan: <proposed_plan>- step</proposed_plan>";
    expect(codexLikeLastPlan(text)).toBeNull();
    expect(classifyPlanReply(text)).toEqual({ outcome: "plan_ready", plan: "- step" });
  });

  it("agrees with Codex on the plain case", () => {
    const text = "Intro\n<proposed_plan>\n- step 1\n</proposed_plan>\nOutro";
    expect(codexLikeLastPlan(text)).toBe("- step 1\n");
    expect(classifyPlanReply(text)).toEqual({ outcome: "plan_ready", plan: "- step 1" });
  });
});
