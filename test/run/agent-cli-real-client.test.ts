/**
 * `armstudy run` with a real-client arm: the same command drives the installed pi binary through
 * the persona server. Skipped, with the reason, when `npm run agents:install` has not installed pi.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { memoryIO } from "../../src/cli/io.ts";
import { clientBinary } from "../../src/run/drivers/clients.ts";
import { readRecordFile } from "../../src/run/record-reader.ts";
import { acceptance, fixtureRepo, ROOT } from "./scripted-support.ts";

const installed = clientBinary("pi", process.env, ROOT) !== null;

describe("armstudy run with a real-client arm", () => {
  it.skipIf(!installed)("runs pi-json with the diligent persona and every check passes (skipped unless pi is installed)", async () => {
    const repo = await fixtureRepo();
    const outDir = await mkdtemp(path.join(tmpdir(), "armstudy-run-pi-"));
    try {
      const out = path.join(outDir, "run.jsonl");
      const cli = memoryIO({ cwd: ROOT, env: { PATH: process.env.PATH, ...(process.env.ARMSTUDY_AGENTS_DIR ? { ARMSTUDY_AGENTS_DIR: process.env.ARMSTUDY_AGENTS_DIR } : {}), ...(process.env.ARMSTUDY_NETNS ? { ARMSTUDY_NETNS: process.env.ARMSTUDY_NETNS } : {}) } });
      const code = await main(["run", "--arm", "pi-json", "--model", "scripted:fixtures/tasks/stockbook/personas/diligent.yaml", "--dir", repo.dir, "--handoff", "fixtures/tasks/stockbook/handoff.md", "--out", out], cli);
      expect([code, cli.out]).toEqual([0, []]);
      const { events, warnings } = await readRecordFile(out);
      expect(warnings).toEqual([]);
      const start = events[0];
      expect(start?.type === "run.start" ? [start.arm, start.source, start.testDouble] : null).toEqual(["pi-json", "pi", true]);
      expect(events.at(-1)?.type).toBe("run.end");
      expect(Object.values(await acceptance(repo.dir))).toEqual([true, true, true, true, true, true]);
      // The persona server's request log is kept beside the record.
      expect((await readdir(outDir)).sort()).toEqual(["requests.jsonl", "run.jsonl"]);
    } finally {
      await repo.cleanup();
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
