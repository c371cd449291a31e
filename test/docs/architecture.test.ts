/**
 * docs/architecture.md against the code: its run-record table lists exactly the events of
 * `RunEvent` (src/run/record.ts) and names every field of each, every repository path it names
 * exists, every folder under src/ is described, and its relative links resolve.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RunEvent } from "../../src/run/record.ts";
import { ROOT, codeSpans, isRepoPath, repoPathExists, tables, withoutFences } from "./markdown.ts";

const DOC = join(ROOT, "docs/architecture.md");
const text = readFileSync(DOC, "utf8");

/** Event type → its fields (without the `t` and `type` every event has), from the zod union. */
function recordVocabulary(): Map<string, string[]> {
  const vocabulary = new Map<string, string[]>();
  for (const option of RunEvent.options) {
    const type = option.shape.type.value;
    vocabulary.set(
      type,
      Object.keys(option.shape).filter((key) => key !== "t" && key !== "type"),
    );
  }
  return vocabulary;
}

/** The doc's event table: event → the code spans of its "carries" cell. */
function eventTable(markdown: string): Map<string, string[]> {
  const table = tables(markdown).find((candidate) => candidate.header[0] === "event" && candidate.header[1] === "carries");
  if (table === undefined) throw new Error("docs/architecture.md has no table whose header starts with | event | carries |");
  const rows = new Map<string, string[]>();
  for (const row of table.rows) {
    const event = codeSpans(row[0] ?? "")[0] ?? (row[0] ?? "");
    if (rows.has(event)) throw new Error(`docs/architecture.md lists the event ${event} twice`);
    rows.set(event, codeSpans(row[1] ?? ""));
  }
  return rows;
}

/**
 * Every repository path the doc names: code spans that start with a top-level folder, and bare
 * file names in a table cell that says which folder they are in ("(in `dir/`)").
 */
function namedPaths(markdown: string): string[] {
  const prose = withoutFences(markdown);
  const paths = new Set(codeSpans(prose).filter(isRepoPath));
  for (const table of tables(markdown)) {
    for (const row of table.rows) {
      for (const cell of row) {
        const folder = /\((?:all )?in `([^`]+\/)`\)/.exec(cell)?.[1];
        if (folder === undefined) continue;
        for (const span of codeSpans(cell)) if (!span.includes("/") && /^[\w.-]+\.\w+$/.test(span)) paths.add(`${folder}${span}`);
      }
    }
  }
  return [...paths].sort();
}

/** Relative markdown link targets (no scheme, no anchor-only links), resolved from the doc's folder. */
function linkTargets(markdown: string, file: string): string[] {
  const prose = withoutFences(markdown);
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => (match[1] ?? "").split("#")[0] ?? "")
    .filter((target) => target !== "" && !/^[a-z]+:/i.test(target))
    .map((target) => relative(ROOT, resolve(dirname(file), target)) + (target.endsWith("/") ? "/" : ""));
}

function srcFolders(dir = join(ROOT, "src")): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return [`${relative(ROOT, path)}/`, ...srcFolders(path)];
    });
}

describe("docs/architecture.md: the run-record table", () => {
  const vocabulary = recordVocabulary();
  const documented = eventTable(text);

  it("lists exactly the event types of RunEvent in src/run/record.ts", () => {
    expect({ events: [...documented.keys()].sort() }).toEqual({ events: [...vocabulary.keys()].sort() });
  });

  it("names every field of every event in its 'carries' cell", () => {
    const missing = [...vocabulary].flatMap(([type, fields]) =>
      fields.filter((field) => !(documented.get(type) ?? []).includes(field)).map((field) => `${type}.${field}`),
    );
    // Add the field, in backticks, to the event's row of the table in docs/architecture.md.
    expect(missing).toEqual([]);
  });
});

describe("docs/architecture.md: paths and links", () => {
  it("names only paths that exist", () => {
    const paths = namedPaths(text);
    expect(paths.length).toBeGreaterThan(150);
    expect(paths.filter((path) => !repoPathExists(path))).toEqual([]);
  });

  it("describes every folder under src/", () => {
    const paths = namedPaths(text);
    const undescribed = srcFolders().filter((folder) => !paths.some((path) => path.startsWith(folder)));
    expect(undescribed).toEqual([]);
  });

  it("links only to files that exist", () => {
    const targets = linkTargets(text, DOC);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !repoPathExists(target))).toEqual([]);
  });
});

describe("the readers these checks rely on", () => {
  it("reads an event table, with pipes inside code spans kept in their cell", () => {
    const doc = ["# x", "", "| event | carries | by |", "|---|---|---|", "| `a.b` | `x`, `y` (`p \\| q`) | loop |", "| `c` | — | – |", ""].join("\n");
    expect([...eventTable(doc)]).toEqual([
      ["a.b", ["x", "y", "p | q"]],
      ["c", []],
    ]);
  });

  it("finds named paths, bare names under their folder, and skips placeholders and fenced code", () => {
    const doc = [
      "See `src/run/record.ts`, `runs/<arm>/run-<i>/record.jsonl`, `src/nope/<name>.ts` and `src/run/drivers/`.",
      "",
      "| file | what |",
      "|---|---|",
      "| `codex.ts`, `pi.ts` (in `src/run/drivers/`) | drivers |",
      "",
      "```sh",
      "cat `src/fenced-away.ts`",
      "```",
    ].join("\n");
    expect(namedPaths(doc)).toEqual(["src/run/drivers/", "src/run/drivers/codex.ts", "src/run/drivers/pi.ts", "src/run/record.ts"]);
  });

  it("tells existing paths, folders and globs from missing ones", () => {
    expect(
      ["src/run/record.ts", "src/run/", "src/run/record.ts/", "src/core/goal/prompts/*.md", "fixtures/tasks/stockbook/personas/*.toml", "src/run/records.ts"].map((path) => [path, repoPathExists(path)]),
    ).toEqual([
      ["src/run/record.ts", true],
      ["src/run/", true],
      ["src/run/record.ts/", false],
      ["src/core/goal/prompts/*.md", true],
      ["fixtures/tasks/stockbook/personas/*.toml", false],
      ["src/run/records.ts", false],
    ]);
  });
});
