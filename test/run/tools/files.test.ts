import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolbox, UNATTENDED_ANSWER, type ToolContext } from "../../../src/run/tools/index.ts";

let dir: string;
let context: ToolContext;
const tools = createToolbox();

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-files-")));
  await mkdir(path.join(dir, "src"));
  await mkdir(path.join(dir, ".git"));
  await mkdir(path.join(dir, "node_modules"));
  await writeFile(path.join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  await writeFile(path.join(dir, "node_modules", "x.js"), "needle\n");
  await writeFile(path.join(dir, "src", "a.js"), "const a = 1;\nconst needle = 2;\nconst b = a;\n");
  await writeFile(path.join(dir, "src", "b.js"), "// Needle here\nconst b = 3;\nconst b = 3;\n");
  await writeFile(path.join(dir, "bin.dat"), Buffer.from([0, 110, 101, 101, 100, 108, 101]));
  context = { dir, env: {} };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function call(name: string, args: Record<string, unknown>) {
  return tools.run({ id: "t", name, arguments: args }, context);
}

describe("file tools", () => {
  it("read_file reads whole files and line ranges", async () => {
    expect(await call("read_file", { path: "src/a.js" })).toEqual({ ok: true, output: "const a = 1;\nconst needle = 2;\nconst b = a;\n" });
    expect(await call("read_file", { path: "src/a.js", offset: 2, limit: 1 })).toEqual({ ok: true, output: "const needle = 2;" });
    expect(await call("read_file", { path: "src/missing.js" })).toEqual({ ok: false, output: "src/missing.js: no such file or directory" });
    expect(await call("read_file", { path: "src" })).toEqual({ ok: false, output: "src is a directory; use list_files to see what it holds" });
  });

  it("read_file shows the head of a file past the output limit and says how to read on", async () => {
    await writeFile(path.join(dir, "long.txt"), "0123456789\n".repeat(5));
    const outcome = await tools.run({ id: "t", name: "read_file", arguments: { path: "long.txt" } }, { ...context, outputLimit: 25 });
    expect(outcome).toEqual({ ok: true, output: "0123456789\n0123456789\n[file is 6 lines; showing lines 1-2. Pass offset=3 to read on.]" });
  });

  it("write_file creates folders and reports the change", async () => {
    expect(await call("write_file", { path: "new/deep/c.js", content: "x\ny\n" })).toEqual({
      ok: true,
      output: "wrote new/deep/c.js (2 lines)",
      changedFiles: ["new/deep/c.js"],
    });
    expect(await readFile(path.join(dir, "new/deep/c.js"), "utf8")).toBe("x\ny\n");
  });

  it("edit_file replaces exactly one occurrence and refuses absent or ambiguous text", async () => {
    expect(await call("edit_file", { path: "src/a.js", old_text: "const a = 1;", new_text: "const a = 10;" })).toEqual({
      ok: true,
      output: "edited src/a.js",
      changedFiles: ["src/a.js"],
    });
    expect(await readFile(path.join(dir, "src/a.js"), "utf8")).toBe("const a = 10;\nconst needle = 2;\nconst b = a;\n");
    expect(await call("edit_file", { path: "src/a.js", old_text: "nope", new_text: "x" })).toEqual({
      ok: false,
      output: "src/a.js: old_text was not found; read the file and copy the text exactly",
    });
    expect(await call("edit_file", { path: "src/b.js", old_text: "const b = 3;", new_text: "x" })).toEqual({
      ok: false,
      output: "src/b.js: old_text occurs 2 times; add surrounding lines so it occurs once",
    });
    expect(await readFile(path.join(dir, "src/b.js"), "utf8")).toBe("// Needle here\nconst b = 3;\nconst b = 3;\n");
  });

  it("list_files lists in name order, skipping .git and node_modules, to a depth", async () => {
    expect(await call("list_files", {})).toEqual({ ok: true, output: "bin.dat\nsrc/\nsrc/a.js\nsrc/b.js" });
    expect(await call("list_files", { depth: 1 })).toEqual({ ok: true, output: "bin.dat\nsrc/" });
    expect(await call("list_files", { path: "src" })).toEqual({ ok: true, output: "src/a.js\nsrc/b.js" });
  });

  it("search finds plain text, regular expressions and case-insensitive matches, skipping binaries", async () => {
    expect(await call("search", { pattern: "needle" })).toEqual({ ok: true, output: "src/a.js:2: const needle = 2;" });
    expect(await call("search", { pattern: "needle", ignore_case: true })).toEqual({
      ok: true,
      output: "src/a.js:2: const needle = 2;\nsrc/b.js:1: // Needle here",
    });
    expect(await call("search", { pattern: "^const b = \\d;$", regex: true, path: "src/b.js" })).toEqual({
      ok: true,
      output: "src/b.js:2: const b = 3;\nsrc/b.js:3: const b = 3;",
    });
    expect(await call("search", { pattern: "(", regex: true })).toEqual({
      ok: false,
      output: "search: `pattern` is not a valid regular expression: Invalid regular expression: /(/: Unterminated group",
    });
  });

  it("update_plan returns the list; ask_user answers that nobody is available and keeps the question", async () => {
    const items = [
      { text: "B1", status: "completed" },
      { text: "B2", status: "in_progress" },
    ];
    expect(await call("update_plan", { items })).toEqual({ ok: true, output: "plan updated: 1 of 2 completed", plan: items });
    expect(await call("ask_user", { question: "Shall I go on?" })).toEqual({ ok: false, output: UNATTENDED_ANSWER, question: "Shall I go on?" });
  });

  it("an unknown tool is an error the model can read", async () => {
    expect(await call("delete_everything", {})).toEqual({
      ok: false,
      output: 'unknown tool "delete_everything"; the tools are: read_file, write_file, edit_file, list_files, search, shell, update_plan, ask_user',
    });
  });
});
