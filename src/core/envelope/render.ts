/** Plain-text renderings of a verdict and of a cost-ledger summary, for the terminal. Pure. */
import type { Verdict } from "./check.ts";
import type { LedgerSummary } from "./cost-ledger.ts";
import type { Finding, Warning } from "./findings.ts";

function findingLine(finding: Finding | Warning): string {
  return `  ${finding.rule.padEnd(6)} ${finding.path === "" ? "(envelope)" : finding.path}: ${finding.message}`;
}

export function renderVerdict(name: string, verdict: Verdict): string {
  const plan = verdict.plan.source === "plan" ? `plan dimensions: ${verdict.plan.dimensions.length === 0 ? "none" : verdict.plan.dimensions.join(", ")}` : "no plan given (dimensions inferred from the attestation)";
  const lines = [`${name}: ${verdict.route}`, `  ${plan}${verdict.checked_ledger ? "; ledger checked" : ""}`];
  if (verdict.reasons.length > 0) lines.push(verdict.route === "malformed" ? "reasons:" : "because:", ...verdict.reasons.map(findingLine));
  if (verdict.followups.length > 0) lines.push("then:", ...verdict.followups.map(findingLine));
  if (verdict.warnings.length > 0) lines.push("warnings:", ...verdict.warnings.map(findingLine));
  return `${lines.join("\n")}\n`;
}

export function renderLedgerSummary(name: string, summary: LedgerSummary): string {
  const routes = Object.entries(summary.routes)
    .map(([route, count]) => `${route} ${count}`)
    .join(", ");
  const lines = [
    `${name}: ${summary.rows} rows, ${summary.dispatched} dispatched, ${summary.completed} completed, ${summary.open.length} open`,
    `  routes: ${routes === "" ? "none yet" : routes}`,
    `  implementer wall clock: ${summary.wall_clock_seconds_total}s; lines +${summary.loc_added_total} -${summary.loc_removed_total}`,
  ];
  if (summary.open.length > 0) lines.push(`  open: ${summary.open.join(", ")}`);
  if (summary.problems.length > 0) {
    lines.push("problems:", ...summary.problems.map((problem) => `  ${problem.line === null ? "" : `line ${problem.line}: `}${problem.message}`));
  }
  return `${lines.join("\n")}\n`;
}
