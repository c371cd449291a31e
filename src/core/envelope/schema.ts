/**
 * The implementer envelope (build-loop's `implementer-envelope-schema.md`, seed 004) as zod
 * schemas. These describe the *shape* of each field; the routing rules that read several fields
 * together (parser rules 1–7) live in `check.ts`, and the decision-ledger lint in `ledger-lint.ts`.
 *
 * Absent keys and empty values are different things here: every required field must be present,
 * while the empty sentinels `""`, `0`, `[]` and `{}` are legitimate values.
 */
import { z } from "zod";

/** `t-` and 8 hex digits, as the orchestrator writes in its `[TASK_ID: …]` prompt prefix. */
export const TASK_ID_PATTERN = /^t-[0-9a-fA-F]{8}$/;

/** The per-dispatch id, or `"unknown"` for a brief written without a `[TASK_ID: …]` prefix. */
export const TaskId = z.string().refine((value) => value === "unknown" || TASK_ID_PATTERN.test(value), {
  error: 'must be "t-" and 8 hex digits (e.g. "t-0a1b2c3d"), echoed unmodified from the brief, or "unknown" when the brief had no [TASK_ID: …] prefix',
});

/** A commit SHA, `"pending"` when the orchestrator commits, or `""` when nothing was committed. */
export const CommitSha = z.string().refine((value) => value === "" || value === "pending" || /^[0-9a-fA-F]{7,64}$/.test(value), {
  error: 'must be a commit SHA (7–64 hex digits), "pending" when the orchestrator commits, or "" when nothing was committed',
});

/** Every status value the contract names. Routine commits may leave the key out. */
export const STATUSES = [
  "completed",
  "fixed",
  "partial",
  "blocked",
  "scope_breach",
  "deferred_architecture",
  "plan_malformed",
  "evidence_stale",
  "needs_dependency",
  "failed",
  "concurrent_modification_detected",
] as const;
export const EnvelopeStatus = z.enum(STATUSES);
export type EnvelopeStatus = z.infer<typeof EnvelopeStatus>;

export const CriterionResult = z.enum(["pass", "fail"]);

/** `"applied"`, `"n/a"`, or the object form a deviation must use. A bare `"deviated"` is rejected. */
export const Deviation = z.strictObject({
  status: z.literal("deviated"),
  deviation_reason: z.string().trim().min(1),
});
export const AttestationValue = z.union([z.enum(["applied", "n/a"]), Deviation]);
export type AttestationValue = z.infer<typeof AttestationValue>;

export const DOWNSTREAM_OUTCOMES = ["clean", "resolved-on-pass-1", "resolved-on-pass-2-or-later", "overflow-to-followup", "abandoned"] as const;

const text = z.string().trim().min(1);

export const CapabilityRejection = z.looseObject({ id: text, reason: text });

/** The merge suggestion; the three lists are what the report lint demands, the rationale is optional. */
export const MergePlan = z.looseObject({
  clean_against: z.array(z.string()),
  conflicts_with: z.array(z.string()),
  suggested_order: z.array(z.string()),
  merge_rationale: z.string().optional(),
});

/**
 * The envelope's top-level shape (parser rule 1). `novel_decisions` and `decision_ledger` are
 * checked here only as arrays: their entries have their own rules (rule 7, and the ledger lint).
 * `decision_ledger` is optional in the shape because it is required only when the plan has
 * synthesis dimensions; `check.ts` enforces that.
 */
export const EnvelopeShape = z.looseObject({
  branch: z.string(),
  commit_sha: CommitSha,
  files_changed: z.array(text),
  loc_added: z.number().int().nonnegative(),
  loc_removed: z.number().int().nonnegative(),
  f_criteria: z.record(z.string(), CriterionResult),
  synthesis_attestation: z.record(z.string(), AttestationValue),
  novel_decisions: z.array(z.unknown()),
  decision_ledger: z.array(z.unknown()).optional(),
  notes: z.string(),
  wall_clock_seconds: z.number().nonnegative().refine(Number.isFinite, { error: "must be a finite number of seconds" }),
  task_id: TaskId,
  // `""` is the empty sentinel: no status, the same as leaving the key out.
  status: z.enum([...STATUSES, ""]).optional(),
  capabilities_used: z.array(text).optional(),
  capabilities_rejected: z.array(CapabilityRejection).optional(),
  downstream_iterate_outcome: z.enum(DOWNSTREAM_OUTCOMES).nullable().optional(),
  merge_plan: MergePlan.nullable().optional(),
  // Legacy optional fields, still accepted.
  commit_subject: z.string().optional(),
  commit_body: z.string().optional(),
  verifications: z.record(z.string(), z.unknown()).optional(),
  intentional_non_fixes: z.array(z.unknown()).optional(),
});

/** Fields that must be present in every envelope (decision_ledger is conditional, see check.ts). */
export const REQUIRED_FIELDS = [
  "branch",
  "commit_sha",
  "files_changed",
  "loc_added",
  "loc_removed",
  "f_criteria",
  "synthesis_attestation",
  "novel_decisions",
  "notes",
  "wall_clock_seconds",
  "task_id",
] as const;

/** Every field the contract names; anything else draws an "unknown field" warning (typos). */
export const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  ...Object.keys(EnvelopeShape.shape),
  // status-specific diagnostics named by the status table
  "needed_file",
  "why",
]);

/** An envelope after parsing, with the additive fields' documented defaults filled in. */
export type Envelope = z.output<typeof EnvelopeShape> & {
  decision_ledger: unknown[];
  capabilities_used: string[];
  capabilities_rejected: z.output<typeof CapabilityRejection>[];
  downstream_iterate_outcome: (typeof DOWNSTREAM_OUTCOMES)[number] | null;
  merge_plan: z.output<typeof MergePlan> | null;
};

/** `user_impact`, `performance`, `speed`, `cost`: filled in, and never `"n/a"`. */
const tradeOff = text.refine((value) => value.trim().toLowerCase() !== "n/a", {
  error: 'must not be "n/a": describe the effect, e.g. "none — internal-only change" or "unknown — depends on …"',
});

export const DecisionOption = z.looseObject({
  id: text,
  summary: text,
  user_impact: tradeOff,
  performance: tradeOff,
  speed: tradeOff,
  cost: tradeOff,
});
export type DecisionOption = z.infer<typeof DecisionOption>;

export const CONFIDENCES = ["high", "med", "low"] as const;

/** One `novel_decisions[]` entry (parser rule 7). */
export const NovelDecision = z
  .looseObject({
    decision_id: text,
    decision: text,
    options: z.array(DecisionOption).min(1),
    recommended_default: text,
    confidence: z.enum(CONFIDENCES),
    reasoning: text,
  })
  .superRefine((entry, ctx) => {
    const ids = entry.options.map((option) => option.id);
    const seen = new Set<string>();
    ids.forEach((id, index) => {
      if (seen.has(id)) ctx.addIssue({ code: "custom", path: ["options", index, "id"], message: `duplicate option id "${id}": option ids must be unique so recommended_default names one option` });
      seen.add(id);
    });
    if (!ids.includes(entry.recommended_default)) {
      ctx.addIssue({
        code: "custom",
        path: ["recommended_default"],
        message: `"${entry.recommended_default}" matches no option id (options: ${ids.map((id) => `"${id}"`).join(", ")}); name the recommended option's id`,
      });
    }
  });
export type NovelDecision = z.infer<typeof NovelDecision>;

/** Status words a `locked_value` must never be: it records the value chosen, not the attestation. */
export const STATUS_WORDS: ReadonlySet<string> = new Set(["applied", "deviated", "n/a"]);

/** One `decision_ledger[]` entry: all six fields (checked by `--check-ledger`). */
export const LedgerEntry = z.looseObject({
  dimension: text,
  owner: z.enum(["plan", "implementer"]),
  locked_value: text.refine((value) => !STATUS_WORDS.has(value.trim().toLowerCase()), {
    error: 'is a status word; write the concrete value chosen (e.g. "secondary", "after <SummaryRow> in path/to/file")',
  }),
  alternatives_rejected: z.array(text).min(1, { error: 'needs at least one alternative; use ["none considered"] when there was a single viable option' }),
  evidence_file: text.nullable(),
  on_new_decision: z.enum(["block", "flag", "absorb"]),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;
