/**
 * Peer check: ccusage 20.0.24 (installed by `npm run peers:install`, run offline with its bundled prices) and
 * `armstudy analyze` on the same bundled Claude Code and Codex logs. Token totals must be equal;
 * cost must agree wherever both price the model. The deliberate differences are asserted as such
 * and explained in docs/ccusage-comparison.md.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { FIXTURES } from "./scan.ts";
import { ccusageCli } from "../../scripts/peers.ts";

const run = promisify(execFile);
const ccusage = ccusageCli(process.env, process.cwd());

const root = mkdtempSync(join(tmpdir(), "armstudy-ccusage-"));
const claude = join(root, "claude");
const codex = join(root, "codex");
const CLAUDE_FILES: Record<string, string> = {
  p1: "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl",
  p2: "claude-code-log/f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl",
  p3: "codemie-code/session-196820da.jsonl",
  p4: "codemie-code/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl",
};
for (const [project, file] of Object.entries(CLAUDE_FILES)) {
  mkdirSync(join(claude, "projects", project), { recursive: true });
  cpSync(join(FIXTURES, file), join(claude, "projects", project, file.split("/").at(-1) as string));
}
cpSync(join(FIXTURES, "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1"), join(claude, "projects/p1/ef958aa1-0e93-49f0-bb71-150f63befcd1"), { recursive: true });
mkdirSync(join(claude, "projects/p5"), { recursive: true });
cpSync(join(FIXTURES, "offline-real-clients/claude-session.jsonl"), join(claude, "projects/p5/971d70d0-473b-4c88-affe-fb9035257323.jsonl"));
mkdirSync(join(codex, "sessions/2026/05/11"), { recursive: true });
cpSync(join(FIXTURES, "codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"), join(codex, "sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"));
cpSync(join(FIXTURES, "codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"), join(codex, "sessions/2026/05/11/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"));

const pi = join(root, "pi/sessions/--home-user-project--");
mkdirSync(pi, { recursive: true });
cpSync(join(FIXTURES, "pi-mono/before-compaction.jsonl"), join(pi, "before-compaction.jsonl"));
cpSync(join(FIXTURES, "offline-real-clients/pi-retry-session.jsonl"), join(pi, "pi-retry-session.jsonl"));

async function peer(args: string[], env: Record<string, string>): Promise<any> {
  const { stdout } = await run(process.execPath, [ccusage as string, ...args, "--offline", "--json"], { env: { PATH: process.env.PATH ?? "", HOME: root, TZ: "UTC", ...env }, timeout: 60_000 });
  return JSON.parse(stdout);
}

async function ours(dir: string): Promise<Array<Record<string, any>>> {
  const io = memoryIO({ cwd: root, env: { HOME: root } });
  expect(await main(["analyze", dir, "--json", "--workers", "1"], io)).toBe(0);
  return JSON.parse(io.out.join(""));
}

const sessionId = (file: string): string => (file.split("/").at(-1) as string).replace(/\.jsonl$/, "");

describe.skipIf(ccusage === null)("peer check against ccusage 20.0.24 --offline (skipped unless `npm run peers:install` installed it)", () => {
  it("Claude Code: tokens equal per session, sub-agents included; cost agrees where ccusage prices the model", async () => {
    const theirs = (await peer(["claude", "session"], { CLAUDE_CONFIG_DIR: claude })).sessions as Array<Record<string, any>>;
    const mine = await ours(join(claude, "projects"));
    const byId = new Map(mine.map((a) => [sessionId(a.file as string), a]));
    expect(theirs.map((s) => s.sessionId).sort()).toEqual([...byId.keys()].sort());
    for (const s of theirs) {
      const a = byId.get(s.sessionId) as Record<string, any>;
      const t = a.tokensIncludingSubagents;
      // ccusage's inputTokens is the uncached part; ours is every input token.
      expect([t.input - t.cachedInput - t.cacheWrite, t.cacheWrite, t.cachedInput, t.output]).toEqual([s.inputTokens, s.cacheCreationTokens, s.cacheReadTokens, s.outputTokens]);
      if (s.sessionId === "971d70d0-473b-4c88-affe-fb9035257323") {
        // Deliberate: ccusage has no offline price for claude-opus-5-5 (cost 0); Claude Code's own cost-state says $0.00028.
        expect([s.totalCost, a.costUsdIncludingSubagents, a.costSource]).toEqual([0, 0.00028000000000000003, "log"]);
      } else expect(a.costUsdIncludingSubagents).toBeCloseTo(s.totalCost, 6);
    }
  }, 60_000);

  it("Codex: tokens and cost equal on the rollout with usage; the rollout without usage is ours alone (an o200k lower bound)", async () => {
    const theirs = (await peer(["codex", "session"], { CODEX_HOME: codex })).sessions as Array<Record<string, any>>;
    const mine = await ours(join(codex, "sessions"));
    expect(theirs.map((s) => s.sessionFile)).toEqual(["rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799"]);
    const [s] = theirs as [Record<string, any>];
    const a = mine.find((m) => sessionId(m.file) === s.sessionFile) as Record<string, any>;
    // ccusage's Codex inputTokens is the uncached part too.
    expect([a.tokens.input - a.tokens.cachedInput, a.tokens.cachedInput, a.tokens.output, a.tokens.reasoning]).toEqual([s.inputTokens, s.cacheReadTokens, s.outputTokens, s.reasoningOutputTokens]);
    expect(a.costUsd).toBeCloseTo(s.costUSD, 6);
    const estimated = mine.find((m) => sessionId(m.file).includes("13-28-45")) as Record<string, any>;
    expect([estimated.tokens.source, estimated.tokens.lowerBound]).toEqual(["estimated", true]);
  }, 60_000);

  it("pi: tokens and cost equal per session (pi's own per-message cost on both sides)", async () => {
    const theirs = (await peer(["pi", "session", "--pi-path", join(root, "pi/sessions")], {})).sessions as Array<Record<string, any>>;
    const mine = await ours(join(root, "pi/sessions"));
    expect(theirs.map((s) => s.sessionId).sort()).toEqual(mine.map((a) => sessionId(a.file)).sort());
    for (const s of theirs) {
      const a = mine.find((m) => sessionId(m.file) === s.sessionId) as Record<string, any>;
      const t = a.tokens;
      expect([t.input - t.cachedInput - t.cacheWrite, t.cacheWrite, t.cachedInput, t.output]).toEqual([s.inputTokens, s.cacheCreationTokens, s.cacheReadTokens, s.outputTokens]);
      expect(a.costUsd).toBeCloseTo(s.totalCost, 6);
    }
  }, 60_000);
});
