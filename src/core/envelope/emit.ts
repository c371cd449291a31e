/**
 * A study run as an implementer envelope, so a run plugs into orchestrators that read the
 * contract. The acceptance checks become the F-criteria (exit 0 = pass) and the run's diff
 * (`git diff --numstat`) gives files_changed / loc_added / loc_removed. Pure: the runner passes in
 * what it measured and writes the result (src/study/envelope/write.ts).
 */
import { stringify } from "yaml";
import { type Envelope, type EnvelopeStatus, TASK_ID_PATTERN } from "./schema.ts";

export class EmitError extends Error {
  readonly code = "ENVELOPE_EMIT";
}

export interface NumstatEntry {
  path: string;
  /** `null` for a binary file (git prints `-`). */
  added: number | null;
  removed: number | null;
}

/** Undoes git's C-style quoting of a path with special characters (`"a\tb.txt"`, octal escapes). */
function unquote(path: string): string {
  if (!(path.startsWith('"') && path.endsWith('"') && path.length >= 2)) return path;
  const bytes: number[] = [];
  const inner = path.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7, '"': 34, "\\": 92 };
  const encoder = new TextEncoder();
  for (let index = 0; index < inner.length; index++) {
    const char = String.fromCodePoint(inner.codePointAt(index) ?? 0);
    if (char !== "\\") {
      bytes.push(...encoder.encode(char));
      index += char.length - 1;
      continue;
    }
    const next = inner[index + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(inner.slice(index + 1));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      index += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path a rename lands on: `old => new`, or `dir/{old => new}/file`. */
function renamedTo(path: string): string {
  const braced = /^(.*)\{(.*) => (.*)\}(.*)$/.exec(path);
  if (braced !== null) {
    const [, head = "", , to = "", tail = ""] = braced;
    // `{a => }/c.ts` is a move to `c.ts`; `x/{a => }/c.ts` to `x/c.ts`.
    return `${head}${to}${tail}`.replace(/\/\//g, "/").replace(/^\//, "");
  }
  const plain = / => /.exec(path);
  return plain === null ? path : path.slice(plain.index + 4);
}

/** Parses `git diff --numstat` output (without -z). Throws `EmitError` naming a line it cannot read. */
export function parseNumstat(numstat: string): NumstatEntry[] {
  const entries: NumstatEntry[] = [];
  numstat.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const match = /^(\d+|-)\t(\d+|-)\t(.+)$/.exec(line.replace(/\r$/, ""));
    if (match === null) throw new EmitError(`numstat line ${index + 1} is not "<added>\\t<removed>\\t<path>": ${JSON.stringify(line.slice(0, 80))}`);
    const [, added = "-", removed = "-", rawPath = ""] = match;
    entries.push({
      path: renamedTo(unquote(rawPath)),
      added: added === "-" ? null : Number(added),
      removed: removed === "-" ? null : Number(removed),
    });
  });
  return entries;
}

export interface AcceptanceCheckResult {
  id: string;
  command: string;
  passed: boolean;
}

export interface RunForEnvelope {
  /** The orchestrator's `t-xxxxxxxx` id when the run was dispatched with one; otherwise `"unknown"`. */
  taskId?: string;
  branch: string;
  /** Defaults to `"pending"` (the orchestrator commits). */
  commitSha?: string;
  acceptance: { checks: AcceptanceCheckResult[] };
  /** The run's `git diff --numstat` output against its base commit. */
  diffNumstat: string;
  /** The agent's final report (or a summary of it); cut to the contract's 200 words. */
  summary: string;
  wallClockSeconds: number;
  status?: EnvelopeStatus;
  capabilitiesUsed?: string[];
}

const NOTES_WORDS = 200;

function limitWords(text: string, limit: number): string {
  const words = text.trim().split(/\s+/).filter((word) => word !== "");
  return words.length <= limit ? words.join(" ") : `${words.slice(0, limit - 1).join(" ")} …`;
}

export function envelopeFromRun(run: RunForEnvelope): Envelope {
  const taskId = run.taskId ?? "unknown";
  if (taskId !== "unknown" && !TASK_ID_PATTERN.test(taskId)) throw new EmitError(`task id ${JSON.stringify(taskId)} is not "t-" and 8 hex digits (or "unknown")`);
  if (!Number.isFinite(run.wallClockSeconds) || run.wallClockSeconds < 0) throw new EmitError(`wallClockSeconds must be a finite number ≥ 0; got ${run.wallClockSeconds}`);

  const criteria: Record<string, "pass" | "fail"> = {};
  for (const check of run.acceptance.checks) {
    if (check.id.trim() === "") throw new EmitError(`acceptance check "${check.command}" has an empty id; every F-criterion needs one`);
    if (Object.prototype.hasOwnProperty.call(criteria, check.id)) throw new EmitError(`two acceptance checks share the id "${check.id}"; F-criterion ids must be unique`);
    criteria[check.id] = check.passed ? "pass" : "fail";
  }

  const diff = parseNumstat(run.diffNumstat);
  const files = [...new Set(diff.map((entry) => entry.path))];
  const envelope: Envelope = {
    branch: run.branch,
    commit_sha: run.commitSha ?? "pending",
    files_changed: files,
    loc_added: diff.reduce((sum, entry) => sum + (entry.added ?? 0), 0),
    loc_removed: diff.reduce((sum, entry) => sum + (entry.removed ?? 0), 0),
    f_criteria: criteria,
    synthesis_attestation: {},
    decision_ledger: [],
    novel_decisions: [],
    notes: limitWords(run.summary, NOTES_WORDS),
    wall_clock_seconds: Math.round(run.wallClockSeconds * 1000) / 1000,
    task_id: taskId,
    status: run.status ?? "completed",
    capabilities_used: run.capabilitiesUsed ?? [],
    capabilities_rejected: [],
    downstream_iterate_outcome: null,
    merge_plan: null,
  };
  return envelope;
}

/** The envelope as YAML under the contract's `envelope:` wrapper. */
export function renderEnvelopeYaml(envelope: Envelope): string {
  return stringify({ envelope }, { lineWidth: 0 });
}
