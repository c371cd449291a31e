import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvelopeFileError } from "../../../src/study/envelope/files.ts";
import { checkIntentFreshness, stampIntentFile } from "../../../src/study/envelope/intent.ts";

let dir = "";
let file = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "armstudy-intent-"));
  file = join(dir, ".build-loop/intent.md");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("intent files", () => {
  it("goes missing → unstamped → fresh → stale over two runs", async () => {
    expect((await checkIntentFreshness(dir, "r1")).verdict).toBe("missing");
    await mkdir(join(dir, ".build-loop"));
    await writeFile(file, "## Restated intent\nShip the report.\n");
    expect((await checkIntentFreshness(dir, "r1")).verdict).toBe("unstamped");
    expect(await stampIntentFile(dir, "r1")).toEqual({ file, previous: [] });
    expect(await checkIntentFreshness(dir, "r1")).toEqual({ verdict: "fresh", run_id: "r1", stamped: ["r1"], message: "intent: fresh — .build-loop/intent.md is stamped for run r1", file });
    expect((await checkIntentFreshness(dir, "r2")).verdict).toBe("stale");
    expect(await stampIntentFile(dir, "r2")).toEqual({ file, previous: ["r1"] });
    expect(await readFile(file, "utf8")).toBe("<!-- intent_run_id: r2 -->\n## Restated intent\nShip the report.\n");
    expect(await readdir(join(dir, ".build-loop"))).toEqual(["intent.md"]);
  });

  it("never throws while checking: what it cannot check is unchecked", async () => {
    expect(await checkIntentFreshness(join(dir, "nowhere"), "r1")).toEqual({
      verdict: "unchecked",
      run_id: "r1",
      stamped: [],
      message: `intent: unchecked — workdir ${join(dir, "nowhere")} does not exist`,
      file: join(dir, "nowhere/.build-loop/intent.md"),
    });
    await mkdir(file, { recursive: true });
    expect((await checkIntentFreshness(dir, "r1")).message).toBe(`intent: unchecked — ${file} cannot be read (EISDIR)`);
    expect((await checkIntentFreshness(dir, "bad id")).verdict).toBe("unchecked");
  });

  it("refuses to stamp a file that is not there, or a bad run id", async () => {
    await expect(stampIntentFile(dir, "r1")).rejects.toThrow(new EnvelopeFileError(`${file} does not exist: write the intent restatement first, then stamp it`, file));
    await expect(stampIntentFile(dir, "a b")).rejects.toThrow(EnvelopeFileError);
  });
});
