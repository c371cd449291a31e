/**
 * `armstudy analyze` over a history: folders walked, the usual roots discovered under a temp HOME,
 * one row per session, filters, CSV, the JSON array, cohorts with intervals and the report with
 * charts, and the same answers with two worker threads as with none.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { COHORT_KEYS, isoWeek } from "../../src/measure/cohorts.ts";
import { FIXTURES } from "./scan.ts";

const home = mkdtempSync(join(tmpdir(), "armstudy-history-"));
// A temp HOME laid out as the clients lay it out.
const codex = join(home, ".codex", "sessions", "2026", "11", "29");
const claude = join(home, ".claude", "projects", "-home-user-project");
const pi = join(home, ".pi", "agent", "sessions", "--home-user-project--");
for (const d of [codex, claude, pi]) mkdirSync(d, { recursive: true });
cpSync(join(FIXTURES, "offline-real-clients/codex-session.jsonl"), join(codex, "rollout-2026-11-29T20-10-04-01a228ed-d0c3-7d11-95f4-d1ead2f54472.jsonl"));
cpSync(join(FIXTURES, "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"), join(claude, "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"));
cpSync(join(FIXTURES, "claude-code-log/ef958aa1-0e93-49f0-bb71-150f63befcd1"), join(claude, "ef958aa1-0e93-49f0-bb71-150f63befcd1"), { recursive: true });
cpSync(join(FIXTURES, "offline-real-clients/claude-session.jsonl"), join(claude, "971d70d0-473b-4c88-affe-fb9035257323.jsonl"));
cpSync(join(FIXTURES, "offline-real-clients/pi-session.jsonl"), join(pi, "2026-11-29T20-10-14-205Z_01a228ed.jsonl"));
// Not a session: counted and skipped when found in a folder.
writeFileSync(join(claude, "notes.jsonl"), '{"hello":"world"}\n');
// An archived rollout Codex compressed with zstd: read like the others.
const archived = join(home, ".codex", "archived_sessions");
mkdirSync(archived, { recursive: true });
cpSync(join(FIXTURES, "compressed/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl.zst"), join(archived, "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl.zst"));

async function run(args: string[], env: NodeJS.ProcessEnv = { HOME: home }) {
  const io = memoryIO({ cwd: home, env });
  const code = await main(["analyze", ...args], io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

type Row = { file: string; client: string; clientVersion: string | null; startedAt: string | null; project: string | null; model: string; toolCalls: number };

describe("armstudy analyze over a history", () => {
  it("--discover reads the usual roots of a temp HOME and says which; a root that is not there is named", async () => {
    const { code, out, err } = await run(["--discover", "--json", "--workers", "1"]);
    expect(code).toBe(0);
    expect(err.split("\n").filter((l) => l.startsWith("reading") || l.startsWith("not found"))).toEqual([
      `reading codex sessions from ${join(home, ".codex/sessions")} (the default)`,
      `reading codex sessions from ${join(home, ".codex/archived_sessions")} (the default)`,
      `reading claude sessions from ${join(home, ".claude/projects")} (the default)`,
      `reading pi sessions from ${join(home, ".pi/agent/sessions")} (the default)`,
    ]);
    expect(err).toContain("left out: 1 files not a session format");
    const rows = JSON.parse(out) as Row[];
    // Sub-agent files are read with their parent, not as sessions of their own.
    expect(rows.map((r) => [r.client, r.clientVersion, r.startedAt, r.project, r.model, r.toolCalls])).toEqual([
      ["codex", "0.171.0", "2026-11-29T20:10:03.931Z", "/home/user/project", "mock-model", 1],
      ["codex", "0.125.0", "2026-05-11T08:26:55.042Z", "/Users/Sample_User/repos/codemie-ai/codemie-code", "gpt-5.5", 105],
      ["claude", "2.1.332", "2026-11-29T20:10:09.086Z", "/home/user/project", "claude-opus-5-5", 1],
      ["claude", "2.1.114", "2026-04-18T13:18:42.368Z", "-experiments/worktrees", "claude-opus-4-7", 40],
      ["pi", null, "2026-11-29T20:10:14.205Z", "/home/user/project", "mock-model", 1],
    ]);
  });

  it("$CODEX_HOME, $CLAUDE_CONFIG_DIR and $PI_CODING_AGENT_DIR move the roots", async () => {
    const { err } = await run(["--discover", "--csv", "--workers", "1"], { HOME: "/nonexistent", CODEX_HOME: join(home, ".codex"), CLAUDE_CONFIG_DIR: join(home, ".claude"), PI_CODING_AGENT_DIR: join(home, ".pi/agent") });
    expect(err.split("\n").filter((l) => l.startsWith("reading"))).toEqual([
      `reading codex sessions from ${join(home, ".codex/sessions")} ($CODEX_HOME)`,
      `reading codex sessions from ${join(home, ".codex/archived_sessions")} ($CODEX_HOME)`,
      `reading claude sessions from ${join(home, ".claude/projects")} ($CLAUDE_CONFIG_DIR)`,
      `reading pi sessions from ${join(home, ".pi/agent/sessions")} ($PI_CODING_AGENT_DIR)`,
    ]);
  });

  it("DIR walks the folder; two worker threads give the same rows, in the same order, as one thread", async () => {
    const one = await run([".claude", ".codex", "--json", "--workers", "1"]);
    const two = await run([".claude", ".codex", "--json", "--workers", "2"]);
    expect(one.code).toBe(0);
    expect(JSON.parse(two.out)).toEqual(JSON.parse(one.out));
    expect((JSON.parse(one.out) as Row[]).map((r) => r.file)).toEqual([
      ".claude/projects/-home-user-project/971d70d0-473b-4c88-affe-fb9035257323.jsonl",
      ".claude/projects/-home-user-project/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl",
      ".codex/archived_sessions/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl.zst",
      ".codex/sessions/2026/11/29/rollout-2026-11-29T20-10-04-01a228ed-d0c3-7d11-95f4-d1ead2f54472.jsonl",
    ]);
  });

  it("--since / --until / --project keep the sessions they name; the rest are counted as left out", async () => {
    const { out, err } = await run([".", "--csv", "--workers", "1", "--since", "2026-05-01", "--until", "2026-11-28", "--project", "codemie"]);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]?.split(",").slice(0, 8)).toEqual(["file", "client", "clientVersion", "format", "model", "startedAt", "project", "parentSession"]);
    expect(lines.slice(1).map((l) => l.split(",").slice(1, 2)[0])).toEqual(["codex"]);
    expect(err).toContain("sessions outside the filters (");
    const bad = await run([".", "--since", "last week"]);
    expect(bad).toEqual({ code: 2, out: "", err: 'armstudy analyze: --since "last week" is not a date; use YYYY-MM-DD (UTC) or an ISO time such as 2026-11-29T20:00:00Z\n' });
  });

  it("--since skips files last changed before it without reading them", async () => {
    const old = mkdtempSync(join(tmpdir(), "armstudy-history-old-"));
    cpSync(join(FIXTURES, "offline-real-clients/pi-session.jsonl"), join(old, "a.jsonl"));
    utimesSync(join(old, "a.jsonl"), new Date("2020-01-01"), new Date("2020-01-01"));
    const { out, err } = await run([old, "--json", "--since", "2026-01-01"]);
    expect(JSON.parse(out)).toEqual([]);
    expect(err).toContain("left out: 1 sessions outside the filters (1 before --since)");
  });

  it("--by client: one row per client with intervals, and a markdown report with charts that says cohorts are observational", async () => {
    const { code, out, err } = await run([".", "--by", "client", "--workers", "1", "--report", "rep"]);
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[0]?.split(/ {2,}/)).toEqual(["client", "sessions", "claimed complete", "interrupted", "tool calls / session", "tokens / session", "cost $ / session"]);
    expect(lines.slice(2, 5).map((l) => l.split(/ {2,}/).slice(0, 3))).toEqual([
      ["claude (reference)", "2", "2/2 100% [34%, 100%]"],
      ["codex", "2", "2/2 100% [34%, 100%]"],
      ["pi", "1", "1/1 100% [21%, 100%]"],
    ]);
    expect(out).toContain("Cohorts are observational, not randomised");
    expect(out).toContain("Fewer than 5 sessions in every cohort: intervals are wide and only large differences can be told from chance.");
    expect(err).toContain(`report written to ${join(home, "rep/report.md")}`);
    const report = readFileSync(join(home, "rep/report.md"), "utf8");
    expect(report).toContain("**Observational, not randomised.**");
    for (const chart of ["cohort-rates.png", "cohort-tool-calls.png", "cohort-tokens.png"]) {
      expect(report).toContain(`(charts/${chart})`);
      expect(readFileSync(join(home, "rep/charts", chart)).subarray(1, 4).toString()).toBe("PNG");
    }
    const cohorts = JSON.parse(readFileSync(join(home, "rep/cohorts.json"), "utf8")) as { reference: string; cohorts: Array<{ key: string; sessions: number; versusReference: unknown }> };
    expect(cohorts.cohorts.map((c) => [c.key, c.sessions, c.versusReference === null])).toEqual([
      ["claude", 2, true],
      ["codex", 2, false],
      ["pi", 1, false],
    ]);
  });

  it("--json with --by is an array of cohorts; every cohort key is accepted; an unknown one is refused", async () => {
    for (const by of COHORT_KEYS) {
      const { code, out } = await run([".", "--by", by, "--json", "--workers", "1", "--report", `rep-${by}`]);
      expect(code).toBe(0);
      expect(Array.isArray(JSON.parse(out))).toBe(true);
    }
    const month = JSON.parse((await run([".", "--by", "month", "--json", "--workers", "1", "--report", "rep-m"])).out) as Array<{ key: string }>;
    expect(month.map((c) => c.key)).toEqual(["2026-04", "2026-05", "2026-11"]);
    expect(existsSync(join(home, "rep-week/report.md"))).toBe(true);
    expect((await run([".", "--by", "weekday"])).err).toBe('armstudy analyze: --by "weekday" is not a cohort; use one of client, version, model, project, week, month\n');
  });

  it("ISO weeks: a Sunday belongs to the week before, the first Thursday's week is week 1", () => {
    expect(["2026-11-29", "2026-11-30", "2021-01-03", "2021-01-04", "2026-01-01"].map((d) => isoWeek(Date.parse(`${d}T12:00:00Z`)))).toEqual(["2026-W48", "2026-W49", "2020-W53", "2021-W01", "2026-W01"]);
  });
});
