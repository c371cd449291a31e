/**
 * Parser rules 1–7 of the implementer-envelope contract, as one pure function from (envelope,
 * plan) to a routing verdict. The verdict names one route — the first thing the orchestrator must
 * do — with its reasons, and keeps every lower-precedence finding as a follow-up, so nothing the
 * rules found is lost. Precedence (docs/decisions/0056):
 *
 *   malformed (R1 shape, R2 attestation coverage, R5 empty block, LEDGER lint)
 *   > escalate (status scope_breach / deferred_architecture / concurrent_modification_detected)
 *   > iterate  (status failed / plan_malformed / evidence_stale / needs_dependency)
 *   > iterate  (R7: a novel_decisions entry is incomplete)
 *   > escalate (R7: a complete entry with confidence "low")
 *   > resolve_decisions (R4: blocked with decisions)
 *   > scope_review (R3: novel decisions beside a plan with synthesis dimensions)
 *   > iterate  (R6: a failing F-criterion)
 *   > commit
 */
import { type Finding, type Route, type RuleId, type Warning, formatPath, hasOwn, isRecord, issuesToFindings } from "./findings.ts";
import { lintDecisionLedger } from "./ledger-lint.ts";
import type { PlanDimensions } from "./plan.ts";
import { type Envelope, EnvelopeShape, KNOWN_FIELDS, NovelDecision } from "./schema.ts";

export interface CheckOptions {
  /** The plan's synthesis dimensions. Without a plan they are inferred from the attestation's keys. */
  plan?: PlanDimensions;
  /** Run the decision-ledger lint; its errors make the envelope malformed. */
  checkLedger?: boolean;
}

export interface Verdict {
  route: Route;
  /** The findings that decided the route; for `malformed`, every reason found. Empty for `commit`. */
  reasons: Finding[];
  /** Findings of lower precedence, for after the route is dealt with. */
  followups: Finding[];
  warnings: Warning[];
  /** F-criteria marked `"fail"`, in envelope order (Iterate's entry points). */
  failing_criteria: string[];
  /** The envelope's status; `"completed"` when a well-formed envelope leaves it out. */
  status: string | null;
  task_id: string | null;
  /** `plan`: read from the plan file; `inferred`: no plan given, taken from the attestation's keys. */
  plan: { source: "plan" | "inferred"; dimensions: string[] };
  checked_ledger: boolean;
}

export interface CheckResult {
  verdict: Verdict;
  /** The parsed envelope with the additive fields' defaults filled in; `null` when malformed. */
  envelope: Envelope | null;
}

const FIELD_HINTS: Record<string, string> = {
  branch: 'name the branch the work is on ("" if none)',
  commit_sha: 'use "pending" when the orchestrator commits, "" when nothing was committed',
  files_changed: "list the changed paths, or [] for none",
  loc_added: "use 0 for none",
  loc_removed: "use 0 for none",
  f_criteria: "map every F-criterion of the brief to pass or fail, or {} when the brief names none",
  synthesis_attestation: "attest each plan dimension, or {} when the plan has no synthesis_dimensions block",
  novel_decisions: "use [] when there are none — the key must be present",
  notes: 'use "" for no notes',
  wall_clock_seconds: "give the implementer's wall-clock seconds",
  task_id: 'echo the brief\'s [TASK_ID: …] value, or "unknown" for a brief without one',
};

const STATUS_ROUTES: Partial<Record<string, { route: Route; why: string }>> = {
  scope_breach: { route: "escalate", why: "the fix needs a file outside the chunk's scope; the orchestrator decides whether to extend it" },
  deferred_architecture: { route: "escalate", why: "the plan flags architecture impact; the user confirms before implementation" },
  concurrent_modification_detected: { route: "escalate", why: "a chunk file changed under the implementer, which points at a partition bug to investigate" },
  failed: { route: "iterate", why: "the implementer reports failure; re-plan or retry" },
  plan_malformed: { route: "iterate", why: "the implementer could not follow the plan; re-plan" },
  evidence_stale: { route: "iterate", why: "the plan's evidence no longer matches the code; refresh it and retry" },
  needs_dependency: { route: "iterate", why: "the chunk waits on a dependency; retry once it lands" },
};

function rank(finding: Finding): number {
  if (finding.route === "malformed") return 0;
  if (finding.rule === "STATUS") return finding.route === "escalate" ? 1 : 2;
  if (finding.rule === "R7") return finding.route === "iterate" ? 3 : 4;
  if (finding.rule === "R4") return 5;
  if (finding.rule === "R3") return 6;
  return 7;
}

function decisionLabel(entry: unknown, index: number): string {
  return isRecord(entry) && typeof entry.decision_id === "string" && entry.decision_id.trim() !== "" ? entry.decision_id : `#${index}`;
}

function shapeWarnings(raw: Record<string, unknown>): Warning[] {
  const warnings: Warning[] = [];
  const note = (path: string, message: string): void => {
    warnings.push({ rule: "NOTE", path, message });
  };
  for (const key of Object.keys(raw)) {
    if (!KNOWN_FIELDS.has(key)) note(formatPath([key]), "unknown field, ignored; check the spelling against the envelope contract");
  }
  if (typeof raw.notes === "string") {
    const words = raw.notes.split(/\s+/).filter((word) => word !== "").length;
    if (words > 200) note("notes", `${words} words; the contract asks for at most 200`);
  }
  const files = Array.isArray(raw.files_changed) ? raw.files_changed.filter((file): file is string => typeof file === "string") : [];
  const absolute = files.filter((file) => file.startsWith("/")).length;
  if (absolute > 0 && absolute < files.length) note("files_changed", `mixes ${absolute} absolute and ${files.length - absolute} repo-relative paths; use one form`);
  const duplicates = [...new Set(files.filter((file, index) => files.indexOf(file) !== index))];
  if (duplicates.length > 0) note("files_changed", `lists ${duplicates.map((file) => JSON.stringify(file)).join(", ")} more than once`);
  if (files.length === 0 && (raw.loc_added !== 0 || raw.loc_removed !== 0) && typeof raw.loc_added === "number" && typeof raw.loc_removed === "number") {
    note("files_changed", `is empty but loc_added/loc_removed are ${String(raw.loc_added)}/${String(raw.loc_removed)}`);
  }
  if (raw.status === "blocked" && typeof raw.commit_sha === "string" && raw.commit_sha !== "" && raw.commit_sha !== "pending") {
    note("commit_sha", 'a blocked implementer must not commit; commit_sha should be ""');
  }
  if (raw.status === "scope_breach" && !(typeof raw.needed_file === "string" && raw.needed_file.trim() !== "")) {
    note("needed_file", "a scope_breach envelope should name the needed_file and why");
  }
  return warnings;
}

export function checkEnvelope(raw: unknown, options: CheckOptions = {}): CheckResult {
  const checkLedger = options.checkLedger === true;
  if (!isRecord(raw)) {
    const reason: Finding = {
      rule: "R1",
      route: "malformed",
      path: "",
      message: `the envelope must be a mapping of fields; got ${raw === null ? "null" : Array.isArray(raw) ? "a list" : typeof raw}`,
    };
    return {
      verdict: { route: "malformed", reasons: [reason], followups: [], warnings: [], failing_criteria: [], status: null, task_id: null, plan: { source: options.plan ? "plan" : "inferred", dimensions: options.plan?.dimensions ?? [] }, checked_ledger: checkLedger },
      envelope: null,
    };
  }

  const malformed: Finding[] = [];
  const parsed = EnvelopeShape.safeParse(raw);
  if (!parsed.success) {
    malformed.push(
      ...issuesToFindings(parsed.error, raw, {
        rule: "R1",
        route: "malformed",
        missingHint: (field) => `absent keys make the envelope malformed — ${FIELD_HINTS[field] ?? "add it"}`,
      }),
    );
  }

  const attestation = isRecord(raw.synthesis_attestation) ? raw.synthesis_attestation : null;
  const plan = options.plan
    ? { source: "plan" as const, dimensions: [...options.plan.dimensions] }
    : { source: "inferred" as const, dimensions: attestation === null ? [] : Object.keys(attestation) };
  const status = typeof raw.status === "string" ? raw.status : null;
  const decisions = Array.isArray(raw.novel_decisions) ? raw.novel_decisions : null;
  const ledger = Array.isArray(raw.decision_ledger) ? raw.decision_ledger : null;

  // R1, conditional part: the ledger is required (and non-empty) when the plan names dimensions.
  if (plan.dimensions.length > 0) {
    const named = plan.dimensions.join(", ");
    if (!hasOwn(raw, "decision_ledger")) {
      malformed.push({ rule: "R1", route: "malformed", path: "decision_ledger", message: `missing required field; the plan names synthesis dimensions (${named}), so each needs a ledger entry` });
    } else if (ledger !== null && ledger.length === 0) {
      malformed.push({ rule: "R1", route: "malformed", path: "decision_ledger", message: `is empty; [] is allowed only when the plan has no synthesis_dimensions block, and this one names ${named}` });
    }
  }

  // R2: every plan dimension is attested; extra attestations are accepted.
  if (plan.source === "plan" && attestation !== null) {
    for (const dimension of plan.dimensions) {
      if (!hasOwn(attestation, dimension)) {
        malformed.push({
          rule: "R2",
          route: "malformed",
          path: formatPath(["synthesis_attestation", dimension]),
          message: `the plan names dimension "${dimension}" but the envelope does not attest it; add "applied", "n/a" or {status: "deviated", deviation_reason: "<why>"}`,
        });
      }
    }
  }

  // R5: a block with nothing to resolve.
  if (status === "blocked" && decisions !== null && decisions.length === 0) {
    malformed.push({
      rule: "R5",
      route: "malformed",
      path: "novel_decisions",
      message: 'status is "blocked" but novel_decisions is empty, so the block has nothing to resolve; the orchestrator treats it as failed and routes to Iterate',
    });
  }

  const warnings = shapeWarnings(raw);
  // An absent ledger that R1 already reported is not reported again per dimension.
  const ledgerReported = plan.dimensions.length > 0 && !hasOwn(raw, "decision_ledger");
  if (checkLedger && attestation !== null && (ledger !== null || (!hasOwn(raw, "decision_ledger") && !ledgerReported))) {
    const lint = lintDecisionLedger(ledger ?? [], attestation);
    malformed.push(...lint.errors);
    warnings.push(...lint.warnings);
  }

  const failing = isRecord(raw.f_criteria) ? Object.keys(raw.f_criteria).filter((id) => (raw.f_criteria as Record<string, unknown>)[id] === "fail") : [];
  const taskId = typeof raw.task_id === "string" ? raw.task_id : null;

  if (malformed.length > 0 || !parsed.success) {
    return {
      verdict: { route: "malformed", reasons: malformed, followups: [], warnings, failing_criteria: failing, status, task_id: taskId, plan, checked_ledger: checkLedger },
      envelope: null,
    };
  }

  const data = parsed.data;
  const envelope: Envelope = {
    ...data,
    decision_ledger: data.decision_ledger ?? [],
    capabilities_used: data.capabilities_used ?? [],
    capabilities_rejected: data.capabilities_rejected ?? [],
    downstream_iterate_outcome: data.downstream_iterate_outcome ?? null,
    merge_plan: data.merge_plan ?? null,
  };
  const effectiveStatus = data.status === undefined || data.status === "" ? "completed" : data.status;
  const findings: Finding[] = [];
  const add = (rule: RuleId, route: Route, path: string, message: string): void => {
    findings.push({ rule, route, path, message });
  };

  const byStatus = STATUS_ROUTES[effectiveStatus];
  if (byStatus !== undefined) add("STATUS", byStatus.route, "status", `status is "${effectiveStatus}": ${byStatus.why}`);

  // R7: each novel decision carries the do/branch/surface payload; low confidence escalates.
  const complete: { index: number; decision: NovelDecision }[] = [];
  data.novel_decisions.forEach((entry, index) => {
    const base = ["novel_decisions", index];
    if (!isRecord(entry)) {
      add("R7", "iterate", formatPath(base), `must be a mapping with decision_id, decision, options, recommended_default, confidence and reasoning; got ${Array.isArray(entry) ? "a list" : String(entry === null ? "null" : typeof entry)}`);
      return;
    }
    const result = NovelDecision.safeParse(entry);
    if (!result.success) {
      for (const finding of issuesToFindings(result.error, entry, { rule: "R7", route: "iterate", base, missingHint: () => "ask the implementer to fill in the decision's trade-off payload" })) {
        findings.push(finding);
      }
      return;
    }
    complete.push({ index, decision: result.data });
  });
  for (const { index, decision } of complete) {
    if (decision.confidence === "low") {
      add("R7", "escalate", formatPath(["novel_decisions", index, "confidence"]), `decision "${decision.decision_id}" has confidence "low": the implementer cannot pick well, so surface its trade-offs to a person even in long mode`);
    }
  }

  const labels = data.novel_decisions.map(decisionLabel).join(", ");
  // R4: a halt-and-ask block with a payload: do not commit; resolve each decision, then re-dispatch.
  if (effectiveStatus === "blocked" && data.novel_decisions.length > 0) {
    add("R4", "resolve_decisions", "novel_decisions", `status is "blocked" with ${data.novel_decisions.length} novel decision(s) (${labels}): do not commit; resolve each one, then re-dispatch the implementer with the resolutions`);
  }
  // R3: decisions the plan did not enumerate, beside a plan that enumerates synthesis dimensions.
  if (effectiveStatus !== "blocked" && data.novel_decisions.length > 0 && plan.dimensions.length > 0) {
    add("R3", "scope_review", "novel_decisions", `${data.novel_decisions.length} novel decision(s) (${labels}) beside a plan with synthesis dimensions: send the diff to scope review before committing`);
  }
  // R6: every failing F-criterion is an entry point for Iterate.
  for (const id of failing) add("R6", "iterate", formatPath(["f_criteria", id]), `${id} is "fail": route to Iterate with ${id} as the entry point`);

  const ordered = findings.map((finding, index) => ({ finding, index })).sort((a, b) => rank(a.finding) - rank(b.finding) || a.index - b.index).map(({ finding }) => finding);
  const first = ordered[0];
  const route: Route = first === undefined ? "commit" : first.route;
  const reasons = first === undefined ? [] : ordered.filter((finding) => rank(finding) === rank(first));
  const followups = first === undefined ? [] : ordered.filter((finding) => rank(finding) !== rank(first));
  return {
    verdict: { route, reasons, followups, warnings, failing_criteria: failing, status: effectiveStatus, task_id: data.task_id, plan, checked_ledger: checkLedger },
    envelope,
  };
}
