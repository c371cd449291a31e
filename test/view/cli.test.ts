import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { memoryIO } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";

const ROOT = resolve(import.meta.dirname, "../..");

describe("the viewer's command-line forms", () => {
  it("refuses the forms that cannot work, saying why", async () => {
    const cases = [
      ["analyze", "fixtures/sessions/pi-mono/before-compaction.jsonl", "fixtures/sessions/offline-real-clients/pi-session.jsonl", "--html", "/tmp/x.html"],
      ["analyze", "fixtures/sessions/pi-mono/before-compaction.jsonl", "--html", "fixtures"],
      ["view"],
      ["view", "a", "b"],
      ["view", "--serve", "--port", "99999"],
    ];
    const results = [];
    for (const args of cases) {
      const io = memoryIO({ cwd: ROOT });
      results.push([await main(args, io), io.err.join("").split("\n")[0]]);
    }
    expect(results).toEqual([
      [2, "armstudy analyze: --html writes one session's page: give exactly one FILE (got 2)"],
      [2, `armstudy analyze: --html ${resolve(ROOT, "fixtures")} is a folder; give a file path, such as ${resolve(ROOT, "fixtures")}/record.jsonl`],
      [2, "armstudy view: name a study's results folder"],
      [2, "armstudy view: name one folder, got 2"],
      [2, 'armstudy view: --port must be a whole number from 0 to 65535, got "99999"'],
    ]);
  });
});
