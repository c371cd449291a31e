/**
 * Model prices in USD per million tokens, and the one function that turns a usage total into a
 * cost. Used only when a log does not record its own cost (pi, `claude -p` and Claude Code's
 * `cost-state` do). Every row names where its figures come from (`source`), because this build
 * machine has no web access and a price nobody could check must say so:
 *
 * - `claude-code-2.1.332`: the model catalog baked into the pinned Claude Code binary
 *   (`pricing_tiers` + each model's `pricing`), read on 2026-12-01. It also gives the one-hour
 *   cache-write rate (2 × input) beside the five-minute one (1.25 × input). These are the rates
 *   Claude Code itself bills its `cost-state` with (checked: fixtures/sessions/offline-real-clients
 *   claude-session.jsonl, claude-opus-5-5, 20 in + 10 out = $0.00028 exactly).
 * - `ccusage-20.0.24-offline`: the price snapshot bundled in ccusage 20.0.24 (`--offline`), derived
 *   from its own pricing data; inferred from its output on the bundled Codex rollout (gpt-5.5:
 *   1,126,300 uncached + 4,929,536 cached + 9,118 output = $8.369808 exactly). Not checked against
 *   the provider's page.
 * - `author-2026-11-29`: the providers' published list prices as the author knew them on
 *   2026-11-29, NOT re-fetched. The claude-opus-4-5 and claude-sonnet-4-5 rows agree with the
 *   per-message costs pi itself recorded (fixtures/sessions/pi-mono, shared/sessions).
 *
 * Standard tier and speed only. A request in `fast` speed or a `priority` / `batch` tier has no
 * verified rate here: its cost is null (unpriced, named as such), never a guess. A model not
 * listed has no price either.
 */

export interface ModelPrice {
  /** Uncached input. */
  input: number;
  /** Cache reads. */
  cachedInput: number;
  /** Cache writes, five-minute lifetime (Anthropic); OpenAI bills none, so it is the input rate there. */
  cacheWrite: number;
  /** Cache writes with a one-hour lifetime; absent where the provider has no such write (then cacheWrite). */
  cacheWrite1h?: number;
  /** Output, reasoning included. */
  output: number;
  /** Where the figures come from (see the file comment). */
  source: PriceSource;
}

export type PriceSource = "claude-code-2.1.332" | "ccusage-20.0.24-offline" | "author-2026-11-29";

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The newest date any row was read on. */
export const PRICES_AS_OF = "2026-12-01";

const cc = (input: number, output: number, cacheRead: number): ModelPrice => ({
  input,
  cachedInput: cacheRead,
  cacheWrite: input * 1.25,
  cacheWrite1h: input * 2,
  output,
  source: "claude-code-2.1.332",
});

export const DEFAULT_PRICES: PriceTable = {
  // Anthropic: Claude Code 2.1.332's catalog (pricing tier in the comment).
  "claude-opus-5-5": cc(4, 20, 0.2), // tier_4_20_cache_read_0_20
  "claude-opus-5": cc(5, 25, 0.5), // tier_5_25
  "claude-opus-4-8": cc(5, 25, 0.5),
  "claude-opus-4-7": cc(5, 25, 0.5),
  "claude-opus-4-6": cc(5, 25, 0.5),
  "claude-opus-4-5": cc(5, 25, 0.5),
  "claude-opus-4-1": cc(15, 75, 1.5), // tier_15_75
  "claude-opus-4": cc(15, 75, 1.5),
  "claude-opus-4-0": cc(15, 75, 1.5),
  "claude-sonnet-5-5": cc(2, 10, 0.1), // tier_2_10_cache_read_0_10
  "claude-sonnet-5": cc(2, 10, 0.2), // tier_2_10
  "claude-sonnet-4-6": cc(3, 15, 0.3), // tier_3_15
  "claude-sonnet-4-5": cc(3, 15, 0.3),
  "claude-sonnet-4": cc(3, 15, 0.3),
  "claude-sonnet-4-0": cc(3, 15, 0.3),
  "claude-3-7-sonnet": cc(3, 15, 0.3),
  "claude-haiku-4-5": cc(1, 5, 0.1), // haiku_45
  "claude-3-5-haiku": cc(0.8, 4, 0.08), // haiku_35
  // OpenAI
  "gpt-5.5": { input: 5, cachedInput: 0.5, cacheWrite: 5, output: 30, source: "ccusage-20.0.24-offline" },
  "gpt-5": { input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10, source: "author-2026-11-29" },
  "gpt-5-mini": { input: 0.25, cachedInput: 0.025, cacheWrite: 0.25, output: 2, source: "author-2026-11-29" },
  "gpt-5-codex": { input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10, source: "author-2026-11-29" },
  "gpt-4.1": { input: 2, cachedInput: 0.5, cacheWrite: 2, output: 8, source: "author-2026-11-29" },
  "gpt-4o": { input: 2.5, cachedInput: 1.25, cacheWrite: 2.5, output: 10, source: "author-2026-11-29" },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, cacheWrite: 0.15, output: 0.6, source: "author-2026-11-29" },
};

/**
 * The price row for a model id: exact, else with a provider prefix (`anthropic/`) or a date
 * suffix (`-20250929`, `-2025-08-07`) removed. Null when the model is not priced.
 */
export function priceFor(model: string | null | undefined, table: PriceTable = DEFAULT_PRICES): ModelPrice | null {
  if (!model) return null;
  const candidates = [model];
  const bare = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  candidates.push(bare);
  candidates.push(bare.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, ""));
  for (const id of candidates) {
    const row = table[id];
    if (row !== undefined) return row;
  }
  return null;
}

export interface CostUsage {
  /** Every input token (uncached + cache reads + cache writes). */
  input: number;
  cachedInput: number;
  cacheWrite?: number;
  /** The part of cacheWrite with a one-hour lifetime. */
  cacheWrite1h?: number;
  /** Output, reasoning included. */
  output: number;
  /** Non-standard speed (`fast`) or tier (`priority`, `batch`): no verified rate, so no cost. */
  speed?: string;
  serviceTier?: string;
}

/** True when a request's speed and tier are the standard ones this table prices. */
export function standardTier(usage: Pick<CostUsage, "speed" | "serviceTier">): boolean {
  const speedOk = usage.speed === undefined || usage.speed === "standard";
  const tierOk = usage.serviceTier === undefined || usage.serviceTier === "standard" || usage.serviceTier === "default" || usage.serviceTier === "auto";
  return speedOk && tierOk;
}

/**
 * USD for one usage total at one price: each input token is billed once, at its own rate (one-hour
 * cache writes at the one-hour rate). Null for a non-standard speed or tier (not priced here).
 */
export function costOf(usage: CostUsage, price: ModelPrice): number | null {
  if (!standardTier(usage)) return null;
  const write = usage.cacheWrite ?? 0;
  const write1h = Math.min(write, usage.cacheWrite1h ?? 0);
  const uncached = Math.max(0, usage.input - usage.cachedInput - write);
  const writeCost = (write - write1h) * price.cacheWrite + write1h * (price.cacheWrite1h ?? price.cacheWrite);
  return (uncached * price.input + usage.cachedInput * price.cachedInput + writeCost + usage.output * price.output) / 1_000_000;
}
