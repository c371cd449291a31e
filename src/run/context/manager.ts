/**
 * Context management for our loop (ADR 0103): before each request, when its input would pass the
 * threshold of the model's window, clear old tool results; if still over, summarise the oldest
 * turns through the same model. Each step is a `compaction` event; the summarising request is a
 * `model.request` with purpose `compaction`. The caller ends the reply with a checkpoint once a
 * reply has had `maxPerReply` compactions.
 */
import type { ModelClient, ModelReply, ToolSpec } from "../../core/model.ts";
import { clearOldToolResults } from "../../core/context/clear.ts";
import type { ResolvedContext } from "../../core/context/settings.ts";
import { references, summaryCut, summaryMessage, summaryRequest } from "../../core/context/summary.ts";
import type { RequestTokenCounter } from "../agent-tokens.ts";
import type { History } from "../history.ts";
import type { RunEvent } from "../record.ts";
import { harnessFault, HarnessFaultError } from "../models/fault.ts";

export interface FitOptions {
  /** The run's history, compacted in place through its rewrite (so the counter compares the next request in full). */
  history: History;
  tools: ToolSpec[];
  meta: { runIndex: number; round: number };
  signal: AbortSignal;
  now: () => number;
  emit: (event: RunEvent) => Promise<void>;
  /** Called with every summarising request's usage (the run's token and cost caps count it). */
  spent: (model: string, usage: ModelReply["usage"], counted: { input: number; output: number }) => void;
}

export class ContextManager {
  constructor(
    readonly settings: ResolvedContext,
    private readonly model: ModelClient,
    private readonly counter: RequestTokenCounter,
  ) {}

  // The run's own tool list, not a copy: the counter knows its count by the array. The snapshot's
  // mark spares the counter comparing the history the last request also sent (ADR 0169).
  private size(history: History, tools: ToolSpec[]): number {
    const { messages, mark } = history.snapshot();
    return this.counter.request({ messages, tools }, mark);
  }

  /** Step 1 (and the last resort): clears all but the newest `keep` results; the new size, or null when nothing was cleared. */
  private async clear(options: FitOptions, keep: number, before: number): Promise<number | null> {
    const cleared = clearOldToolResults(options.history.messages, keep);
    if (cleared.cleared.length === 0) return null;
    options.history.rewrite((messages) => messages.splice(0, messages.length, ...cleared.messages));
    const after = this.size(options.history, options.tools);
    await options.emit({ t: options.now(), type: "compaction", tokensBefore: before, tokensAfter: after, kind: "clear_tool_results", cleared: cleared.cleared });
    return after;
  }

  /**
   * Compacts `messages` in place until the request fits: clear, then summarise, then — still over —
   * clear every result but the newest. `made` counts the compactions; `fits` is false when the
   * request is still over the threshold, and the caller hands off from a checkpoint.
   */
  async fit(options: FitOptions): Promise<{ made: number; fits: boolean }> {
    const { history, tools } = options;
    let before = this.size(history, tools);
    if (before <= this.settings.limit) return { made: 0, fits: true };
    let made = 0;
    const cleared = await this.clear(options, this.settings.keepToolResults, before);
    if (cleared !== null) {
      made += 1;
      before = cleared;
      if (cleared <= this.settings.limit) return { made, fits: true };
    }
    const summarised = await this.summarise(options, before);
    if (summarised !== null) {
      made += 1;
      before = summarised;
      if (summarised <= this.settings.limit) return { made, fits: true };
    }
    const last = await this.clear(options, 1, before);
    if (last !== null) {
      made += 1;
      before = last;
    }
    return { made, fits: before <= this.settings.limit };
  }

  /** Step 2: the oldest turns summarised through the model; the new size, or null when nothing could be. */
  private async summarise(options: FitOptions, before: number): Promise<number | null> {
    const { history, tools, emit, now } = options;
    const messages = history.messages;
    const cut = summaryCut(messages, this.settings.keepMessages);
    if (cut === null) return null;
    const old = messages.slice(cut.from, cut.to);
    const request = summaryRequest(old, options.meta);
    const started = now();
    let reply: ModelReply;
    try {
      reply = await this.model.complete(request, options.signal);
    } catch (error) {
      reply = { text: "", toolCalls: [], stop: "error", usage: { input: 0, cachedInput: 0, output: 0, reasoning: 0, source: "estimated" }, errorMessage: error instanceof Error ? error.message : String(error) };
    }
    const counted = { input: this.counter.request(request), output: this.counter.reply(reply) };
    options.spent(reply.model ?? this.model.id, reply.usage, counted);
    await emit({
      t: now(),
      type: "model.request",
      round: options.meta.round,
      counted,
      input: reply.usage.input,
      cachedInput: reply.usage.cachedInput,
      ...(reply.usage.cacheWrite === undefined ? {} : { cacheWrite: reply.usage.cacheWrite }),
      output: reply.usage.output,
      reasoning: reply.usage.reasoning,
      usageSource: reply.usage.source,
      durationMs: Math.max(0, now() - started),
      ...(reply.model === undefined ? {} : { model: reply.model }),
      stop: reply.stop,
      purpose: "compaction",
    });
    const fault = harnessFault(reply);
    if (fault !== undefined) throw new HarnessFaultError(fault, reply.errorMessage ?? fault);
    if (reply.stop === "aborted" || options.signal.aborted) return null;
    // A failed summary still replaces the turns: the references alone restore them.
    const summary = reply.stop === "error" || reply.stop === "usage_limit" ? "" : reply.text;
    const refs = references(old);
    history.rewrite((list) => list.splice(cut.from, cut.to - cut.from, summaryMessage(summary, refs)));
    const after = this.size(history, tools);
    await emit({
      t: now(),
      type: "compaction",
      tokensBefore: before,
      tokensAfter: after,
      kind: "summary",
      cleared: refs,
      summarised: old.length,
    });
    return after;
  }
}
