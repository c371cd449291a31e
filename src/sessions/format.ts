/**
 * What every session format provides: how to recognise it from its first lines, and a mapper that
 * reads one parsed JSON line at a time into a RecordBuilder. Format quirks live in each format's
 * own file; the reader (import.ts) and the drivers share these mappers.
 */
import type { RecordBuilder, RunTotals } from "./builder.ts";

export const SESSION_FORMATS = ["codex", "codex-exec", "claude", "claude-stream", "pi", "pi-json"] as const;
export type SessionFormat = (typeof SESSION_FORMATS)[number];

export interface MapperContext {
  /** A warning about one line of the input; the reader turns it into a `note` event. */
  warn(lineNo: number, text: string): void;
  /**
   * Imports a linked file (a Claude Code sub-agent transcript) and returns its tool-call count and
   * usage, or null when it cannot be read. Absent when the input is a stream with no file beside it.
   */
  linkedSession?: (ref: string) => Promise<LinkedSession | null>;
  /**
   * For a tree-shaped log (pi v2/v3): true when the entry id is on the branch the session ended
   * on. Absent when every entry counts (no tree, or a stream).
   */
  onActiveBranch?: (id: string) => boolean;
  /**
   * For a linked file (a sub-agent transcript): true when a usage key was already counted by the
   * parent, so a sidechain replay of a parent message is dropped, content and usage.
   */
  replayed?: (key: string) => boolean;
  /** Refs of every linked file beside the input (sub-agent transcripts), for those no line linked. */
  subagentRefs?: () => Promise<string[]>;
}

/** What a linked sub-agent file adds to its parent's record. */
export interface LinkedSession {
  toolCalls: number;
  usage: RunTotals | null;
  /** The cost its own log recorded, when it did. */
  costUsd: number | null;
  model: string | null;
}

export interface FormatMapper {
  /** One parsed JSON line. */
  line(value: Record<string, unknown>, lineNo: number): void | Promise<void>;
  /** The stream ended: settle the run (the builder's `finish`). */
  end(): void | Promise<void>;
}

export interface FormatSpec {
  name: SessionFormat;
  /** `run.start.source`. */
  source: string;
  /** One line for `--format` help and the detection message. */
  title: string;
  /** True when the stream itself carries the user's prompt (a driver need not add it). */
  promptInStream: boolean;
  /**
   * Looks at the first parsed objects of a file; returns a reason when they are this format
   * (named in the "detected as" message), else null.
   */
  detect(first: Record<string, unknown>[]): string | null;
  create(builder: RecordBuilder, context: MapperContext): FormatMapper;
  /**
   * For a tree-shaped log (entries naming their parent): the entry's id and parent id, read from
   * the raw line (cheap: the reader calls it on every line in a first pass). The session is the
   * branch from the last entry back to the root.
   */
  treeEntry?: (line: string) => { id: string; parentId: string | null } | null;
}

/** Reports each unknown line type once (first line number), then how often it recurred, at the end. */
export class UnknownTypes {
  private readonly seen = new Map<string, { first: number; count: number }>();

  constructor(private readonly context: MapperContext, private readonly what: string) {}

  add(type: string, lineNo: number): void {
    const known = this.seen.get(type);
    if (known !== undefined) {
      known.count += 1;
      return;
    }
    if (this.seen.size > 1000) return;
    this.seen.set(type, { first: lineNo, count: 1 });
    this.context.warn(lineNo, `unknown ${this.what} "${type.slice(0, 80)}" (line skipped)`);
  }

  finish(): void {
    for (const [type, { first, count }] of this.seen) {
      if (count > 1) this.context.warn(first, `unknown ${this.what} "${type.slice(0, 80)}" occurred ${count} times in all (first at line ${first}); all skipped`);
    }
  }
}

// ---- small readers for untyped JSON, shared by the format files ----

export function obj(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

export function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Parses a JSON arguments string into an object; anything else is kept as `{ raw }`. */
export function parseArgs(value: unknown): Record<string, unknown> {
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      const o = obj(parsed);
      if (o !== null) return o;
    } catch {
      // fall through
    }
    return { raw: value };
  }
  return obj(value) ?? (value === undefined ? {} : { raw: value });
}

/** Text of a content array (`[{type:"text",text}]`), a plain string, or nothing. */
export function textOf(content: unknown, types: readonly string[] = ["text", "output_text", "input_text"]): string {
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const block of arr(content)) {
    const b = obj(block);
    if (b === null) continue;
    const type = str(b.type);
    const text = str(b.text);
    if (text !== null && (type === null || types.includes(type))) parts.push(text);
  }
  return parts.join("\n");
}
