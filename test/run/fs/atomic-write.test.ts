import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomic, writeJsonAtomic } from "../../../src/run/fs/atomic-write.ts";

describe("atomic writes", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "armstudy-atomic-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("writes text and bytes, replaces an existing file, and leaves nothing else beside it", async () => {
    const dir = tempDir();
    await writeFileAtomic(join(dir, "a.txt"), "first");
    await writeFileAtomic(join(dir, "a.txt"), "second");
    await writeFileAtomic(join(dir, "b.bin"), new Uint8Array([1, 2, 3]));
    await writeJsonAtomic(join(dir, "c.json"), { x: [1] });
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.bin", "c.json"]);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("second");
    expect([...readFileSync(join(dir, "b.bin"))]).toEqual([1, 2, 3]);
    expect(readFileSync(join(dir, "c.json"), "utf8")).toBe('{\n  "x": [\n    1\n  ]\n}\n');
  });

  it("a failed rename throws and removes its temporary file", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "taken", "child"), { recursive: true });
    await expect(writeFileAtomic(join(dir, "taken"), "text")).rejects.toMatchObject({ code: "EISDIR" });
    expect(readdirSync(dir)).toEqual(["taken"]);
  });
});
