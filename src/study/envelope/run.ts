/**
 * A finished study run → `envelope.yaml` in its result folder, for `armstudy study --envelope`.
 * The runner passes what it already has (acceptance results, `git diff --numstat` against the
 * pinned commit, the run's events); the mapping itself is the pure `envelopeFromRun`.
 */
import { join } from "node:path";
import { envelopeFromRun, type AcceptanceCheckResult } from "../../core/envelope/emit.ts";
import type { Envelope, EnvelopeStatus } from "../../core/envelope/schema.ts";
import type { RunEvent } from "../../run/record.ts";
import { writeEnvelopeFile } from "./write.ts";

export const ENVELOPE_FILE = "envelope.yaml";

/** The text of the run's last final reply (what the agent reported), or `""` when it gave none. */
export function finalReplyText(events: readonly RunEvent[]): string {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === "assistant.text" && event.final) return event.text;
  }
  return "";
}

export interface RunEnvelopeInput {
  /** The run's result folder; the envelope is written to `<folder>/envelope.yaml`. */
  folder: string;
  branch: string;
  taskId?: string;
  acceptance: { checks: readonly AcceptanceCheckResult[] };
  /** `git diff --cached --numstat <pinned commit>` in the worktree, after `git add -A`. */
  diffNumstat: string;
  events: readonly RunEvent[];
  wallClockSeconds: number;
  /** `"failed"` for a run the harness could not finish; otherwise left out (`completed`). */
  status?: EnvelopeStatus;
}

export async function writeRunEnvelope(input: RunEnvelopeInput): Promise<{ file: string; envelope: Envelope }> {
  const envelope = envelopeFromRun({
    branch: input.branch,
    acceptance: { checks: [...input.acceptance.checks] },
    diffNumstat: input.diffNumstat,
    summary: finalReplyText(input.events),
    wallClockSeconds: input.wallClockSeconds,
    ...(input.taskId === undefined ? {} : { taskId: input.taskId }),
    ...(input.status === undefined ? {} : { status: input.status }),
  });
  const file = join(input.folder, ENVELOPE_FILE);
  await writeEnvelopeFile(file, envelope);
  return { file, envelope };
}
