import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { RunEvent } from "../../src/run/record.ts";
import { FIXTURES } from "./scan.ts";

const dir = mkdtempSync(join(tmpdir(), "armstudy-analyze-cli-"));
cpSync(join(FIXTURES, "offline-real-clients/codex-events.jsonl"), join(dir, "codex-events.jsonl"));
cpSync(join(FIXTURES, "offline-real-clients/pi-session.jsonl"), join(dir, "pi-session.jsonl"));
writeFileSync(join(dir, "empty.jsonl"), "");

async function run(args: string[]) {
  const io = memoryIO({ cwd: dir });
  const code = await main(["analyze", ...args], io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("armstudy analyze", () => {
  it("--json prints an array, one object per session, with file, format, client, start and the run metrics", async () => {
    const { code, out, err } = await run(["codex-events.jsonl", "--json"]);
    expect(code).toBe(0);
    expect(err).toBe(
      [
        'codex-events.jsonl: detected codex-exec (a "thread.started" event)',
        "codex-events.jsonl: warning: line 2: codex item error: Model metadata for `mock-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.",
        "",
      ].join("\n"),
    );
    expect(JSON.parse(out)).toEqual([{
      file: "codex-events.jsonl",
      format: "codex-exec",
      client: "codex",
      clientVersion: null,
      startedAt: null,
      project: null,
      parentSession: null,
      detectedBy: 'a "thread.started" event',
      model: "unknown",
      warningMessages: ["line 2: codex item error: Model metadata for `mock-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."],
      toolCalls: 1,
      toolCallsByName: { command_execution: 1 },
      toolCallsBeforeReplyEnd: 1,
      toolCallsPerReply: [1],
      replies: 1,
      firstReportLine: "Done: created hello.txt containing world.",
      claimedComplete: true,
      claimSource: "report_first_line",
      falseCompletion: null,
      permissionQuestion: false,
      permissionStop: null,
      claimChecks: { count: 0, done: 0, continue: 0, acceptedUnchecked: 0, shieldRejected: 0, agreesWithAcceptance: null },
      tokens: { prefix: 0, input: 20, cachedInput: 0, cacheWrite: 0, output: 10, reasoning: 0, reasoningReported: true, total: 30, source: "reported", lowerBound: false },
      costUsd: null,
      costSource: null,
      modelRequests: 1,
      repeatedIdenticalCalls: 0,
      repeatedSignatures: 0,
      reads: 0,
      distinctFilesRead: 0,
      readsPerDistinctFile: null,
      maxReadsOfOneFile: 0,
      mostReadFile: null,
      compactions: 0,
      compactionsPerReply: [0],
      timeToFirstTextMs: 0,
      visibleTexts: 1,
      toolCallsPerVisibleText: 1,
      longestReply: { ms: 0, toolCalls: 1 },
      wallMs: 0,
      plan: null,
      modelMs: 0,
      toolMs: 0,
      interrupts: 0,
      rejectedToolCalls: 0,
      planApprovals: { approved: 0, rejected: 0 },
      subagents: { count: 0, toolCalls: 0, tokens: null, costUsd: null },
      tokensIncludingSubagents: { prefix: 0, input: 20, cachedInput: 0, cacheWrite: 0, output: 10, reasoning: 0, reasoningReported: true, total: 30, source: "reported", lowerBound: false },
      costUsdIncludingSubagents: null,
      unpricedRequests: 1,
      retries: { count: 0, ms: 0 },
      // codex exec --json has no timestamps: a file import sees t = 0 throughout
      modelTime: { meanMs: 0, p90Ms: 0 },
      toolTimeShare: null,
      longCommands: { count: 0, ms: 0 },
      edits: { count: 0, files: 0, perFile: null, maxOfOneFile: 0, mostEditedFile: null },
      coldResends: { count: 0, uncachedTokens: 0 },
      longestSilenceMs: 0,
      fileChanges: { count: 0, perHour: null, longestGapMs: null },
      commands: { passed: 1, failed: 0 },
      checklist: { writes: 0, rewrites: 0 },
      warnings: 1,
      usage: { input: 20, cachedInput: 0, cacheWrite: 0, output: 10, reasoning: 0, source: "reported", lowerBound: false },
    }]);
  });

  it("several files: an array with --json, a table otherwise", async () => {
    const json = await run(["codex-events.jsonl", "pi-session.jsonl", "--json"]);
    expect((JSON.parse(json.out) as Array<{ file: string; format: string; toolCalls: number }>).map((a) => [a.file, a.format, a.toolCalls])).toEqual([
      ["codex-events.jsonl", "codex-exec", 1],
      ["pi-session.jsonl", "pi", 1],
    ]);
    const table = await run(["codex-events.jsonl", "pi-session.jsonl"]);
    const rows = table.out.trimEnd().split("\n").map((row) => row.trim().split(/ {2,}/));
    expect(rows.filter((_, i) => i !== 1 && i !== 4)).toEqual([
      ["started (UTC)", "client", "version", "model", "project", "replies", "tool calls", "tokens in", "tokens out", "cost $", "wall", "file"],
      ["–", "codex", "–", "unknown", "–", "1", "1", "20", "10", "–", "0 s", "codex-events.jsonl"],
      ["2026-11-29 20:10", "pi", "–", "mock-model", "/home/user/project", "1", "1", "20", "10", "0.00", "0 s", "pi-session.jsonl"],
      ["total: 2 sessions", "2", "2", "40", "20", "0.00 (1 priced)", "0 s"],
    ]);
  });

  it("--record writes the normalised run record, every line a valid event, nothing half-written", async () => {
    const { code } = await run(["pi-session.jsonl", "--record", "pi.record.jsonl"]);
    expect(code).toBe(0);
    const lines = readFileSync(join(dir, "pi.record.jsonl"), "utf8").trimEnd().split("\n");
    expect(lines.map((l) => RunEvent.parse(JSON.parse(l)).type)).toEqual(["run.start", "user.message", "model.request", "tool.call", "tool.result", "model.request", "assistant.text", "reply.end", "run.end"]);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("bad input: exit 2 with a clear message, the other files still analysed", async () => {
    const { code, out, err } = await run(["empty.jsonl", "missing.jsonl", "pi-session.jsonl", "--json"]);
    expect(code).toBe(2);
    expect(err.split("\n").filter((l) => l.startsWith("armstudy"))).toEqual([
      `armstudy analyze: ${join(dir, "empty.jsonl")}: the file is empty (no lines); nothing to import`,
      "armstudy analyze: missing.jsonl: cannot read (ENOENT); check the path",
    ]);
    expect((JSON.parse(out) as Array<{ file: string }>).map((a) => a.file)).toEqual(["pi-session.jsonl"]);
  });

  it("usage errors: an unknown --format, no file, --record with two files", async () => {
    expect(await run(["--format", "opencode", "x.jsonl"])).toEqual({ code: 2, out: "", err: 'armstudy analyze: --format "opencode" is not a format armstudy reads; use one of auto, codex, codex-exec, claude, claude-stream, pi, pi-json\n' });
    expect((await run([])).code).toBe(2);
    expect((await run(["a.jsonl", "b.jsonl", "--record", "r.jsonl"])).err).toBe("armstudy analyze: --record writes one run record: give exactly one FILE (got 2)\n");
    expect(existsSync(join(dir, "r.jsonl"))).toBe(false);
  });

  it("--format names the format; a file of another format is refused with the right hint", async () => {
    const { code, err } = await run(["codex-events.jsonl", "--format", "pi"]);
    expect(code).toBe(2);
    expect(err).toBe(`armstudy analyze: ${join(dir, "codex-events.jsonl")}: not a pi file — it looks like codex-exec (a "thread.started" event); use --format codex-exec or --format auto\n`);
  });
});
