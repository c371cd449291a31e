/**
 * The cost ledger: one JSONL row when an implementer is dispatched and one when its envelope
 * comes back, correlated by `task_id`. Rows are built and summarised here (pure); appending them
 * to the file is `src/study/envelope/cost-ledger.ts`.
 */
import { z } from "zod";
import type { Verdict } from "./check.ts";
import type { Route } from "./findings.ts";
import { ROUTES } from "./findings.ts";
import { TASK_ID_PATTERN } from "./schema.ts";

const taskId = z.string().regex(TASK_ID_PATTERN, { error: 'must be "t-" and 8 hex digits' });
const isoTime = z.iso.datetime({ offset: true });

export const DispatchRow = z.strictObject({
  v: z.literal(1),
  kind: z.literal("dispatch"),
  task_id: taskId,
  dispatched_at: isoTime,
  chunk: z.string().optional(),
  model: z.string().optional(),
  meta: z.record(z.string(), z.string()).optional(),
});
export type DispatchRow = z.infer<typeof DispatchRow>;

export const CompletionRow = z.strictObject({
  v: z.literal(1),
  kind: z.literal("completion"),
  task_id: taskId,
  completed_at: isoTime,
  route: z.enum(ROUTES),
  status: z.string().nullable(),
  wall_clock_seconds: z.number().nonnegative().nullable(),
  loc_added: z.number().int().nonnegative().nullable(),
  loc_removed: z.number().int().nonnegative().nullable(),
  files_changed: z.number().int().nonnegative().nullable(),
  f_pass: z.number().int().nonnegative(),
  f_fail: z.number().int().nonnegative(),
  envelope: z.string().optional(),
});
export type CompletionRow = z.infer<typeof CompletionRow>;

export const LedgerRow = z.discriminatedUnion("kind", [DispatchRow, CompletionRow]);
export type LedgerRow = z.infer<typeof LedgerRow>;

export class LedgerRowError extends Error {
  readonly code = "LEDGER_ROW";
}

function validTaskId(id: string, what: string): string {
  if (!TASK_ID_PATTERN.test(id)) {
    throw new LedgerRowError(`${what} task id ${JSON.stringify(id)} cannot be correlated: use "t-" and 8 hex digits (an envelope's "unknown" has no ledger row)`);
  }
  return id;
}

/** `t-` + 8 hex digits from 4 random bytes (the caller supplies the randomness). */
export function newTaskId(bytes: Uint8Array): string {
  if (bytes.length < 4) throw new LedgerRowError("a task id needs 4 random bytes");
  return `t-${[...bytes.slice(0, 4)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export function dispatchRow(input: { taskId: string; at: string; chunk?: string; model?: string; meta?: Record<string, string> }): DispatchRow {
  const row: DispatchRow = { v: 1, kind: "dispatch", task_id: validTaskId(input.taskId, "dispatch"), dispatched_at: input.at };
  if (input.chunk !== undefined) row.chunk = input.chunk;
  if (input.model !== undefined) row.model = input.model;
  if (input.meta !== undefined && Object.keys(input.meta).length > 0) row.meta = { ...input.meta };
  return DispatchRow.parse(row);
}

const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null);
const int = (value: unknown): number | null => (typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null);

/**
 * The completion row for a checked envelope. Works for malformed envelopes too (their route is
 * `malformed`), as long as a task id can be correlated — from the envelope or given explicitly.
 */
export function completionRow(input: { envelope: unknown; verdict: Verdict; at: string; taskId?: string; envelopePath?: string }): CompletionRow {
  const raw = typeof input.envelope === "object" && input.envelope !== null && !Array.isArray(input.envelope) ? (input.envelope as Record<string, unknown>) : {};
  const id = input.taskId ?? input.verdict.task_id ?? "";
  const criteria = typeof raw.f_criteria === "object" && raw.f_criteria !== null ? Object.values(raw.f_criteria as Record<string, unknown>) : [];
  const row: CompletionRow = {
    v: 1,
    kind: "completion",
    task_id: validTaskId(id, "completion"),
    completed_at: input.at,
    route: input.verdict.route,
    status: input.verdict.status,
    wall_clock_seconds: num(raw.wall_clock_seconds),
    loc_added: int(raw.loc_added),
    loc_removed: int(raw.loc_removed),
    files_changed: Array.isArray(raw.files_changed) ? raw.files_changed.length : null,
    f_pass: criteria.filter((value) => value === "pass").length,
    f_fail: criteria.filter((value) => value === "fail").length,
  };
  if (input.envelopePath !== undefined) row.envelope = input.envelopePath;
  return CompletionRow.parse(row);
}

/** One JSONL line, newline included: the unit the writer appends in a single write. */
export function ledgerLine(row: LedgerRow): string {
  return `${JSON.stringify(LedgerRow.parse(row))}\n`;
}

export interface LedgerTask {
  task_id: string;
  dispatched_at: string | null;
  completed_at: string | null;
  /** Seconds from dispatch to completion, from the rows' timestamps. */
  elapsed_seconds: number | null;
  route: Route | null;
  status: string | null;
  wall_clock_seconds: number | null;
}

export interface LedgerProblem {
  line: number | null;
  task_id: string | null;
  message: string;
}

export interface LedgerSummary {
  rows: number;
  dispatched: number;
  completed: number;
  /** Dispatched and not yet completed (in flight, or lost). */
  open: string[];
  routes: Partial<Record<Route, number>>;
  wall_clock_seconds_total: number;
  loc_added_total: number;
  loc_removed_total: number;
  tasks: LedgerTask[];
  /** Unreadable lines, completions without a dispatch, duplicates, completions before dispatch. */
  problems: LedgerProblem[];
}

export function summarizeCostLedger(text: string): LedgerSummary {
  const problems: LedgerProblem[] = [];
  const tasks = new Map<string, LedgerTask & { dispatchLine: number | null }>();
  const task = (id: string): LedgerTask & { dispatchLine: number | null } => {
    let entry = tasks.get(id);
    if (entry === undefined) {
      entry = { task_id: id, dispatched_at: null, completed_at: null, elapsed_seconds: null, route: null, status: null, wall_clock_seconds: null, dispatchLine: null };
      tasks.set(id, entry);
    }
    return entry;
  };
  let rows = 0;
  const totals = { wall: 0, added: 0, removed: 0 };
  const routes: Partial<Record<Route, number>> = {};

  text.split("\n").forEach((source, index) => {
    const line = index + 1;
    if (source.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      problems.push({ line, task_id: null, message: "not JSON (a torn or hand-edited line?)" });
      return;
    }
    const parsed = LedgerRow.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push({ line, task_id: null, message: `not a ledger row: ${issue === undefined ? "invalid" : `${issue.path.join(".") || "row"}: ${issue.message}`}` });
      return;
    }
    rows++;
    const row = parsed.data;
    const entry = task(row.task_id);
    if (row.kind === "dispatch") {
      if (entry.dispatched_at !== null) problems.push({ line, task_id: row.task_id, message: `second dispatch row for ${row.task_id} (first on line ${String(entry.dispatchLine)}); task ids must be unique per dispatch` });
      else {
        entry.dispatched_at = row.dispatched_at;
        entry.dispatchLine = line;
      }
    } else {
      if (entry.completed_at !== null) {
        problems.push({ line, task_id: row.task_id, message: `second completion row for ${row.task_id}` });
        return;
      }
      entry.completed_at = row.completed_at;
      entry.route = row.route;
      entry.status = row.status;
      entry.wall_clock_seconds = row.wall_clock_seconds;
      routes[row.route] = (routes[row.route] ?? 0) + 1;
      totals.wall += row.wall_clock_seconds ?? 0;
      totals.added += row.loc_added ?? 0;
      totals.removed += row.loc_removed ?? 0;
    }
  });

  const list: LedgerTask[] = [];
  for (const { dispatchLine: _line, ...entry } of tasks.values()) {
    if (entry.dispatched_at !== null && entry.completed_at !== null) {
      const elapsed = (Date.parse(entry.completed_at) - Date.parse(entry.dispatched_at)) / 1000;
      entry.elapsed_seconds = elapsed;
      if (elapsed < 0) problems.push({ line: null, task_id: entry.task_id, message: `${entry.task_id} completed ${-elapsed}s before it was dispatched` });
    }
    if (entry.dispatched_at === null) problems.push({ line: null, task_id: entry.task_id, message: `completion for ${entry.task_id} has no dispatch row` });
    list.push(entry);
  }
  return {
    rows,
    dispatched: list.filter((entry) => entry.dispatched_at !== null).length,
    completed: list.filter((entry) => entry.completed_at !== null).length,
    open: list.filter((entry) => entry.dispatched_at !== null && entry.completed_at === null).map((entry) => entry.task_id),
    routes,
    wall_clock_seconds_total: totals.wall,
    loc_added_total: totals.added,
    loc_removed_total: totals.removed,
    tasks: list,
    problems,
  };
}
