/**
 * A history report links its sessions to their viewer pages (`analyze DIR --report OUT --pages`):
 * one page per listed session, written beside the report, the page script built once.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { FIXTURES } from "./scan.ts";

const dir = mkdtempSync(join(tmpdir(), "armstudy-history-pages-"));
const history = join(dir, "history");
mkdirSync(history);
cpSync(join(FIXTURES, "offline-real-clients/codex-session.jsonl"), join(history, "codex-session.jsonl"));
cpSync(join(FIXTURES, "offline-real-clients/pi-session.jsonl"), join(history, "pi-session.jsonl"));

describe("analyze --report DIR --pages", () => {
  it("writes a viewer page per session and links each row of the report's sessions table to it", async () => {
    const out = join(dir, "report");
    const io = memoryIO({ cwd: dir });
    expect(await main(["analyze", "history", "--by", "client", "--report", out, "--pages"], io)).toEqual(0);
    expect(readdirSync(join(out, "sessions")).sort()).toEqual(["1.html", "2.html"]);
    const report = readFileSync(join(out, "report.md"), "utf8").split("\n");
    const linked = report.filter((line) => line.startsWith("| ") && line.includes("](sessions/")).map((line) => /\[([^\]]+)\]\((sessions\/\d\.html)\)/.exec(line)?.slice(1));
    expect(linked.map((pair) => pair?.[0]?.split("/").at(-1)).sort()).toEqual(["codex-session.jsonl", "pi-session.jsonl"]);
    for (const [, page] of linked as Array<[string, string]>) {
      const html = readFileSync(join(out, page), "utf8");
      // A whole, self-contained page: its own script and data, nothing fetched.
      expect([html.startsWith("<!doctype html>"), html.includes("<script"), /src="https?:/.test(html)]).toEqual([true, true, false]);
    }
  });

  it("needs a report to write pages beside", async () => {
    const io = memoryIO({ cwd: dir });
    expect(await main(["analyze", "history", "--pages"], io)).toEqual(2);
    expect(io.err.join("")).toEqual("armstudy analyze: --pages writes viewer pages beside a history report: give --report DIR (or --by)\n");
  });
});
