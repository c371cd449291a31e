/**
 * One worker thread of the session pool (session-pool.ts): analyses the files it is sent, one
 * at a time, with its own o200k counter, and answers each with the analysis or the error.
 */
import { parentPort, workerData } from "node:worker_threads";
import { TokenCounter } from "../core/tokens.ts";
import { useO200kTableFile } from "../run/o200k-table-file.ts";
import { SessionFormatError } from "../sessions/import.ts";
import { analyzeSessionFile } from "./session-analysis.ts";
import type { PoolJob, PoolReply } from "./session-pool.ts";

const port = parentPort;
if (port === null) throw new Error("session-worker.ts runs only as a worker thread");
// A worker is a fresh isolate: it maps the committed o200k table for itself (ADR 0162).
useO200kTableFile();
const counter = new TokenCounter();
const { maxWarnings } = workerData as { maxWarnings: number };

port.on("message", async (job: PoolJob) => {
  let reply: PoolReply;
  try {
    const analysis = await analyzeSessionFile(job.file, { format: job.format, counter, maxWarnings });
    reply = { id: job.id, analysis };
  } catch (error) {
    reply = { id: job.id, error: describe(error) };
  }
  port.postMessage(reply);
});

function describe(error: unknown): Extract<PoolReply, { error: unknown }>["error"] {
  if (error instanceof SessionFormatError) return { kind: "format", code: error.code, message: error.message };
  const code = error instanceof Error && "code" in error ? String((error as NodeJS.ErrnoException).code) : null;
  if (code === "ENOENT" || code === "EISDIR" || code === "EACCES") return { kind: "io", code, message: error instanceof Error ? error.message : String(error) };
  return { kind: "bug", code, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
