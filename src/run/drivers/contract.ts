/**
 * What a driver needs from the layer above to turn a client's event stream into run-record
 * events. The mapping itself lives with the session importers (src/sessions/live.ts), which read
 * the same formats from files; the study layer passes it in, so `run/` never imports `sessions/`.
 */
import type { RunEvent } from "../record.ts";

export interface StreamStart {
  arm: string;
  runIndex: number;
  seed: number;
  model: string;
  testDouble: boolean;
  prefixHash: string;
  prefixTokens: number;
  cwd: string;
}

export interface StreamMapper {
  /** One line of the client's stdout, LF framing already done. */
  line(text: string): Promise<void>;
  /** The process ended: close the record with this status. */
  finish(end: { status: string; reason?: string }): Promise<void>;
  /** Events ready to hand on, in order. */
  drain(): RunEvent[];
}

/** Makes a mapper for one run of one stream format (`codex-exec`, `claude-stream`, `pi-json`). */
export type StreamMapperFactory = (format: string, init: { start: StreamStart; clock: () => number; handoff: string }) => StreamMapper;
