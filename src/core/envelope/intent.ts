/**
 * Intent freshness (intent-capability-pack.md, "Run-id freshness stamp"). `.build-loop/intent.md`
 * survives across runs in a workdir, so a run stamps the file it wrote with its run id as an HTML
 * comment, and the next run checks the stamp. The check is advisory: it answers "does this file
 * belong to this run?" by equality of ids and never judges the prose.
 */

/** `<!-- intent_run_id: ID -->`; the id is whatever sits between the colon and the comment end. */
const STAMP = /<!--\s*intent_run_id:\s*(.*?)\s*-->/g;
const STAMP_LINE = /^[ \t]*<!--\s*intent_run_id:.*?-->[ \t]*(?:\r?\n|$)/gm;

export const INTENT_FILE = ".build-loop/intent.md";

export type FreshnessVerdict = "fresh" | "stale" | "unstamped" | "missing" | "unchecked";

export interface IntentFreshness {
  verdict: FreshnessVerdict;
  run_id: string;
  /** The run ids stamped in the file, in file order. */
  stamped: string[];
  /** One line for the run report. */
  message: string;
}

export class RunIdError extends Error {
  readonly code = "RUN_ID";
}

/** A run id fits in an HTML comment on one line: no whitespace, no `<` or `>`, not empty. */
export function validateRunId(runId: string): string {
  if (!/^[^\s<>]+$/.test(runId) || runId.includes("--")) {
    throw new RunIdError(`run id ${JSON.stringify(runId)} cannot be stamped: use a non-empty id without spaces, "<", ">" or "--"`);
  }
  return runId;
}

export function stampMarker(runId: string): string {
  return `<!-- intent_run_id: ${validateRunId(runId)} -->`;
}

/** The run ids stamped in an intent file's text. */
export function readStamps(text: string): string[] {
  return [...text.matchAll(STAMP)].map((match) => match[1] ?? "");
}

/**
 * The text with exactly one stamp for `runId`: earlier stamps are removed, and the new one goes on
 * the first line (after YAML front matter, when the file has some). The prose is left as it is.
 */
export function stampIntentText(text: string, runId: string): string {
  const marker = stampMarker(runId);
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const body = text.replace(STAMP_LINE, "").replace(STAMP, "");
  const front = /^---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(body);
  if (front !== null) {
    const head = front[0].endsWith("\n") ? front[0] : front[0] + newline;
    return `${head}${marker}${newline}${body.slice(front[0].length)}`;
  }
  return `${marker}${newline}${body}`;
}

/**
 * The freshness verdict. `text` is the intent file's content, or `null` when there is no file.
 * `fresh`: every stamp names this run; `stale`: a stamp names another run; `unstamped`: no stamp.
 */
export function intentFreshness(text: string | null, runId: string): IntentFreshness {
  const refresh = "re-run the intent restatement and re-stamp";
  if (text === null) return { verdict: "missing", run_id: runId, stamped: [], message: `intent: missing — no ${INTENT_FILE}; write the restatement and stamp it` };
  const stamped = readStamps(text);
  if (stamped.length === 0) return { verdict: "unstamped", run_id: runId, stamped, message: `intent: unstamped — ${INTENT_FILE} carries no run id; ${refresh}` };
  const others = [...new Set(stamped.filter((id) => id !== runId))];
  if (others.length === 0) return { verdict: "fresh", run_id: runId, stamped, message: `intent: fresh — ${INTENT_FILE} is stamped for run ${runId}` };
  const also = stamped.includes(runId) ? ` (and also for this run, ${runId})` : "";
  return {
    verdict: "stale",
    run_id: runId,
    stamped,
    message: `intent: stale — ${INTENT_FILE} is stamped for run ${others.join(", ")}${also}, not ${runId}; ${refresh}`,
  };
}

/** The verdict when the check itself could not be made (advisory: the caller still exits 0). */
export function uncheckedFreshness(runId: string, why: string): IntentFreshness {
  return { verdict: "unchecked", run_id: runId, stamped: [], message: `intent: unchecked — ${why}` };
}
