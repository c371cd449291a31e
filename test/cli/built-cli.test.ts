/**
 * The CLI's cached build (bin/cli-build.js, ADR 0238): bin/armstudy.js builds the CLI when no build matches the sources,
 * runs the build while every source still matches, builds again when one does not, and prints exactly what the sources
 * print. The real bin as a child process, its cache in a temporary folder of the checkout's node_modules/.cache (a build
 * imports the packages it leaves out from the checkout's node_modules).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin/armstudy.js");
const SESSION = "fixtures/sessions/claude-agent-sdk-gleam/basic_query.ndjson";
let cache: string;

beforeEach(async () => {
  await mkdir(join(ROOT, "node_modules/.cache"), { recursive: true });
  cache = await mkdtemp(join(ROOT, "node_modules/.cache/armstudy-cli-test-"));
});
afterEach(async () => {
  await rm(cache, { recursive: true, force: true });
});

interface Pointer {
  build: string | null;
  node: string;
  inputs: [string, number, number][];
}

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ARMSTUDY_CLI_CACHE: cache, ...env } }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr });
    });
  });
}

const pointer = async (): Promise<Pointer> => JSON.parse(await readFile(join(cache, "current.json"), "utf8")) as Pointer;

describe("the CLI's cached build", () => {
  it("is built on the first start, runs while its sources match, is built again after one changes, and prints what the sources print", async () => {
    const fromSources = await cli(["analyze", SESSION], { ARMSTUDY_FROM_SOURCES: "1" });
    // The first start finds no build: it builds one, naming every source the bundle holds.
    const first = await cli(["analyze", SESSION]);
    expect(first).toEqual(fromSources);
    const built = await pointer();
    const sources = built.inputs.map(([path]) => path);
    expect({ node: built.node, main: sources.includes(join(ROOT, "src/cli/main.ts")), analyzer: sources.includes(join(ROOT, "src/core/report/analyze.ts")), settings: sources.includes(join(ROOT, "tsconfig.json")) }).toEqual({ node: process.version, main: true, analyzer: true, settings: true });
    expect((await readdir(join(cache, built.build as string))).includes("main.mjs")).toBe(true);
    // A start whose sources all match runs that build.
    expect(await cli(["analyze", SESSION])).toEqual(fromSources);
    expect((await pointer()).build).toBe(built.build);
    // A source whose size or time differs from what the build was made from (as after an edit) is built again.
    const stale: Pointer = { ...built, inputs: built.inputs.map(([path, size, mtimeMs]) => [path, size, path.endsWith("src/core/report/patterns.ts") ? mtimeMs - 1 : mtimeMs]) };
    await writeFile(join(cache, "current.json"), JSON.stringify(stale));
    expect(await cli(["--help"])).toEqual(await cli(["--help"], { ARMSTUDY_FROM_SOURCES: "1" }));
    const again = await pointer();
    expect(again.build === built.build).toBe(false);
    expect(again.inputs.length).toBe(built.inputs.length);
  }, 60_000);

  it("runs the sources, and builds nothing, while the files a failed build read are unchanged", async () => {
    const tsconfig = join(ROOT, "tsconfig.json");
    const info = await stat(tsconfig);
    const failed: Pointer = { build: null, node: process.version, inputs: [[tsconfig, info.size, info.mtimeMs]] };
    await writeFile(join(cache, "current.json"), JSON.stringify(failed));
    expect(await cli(["--help"])).toEqual(await cli(["--help"], { ARMSTUDY_FROM_SOURCES: "1" }));
    expect({ pointer: await pointer(), files: await readdir(cache) }).toEqual({ pointer: failed, files: ["current.json"] });
  }, 60_000);

  it("runs the sources when no build can be written (the cache is a file)", async () => {
    const blocked = join(cache, "not-a-folder");
    await writeFile(blocked, "");
    const result = await cli(["--help"], { ARMSTUDY_CLI_CACHE: blocked });
    expect(result).toEqual(await cli(["--help"], { ARMSTUDY_FROM_SOURCES: "1" }));
    expect(await readFile(blocked, "utf8")).toBe("");
  }, 60_000);
});
