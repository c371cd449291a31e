/**
 * Analyses many session files, spread over worker threads: each worker streams one file at a
 * time (session-worker.ts), at most two files wait per worker, and results are handed on as they
 * finish, in the order the files came (a result that finishes early waits, at most the few in
 * flight), so memory stays flat however long the history is. With one worker or fewer, the files
 * are read in this thread.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { TokenCounter } from "../core/tokens.ts";
import type { SessionFormat } from "../sessions/format.ts";
import { SessionFormatError } from "../sessions/import.ts";
import { analyzeSessionFile, type SessionAnalysis } from "./session-analysis.ts";

export interface PoolJob {
  id: number;
  file: string;
  format: SessionFormat | "auto";
}

/** Why a file gave no analysis: not a session (`format`), not readable (`io`), or a fault of ours (`bug`). */
export interface PoolError {
  kind: "format" | "io" | "bug";
  code: string | null;
  message: string;
}

export type PoolReply = { id: number; analysis: SessionAnalysis } | { id: number; error: PoolError };
export type PoolResult = { file: string; analysis: SessionAnalysis } | { file: string; error: PoolError };

export interface PoolOptions {
  /** Worker threads; ≤ 1 reads in this thread. */
  workers: number;
  format?: SessionFormat | "auto";
  /** Warning texts kept per session (all are counted). */
  maxWarnings?: number;
}

/** Files waiting per worker: one being read, one ready to start. */
const PER_WORKER = 2;

export async function* analyzeFiles(files: AsyncIterable<string>, options: PoolOptions): AsyncGenerator<PoolResult> {
  const format = options.format ?? "auto";
  const maxWarnings = options.maxWarnings ?? 20;
  if (options.workers <= 1) {
    const counter = new TokenCounter();
    for await (const file of files) {
      try {
        yield { file, analysis: await analyzeSessionFile(file, { format, counter, maxWarnings }) };
      } catch (error) {
        yield { file, error: poolError(error) };
      }
    }
    return;
  }
  yield* pooled(files, options.workers, format, maxWarnings);
}

export function poolError(error: unknown): PoolError {
  if (error instanceof SessionFormatError) return { kind: "format", code: error.code, message: error.message };
  const code = error instanceof Error && "code" in error ? String((error as NodeJS.ErrnoException).code) : null;
  if (code === "ENOENT" || code === "EISDIR" || code === "EACCES") return { kind: "io", code, message: error instanceof Error ? error.message : String(error) };
  throw error;
}

/** The worker module runs TypeScript: each worker registers tsx first, as bin/armstudy.js does. */
function workerSource(): URL {
  const require = createRequire(import.meta.url);
  const cjs = require.resolve("tsx/esm/api");
  const mjs = cjs.replace(/\.cjs$/, ".mjs");
  const api = pathToFileURL(existsSync(mjs) ? mjs : cjs).href;
  const worker = new URL("./session-worker.ts", import.meta.url).href;
  const code = `import { register } from ${JSON.stringify(api)};\nregister();\nawait import(${JSON.stringify(worker)});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

async function* pooled(files: AsyncIterable<string>, size: number, format: SessionFormat | "auto", maxWarnings: number): AsyncGenerator<PoolResult> {
  const source = workerSource();
  const iterator = files[Symbol.asyncIterator]();
  const jobs = new Map<number, { file: string; worker: Worker }>();
  const ready = new Map<number, PoolResult>();
  let nextOut = 0;
  const busy = new Map<Worker, number>();
  let failure: Error | null = null;
  let exhausted = false;
  let nextId = 0;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };

  const workers: Worker[] = [];
  for (let i = 0; i < size; i += 1) {
    const worker = new Worker(source, { workerData: { maxWarnings } });
    busy.set(worker, 0);
    worker.on("message", (reply: PoolReply) => {
      const job = jobs.get(reply.id);
      jobs.delete(reply.id);
      busy.set(worker, (busy.get(worker) ?? 1) - 1);
      if (job !== undefined) {
        if ("analysis" in reply) ready.set(reply.id, { file: job.file, analysis: reply.analysis });
        else if (reply.error.kind === "bug") failure ??= new Error(`analysing ${job.file} failed in a worker: ${reply.error.message}`);
        else ready.set(reply.id, { file: job.file, error: reply.error });
      }
      void pump();
      notify();
    });
    worker.on("error", (error) => {
      failure ??= error instanceof Error ? error : new Error(String(error));
      notify();
    });
    workers.push(worker);
  }

  let pumping = false;
  let again = false;
  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!exhausted && failure === null && jobs.size < size * PER_WORKER) {
          const next = await iterator.next();
          if (next.done === true) {
            exhausted = true;
            break;
          }
          let chosen = workers[0] as Worker;
          for (const w of workers) if ((busy.get(w) ?? 0) < (busy.get(chosen) ?? 0)) chosen = w;
          const id = nextId++;
          jobs.set(id, { file: next.value, worker: chosen });
          busy.set(chosen, (busy.get(chosen) ?? 0) + 1);
          chosen.postMessage({ id, file: next.value, format } satisfies PoolJob);
        }
      } while (again);
    } catch (error) {
      failure ??= error instanceof Error ? error : new Error(String(error));
    } finally {
      pumping = false;
      notify();
    }
  }

  try {
    void pump();
    for (;;) {
      if (failure !== null) throw failure;
      const result = ready.get(nextOut);
      if (result !== undefined) {
        ready.delete(nextOut);
        nextOut += 1;
        yield result;
        continue;
      }
      if (exhausted && jobs.size === 0 && !pumping && ready.size === 0) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
