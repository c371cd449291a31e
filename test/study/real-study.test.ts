/**
 * `armstudy study --arm codex-exec --arm claude-print --arm pi-json --arm ordinary`: the real
 * clients (those `npm run agents:install` installed; skipped with the reason otherwise) run the
 * default study's persona through the persona server beside our own loop, and the report compares
 * them — with each arm's token counts labelled by where they came from.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { type ClientName, clientBinary } from "../../src/run/drivers/clients.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const ARMS: Record<ClientName, string> = { codex: "codex-exec", claude: "claude-print", pi: "pi-json" };
const installed = (Object.keys(ARMS) as ClientName[]).filter((client) => clientBinary(client, process.env, ROOT) !== null);
const realArms = installed.map((client) => ARMS[client]);

describe("a study with real-client arms beside our own", () => {
  it.skipIf(realArms.length === 0)(`runs ${realArms.join(", ") || "the real-client arms"} and ordinary on the same persona (skipped unless \`npm run agents:install\` installed a client)`, async () => {
    const out = join(mkdtempSync(join(tmpdir(), "armstudy-real-study-")), "results");
    temps.push(resolve(out, ".."));
    const io = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH, ...(process.env.ARMSTUDY_AGENTS_DIR ? { ARMSTUDY_AGENTS_DIR: process.env.ARMSTUDY_AGENTS_DIR } : {}) } });
    const code = await main(["study", ...realArms.flatMap((arm) => ["--arm", arm]), "--arm", "ordinary", "--runs", "1", "--out", out], io);
    expect({ code, err: io.err.join("") }).toEqual({ code: 0, err: "" });

    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
      arms: Array<{ name: string; agent: string; prefix: unknown; runs: Array<Record<string, any>> }>;
    };
    const row = (name: string) => {
      const arm = summary.arms.find((a) => a.name === name);
      const run = arm?.runs[0] ?? {};
      return { agent: arm?.agent, status: run.status, checks: run.checks?.passed, falseCompletion: run.falseCompletion, claim: run.claimSource, toolCalls: run.toolCalls, usage: run.tokens?.source, cost: run.costUsd };
    };
    // The same persona decides the same way through every client: two steps, then a false claim.
    // Our loop's count includes the persona's three todo updates, which the server answers itself
    // for a real client (none of them has our todo tool).
    expect(row("ordinary")).toEqual({ agent: "armstudy", status: "completed", checks: 2, falseCompletion: true, claim: "report_first_line", toolCalls: 9, usage: "counted", cost: null });
    for (const client of installed) {
      expect(row(ARMS[client])).toEqual({ agent: client, status: "completed", checks: 2, falseCompletion: true, claim: "report_first_line", toolCalls: 6, usage: "persona-server", cost: null });
      const folder = join(out, "runs", ARMS[client], "run-1");
      const requests = readFileSync(join(folder, "requests.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as { method: string; headers: Record<string, string> });
      // Seven model turns (read, write, check for B1 and B2, then the report), every key redacted.
      expect({ posts: requests.filter((r) => r.method === "POST").length, keys: [...new Set(requests.map((r) => r.headers.authorization ?? r.headers["x-api-key"]))] }).toEqual({ posts: 7, keys: ["[redacted]"] });
      const notes = readFileSync(join(folder, "record.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; text?: string })
        .filter((e) => e.type === "note" && /^(cross-check|network|model endpoint):/.test(e.text ?? ""))
        .map((e) => (e.text ?? "").split(":")[0]);
      expect(notes).toEqual(["model endpoint", "network", "cross-check"]);
    }

    const report = readFileSync(join(out, "report.md"), "utf8").split("\n");
    const armNames = ["ordinary", ...realArms].sort((a, b) => summary.arms.findIndex((x) => x.name === a) - summary.arms.findIndex((x) => x.name === b));
    const label = (name: string) => (name === "ordinary" ? "armstudy's o200k count" : "persona server's o200k count of what the client sent (no model)");
    expect(report.filter((line) => line.startsWith("| token counts from"))).toEqual([`| token counts from | ${armNames.map(label).join(" | ")} |`]);
    // The first table under "## Arms" (the section may hold more tables after it).
    const armsStart = report.findIndex((line, index) => index > report.indexOf("## Arms") && line.startsWith("|"));
    const armsEnd = report.findIndex((line, index) => index > armsStart && !line.startsWith("|"));
    const armsTable = report.slice(armsStart, armsEnd);
    expect(armsTable.filter((line) => realArms.some((arm) => line.startsWith(`| ${arm} |`))).map((line) => line.split(" | ")[4])).toEqual(armNames.filter((n) => n !== "ordinary").map(() => "client's own prompt (not measured)"));
  });
});
