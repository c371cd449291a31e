/**
 * Cohorts of recorded sessions (`analyze --by client|version|model|project|week|month`): the
 * sessions grouped by one key and compared with a study's statistics — rates with Wilson 95%
 * intervals, per-session counts with bootstrap 95% intervals of the mean, and each group against
 * the largest (the reference) with Fisher's exact p for rates and a bootstrap interval for the
 * difference of means. Cohorts are observational: the sessions were not assigned to groups at
 * random, so a difference may come from the tasks, the people or the time, not the grouping.
 */
import { type CountDifference, type CountSummary, compareRates, bootstrapMeanDifference, type RateDifference, type RateSummary, type Rng, SMALL_SAMPLE, summarizeCounts, summarizeRate } from "./stats.ts";
import type { SessionRow } from "./session-rows.ts";

export const COHORT_KEYS = ["client", "version", "model", "project", "week", "month"] as const;
export type CohortKey = (typeof COHORT_KEYS)[number];

/** The rates compared per cohort: the share of sessions where each holds. */
export const COHORT_RATES = {
  claimedComplete: { title: "claimed complete", of: (r: SessionRow) => r.claimedComplete },
  permissionQuestion: { title: "ended on a permission question", of: (r: SessionRow) => r.permissionQuestion },
  interrupted: { title: "interrupted at least once", of: (r: SessionRow) => r.interrupts > 0 },
  compacted: { title: "compacted at least once", of: (r: SessionRow) => r.compactions > 0 },
  retried: { title: "retried an API error", of: (r: SessionRow) => r.retries > 0 },
} as const;

/** The per-session counts compared per cohort (null values, such as an unpriced cost, are left out). */
export const COHORT_COUNTS = {
  toolCalls: { title: "tool calls", of: (r: SessionRow): number | null => r.toolCalls },
  toolCallsBeforeReplyEnd: { title: "tool calls before the first reply end", of: (r: SessionRow): number | null => r.toolCallsBeforeReplyEnd },
  replies: { title: "replies", of: (r: SessionRow): number | null => r.replies },
  repeatedIdenticalCalls: { title: "repeated identical calls", of: (r: SessionRow): number | null => r.repeatedIdenticalCalls },
  totalTokens: { title: "tokens (input + output, with sub-agents)", of: (r: SessionRow): number | null => r.totalTokensIncludingSubagents },
  costUsd: { title: "cost (USD, priced sessions)", of: (r: SessionRow): number | null => r.costUsdIncludingSubagents },
  wallMinutes: { title: "wall time (minutes)", of: (r: SessionRow): number | null => r.wallMs / 60_000 },
  coldResends: { title: "cold re-sends", of: (r: SessionRow): number | null => r.coldResends },
  commandsFailed: { title: "failed commands", of: (r: SessionRow): number | null => r.commandsFailed },
} as const;

export type CohortRate = keyof typeof COHORT_RATES;
export type CohortCount = keyof typeof COHORT_COUNTS;

export interface Cohort {
  key: string;
  sessions: number;
  rates: Record<CohortRate, RateSummary>;
  counts: Record<CohortCount, CountSummary>;
  /** Against the reference cohort (null for the reference itself). */
  versusReference: { rates: Record<CohortRate, RateDifference>; counts: Record<CohortCount, CountDifference> } | null;
}

export interface CohortComparison {
  by: CohortKey;
  /** The largest cohort, which every other is compared with. */
  reference: string;
  cohorts: Cohort[];
  note: string;
  /** Cohorts under SMALL_SAMPLE sessions, named; null when none. */
  smallSample: string | null;
}

export const OBSERVATIONAL_NOTE =
  "Cohorts are observational, not randomised: sessions were not assigned to groups at random, so a difference between groups may come from the tasks, the people, the projects or the time as much as from the grouping itself. Intervals are 95% (Wilson for rates, bootstrap for means); p is Fisher's exact two-sided test against the reference group.";

/** ISO 8601 week of a UTC date, as `2026-W48`. */
export function isoWeek(ms: number): string {
  const d = new Date(ms);
  const day = d.getUTCDay() || 7; // Monday 1 … Sunday 7
  // The week belongs to the year of its Thursday.
  const thursday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 4 - day));
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((thursday.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

export function cohortOf(row: SessionRow, by: CohortKey): string {
  const started = row.startedAt === null ? Number.NaN : Date.parse(row.startedAt);
  switch (by) {
    case "client":
      return row.client;
    case "version":
      return `${row.client} ${row.clientVersion ?? "(version unknown)"}`;
    case "model":
      return row.model;
    case "project":
      return row.project ?? "(project unknown)";
    case "week":
      return Number.isFinite(started) ? isoWeek(started) : "(start unknown)";
    case "month":
      return Number.isFinite(started) ? new Date(started).toISOString().slice(0, 7) : "(start unknown)";
    default: {
      const unreachable: never = by;
      throw new Error(`unknown cohort key ${String(unreachable)}`);
    }
  }
}

function mapValues<K extends string, V, W>(record: Record<K, V>, f: (v: V, k: K) => W): Record<K, W> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v as V, k as K)])) as Record<K, W>;
}

/** Groups the rows and compares the groups. `rng` makes the bootstrap intervals reproducible. */
export function compareCohorts(rows: readonly SessionRow[], by: CohortKey, rng: Rng, resamples?: number): CohortComparison {
  const groups = new Map<string, SessionRow[]>();
  for (const row of rows) {
    const key = cohortOf(row, by);
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [row]);
    else list.push(row);
  }
  // Time cohorts read in time order; the others largest first (ties by name).
  const keys = [...groups.keys()].sort((a, b) => (by === "week" || by === "month" ? (a < b ? -1 : a > b ? 1 : 0) : (groups.get(b)?.length ?? 0) - (groups.get(a)?.length ?? 0) || (a < b ? -1 : 1)));
  const reference = [...groups.keys()].sort((a, b) => (groups.get(b)?.length ?? 0) - (groups.get(a)?.length ?? 0) || (a < b ? -1 : 1))[0] ?? "";
  const flags = (list: readonly SessionRow[], rate: CohortRate): boolean[] => list.map((r) => COHORT_RATES[rate].of(r));
  const values = (list: readonly SessionRow[], count: CohortCount): number[] => list.flatMap((r) => {
    const v = COHORT_COUNTS[count].of(r);
    return v === null ? [] : [v];
  });
  const refRows = groups.get(reference) ?? [];
  const cohorts = keys.map((key): Cohort => {
    const list = groups.get(key) ?? [];
    return {
      key,
      sessions: list.length,
      rates: mapValues(COHORT_RATES, (_, rate) => summarizeRate(flags(list, rate))),
      counts: mapValues(COHORT_COUNTS, (_, count) => summarizeCounts(values(list, count), rng, resamples)),
      versusReference:
        key === reference
          ? null
          : {
              rates: mapValues(COHORT_RATES, (_, rate) => compareRates(flags(refRows, rate), flags(list, rate), rng, resamples)),
              counts: mapValues(COHORT_COUNTS, (_, count) => bootstrapMeanDifference(values(refRows, count), values(list, count), rng, resamples)),
            },
    };
  });
  const small = cohorts.filter((c) => c.sessions < SMALL_SAMPLE);
  const smallSample =
    small.length === 0
      ? null
      : `Fewer than ${SMALL_SAMPLE} sessions in ${small.length === cohorts.length ? "every cohort" : small.map((c) => `${c.key} (n=${c.sessions})`).join(", ")}: intervals are wide and only large differences can be told from chance.`;
  return { by, reference, cohorts, note: OBSERVATIONAL_NOTE, smallSample };
}

const pct = (v: number | null): string => (v === null ? "–" : `${Math.round(v * 100)}%`);
const short = (v: number | null): string => (v === null ? "–" : Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
const interval = (ci: readonly [number, number] | null, f: (v: number) => string): string => (ci === null ? "" : ` [${f(ci[0])}, ${f(ci[1])}]`);

/** The plain-text table: one row per cohort, each figure with its 95% interval. */
export function renderCohortTable(c: CohortComparison): string {
  const header = [c.by, "sessions", "claimed complete", "interrupted", "tool calls / session", "tokens / session", "cost $ / session"];
  const rows = c.cohorts.map((g) => [
    g.key === c.reference ? `${g.key} (reference)` : g.key,
    String(g.sessions),
    `${g.rates.claimedComplete.count}/${g.rates.claimedComplete.n} ${pct(g.rates.claimedComplete.rate)}${interval(g.rates.claimedComplete.ci95, (v) => pct(v))}`,
    `${g.rates.interrupted.count}/${g.rates.interrupted.n}${interval(g.rates.interrupted.ci95, (v) => pct(v))}`,
    `${short(g.counts.toolCalls.mean)}${interval(g.counts.toolCalls.ci95, short)}`,
    `${short(g.counts.totalTokens.mean)}${interval(g.counts.totalTokens.ci95, short)}`,
    g.counts.costUsd.n === 0 ? "– (none priced)" : `${short(g.counts.costUsd.mean)}${interval(g.counts.costUsd.ci95, short)} (n=${g.counts.costUsd.n})`,
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => (r[i] ?? "").length)));
  const fmt = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  return [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...rows.map(fmt), "", `95% intervals in brackets. ${c.note}`, ...(c.smallSample === null ? [] : [c.smallSample])].join("\n") + "\n";
}
