/**
 * Cassettes: `record:DIR=SPEC` wraps another client and stores every request → reply; `replay:DIR`
 * serves them back with no model at all. A cassette's key is the run index plus a hash of the
 * whole request (messages, tools, effort, cap, meta), so repeats of one arm never collapse into
 * one answer and a changed prompt never gets a stale one.
 *
 * Layout: `DIR/manifest.json` (which client was recorded) and `DIR/run-<index>/<hash>.json`
 * (one request summary and its reply). Each file is written to a temp name and renamed.
 *
 * A replay miss is a harness fault (fault.ts): an error reply whose message names the request key,
 * the file it looked for and how to re-record; a runner stops the study on it.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { type Message, type ModelClient, type ModelReply, type ModelRequest, ZERO_USAGE } from "../../core/model.ts";
import { contentHash } from "../../core/tokens.ts";
import { writeJsonAtomic } from "../fs/atomic-write.ts";
import { harnessFaultMessage } from "./fault.ts";

export const CASSETTE_VERSION = 1;

const UsageSchema = z.object({
  input: z.number().nonnegative(),
  cachedInput: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative().optional(),
  output: z.number().nonnegative(),
  reasoning: z.number().nonnegative(),
  source: z.enum(["reported", "counted", "estimated"]),
});

/** The ModelReply contract as a schema: cassettes are validated when read. */
export const ModelReplySchema = z.object({
  text: z.string(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) })),
  stop: z.enum(["end_turn", "tool_calls", "max_tokens", "error", "usage_limit", "aborted"]),
  usage: UsageSchema,
  errorMessage: z.string().optional(),
  model: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
});

const ManifestSchema = z.object({
  version: z.literal(CASSETTE_VERSION),
  /** The recorded client's id, e.g. `openai:gpt-5`. */
  model: z.string(),
  testDouble: z.boolean(),
});
export type CassetteManifest = z.infer<typeof ManifestSchema>;

const EntrySchema = z.object({
  version: z.literal(CASSETTE_VERSION),
  key: z.string(),
  request: z.record(z.string(), z.unknown()),
  reply: ModelReplySchema,
});

export class CassetteError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly code: "CASSETTE_DIR" | "CASSETTE_MANIFEST",
    message: string,
  ) {
    super(message);
    this.name = "CassetteError";
  }
}

/** JSON with object keys sorted and undefined dropped: the same request always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(",")}}`;
}

/** `run-<index>/<hash>`: the run index (or `unset`) and 24 hex digits of the request's sha-256. */
export function cassetteKey(request: ModelRequest): string {
  const run = request.meta?.runIndex;
  const hash = contentHash(
    canonicalJson({
      messages: request.messages,
      tools: request.tools,
      effort: request.effort,
      maxOutputTokens: request.maxOutputTokens,
      meta: request.meta,
    }),
  ).slice(0, 24);
  return `${run === undefined ? "run-unset" : `run-${run}`}/${hash}`;
}

function preview(message: Message | undefined): string {
  if (message === undefined) return "none";
  const text = message.content.replace(/\s+/g, " ").trim();
  return `${message.role} "${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
}

/** What a cassette keeps of its request: enough to recognise it, not the whole history. */
export function requestSummary(request: ModelRequest): Record<string, unknown> {
  return {
    meta: request.meta ?? {},
    messages: request.messages.length,
    last: preview(request.messages.at(-1)),
    tools: request.tools.map((tool) => tool.name),
    ...(request.effort ? { effort: request.effort } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
  };
}

function describeRequest(key: string, request: ModelRequest): string {
  const meta = request.meta ?? {};
  return `request ${key} (round ${meta.round ?? "?"}, purpose ${meta.purpose ?? "agent"}, ${request.messages.length} messages; last ${preview(request.messages.at(-1))})`;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function readManifest(dir: string): Promise<CassetteManifest | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, "manifest.json"), "utf8");
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CassetteError("CASSETTE_MANIFEST", `${join(dir, "manifest.json")} is not valid JSON (${(error as Error).message}); delete it and record again`);
  }
  const parsed = ManifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CassetteError(
      "CASSETTE_MANIFEST",
      `${join(dir, "manifest.json")}: field ${issue?.path.join(".") || "?"}: ${issue?.message ?? "invalid"}; delete it and record again`,
    );
  }
  return parsed.data;
}

function aborted(): ModelReply {
  return { text: "", toolCalls: [], stop: "aborted", usage: { ...ZERO_USAGE }, errorMessage: "aborted before the cassette was read" };
}

/** Wraps `inner`, storing every reply (errors included, aborts not) under its request's key. */
export async function createRecordingClient(inner: ModelClient, dir: string): Promise<ModelClient> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    const code = String((error as { code?: unknown }).code ?? (error as Error).message);
    const why = code === "EEXIST" || code === "ENOTDIR" ? "a file is in the way" : code;
    throw new CassetteError("CASSETTE_DIR", `record folder ${dir} cannot be created (${why}); record into a folder: record:DIR=SPEC`);
  }
  const existing = await readManifest(dir);
  if (existing && existing.model !== inner.id) {
    throw new CassetteError(
      "CASSETTE_MANIFEST",
      `${dir} holds cassettes recorded from ${existing.model}; record ${inner.id} into another folder, or delete ${dir} first`,
    );
  }
  if (!existing) {
    const manifest: CassetteManifest = { version: CASSETTE_VERSION, model: inner.id, testDouble: inner.isTestDouble };
    await writeJsonAtomic(join(dir, "manifest.json"), manifest);
  }
  return {
    // The model really answers while recording, so the id stays the inner client's.
    id: inner.id,
    isTestDouble: inner.isTestDouble,
    async complete(request, signal) {
      const reply = await inner.complete(request, signal);
      if (reply.stop === "aborted") return reply;
      const key = cassetteKey(request);
      try {
        await mkdir(dirname(join(dir, key)), { recursive: true });
        const entry = { version: CASSETTE_VERSION, key, request: requestSummary(request), reply };
        await writeJsonAtomic(join(dir, `${key}.json`), entry);
      } catch (error) {
        return {
          ...reply,
          stop: "error",
          errorMessage: `cannot store cassette ${key} in ${dir}: ${(error as Error).message}`,
        };
      }
      return reply;
    },
  };
}

/** Serves recorded replies; a request with no cassette is a harness fault naming it. */
export async function createReplayClient(dir: string): Promise<ModelClient> {
  if (!(await isDirectory(dir))) {
    throw new CassetteError(
      "CASSETTE_DIR",
      existsSync(dir) ? `replay folder ${dir} is a file; give the folder the cassettes were recorded into` : `replay folder ${dir} does not exist; record it first with record:${dir}=SPEC`,
    );
  }
  const manifest = await readManifest(dir);
  if (!manifest) {
    throw new CassetteError("CASSETTE_MANIFEST", `${dir} has no manifest.json, so it holds no recording; record it first with record:${dir}=SPEC`);
  }
  return {
    id: `replay:${manifest.model}`,
    isTestDouble: manifest.testDouble,
    async complete(request, signal) {
      if (signal?.aborted) return aborted();
      const key = cassetteKey(request);
      const file = join(dir, `${key}.json`);
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch {
        return {
          text: "",
          toolCalls: [],
          stop: "error",
          usage: { ...ZERO_USAGE },
          errorMessage: harnessFaultMessage(
            "CASSETTE_MISS",
            `replay:${dir} has no cassette for ${describeRequest(key, request)}: ${file} does not exist. ` +
              `The run sent a request the recording never saw (a changed prompt, arm, tool set or run index); record it again with record:${dir}=SPEC.`,
          ),
        };
      }
      let entry: z.infer<typeof EntrySchema>;
      try {
        entry = EntrySchema.parse(JSON.parse(text));
      } catch (error) {
        return {
          text: "",
          toolCalls: [],
          stop: "error",
          usage: { ...ZERO_USAGE },
          errorMessage: harnessFaultMessage("CASSETTE_CORRUPT", `cassette ${file} cannot be read (${(error as Error).message.slice(0, 300)}); record it again`),
        };
      }
      return entry.reply as ModelReply;
    },
  };
}
