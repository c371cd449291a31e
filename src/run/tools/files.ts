/**
 * The file tools: read_file, write_file, edit_file, list_files and search. They run in armstudy's
 * own process, outside the sandbox, so every path goes through `confine` (no `..`, no absolute
 * path, no link leading out), a file with several hard links is refused, and nothing is written in
 * `.git`. A file they write goes to the work directory's sandbox user, so the agent's shell can
 * change it later.
 */
import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { parseArgs } from "./args.ts";
import { capMiddle } from "./output.ts";
import { matchOwner } from "../sandbox/owner.ts";
import { confine, refuseHardLinks } from "./paths.ts";
import { DEFAULT_OUTPUT_LIMIT, type Tool, type ToolContext, ToolError } from "./types.ts";

/** Folders no listing or search descends into: version control and installed dependencies. */
const SKIPPED_DIRS = new Set([".git", "node_modules"]);
const MAX_SEARCH_FILE_BYTES = 1_000_000;
const MAX_LIST_ENTRIES = 2_000;
const MAX_SEARCH_MATCHES = 200;

function ioError(verb: string, relative: string, error: unknown): ToolError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new ToolError("TOOL_NOT_FOUND", `${relative}: no such file or directory`);
  if (code === "EISDIR") return new ToolError("TOOL_IO", `${relative} is a directory; use list_files to see what it holds`);
  if (code === "ENOTDIR") return new ToolError("TOOL_IO", `${relative}: a part of the path is a file, not a directory`);
  return new ToolError("TOOL_IO", `cannot ${verb} ${relative}: ${code ?? (error as Error).message}`);
}

async function readText(absolute: string, relative: string): Promise<string> {
  try {
    return await readFile(absolute, "utf8");
  } catch (error) {
    throw ioError("read", relative, error);
  }
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
async function writeText(dir: string, absolute: string, relative: string, content: string): Promise<void> {
  try {
    const made = await mkdir(path.dirname(absolute), { recursive: true });
    await writeFileAtomic(absolute, content);
    const root = path.resolve(dir);
    matchOwner(made ?? absolute, root);
    if (made !== undefined) matchOwner(absolute, root);
  } catch (error) {
    throw ioError("write", relative, error);
  }
}

const ReadArgs = z.object({
  path: z.string(),
  offset: z.number().int().positive().optional(),
  limit: z.number().int().positive().optional(),
});

export const readFileTool: Tool = {
  spec: {
    name: "read_file",
    description:
      "Read a text file in the work directory. Optional `offset` (first line, 1-based) and `limit` (number of lines) read part of a long file.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Path relative to the work directory." },
        offset: { type: "integer", minimum: 1, description: "First line to return, 1-based." },
        limit: { type: "integer", minimum: 1, description: "How many lines to return." },
      },
      required: ["path"],
      additionalProperties: false,
    },
  },
  async run(args, context) {
    const { path: given, offset, limit } = parseArgs("read_file", ReadArgs, args);
    const target = await confine(context.dir, given);
    await refuseHardLinks(target);
    const text = await readText(target.absolute, target.relative);
    const max = context.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
    if (offset === undefined && limit === undefined) {
      if (text.length <= max) return { ok: true, output: text };
      const lines = text.split("\n");
      let shown = 0;
      let used = 0;
      while (shown < lines.length && used + (lines[shown]?.length ?? 0) + 1 <= max) {
        used += (lines[shown]?.length ?? 0) + 1;
        shown += 1;
      }
      const head = lines.slice(0, shown).join("\n");
      return {
        ok: true,
        output: `${head}\n[file is ${lines.length} lines; showing lines 1-${shown}. Pass offset=${shown + 1} to read on.]`,
      };
    }
    const lines = text.split("\n");
    const start = (offset ?? 1) - 1;
    const end = limit === undefined ? lines.length : Math.min(lines.length, start + limit);
    if (start >= lines.length) {
      return { ok: false, output: `${target.relative} has ${lines.length} lines; offset ${start + 1} is past the end` };
    }
    return { ok: true, output: capMiddle(lines.slice(start, end).join("\n"), max) };
  },
};

const WriteArgs = z.object({ path: z.string(), content: z.string() });

export const writeFileTool: Tool = {
  spec: {
    name: "write_file",
    description: "Create or replace a file in the work directory with the given content. Missing folders are created.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Path relative to the work directory." },
        content: { type: "string", description: "The whole new content of the file." },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
  },
  async run(args, context) {
    const { path: given, content } = parseArgs("write_file", WriteArgs, args);
    const target = await confine(context.dir, given, "path", { write: true });
    await refuseHardLinks(target);
    await writeText(context.dir, target.absolute, target.relative, content);
    const lines = content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
    return { ok: true, output: `wrote ${target.relative} (${lines} lines)`, changedFiles: [target.relative] };
  },
};

const EditArgs = z.object({ path: z.string(), old_text: z.string().min(1), new_text: z.string() });

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}

export const editFileTool: Tool = {
  spec: {
    name: "edit_file",
    description:
      "Replace one exact piece of text in a file. `old_text` must appear exactly once; include enough surrounding lines to make it unique.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Path relative to the work directory." },
        old_text: { type: "string", description: "The exact text to replace; must occur exactly once." },
        new_text: { type: "string", description: "The replacement text." },
      },
      required: ["path", "old_text", "new_text"],
      additionalProperties: false,
    },
  },
  async run(args, context) {
    const { path: given, old_text: oldText, new_text: newText } = parseArgs("edit_file", EditArgs, args);
    const target = await confine(context.dir, given, "path", { write: true });
    await refuseHardLinks(target);
    const text = await readText(target.absolute, target.relative);
    const count = occurrences(text, oldText);
    if (count === 0) {
      throw new ToolError("TOOL_EDIT_NO_MATCH", `${target.relative}: old_text was not found; read the file and copy the text exactly`);
    }
    if (count > 1) {
      throw new ToolError("TOOL_EDIT_AMBIGUOUS", `${target.relative}: old_text occurs ${count} times; add surrounding lines so it occurs once`);
    }
    const at = text.indexOf(oldText);
    await writeText(context.dir, target.absolute, target.relative, text.slice(0, at) + newText + text.slice(at + oldText.length));
    return { ok: true, output: `edited ${target.relative}`, changedFiles: [target.relative] };
  },
};

/** Files and folders under `absolute`, depth-first in name order, skipping SKIPPED_DIRS. */
async function* walk(
  absolute: string,
  relative: string,
  depth: number,
): AsyncGenerator<{ relative: string; dir: boolean; link: boolean; absolute: string }> {
  let entries;
  try {
    entries = await readdir(absolute, { withFileTypes: true });
  } catch (error) {
    throw ioError("list", relative === "" ? "." : relative, error);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    const childRelative = relative === "" ? entry.name : `${relative}/${entry.name}`;
    const childAbsolute = path.join(absolute, entry.name);
    yield { relative: childRelative, dir: entry.isDirectory(), link: entry.isSymbolicLink(), absolute: childAbsolute };
    if (entry.isDirectory() && depth > 1) yield* walk(childAbsolute, childRelative, depth - 1);
  }
}

const ListArgs = z.object({ path: z.string().optional(), depth: z.number().int().positive().max(20).optional() });

export const listFilesTool: Tool = {
  spec: {
    name: "list_files",
    description:
      "List files and folders (folders end in /) under a folder of the work directory, default the whole directory. `depth` limits how far down it goes (default 3). Skips .git and node_modules.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Folder relative to the work directory; default `.`." },
        depth: { type: "integer", minimum: 1, maximum: 20, description: "How many folder levels to list (default 3)." },
      },
      additionalProperties: false,
    },
  },
  async run(args, context) {
    const { path: given = ".", depth = 3 } = parseArgs("list_files", ListArgs, args);
    const target = await confine(context.dir, given);
    const info = await stat(target.absolute).catch((error: unknown) => {
      throw ioError("list", target.relative, error);
    });
    if (!info.isDirectory()) return { ok: true, output: target.relative };
    const base = target.relative === "." ? "" : target.relative;
    const lines: string[] = [];
    for await (const entry of walk(target.absolute, base, depth)) {
      if (lines.length === MAX_LIST_ENTRIES) {
        lines.push(`[listing stopped at ${MAX_LIST_ENTRIES} entries; list a sub-folder or lower depth]`);
        break;
      }
      lines.push(entry.dir ? `${entry.relative}/` : entry.relative);
    }
    return { ok: true, output: lines.length === 0 ? "(empty)" : lines.join("\n") };
  },
};

const SearchArgs = z.object({
  pattern: z.string().min(1),
  regex: z.boolean().optional(),
  ignore_case: z.boolean().optional(),
  path: z.string().optional(),
});

function matcher(pattern: string, regex: boolean, ignoreCase: boolean): (line: string) => boolean {
  if (regex) {
    let compiled: RegExp;
    try {
      compiled = new RegExp(pattern, ignoreCase ? "i" : "");
    } catch (error) {
      throw new ToolError("TOOL_BAD_PATTERN", `search: \`pattern\` is not a valid regular expression: ${(error as Error).message}`);
    }
    return (line) => compiled.test(line);
  }
  const needle = ignoreCase ? pattern.toLowerCase() : pattern;
  return ignoreCase ? (line) => line.toLowerCase().includes(needle) : (line) => line.includes(needle);
}

export const searchTool: Tool = {
  spec: {
    name: "search",
    description:
      "Search text files in the work directory for a plain string (default) or a regular expression (`regex: true`). Returns `path:line: text` for each matching line. Skips .git, node_modules and binary files.",
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "What to look for." },
        regex: { type: "boolean", description: "Treat `pattern` as a JavaScript regular expression." },
        ignore_case: { type: "boolean", description: "Match regardless of case." },
        path: { type: "string", description: "Folder or file to search, relative to the work directory; default `.`." },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
  },
  async run(args, context: ToolContext) {
    const { pattern, regex = false, ignore_case: ignoreCase = false, path: given = "." } = parseArgs("search", SearchArgs, args);
    const test = matcher(pattern, regex, ignoreCase);
    const target = await confine(context.dir, given);
    const info = await stat(target.absolute).catch((error: unknown) => {
      throw ioError("search", target.relative, error);
    });
    const files: Array<{ relative: string; absolute: string }> = [];
    if (info.isDirectory()) {
      for await (const entry of walk(target.absolute, target.relative === "." ? "" : target.relative, Number.POSITIVE_INFINITY)) {
        if (entry.dir) continue;
        if (entry.link) {
          // A link is searched only when it resolves inside the work directory.
          const inside = await confine(context.dir, entry.relative).then(
            () => true,
            () => false,
          );
          if (!inside) continue;
        }
        files.push(entry);
      }
    } else {
      files.push(target);
    }
    const matches: string[] = [];
    let truncated = false;
    for (const file of files) {
      const info = await stat(file.absolute).catch(() => undefined);
      // A hard-linked file may be another name of a file outside the work directory: never searched.
      if (info === undefined || info.size > MAX_SEARCH_FILE_BYTES || (info.isFile() && info.nlink > 1)) continue;
      const buffer = await readFile(file.absolute).catch(() => undefined);
      if (buffer === undefined || buffer.includes(0)) continue;
      const lines = buffer.toString("utf8").split("\n");
      for (let index = 0; index < lines.length; index += 1) {
        const line = lines[index] ?? "";
        if (!test(line)) continue;
        if (matches.length === MAX_SEARCH_MATCHES) {
          truncated = true;
          break;
        }
        matches.push(`${file.relative}:${index + 1}: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`);
      }
      if (truncated) break;
    }
    if (matches.length === 0) return { ok: true, output: "no matches" };
    const tail = truncated ? `\n[stopped at ${MAX_SEARCH_MATCHES} matches; narrow the pattern or the path]` : "";
    return { ok: true, output: capMiddle(matches.join("\n") + tail, context.outputLimit ?? DEFAULT_OUTPUT_LIMIT) };
  },
};
