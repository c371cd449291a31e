import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { costOf, priceFor } from "../../src/measure/prices.ts";
import { familyOf, filesReadByCommand, shellWords, simpleCommands } from "../../src/measure/tool-families.ts";

describe("tool families", () => {
  it("maps each agent's spelling of a read, a shell call and an edit to one family", () => {
    expect(["read_file", "Read", "read", "exec_command", "Bash", "bash", "command_execution", "apply_patch", "Edit", "TodoWrite", "update_plan", "made_up"].map(familyOf)).toEqual([
      "read",
      "read",
      "read",
      "shell",
      "shell",
      "shell",
      "shell",
      "edit",
      "edit",
      "plan",
      "plan",
      null,
    ]);
  });

  it.each([
    ["cat a.txt", ["a.txt"]],
    ["sed -n '1,200p' src/x.ts", ["src/x.ts"]],
    ["sed -i 's/a/b/' src/x.ts", []],
    ["head -n 50 README.md && tail -c 10 b.log", ["README.md", "b.log"]],
    ["git log | head -20", []],
    ["cat a b | wc -l", ["a", "b"]],
    ["/bin/zsh -lc \"sed -n '1,80p' 'dir with space/f.md'\"", ["dir with space/f.md"]],
    ["FOO=1 nl -ba src/y.rs; echo done", ["src/y.rs"]],
    ["npm test", []],
    ["cat > out.txt", []],
  ])("%s reads %j", (command, files) => {
    expect(filesReadByCommand(command)).toEqual(files);
  });

  it("argv arrays (Codex local_shell, exec events) unwrap `bash -c`", () => {
    expect(filesReadByCommand(["/bin/bash", "-c", "cat notes.md"])).toEqual(["notes.md"]);
  });

  it("a command named like an Object property (toString, constructor, __proto__) reads no file", () => {
    // fast-check found "toString !": the table lookup must see own keys only.
    expect(["toString !", "constructor x", "__proto__ y", "hasOwnProperty z"].map((c) => filesReadByCommand(c))).toEqual([[], [], [], []]);
  });

  it("splits words and simple commands outside quotes only", () => {
    expect(shellWords(`a "b c" 'd;e' f\\ g`)).toEqual(["a", "b c", "d;e", "f g"]);
    expect(simpleCommands(`a && b || c; d | e "x|y"`)).toEqual([
      { text: "a", piped: false },
      { text: "b", piped: false },
      { text: "c", piped: false },
      { text: "d", piped: false },
      { text: 'e "x|y"', piped: true },
    ]);
  });

  it("property: never throws on arbitrary command text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (s) => {
        expect(Array.isArray(filesReadByCommand(s))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("prices", () => {
  it("finds a row by exact id, without a provider prefix, or without a date suffix; null otherwise", () => {
    expect(priceFor("claude-sonnet-4-5-20250929")).toEqual({ input: 3, cachedInput: 0.3, cacheWrite: 3.75, cacheWrite1h: 6, output: 15, source: "claude-code-2.1.332" });
    expect(priceFor("anthropic/claude-opus-4-5")?.output).toBe(25);
    expect(priceFor("gpt-4.5-preview")).toBe(null);
    expect(priceFor(null)).toBe(null);
  });

  it("the claude-opus-4-5 row reproduces every per-message cost pi recorded in the fixture, to the cent", () => {
    const price = priceFor("claude-opus-4-5")!;
    const path = join(import.meta.dirname, "../../fixtures/sessions/pi-mono/before-compaction.jsonl");
    let worst = 0;
    let n = 0;
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (!line.includes('"role":"assistant"')) continue;
      const m = JSON.parse(line).message;
      if (m.model !== "claude-opus-4-5" || !m.usage?.cost) continue;
      const u = m.usage;
      const ours = costOf({ input: u.input + u.cacheRead + u.cacheWrite, cachedInput: u.cacheRead, cacheWrite: u.cacheWrite, output: u.output }, price);
      worst = Math.max(worst, Math.abs((ours ?? Number.NaN) - u.cost.total));
      n += 1;
    }
    expect(n).toBeGreaterThan(400);
    expect(worst).toBeLessThan(0.005);
  });
});
