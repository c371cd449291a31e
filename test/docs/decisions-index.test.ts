/**
 * docs/decisions/README.md against the folder: every ADR file is indexed once, with its number and
 * its heading's title, every link resolves, and no two files share a number.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tables } from "./markdown.ts";

const DIR = join(ROOT, "docs/decisions");

interface AdrFile {
  file: string;
  number: string;
  title: string;
}

/** Every `NNNN-*.md` in the folder with the title from its `# NNNN — Title` heading. */
function adrFiles(dir: string): AdrFile[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .sort()
    .map((file) => {
      const heading = readFileSync(join(dir, file), "utf8").split(/\r?\n/, 1)[0] ?? "";
      const match = /^# (\d{4}) — (.+)$/.exec(heading);
      return { file, number: match?.[1] ?? `(heading "${heading}")`, title: match?.[2]?.trim() ?? "" };
    });
}

/** Index rows: `| [NNNN](file) | title | line |`. */
function indexRows(markdown: string): Array<{ number: string; file: string; title: string; line: string }> {
  return tables(markdown)
    .filter((table) => table.header[0] === "ADR")
    .flatMap((table) => table.rows)
    .map((row) => {
      const link = /^\[(\d{4})\]\(([^)]+)\)$/.exec(row[0] ?? "");
      return { number: link?.[1] ?? row[0] ?? "", file: link?.[2] ?? "", title: row[1] ?? "", line: row[2] ?? "" };
    });
}

/** Numbers used by more than one file, with the files. */
function collisions(files: readonly AdrFile[]): Record<string, string[]> {
  const byNumber = new Map<string, string[]>();
  for (const { file } of files) {
    const number = file.slice(0, 4);
    byNumber.set(number, [...(byNumber.get(number) ?? []), file]);
  }
  return Object.fromEntries([...byNumber].filter(([, names]) => names.length > 1));
}

describe("docs/decisions/README.md", () => {
  const files = adrFiles(DIR);
  const rows = indexRows(readFileSync(join(DIR, "README.md"), "utf8"));

  it("every ADR file has a '# NNNN — Title' heading whose number matches its file name", () => {
    expect(files.filter(({ file, number }) => !file.startsWith(`${number}-`)).map(({ file }) => file)).toEqual([]);
  });

  it("no two ADR files share a number", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(collisions(files)).toEqual({});
  });

  it("indexes every ADR file exactly once, with its number, file and title, in order", () => {
    // A new ADR: add a row `| [NNNN](NNNN-name.md) | its title | one line |` under its area.
    expect(rows.map(({ number, file, title }) => ({ number, file, title }))).toEqual(files.map(({ number, file, title }) => ({ number, file, title })));
  });

  it("gives every ADR a one-line summary", () => {
    expect(rows.filter((row) => row.line.trim().length < 20).map((row) => row.number)).toEqual([]);
  });
});

describe("the collision check", () => {
  it("names the files that share a number", () => {
    const files = ["0001-a.md", "0002-b.md", "0002-c.md"].map((file) => ({ file, number: file.slice(0, 4), title: "" }));
    expect(collisions(files)).toEqual({ "0002": ["0002-b.md", "0002-c.md"] });
  });
});
