// The CLI's cached build (docs/decisions/0238): src/cli/main.ts and every source it imports bundled by esbuild into
// node_modules/.cache/armstudy-cli, one folder per build, and a pointer naming the build and each source it was made
// from (path, size, modification time). A start whose sources all still match runs the build — plain JavaScript, no
// loader hooks; any other start builds again first. Packages stay outside the bundle, loaded as always.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
// ARMSTUDY_CLI_CACHE moves it (the tests build into a temporary folder): a folder of the checkout, where the packages a
// build leaves out are found.
const CACHE = process.env.ARMSTUDY_CLI_CACHE ?? join(ROOT, "node_modules/.cache/armstudy-cli");
const POINTER = join(CACHE, "current.json");
/** A build a running process may still import a command's chunk from is kept this long after a newer one replaces it. */
const KEEP_OLD_MS = 24 * 60 * 60 * 1000;
/** What a build depends on besides its sources: the build's own code and settings, Node and esbuild. */
const SETTINGS = [fileURLToPath(import.meta.url), join(ROOT, "tsconfig.json"), join(ROOT, "package.json"), join(ROOT, "node_modules/esbuild/package.json")];

const stamp = (path) => {
  const info = statSync(path);
  return [path, info.size, info.mtimeMs];
};

/**
 * The pointed build's main.mjs when it matches every file it names; null when the last build from these very files
 * failed (the sources run, and no start tries again until a file changes); undefined when there is none to run.
 */
function current() {
  let pointer;
  try {
    pointer = JSON.parse(readFileSync(POINTER, "utf8"));
  } catch {
    return undefined;
  }
  if (pointer.node !== process.version || !Array.isArray(pointer.inputs)) return undefined;
  for (const [path, size, mtimeMs] of pointer.inputs) {
    try {
      const info = statSync(path);
      if (info.size !== size || info.mtimeMs !== mtimeMs) return undefined;
    } catch {
      return undefined;
    }
  }
  return pointer.build === null ? null : join(CACHE, pointer.build, "main.mjs");
}

/** Points at a build, or (build null) records that the files read so far did not build. */
function point(build, inputs) {
  // Written whole and renamed: a process reading the pointer sees the old one or the new one.
  const next = join(CACHE, `current.${process.pid}.${Date.now().toString(36)}.json`);
  writeFileSync(next, JSON.stringify({ build, node: process.version, inputs }));
  renameSync(next, POINTER);
}

/**
 * esbuild bundles each module as one scope, where `import.meta` would be the chunk's: each source's own `import.meta.url`
 * and `import.meta.dirname` are written in as text, and a source that reads anything else of `import.meta` fails the build.
 */
const ownImportMeta = {
  name: "own-import-meta",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8")
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(dirname(args.path)));
      if (/\bimport\.meta\b/.test(text)) throw new Error(`${args.path} reads import.meta beyond url and dirname`);
      return { contents: text, loader: "ts" };
    });
  },
};

/** Builds the CLI into a new folder and points at it; returns its main.mjs. Stamps are taken before the build reads. */
async function build() {
  const { build: esbuild } = await import("esbuild");
  const id = `${Date.now().toString(36)}-${process.pid}`;
  const out = join(CACHE, id);
  const before = new Map();
  let result;
  try {
    result = await esbuild({
      absWorkingDir: ROOT,
      entryPoints: [join(ROOT, "src/cli/main.ts")],
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: `node${process.versions.node.split(".")[0]}`,
      packages: "external",
      outdir: out,
      // .mjs: ESM by name (no package.json scope reaches into node_modules/.cache).
      outExtension: { ".js": ".mjs" },
      metafile: true,
      sourcemap: true,
      logLevel: "silent",
      plugins: [
        {
          name: "stamps",
          setup(b) {
            b.onLoad({ filter: /\.ts$/ }, (args) => {
              before.set(args.path, stamp(args.path));
              return undefined;
            });
          },
        },
        ownImportMeta,
      ],
    });
  } catch (error) {
    point(null, [...SETTINGS.map(stamp), ...before.values()]);
    throw error;
  }
  const sources = Object.keys(result.metafile.inputs).map((input) => join(ROOT, input));
  const inputs = [...SETTINGS.map(stamp), ...sources.map((path) => before.get(path) ?? stamp(path))];
  point(id, inputs);
  for (const name of readdirSync(CACHE)) {
    if (name === id || name === "current.json") continue;
    const path = join(CACHE, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Pruned by another process meanwhile.
    }
  }
  return join(out, "main.mjs");
}

/** The built CLI's main.mjs, built now when it is missing or older than a source; null when it cannot be built. */
export async function builtCli() {
  const ready = current();
  if (ready !== undefined) return ready;
  try {
    mkdirSync(CACHE, { recursive: true });
    return await build();
  } catch {
    return null;
  }
}
