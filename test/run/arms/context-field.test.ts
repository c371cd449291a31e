/** arm.yaml `context:` (ADR 0103): a word or settings, inherited through extends, refused for real clients. */
import { describe, expect, it } from "vitest";
import { loadArm } from "../../../src/run/arms/load.ts";
import { section, tempTree } from "./helpers.ts";

describe("arm.yaml context", () => {
  it("reads `off` / `on` / `auto` or settings, and a child inherits its parent's", async () => {
    const dir = tempTree({
      "base/arm.yaml": "context: { mode: on, window: 16000, threshold: 0.7 }\n",
      "base/sections/a.md": section("a", 10, "Section A."),
      "child/arm.yaml": "extends: base\n",
      "plain/arm.yaml": "context: off\n",
      "plain/sections/a.md": section("a", 10, "Section A."),
      "none/arm.yaml": "description: nothing said\n",
      "none/sections/a.md": section("a", 10, "Section A."),
    });
    const context = async (name: string) => (await loadArm(dir, name, { cwd: dir, budgetsFile: null })).context;
    expect(await context("base")).toEqual({ mode: "on", window: 16000, threshold: 0.7 });
    expect(await context("child")).toEqual({ mode: "on", window: 16000, threshold: 0.7 });
    expect(await context("plain")).toEqual({ mode: "off" });
    expect(await context("none")).toBeUndefined();
  });

  it("is refused for a real-client arm and for a bad threshold, naming file and field", async () => {
    const dir = tempTree({ "cx/arm.yaml": "agent: codex\ncontext: on\n", "bad/arm.yaml": "context: { threshold: 2 }\n" });
    await expect(loadArm(dir, "cx", { cwd: dir, budgetsFile: null })).rejects.toThrow("cx/arm.yaml: line 2: context: a codex arm runs the client with its own context handling; remove context.");
    await expect(loadArm(dir, "bad", { cwd: dir, budgetsFile: null })).rejects.toThrow(/bad\/arm\.yaml: line 1: context/);
  });
});
