/** Arm files that are not what they should be: a folder for a file, a file for a folder, bytes that are not UTF-8. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadArm } from "../../../src/run/arms/load.ts";
import { section, tempTree } from "./helpers.ts";

const ARM = {
  "base/arm.yaml": "description: the base\npolicies:\n  - name: none\n",
  "base/sections/a.md": section("a", 10, "Section A."),
};

async function problem(dir: string): Promise<{ name: string; code: string; message: string }> {
  try {
    await loadArm(dir, "base", { cwd: dir, budgetsFile: null });
  } catch (error) {
    const { name, code, message } = error as { name: string; code: string; message: string };
    return { name, code, message };
  }
  throw new Error("expected the arm to be refused");
}

describe("arm files that cannot be used as they are", () => {
  it("an arm.yaml that is a folder is named (was EISDIR with no file, exit 1)", async () => {
    const dir = tempTree(ARM);
    rmSync(join(dir, "base/arm.yaml"));
    mkdirSync(join(dir, "base/arm.yaml"));
    expect(await problem(dir)).toEqual({
      name: "PackError",
      code: "UNREADABLE",
      message: "base/arm.yaml: is a folder, not a file; move it away or make it the file it should be.",
    });
  });

  it("a section file in Latin-1 is refused naming its line, not sent to the model with U+FFFD", async () => {
    const dir = tempTree(ARM);
    writeFileSync(join(dir, "base/sections/a.md"), Buffer.concat([Buffer.from(section("a", 10, "Menu:")), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]));
    expect(await problem(dir)).toEqual({
      name: "PackError",
      code: "UNREADABLE",
      message: "base/sections/a.md: line 6: is not UTF-8 text; save the file as UTF-8.",
    });
  });

  it("a sections entry that is a file is named, not silently taken as no sections", async () => {
    const dir = tempTree({ "base/arm.yaml": ARM["base/arm.yaml"], "base/sections": "a.md\n" });
    expect(await problem(dir)).toEqual({
      name: "PackError",
      code: "UNREADABLE",
      message: "base/sections: is a file, but it should be a folder (one .md file per section); move the file away.",
    });
  });
});
