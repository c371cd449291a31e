/**
 * Reads a recorded session, streaming, into run-record events. The format is named or detected
 * from the first lines; every line is parsed on its own, and a line that cannot be read (not JSON,
 * cut short, an unknown type) becomes a `note` warning naming its line number while every good
 * line is still counted. Nothing here reads a whole file into memory.
 */
import { type ReadStream, createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { TokenCounter } from "../core/tokens.ts";
import type { RunEvent } from "../run/record.ts";
import { type BuilderOptions, RecordBuilder } from "./builder.ts";
import { type FormatSpec, type LinkedSession, type MapperContext, SESSION_FORMATS, type SessionFormat } from "./format.ts";
import { claudeStream, claudeTranscript } from "./formats/claude.ts";
import { codexExec } from "./formats/codex-exec.ts";
import { codexRollout } from "./formats/codex.ts";
import { piJson, piSession } from "./formats/pi.ts";
import { type Line, type OverlongLine, readLines } from "./lines.ts";
import type { ZstdOptions } from "./zstd.ts";

/** Every format, in detection order (the more specific shapes first). */
export const FORMATS: readonly FormatSpec[] = [codexRollout, codexExec, claudeStream, claudeTranscript, piJson, piSession];

export function formatSpec(name: SessionFormat): FormatSpec {
  const spec = FORMATS.find((f) => f.name === name);
  if (spec === undefined) throw new Error(`unknown session format ${name}`);
  return spec;
}

export function isSessionFormat(value: string): value is SessionFormat {
  return (SESSION_FORMATS as readonly string[]).includes(value);
}

/** A file that is empty, or not in the named format, or in none we know. */
export class SessionFormatError extends Error {
  constructor(
    readonly code: "SESSION_EMPTY" | "SESSION_UNKNOWN_FORMAT" | "SESSION_FORMAT_MISMATCH",
    message: string,
  ) {
    super(message);
  }
}

export interface ImportOptions {
  /** The format, or `auto` (default) to detect it from the first lines. */
  format?: SessionFormat | "auto";
  /** A name for messages (the file path, or `stdin`). */
  name?: string;
  /** The file's path, so linked files beside it (Claude Code sub-agents) can be read. */
  path?: string;
  /** Shared o200k counter (its cache helps when many files are read). */
  counter?: TokenCounter;
  /** Builder settings: run.start overrides, a live clock. */
  builder?: Omit<BuilderOptions, "source" | "counter">;
  /** How many parsed lines detection looks at (default 40). */
  detectLines?: number;
  /** Read sub-agent files beside a Claude Code transcript (default true). */
  subagents?: boolean;
  /** Lines longer than this are skipped with a warning (default 64 MiB). */
  maxLineBytes?: number;
  /** Usage keys a parent already counted (set when a sub-agent file is read for its parent). */
  replayed?: (key: string) => boolean;
  /** Asked once the input has ended: a warning about the input as a whole (a compressed file cut short), or null. */
  endNote?: () => string | null;
}

export interface SessionImport {
  format: SessionFormat;
  /** Why detection chose the format; null when the caller named it. */
  detectedBy: string | null;
  events: AsyncGenerator<RunEvent>;
}

type Parsed = { lineNo: number; value: Record<string, unknown> } | { lineNo: number; problem: string };

function parseLine(line: Line | OverlongLine): Parsed | null {
  if ("overlong" in line) return { lineNo: line.lineNo, problem: `line is ${line.bytes} bytes, over the line limit; skipped` };
  const text = line.text;
  if (text.trim().length === 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
    return { lineNo: line.lineNo, problem: `not valid JSON (cut short, or not a JSON line): ${JSON.stringify(shown)}; skipped` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { lineNo: line.lineNo, problem: `a JSON ${Array.isArray(value) ? "array" : typeof value}, not an object; skipped` };
  }
  return { lineNo: line.lineNo, value: value as Record<string, unknown> };
}

export function detectFormat(first: Record<string, unknown>[]): { format: SessionFormat; reason: string } | null {
  for (const spec of FORMATS) {
    const reason = spec.detect(first);
    if (reason !== null) return { format: spec.name, reason };
  }
  return null;
}

function describeFirst(first: Record<string, unknown>[], peeked: readonly Parsed[] = []): string {
  const types = [...new Set(first.slice(0, 5).map((o) => (typeof o.type === "string" ? o.type : `(keys ${Object.keys(o).slice(0, 4).join(",")})`)))];
  if (types.length > 0) return `first line types: ${types.join(", ")}`;
  // A file cut short in its first line has no object at all: say which line and why.
  const bad = peeked.find((p): p is { lineNo: number; problem: string } => "problem" in p);
  return bad === undefined ? "no JSON object lines" : `no JSON object lines; line ${bad.lineNo} is ${bad.problem.replace(/; skipped$/, "")}`;
}

/** Opens a session from any byte stream. Throws SessionFormatError when it is empty or unrecognised. */
export async function openSession(input: AsyncIterable<Uint8Array | string>, options: ImportOptions = {}): Promise<SessionImport> {
  const name = options.name ?? options.path ?? "input";
  const lines = readLines(input, options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes });
  const peeked: Parsed[] = [];
  const firstObjects: Record<string, unknown>[] = [];
  const want = options.detectLines ?? 40;
  let exhausted = false;
  while (firstObjects.length < want) {
    const next = await lines.next();
    if (next.done) {
      exhausted = true;
      break;
    }
    const parsed = parseLine(next.value);
    if (parsed === null) continue;
    peeked.push(parsed);
    if ("value" in parsed) firstObjects.push(parsed.value);
  }
  if (exhausted && peeked.length === 0) {
    throw new SessionFormatError("SESSION_EMPTY", `${name}: the file is empty (no lines); nothing to import`);
  }
  const detected = detectFormat(firstObjects);
  let format: SessionFormat;
  let detectedBy: string | null = null;
  if (options.format === undefined || options.format === "auto") {
    if (detected === null) {
      throw new SessionFormatError(
        "SESSION_UNKNOWN_FORMAT",
        `${name}: not a session format armstudy reads (${describeFirst(firstObjects, peeked)}). Known: ${FORMATS.map((f) => `${f.name} (${f.title})`).join("; ")}`,
      );
    }
    format = detected.format;
    detectedBy = detected.reason;
  } else {
    format = options.format;
    const spec = formatSpec(format);
    if (firstObjects.length > 0 && spec.detect(firstObjects) === null) {
      const hint = detected !== null ? `it looks like ${detected.format} (${detected.reason}); use --format ${detected.format} or --format auto` : `${describeFirst(firstObjects)}`;
      throw new SessionFormatError("SESSION_FORMAT_MISMATCH", `${name}: not a ${format} file — ${hint}`);
    }
  }
  return { format, detectedBy, events: run(formatSpec(format), peeked, lines, options) };
}

async function* run(spec: FormatSpec, peeked: Parsed[], lines: AsyncGenerator<Line | OverlongLine>, options: ImportOptions): AsyncGenerator<RunEvent> {
  const builder = new RecordBuilder({ ...options.builder, source: spec.source, ...(options.counter ? { counter: options.counter } : {}) });
  const context: MapperContext = {
    warn: (lineNo, text) => builder.note("warning", `line ${lineNo}: ${text}`),
  };
  if (options.replayed !== undefined) context.replayed = options.replayed;
  // Only a file whose first entries name a parent is a tree (pi v1 files have no ids): no second pass otherwise.
  const tree = peeked.some((p) => "value" in p && "parentId" in p.value && typeof p.value.id === "string");
  if (spec.treeEntry !== undefined && options.path !== undefined && tree) {
    const branch = await activeBranch(options.path, spec.treeEntry, options.maxLineBytes);
    if (branch !== null) context.onActiveBranch = (id) => branch.has(id);
  }
  if (options.path !== undefined && options.subagents !== false) Object.assign(context, subagentLinks(options.path, options, (key) => builder.hasUsageKey(key)));
  const mapper = spec.create(builder, context);
  let count = 0;
  const handle = async (parsed: Parsed): Promise<void> => {
    count += 1;
    if ("problem" in parsed) {
      context.warn(parsed.lineNo, parsed.problem);
      return;
    }
    try {
      await mapper.line(parsed.value, parsed.lineNo);
    } catch (error) {
      context.warn(parsed.lineNo, `could not be read (${error instanceof Error ? error.message : String(error)}); skipped`);
    }
  };
  for (const parsed of peeked) {
    await handle(parsed);
    yield* builder.drain();
  }
  for await (const line of lines) {
    const parsed = parseLine(line);
    if (parsed === null) continue;
    await handle(parsed);
    const ready = builder.drain();
    for (let i = 0; i < ready.length; i += 1) yield ready[i] as RunEvent;
  }
  if (count === 0) builder.note("warning", "the input has no lines");
  const ending = options.endNote?.() ?? null;
  if (ending !== null) builder.note("warning", ending);
  await mapper.end();
  yield* builder.drain();
}

/**
 * First pass over a tree-shaped log: the ids on the branch from the last entry back to the root,
 * or null when every entry is on it (one branch, or no tree at all). Keeps one small entry per id.
 */
export async function activeBranch(path: string, entry: NonNullable<FormatSpec["treeEntry"]>, maxLineBytes?: number): Promise<Set<string> | null> {
  const parents = new Map<string, string | null>();
  let leaf: string | null = null;
  const { bytes: stream } = sessionBytes(path);
  for await (const line of readLines(stream, maxLineBytes === undefined ? {} : { maxLineBytes })) {
    if ("overlong" in line) continue;
    const e = entry(line.text);
    if (e === null) continue;
    parents.set(e.id, e.parentId);
    leaf = e.id;
  }
  if (leaf === null) return null;
  const branch = new Set<string>();
  for (let id: string | null = leaf; id !== null && !branch.has(id); id = parents.get(id) ?? null) branch.add(id);
  return branch.size === parents.size ? null : branch;
}

/** Sub-agent transcripts live in `<dir>/<session>/subagents/agent-<id>.jsonl` beside the transcript. */
function subagentLinks(path: string, options: ImportOptions, parentCounted: (key: string) => boolean): Pick<MapperContext, "linkedSession" | "subagentRefs"> {
  const folder = join(dirname(path), basename(path).replace(/\.jsonl$/, ""));
  return {
    linkedSession: async (ref) => {
      try {
        const session = await openSessionFile(join(folder, ref), { format: "claude", subagents: false, replayed: parentCounted, ...(options.counter ? { counter: options.counter } : {}) });
        const linked: LinkedSession = { toolCalls: 0, usage: null, costUsd: null, model: null };
        for await (const event of session.events) {
          if (event.type === "tool.call") linked.toolCalls += 1;
          else if (event.type === "model.request" && event.model) linked.model = event.model;
          else if (event.type === "run.end") {
            if (event.usage !== undefined) linked.usage = { input: event.usage.input, cachedInput: event.usage.cachedInput, cacheWrite: event.usage.cacheWrite, output: event.usage.output, reasoning: event.usage.reasoning, source: event.usage.source === "estimated" ? "estimated" : "reported" };
            if (event.costUsd !== undefined) linked.costUsd = event.costUsd;
          }
        }
        return linked;
      } catch {
        return null;
      }
    },
    subagentRefs: async () => {
      try {
        const names = await readdir(join(folder, "subagents"));
        return names.filter((n) => n.endsWith(".jsonl")).sort().map((n) => `subagents/${n}`);
      } catch {
        return [];
      }
    },
  };
}

/**
 * A session file's bytes, streamed from disk in 256 KiB reads (larger reads raised peak RSS:
 * docs/performance.md); a `.zst` file (Codex's cold rollouts) decompressed on the way.
 */
export function sessionBytes(path: string): { stream: ReadStream; bytes: AsyncIterable<Uint8Array>; endNote: () => string | null } {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  if (!path.endsWith(".zst")) return { stream, bytes: stream, endNote: () => null };
  let cut: number | null = null;
  const bytes = decompressedLazily(stream, { onCutShort: (at) => (cut = at) });
  return { stream, bytes, endNote: () => (cut === null ? null : `the compressed file ends inside a zstd frame after ${cut} bytes (cut short?): the session is read up to there`) };
}

/** The zstd reader (and fzstd) loaded only when a file is compressed: most are not (ADR 0162). */
async function* decompressedLazily(source: AsyncIterable<Uint8Array | string>, options: ZstdOptions): AsyncGenerator<Uint8Array> {
  const { decompressZstd } = await import("./zstd.ts");
  yield* decompressZstd(source, options);
}

/** Opens a session file (compressed or not). */
export async function openSessionFile(path: string, options: ImportOptions = {}): Promise<SessionImport> {
  const { stream, bytes, endNote } = sessionBytes(path);
  try {
    return await openSession(bytes, { name: path, path, endNote, ...options });
  } catch (error) {
    stream.destroy();
    throw error;
  }
}

/** Reads every event of a session into an array (tests, small files). */
export async function importSessionFile(path: string, options: ImportOptions = {}): Promise<{ format: SessionFormat; detectedBy: string | null; events: RunEvent[] }> {
  const session = await openSessionFile(path, options);
  const events: RunEvent[] = [];
  for await (const event of session.events) events.push(event);
  return { format: session.format, detectedBy: session.detectedBy, events };
}
