/**
 * Model prices in USD per million tokens, and the one function that turns a usage total into a
 * cost. Used only when a log does not record its own cost (pi and `claude -p` do).
 *
 * Sources: the providers' published list prices (Anthropic "Pricing", OpenAI "API pricing"),
 * standard tier, no batch discount, as the author knew them on 2026-11-29. They were NOT re-fetched
 * (the build machine has no web access): check them before quoting a cost. Anthropic cache writes
 * are the 5-minute rate (1.25 × input); 1-hour writes (2 × input) are not told apart in most logs,
 * so costs from this table are approximate there. Checked against the per-message costs pi itself
 * recorded: the claude-opus-4-5 row over fixtures/sessions/pi-mono/before-compaction.jsonl (a test
 * holds it within half a cent per message), the claude-sonnet-4-5 row once over pi's
 * large-session.jsonl (shared/sessions; 452 messages, exact). A model not listed has no price:
 * its cost is null, never a guess.
 */

export interface ModelPrice {
  /** Uncached input. */
  input: number;
  /** Cache reads. */
  cachedInput: number;
  /** Cache writes (Anthropic); OpenAI bills none, so it is the input rate there. */
  cacheWrite: number;
  /** Output, reasoning included. */
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export const PRICES_AS_OF = "2026-11-29";

export const DEFAULT_PRICES: PriceTable = {
  // Anthropic
  "claude-opus-4-5": { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 },
  "claude-opus-4-1": { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  "claude-opus-4": { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
  "claude-sonnet-4-5": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "claude-sonnet-4": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "claude-haiku-4-5": { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 },
  "claude-3-7-sonnet": { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  "claude-3-5-haiku": { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 },
  // OpenAI
  "gpt-5": { input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10 },
  "gpt-5-mini": { input: 0.25, cachedInput: 0.025, cacheWrite: 0.25, output: 2 },
  "gpt-5-codex": { input: 1.25, cachedInput: 0.125, cacheWrite: 1.25, output: 10 },
  "gpt-4.1": { input: 2, cachedInput: 0.5, cacheWrite: 2, output: 8 },
  "gpt-4o": { input: 2.5, cachedInput: 1.25, cacheWrite: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, cacheWrite: 0.15, output: 0.6 },
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
  /** Output, reasoning included. */
  output: number;
}

/** USD for one usage total at one price: each input token is billed once, at its own rate. */
export function costOf(usage: CostUsage, price: ModelPrice): number {
  const write = usage.cacheWrite ?? 0;
  const uncached = Math.max(0, usage.input - usage.cachedInput - write);
  return (uncached * price.input + usage.cachedInput * price.cachedInput + write * price.cacheWrite + usage.output * price.output) / 1_000_000;
}
