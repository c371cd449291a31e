import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildClaimCheckRequest,
  checkClaim,
  claimCheckRecord,
  completionCheckMode,
  digestTranscript,
  parseVerdict,
  type ParsedVerdict,
} from "../../../src/core/goal/index.ts";
import { TEMPLATES } from "../../../src/core/goal/templates.ts";
import { ZERO_USAGE, type ModelClient, type ModelReply, type ModelRequest } from "../../../src/core/model.ts";
import type { ReplyView, RunView, ToolCallView } from "../../../src/core/policies/contract.ts";
import { RunEvent } from "../../../src/run/record.ts";

const call = (id: string, name: string, output: string, extra: Partial<ToolCallView> = {}): ToolCallView => ({
  id,
  name,
  arguments: name === "shell" ? { command: "npm test" } : { path: "src/a.ts" },
  ok: true,
  output,
  changedFiles: false,
  isCommand: name === "shell",
  ...extra,
});

const reply = (index: number, text: string, toolCalls: ToolCallView[]): ReplyView => ({
  index,
  text,
  toolCalls,
  endReason: "no_tool_call",
  startedAtMs: index * 1000,
  endedAtMs: index * 1000 + 500,
  tokens: { input: 10, output: 5 },
});

const VIEW: RunView = {
  handoff: "Add the --dry-run flag.",
  todos: [],
  elapsedMs: 5000,
  continuations: 1,
  replies: [
    reply(0, "Reading the CLI first.", [call("1", "read_file", "export function main(<args>) {}"), call("2", "get_goal", '{"objective":"x"}')]),
    reply(1, "Flag added; tests pass.", [call("3", "shell", "Tests  12 passed (12)", { exitCode: 0 }), call("4", "update_goal", "Completion claim recorded.")]),
  ],
};

/** A ModelClient double: answers in order, and remembers what it was asked. */
function client(answers: (ModelReply | Error)[]): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: "scripted:checker",
    isTestDouble: true,
    requests,
    async complete(request) {
      requests.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error("no scripted answer left");
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const answer = (text: string, extra: Partial<ModelReply> = {}): ModelReply => ({ text, toolCalls: [], stop: "end_turn", usage: ZERO_USAGE, ...extra });

describe("completionCheckMode (the caller passes ARMSTUDY_COMPLETION_CHECK)", () => {
  it.each([
    [undefined, "on"],
    ["", "on"],
    ["on", "on"],
    ["1", "on"],
    ["offf", "on"],
    ["off", "off"],
    [" OFF ", "off"],
    ["0", "off"],
    ["false", "off"],
    ["no", "off"],
    ["disabled", "off"],
  ])("%j → %s", (value, mode) => {
    expect(completionCheckMode(value)).toBe(mode);
  });
});

describe("digestTranscript", () => {
  it("lists tool calls with results and reply texts, escaped, without the goal's own tools", () => {
    expect(digestTranscript(VIEW)).toBe(
      [
        '[reply 0] tool read_file {"path":"src/a.ts"} → ok\n<output>\nexport function main(&lt;args&gt;) {}\n</output>',
        "[reply 0] assistant:\nReading the CLI first.",
        '[reply 1] tool shell {"command":"npm test"} → ok, exit 0\n<output>\nTests  12 passed (12)\n</output>',
        "[reply 1] assistant:\nFlag added; tests pass.",
      ].join("\n\n"),
    );
  });

  it("clips a long output, keeping its head and its tail", () => {
    const long = `${"a".repeat(3000)}TAIL`;
    const digest = digestTranscript({ ...VIEW, replies: [reply(0, "", [call("1", "shell", long)])] }, { maxEntryChars: 100 });
    expect(digest).toBe(`[reply 0] tool shell {"command":"npm test"} → ok\n<output>\n${"a".repeat(30)}\n[... 2904 characters cut ...]\n${"a".repeat(66)}TAIL\n</output>`);
  });

  it("drops the oldest entries first and says how many", () => {
    const replies = Array.from({ length: 50 }, (_, i) => reply(i, `reply number ${i} `.repeat(20), []));
    const digest = digestTranscript({ ...VIEW, replies }, { maxChars: 2000 });
    expect(digest.startsWith("[45 earlier entries omitted]\n\n[reply 45] assistant:")).toBe(true);
    expect(digest.endsWith("reply number 49")).toBe(true);
  });

  it("stays within its bound for any run", () => {
    const toolCall = fc.record({ name: fc.constantFrom("shell", "read_file"), output: fc.string({ maxLength: 3000 }) });
    fc.assert(
      fc.property(fc.array(fc.record({ text: fc.string({ maxLength: 500 }), calls: fc.array(toolCall, { maxLength: 4 }) }), { maxLength: 30 }), fc.integer({ min: 500, max: 8000 }), (rs, maxChars) => {
        const view = { ...VIEW, replies: rs.map((r, i) => reply(i, r.text, r.calls.map((c, j) => call(`${i}-${j}`, c.name, c.output)))) };
        return digestTranscript(view, { maxChars }).length <= maxChars + 40;
      }),
    );
  });
});

describe("buildClaimCheckRequest", () => {
  it("is a fresh context: reviewer instructions, then objective, claim and digest; no tools, low effort", () => {
    const request = buildClaimCheckRequest({ objective: "Add <--dry-run>", claim: "Done & tested", view: VIEW, meta: { runIndex: 2, round: 4 } });
    expect(request).toEqual({
      messages: [
        { role: "system", content: TEMPLATES.claim_check_system },
        { role: "user", content: `<goal_objective>\nAdd &lt;--dry-run&gt;\n</goal_objective>\n\n<claim>\nDone &amp; tested\n</claim>\n\n<session_digest>\n${digestTranscript(VIEW)}\n</session_digest>\n` },
      ],
      tools: [],
      effort: "low",
      maxOutputTokens: 1000,
      meta: { runIndex: 2, round: 4, purpose: "claim_check" },
    });
  });
});

describe("parseVerdict", () => {
  it.each<[string, string, ParsedVerdict | null]>([
    ["the asked-for form", "VERDICT: done\nREASON: 12 tests pass.\nEVIDENCE:\n> Tests  12 passed (12)", { verdict: "done", reason: "12 tests pass.", evidence: ["Tests 12 passed (12)"] }],
    ["bold markdown labels", "**Verdict:** **Continue**\n**Reason:** the docs are missing.\n**Evidence:**", { verdict: "continue", reason: "the docs are missing.", evidence: [] }],
    ["heading labels and bullets", "## Verdict: done\n## Reason\nAll good,\nreally.\n\n## Evidence\n- `Tests  12 passed (12)`\n- \"exit 0\"", { verdict: "done", reason: "All good, really.", evidence: ["Tests 12 passed (12)", "exit 0"] }],
    ["inside a code fence", "```\nVERDICT: continue\nREASON: no tests ran\n```", { verdict: "continue", reason: "no tests ran", evidence: [] }],
    ["not done means continue", "Verdict - not done\nReason: flag missing", { verdict: "continue", reason: "flag missing", evidence: [] }],
    ["complete means done", "verdict = Complete.\nreason: ok", { verdict: "done", reason: "ok", evidence: [] }],
    ["the template echoed is no verdict", "VERDICT: done or continue\nREASON: ...", null],
    ["a bare first line", "DONE\n\nEverything checks out.", { verdict: "done", reason: "", evidence: [] }],
    ["tags", "<verdict>continue</verdict><reason>the README was not updated</reason><evidence>nothing</evidence>", { verdict: "continue", reason: "the README was not updated", evidence: ["nothing"] }],
    ["JSON", '```json\n{"verdict": "done", "reason": "tests pass", "evidence": ["Tests  12 passed (12)"]}\n```', { verdict: "done", reason: "tests pass", evidence: ["Tests 12 passed (12)"] }],
    ["JSON with a decision key and string evidence", '{"decision":"incomplete","reason":"r","evidence":"line one\\nline two"}', { verdict: "continue", reason: "r", evidence: ["line one", "line two"] }],
    ["prose without a verdict", "I think the agent did a reasonable job overall, though I am not sure.", null],
    ["empty", "", null],
  ])("%s", (_, text, expected) => {
    expect(parseVerdict(text)).toEqual(expected);
  });

  it("never throws, whatever the answer", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const parsed = parseVerdict(text);
        return parsed === null || parsed.verdict === "done" || parsed.verdict === "continue";
      }),
    );
  });

  it("reads back any verdict written in the asked-for form, with or without markdown", () => {
    const line = fc.stringMatching(/^[A-Za-z0-9 ()|.:/-]{12,40}$/).filter((s) => !/verdict|reason|evidence/i.test(s) && s.trim() === s && !/^[-\d]/.test(s));
    fc.assert(
      fc.property(fc.constantFrom("done", "continue"), line, fc.array(line, { maxLength: 4 }), fc.boolean(), (verdict, reason, evidence, bold) => {
        const label = (name: string) => (bold ? `**${name}:**` : `${name}:`);
        const text = [`${label("VERDICT")} ${verdict}`, `${label("REASON")} ${reason}`, label("EVIDENCE"), ...evidence.map((e) => `> ${e}`)].join("\n");
        expect(parseVerdict(text)).toEqual({ verdict, reason, evidence: evidence.map((e) => e.replace(/\s+/g, " ").trim()) });
      }),
    );
  });
});

describe("checkClaim", () => {
  const input = { objective: "Add the --dry-run flag", claim: "Flag added; tests pass.", view: VIEW, mode: "on" as const };

  it("done with evidence from a tool result: accepted, shield passed", async () => {
    const model = client([answer("VERDICT: done\nREASON: the tests pass.\nEVIDENCE:\n> Tests  12 passed (12)")]);
    const result = await checkClaim({ ...input, model });
    expect({ ...result, request: undefined, reply: undefined }).toEqual({
      verdict: "done",
      reason: "the tests pass.",
      evidence: ["Tests 12 passed (12)"],
      shield: "passed",
      request: undefined,
      reply: undefined,
    });
    expect(result.request).toEqual(model.requests[0]);
    expect(result.reply!.text).toContain("VERDICT: done");
  });

  it("done without evidence from a tool result becomes continue: evidence not found", async () => {
    const model = client([answer("VERDICT: done\nREASON: the agent says so.\nEVIDENCE:\n> Flag added; tests pass.")]);
    const result = await checkClaim({ ...input, model });
    expect([result.verdict, result.reason, result.shield]).toEqual(["continue", "evidence not found", "rejected"]);
  });

  it("continue passes through with the reviewer's reason", async () => {
    const result = await checkClaim({ ...input, model: client([answer("VERDICT: continue\nREASON: the README does not mention the flag.")]) });
    expect([result.verdict, result.reason, result.shield]).toEqual(["continue", "the README does not mention the flag.", "not_applied"]);
  });

  it.each<[string, Parameters<typeof checkClaim>[0], Omit<Awaited<ReturnType<typeof checkClaim>>, "request" | "reply">]>([
    ["switched off", { ...input, mode: "off", model: client([]) }, { verdict: "accepted_unchecked", reason: "check_off: the completion check is switched off", evidence: [], shield: "not_applied", cause: "check_off" }],
    ["no model", { ...input, model: null }, { verdict: "accepted_unchecked", reason: "no_model: no model to check the claim with", evidence: [], shield: "not_applied", cause: "no_model" }],
    [
      "a model error",
      { ...input, model: client([answer("", { stop: "error", errorMessage: "400 MissingSessionID" })]) },
      { verdict: "accepted_unchecked", reason: "model_error: error: 400 MissingSessionID", evidence: [], shield: "not_applied", cause: "model_error" },
    ],
    [
      "a usage limit",
      { ...input, model: client([answer("", { stop: "usage_limit" })]) },
      { verdict: "accepted_unchecked", reason: "model_error: usage_limit", evidence: [], shield: "not_applied", cause: "model_error" },
    ],
    [
      "an adapter that throws despite the contract",
      { ...input, model: client([new Error("socket hang up")]) },
      { verdict: "accepted_unchecked", reason: "model_error: socket hang up", evidence: [], shield: "not_applied", cause: "model_error" },
    ],
    [
      "an unreadable answer",
      { ...input, model: client([answer("Hmm, hard to say.")]) },
      { verdict: "accepted_unchecked", reason: "unreadable_answer: no verdict found in the answer", evidence: [], shield: "not_applied", cause: "unreadable_answer" },
    ],
  ])("%s → accepted_unchecked with the cause", async (_, args, expected) => {
    const { request: _request, reply: _reply, ...result } = await checkClaim(args);
    expect(result).toEqual(expected);
  });

  it("with the check off, the model is not asked", async () => {
    const model = client([answer("VERDICT: continue")]);
    await checkClaim({ ...input, mode: "off", model });
    expect(model.requests).toEqual([]);
  });

  it("its record is a valid claim.check run-record event", async () => {
    const result = await checkClaim({ ...input, model: client([answer("VERDICT: done\nREASON: ok\nEVIDENCE:\n> Tests  12 passed (12)")]) });
    const event = { t: 12, ...claimCheckRecord(result) };
    expect(RunEvent.parse(event)).toEqual({ t: 12, type: "claim.check", verdict: "done", reason: "ok", evidence: ["Tests 12 passed (12)"], shield: "passed" });
  });
});
