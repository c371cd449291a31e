import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolbox, type ToolContext } from "../../../src/run/tools/index.ts";

let root: string;
let dir: string;
let outside: string;
let context: ToolContext;
const tools = createToolbox();

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "armstudy-confine-")));
  dir = path.join(root, "work");
  outside = path.join(root, "outside");
  await mkdir(dir);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "outside secret\n");
  await writeFile(path.join(dir, "inside.txt"), "inside\n");
  context = { dir, env: {} };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function call(name: string, args: Record<string, unknown>) {
  return tools.run({ id: "c1", name, arguments: args }, context);
}

describe("path confinement", () => {
  it.each([
    ["read_file", { path: "../outside/secret.txt" }],
    ["read_file", { path: "sub/../../outside/secret.txt" }],
    ["write_file", { path: "../outside/new.txt", content: "x" }],
    ["list_files", { path: ".." }],
    ["search", { pattern: "secret", path: "../outside" }],
    ["edit_file", { path: "..\\outside\\secret.txt", old_text: "outside", new_text: "x" }],
  ])("%s refuses a `..` path %j", async (name, args) => {
    const outcome = await call(name, args);
    expect(outcome).toEqual({
      ok: false,
      output: `path ${JSON.stringify(args.path)} refused: \`..\` segments are not allowed. Give a path relative to the work directory, inside it.`,
    });
  });

  it.each([
    ["read_file", { path: "/etc/passwd" }],
    ["write_file", { path: "/tmp/armstudy-should-not-exist.txt", content: "x" }],
    ["read_file", { path: "C:\\Windows\\win.ini" }],
  ])("%s refuses an absolute path %j", async (name, args) => {
    const outcome = await call(name, args);
    expect(outcome).toEqual({
      ok: false,
      output: `path ${JSON.stringify(args.path)} refused: absolute paths are not allowed. Give a path relative to the work directory, inside it.`,
    });
  });

  it("refuses a symbolic link that leads outside, for reading and for writing through it", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(dir, "link.txt"));
    await symlink(outside, path.join(dir, "linkdir"));
    const refused = (p: string) => ({
      ok: false,
      output: `path ${JSON.stringify(p)} refused: a symbolic link along it leads outside the work directory. Give a path relative to the work directory, inside it.`,
    });
    expect(await call("read_file", { path: "link.txt" })).toEqual(refused("link.txt"));
    expect(await call("write_file", { path: "link.txt", content: "pwned" })).toEqual(refused("link.txt"));
    expect(await call("write_file", { path: "linkdir/new.txt", content: "pwned" })).toEqual(refused("linkdir/new.txt"));
    expect(await call("list_files", { path: "linkdir" })).toEqual(refused("linkdir"));
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("outside secret\n");
  });

  it("refuses a dangling link whose target would be created outside", async () => {
    await symlink(path.join(outside, "later.txt"), path.join(dir, "dangling.txt"));
    expect(await call("write_file", { path: "dangling.txt", content: "x" })).toEqual({
      ok: false,
      output:
        'path "dangling.txt" refused: a symbolic link along it leads outside the work directory. Give a path relative to the work directory, inside it.',
    });
  });

  it("does not search through a link that leads outside", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(dir, "link.txt"));
    expect(await call("search", { pattern: "secret" })).toEqual({ ok: true, output: "no matches" });
  });

  it("follows a link that stays inside", async () => {
    await symlink(path.join(dir, "inside.txt"), path.join(dir, "alias.txt"));
    expect(await call("read_file", { path: "alias.txt" })).toEqual({ ok: true, output: "inside\n" });
  });

  it("treats names that only look like escapes as ordinary files", async () => {
    expect(await call("write_file", { path: "..foo", content: "dots\n" })).toEqual({ ok: true, output: "wrote ..foo (1 lines)", changedFiles: ["..foo"] });
    expect(await call("write_file", { path: "a/...", content: "three\n" })).toEqual({ ok: true, output: "wrote a/... (1 lines)", changedFiles: ["a/..."] });
    expect(await call("read_file", { path: "..foo" })).toEqual({ ok: true, output: "dots\n" });
    expect(await readFile(path.join(dir, "..foo"), "utf8")).toBe("dots\n");
    expect(await call("list_files", {})).toEqual({ ok: true, output: "..foo\na/\na/...\ninside.txt" });
  });

  it("refuses an empty path with the field named", async () => {
    expect(await call("read_file", { path: "" })).toEqual({ ok: false, output: "argument `path` must be a non-empty relative path" });
  });
});
