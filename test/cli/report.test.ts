import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";

const dir = mkdtempSync(join(tmpdir(), "armstudy-report-cli-"));
const reply = "## Not finished: the e2e run is blocked\n\nThe staging API returns 401. Next: set `STAGING_TOKEN` and rerun `npm run e2e`.\n\nShould I open an issue for the token?";
writeFileSync(join(dir, "reply.md"), reply);

async function run(args: string[], stdin?: string) {
  const io = memoryIO({ cwd: dir, ...(stdin !== undefined ? { stdin } : {}) });
  const code = await main(args, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("armstudy report analyze", () => {
  it("prints the analysis of a file", async () => {
    expect(await run(["report", "analyze", "reply.md"])).toEqual({
      code: 0,
      out: [
        "firstLine:          Not finished: the e2e run is blocked",
        "firstLineRaw:       ## Not finished: the e2e run is blocked",
        "claimsComplete:     false",
        "statesUnfinished:   true",
        "givesReasonAndNext: true",
        "asksPermission:     true",
        "fillerEnding:       false",
        'headings:           "Not finished: the e2e run is blocked"',
        `chars:              ${reply.length}`,
        "tokens:             46",
        "",
      ].join("\n"),
      err: "",
    });
  });

  it("prints the result object with --json, from standard input", async () => {
    const result = await run(["report", "analyze", "--json"], "Done.\n\nNothing needed next.");
    expect({ ...result, out: JSON.parse(result.out) }).toEqual({
      code: 0,
      out: {
        firstLine: "Done.",
        firstLineRaw: "Done.",
        claimsComplete: true,
        statesUnfinished: false,
        givesReasonAndNext: false,
        asksPermission: false,
        fillerEnding: true,
        headings: [],
        chars: 27,
        tokens: 6,
        unreadChars: 0,
      },
      err: "",
    });
    expect(JSON.parse((await run(["report", "analyze", "-", "--json"], "")).out).chars).toBe(0);
  });

  it("with --steps, a reply naming a strict subset of the steps as done claims none; --explain names the rows", async () => {
    const text = "Progress: B1–B3 are done and their checks pass.";
    const without = JSON.parse((await run(["report", "analyze", "--json"], text)).out);
    const withSteps = JSON.parse((await run(["report", "analyze", "--json", "--steps", "B1,B2,B3,B4,B5,B6", "--explain"], text)).out);
    expect({ without: [without.claimsComplete, without.statesUnfinished], withSteps: [withSteps.claimsComplete, withSteps.statesUnfinished], rows: withSteps.rows }).toEqual({
      without: [true, false],
      withSteps: [false, true],
      rows: [
        { id: "complete.state", group: "complete", clause: text },
        { id: "complete.final", group: "complete", clause: text },
        { id: "complete.checks", group: "complete", clause: text },
        { id: "steps.subset", group: "steps", clause: "done: B1, B2, B3; not named done: B4, B5, B6" },
      ],
    });
    const all = JSON.parse((await run(["report", "analyze", "--json", "--steps", "B1,B2,B3"], text)).out);
    expect([all.claimsComplete, all.statesUnfinished]).toEqual([true, false]);
    const explained = await run(["report", "analyze", "--explain"], "Thanks!");
    expect(explained.out.split("\n").at(-2)).toBe("rows:               (none fired)");
  });

  it("a reply longer than the analyzer's windows says how much of its middle was not read (docs/decisions/0135)", async () => {
    const long = `Done: the exporter is in.\n\n${"The loader reads the table once per process.\n\n".repeat(3000)}Nothing needed next.`;
    const text = await run(["report", "analyze", "--explain"], long);
    const json = JSON.parse((await run(["report", "analyze", "--json"], long)).out);
    const unread = text.out.split("\n").find((line) => line.startsWith("unreadChars:"));
    expect([json.chars, json.claimsComplete, json.fillerEnding, unread]).toEqual([long.length, true, true, `unreadChars:        ${json.unreadChars} (the middle of a long reply, not read)`]);
    expect(json.unreadChars).toBeGreaterThan(long.length - 64 * 1024);
    expect(text.out).toContain(`window.unread: "read the first `);
  });

  it("refuses a malformed --steps, naming the bad id", async () => {
    const results = await Promise.all([run(["report", "analyze", "--steps", "B1,,B2"], "x"), run(["report", "analyze", "--steps", "B1,setup"], "x"), run(["report", "analyze", "--steps", "B1,B1"], "x")]);
    expect(results.map((r) => [r.code, r.out, r.err.split("\n")[0]])).toEqual([
      [2, "", "armstudy report: --steps: an empty id is not a step id; give ids like B1,B2,B3 (letters then a number), separated by commas"],
      [2, "", "armstudy report: --steps: \"setup\" is not a step id; give ids like B1,B2,B3 (letters then a number), separated by commas"],
      [2, "", "armstudy report: --steps: \"B1\" is given twice; list each step once"],
    ]);
  });

  it("exits 2 when the input cannot be read", async () => {
    expect(await run(["report", "analyze", "nope.md"])).toEqual({
      code: 2,
      out: "",
      err: "armstudy report: nope.md: cannot read (ENOENT); pass a readable reply file, or - for standard input\n",
    });
  });

  it("any other first argument reaches the study-report form (re-rendering a results folder)", async () => {
    const results = await Promise.all([run(["report", "results/study-1"]), run(["report"]), run(["report", "analyze", "a.md", "b.md"])]);
    expect(results.map((r) => [r.code, r.err.split("\n")[0]])).toEqual([
      [2, "armstudy report: results/study-1 is not a study results folder: study.json is missing. Pass a folder that `armstudy study` wrote (reports/<study>/<stamp>)."],
      [2, "armstudy report: name one results folder (reports/<study>/<stamp>)"],
      [2, "armstudy report: analyze reads one reply; got 2 files"],
    ]);
  });
});
