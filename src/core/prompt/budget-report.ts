/**
 * The prefix-budget gate, as pure functions: compare a compiled pack with its baseline entry,
 * decide the violations (over budget, prefix growth over the allowed percentage), and render the
 * report as text, as the `--json` object, and as GitHub annotations. The CLI only does the I/O.
 */
import type { CompileResult, Violation } from "./types.ts";

/** One arm's entry in the baseline file (arms/budget-baseline.json). */
export interface BaselineArm {
  prefixHash: string;
  prefix: { chars: number; tokens: number };
  /** By section id, in compiled order. */
  sections: Record<string, { hash: string; chars: number; tokens: number }>;
}

export interface Baseline {
  version: 1;
  /** By arm name, sorted. */
  arms: Record<string, BaselineArm>;
}

export type GrowthViolation = {
  kind: "growth";
  limit: "maxPercent";
  /** Growth of the stable prefix's o200k tokens against the baseline, in percent (one decimal). */
  actual: number;
  max: number;
  baselineTokens: number;
  tokens: number;
  message: string;
};

export type BudgetViolation = Violation | GrowthViolation;

export interface SectionChange {
  id: string;
  status: "changed" | "added" | "removed";
  /** New minus baseline; for a removed section, minus the baseline's figures. */
  chars: number;
  tokens: number;
}

export interface ArmBudgetReport {
  arm: string;
  /** arm.yaml, as messages name it: the annotation target for arm-level violations. */
  armFile: string;
  result: CompileResult;
  /** Null when the baseline has no entry for this arm. */
  baseline: { prefixHash: string; tokens: number; chars: number; changes: SectionChange[] } | null;
  violations: BudgetViolation[];
}

export function baselineEntry(result: CompileResult): BaselineArm {
  const sections: BaselineArm["sections"] = {};
  for (const s of result.sections) sections[s.id] = { hash: s.hash, chars: s.chars, tokens: s.tokens };
  return { prefixHash: result.prefixHash, prefix: { chars: result.prefixChars, tokens: result.prefixTokens }, sections };
}

/** A baseline with `entries` replacing (or adding) those arms; arms sorted so the file diffs well. */
export function mergeBaseline(previous: Baseline | null, entries: Readonly<Record<string, BaselineArm>>): Baseline {
  const arms = { ...(previous?.arms ?? {}), ...entries };
  const sorted: Record<string, BaselineArm> = {};
  for (const name of Object.keys(arms).sort()) sorted[name] = arms[name] as BaselineArm;
  return { version: 1, arms: sorted };
}

export function budgetReport(arm: string, armFile: string, result: CompileResult, baseline: BaselineArm | undefined, maxGrowthPercent: number): ArmBudgetReport {
  const violations: BudgetViolation[] = [...result.violations];
  if (baseline === undefined) return { arm, armFile, result, baseline: null, violations };

  const changes: SectionChange[] = [];
  for (const s of result.sections) {
    const before = baseline.sections[s.id];
    if (before === undefined) changes.push({ id: s.id, status: "added", chars: s.chars, tokens: s.tokens });
    else if (before.hash !== s.hash) changes.push({ id: s.id, status: "changed", chars: s.chars - before.chars, tokens: s.tokens - before.tokens });
  }
  for (const [id, before] of Object.entries(baseline.sections)) {
    if (!result.sections.some((s) => s.id === id)) changes.push({ id, status: "removed", chars: -before.chars, tokens: -before.tokens });
  }

  const base = baseline.prefix.tokens;
  if (base > 0) {
    const actual = Math.round(((result.prefixTokens - base) / base) * 1000) / 10;
    if (actual > maxGrowthPercent) {
      violations.push({
        kind: "growth",
        limit: "maxPercent",
        actual,
        max: maxGrowthPercent,
        baselineTokens: base,
        tokens: result.prefixTokens,
        message: `the stable prefix of "${arm}" grew ${actual}% (${base} → ${result.prefixTokens} o200k tokens), over the allowed ${maxGrowthPercent}%. Shrink it, or accept the growth with \`npm run budget -- --update-baseline\` and commit the baseline file.`,
      });
    }
  }
  return { arm, armFile, result, baseline: { prefixHash: baseline.prefixHash, tokens: base, chars: baseline.prefix.chars, changes }, violations };
}

/** The `--json` object: exactly `{ arms: [{ arm, prefixHash, prefix, sections, violations }] }`. */
export function budgetJson(reports: readonly ArmBudgetReport[]): {
  arms: {
    arm: string;
    prefixHash: string;
    prefix: { chars: number; tokens: number };
    sections: { id: string; chars: number; tokens: number; maxChars: number | null; maxTokens: number | null; over: boolean }[];
    violations: BudgetViolation[];
  }[];
} {
  return {
    arms: reports.map((r) => ({
      arm: r.arm,
      prefixHash: r.result.prefixHash,
      prefix: { chars: r.result.prefixChars, tokens: r.result.prefixTokens },
      sections: r.result.sections.map((s) => ({ id: s.id, chars: s.chars, tokens: s.tokens, maxChars: s.maxChars, maxTokens: s.maxTokens, over: s.over })),
      violations: r.violations,
    })),
  };
}

/** A human-readable table per arm. */
export function formatBudgetText(reports: readonly ArmBudgetReport[], options: { baselineFile: string | null; maxGrowthPercent: number }): string {
  const lines: string[] = [];
  for (const r of reports) {
    const { result } = r;
    lines.push(`${r.arm}`);
    const changeOf = new Map((r.baseline?.changes ?? []).map((c) => [c.id, c]));
    const rows: string[][] = [["section", "chars", "tokens", "max chars", "max tokens", "share", "since baseline"]];
    for (const s of result.sections) {
      const change = changeOf.get(s.id);
      const notes = [
        r.baseline === null ? "" : change === undefined ? "same" : change.status === "added" ? "added" : `changed (${signed(change.chars)} chars, ${signed(change.tokens)} tokens)`,
        s.stable ? "" : "dynamic",
        s.cutFrom === null ? "" : `cut from ${group(s.cutFrom.chars)} chars`,
        s.over ? "OVER" : "",
      ].filter((n) => n !== "");
      rows.push([s.id, group(s.chars), group(s.tokens), limit(s.maxChars), limit(s.maxTokens), share(s.chars, s.tokens, s.maxChars, s.maxTokens), notes.join(", ")]);
    }
    for (const c of r.baseline?.changes ?? []) {
      if (c.status === "removed") rows.push([c.id, "-", "-", "", "", "", `removed (${signed(c.chars)} chars, ${signed(c.tokens)} tokens)`]);
    }
    const prefixBudget = result.prefixBudget;
    rows.push([
      "stable prefix",
      group(result.prefixChars),
      group(result.prefixTokens),
      limit(prefixBudget.maxChars),
      limit(prefixBudget.maxTokens),
      share(result.prefixChars, result.prefixTokens, prefixBudget.maxChars, prefixBudget.maxTokens),
      r.baseline === null ? "" : `${signed(result.prefixTokens - r.baseline.tokens)} tokens (${growth(result.prefixTokens, r.baseline.tokens)})`,
    ]);
    lines.push(...table(rows).map((line) => `  ${line}`));
    lines.push(`  prefix hash: ${result.prefixHash}${r.baseline === null ? "" : r.baseline.prefixHash === result.prefixHash ? " (same as the baseline)" : ` (baseline: ${r.baseline.prefixHash})`}`);
    if (r.baseline === null) lines.push(`  baseline: ${options.baselineFile === null ? "none" : `no entry in ${options.baselineFile}`}`);
    else lines.push(`  sections changed since the baseline: ${r.baseline.changes.length === 0 ? "none" : r.baseline.changes.map((c) => `${c.id} (${c.status})`).join(", ")}`);
    if (r.violations.length === 0) lines.push("  violations: none");
    else for (const v of r.violations) lines.push(`  VIOLATION: ${v.message}`);
    lines.push("");
  }
  const total = reports.reduce((n, r) => n + r.violations.length, 0);
  lines.push(
    total === 0
      ? `budget: ${reports.length} arm${reports.length === 1 ? "" : "s"} within budget (allowed prefix growth ${options.maxGrowthPercent}%).`
      : `budget: ${total} violation${total === 1 ? "" : "s"} in ${reports.filter((r) => r.violations.length > 0).length} of ${reports.length} arms.`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * GitHub Actions workflow commands: one `::error` per violation, one `::notice` per section
 * changed since the baseline, each pointing at the file to edit where one is known.
 */
export function githubAnnotations(reports: readonly ArmBudgetReport[], files: { budgets: string | null }): string {
  const out: string[] = [];
  for (const r of reports) {
    for (const v of r.violations) {
      const file = v.kind === "over_budget" || v.kind === "missing_input" ? v.origin : v.kind === "prefix_over_budget" ? (files.budgets ?? r.armFile) : r.armFile;
      out.push(`::error ${property(file)}title=${escapeProperty(`prompt budget: ${r.arm}`)}::${escapeData(v.message)}`);
    }
    for (const c of r.baseline?.changes ?? []) {
      const origin = r.result.sections.find((s) => s.id === c.id)?.origin ?? r.armFile;
      out.push(`::notice ${property(origin)}title=${escapeProperty(`prompt section ${c.status}: ${r.arm}`)}::${escapeData(`section "${c.id}" ${c.status} since the baseline (${signed(c.chars)} chars, ${signed(c.tokens)} o200k tokens)`)}`);
    }
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

/** `file=…,` for a working-tree path; nothing for an origin read from a git ref. */
function property(file: string): string {
  return /^[^:]+$/.test(file) || /^[A-Za-z]:[\\/]/.test(file) ? `file=${escapeProperty(file)},` : "";
}

function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? "").length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, col) => (col === 0 || col === row.length - 1 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

function group(n: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function signed(n: number): string {
  return n > 0 ? `+${group(n)}` : n === 0 ? "±0" : group(n);
}

function limit(n: number | null): string {
  return n === null ? "-" : group(n);
}

/** The larger of chars/maxChars and tokens/maxTokens, as a percentage; "-" with no budget. */
function share(chars: number, tokens: number, maxChars: number | null, maxTokens: number | null): string {
  const parts = [maxChars === null ? null : chars / maxChars, maxTokens === null ? null : tokens / maxTokens].filter((p): p is number => p !== null);
  return parts.length === 0 ? "-" : `${Math.round(Math.max(...parts) * 100)}%`;
}

function growth(tokens: number, base: number): string {
  if (base === 0) return "new";
  const pct = Math.round(((tokens - base) / base) * 1000) / 10;
  return `${pct > 0 ? "+" : ""}${pct}%`;
}
