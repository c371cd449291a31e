/**
 * Context management for our loop (ADR 0103): before each request, when its input would pass the
 * threshold of the model's window, clear old tool results; if still over, summarise the oldest
 * turns through the same model. Each step is a `compaction` event; the summarising request is a
 * `model.request` with purpose `compaction`. The caller ends the reply with a checkpoint once a
 * reply has had `maxPerReply` compactions.
 */
import type { Message, ModelClient, ModelReply, ToolSpec } from "../../core/model.ts";
import { clearOldToolResults } from "../../core/context/clear.ts";
import type { ResolvedContext } from "../../core/context/settings.ts";
import { references, summaryCut, summaryMessage, summaryRequest } from "../../core/context/summary.ts";
import type { RequestTokenCounter } from "../agent-tokens.ts";
import type { RunEvent } from "../record.ts";
import { harnessFault, HarnessFaultError } from "../models/fault.ts";

export interface FitOptions {
  messages: Message[];
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

  private size(messages: readonly Message[], tools: readonly ToolSpec[]): number {
    return this.counter.request({ messages: [...messages], tools: [...tools] });
  }

  /**
   * Compacts `messages` in place until the request fits, as far as the two steps can. Returns how
   * many compactions it made (0, 1 or 2).
   */
  async fit(options: FitOptions): Promise<number> {
    const { messages, tools, emit, now } = options;
    let before = this.size(messages, tools);
    if (before <= this.settings.limit) return 0;
    let made = 0;

    const cleared = clearOldToolResults(messages, this.settings.keepToolResults);
    if (cleared.cleared.length > 0) {
      messages.splice(0, messages.length, ...cleared.messages);
      const after = this.size(messages, tools);
      await emit({ t: now(), type: "compaction", tokensBefore: before, tokensAfter: after, kind: "clear_tool_results", cleared: cleared.cleared });
      made += 1;
      before = after;
      if (after <= this.settings.limit) return made;
    }

    const cut = summaryCut(messages, this.settings.keepMessages);
    if (cut === null) return made;
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
    if (reply.stop === "aborted" || options.signal.aborted) return made;
    // A failed summary still replaces the turns: the references alone restore them.
    const summary = reply.stop === "error" || reply.stop === "usage_limit" ? "" : reply.text;
    const refs = references(old);
    messages.splice(cut.from, cut.to - cut.from, summaryMessage(summary, refs));
    const after = this.size(messages, tools);
    await emit({
      t: now(),
      type: "compaction",
      tokensBefore: before,
      tokensAfter: after,
      kind: "summary",
      cleared: refs,
      summarised: old.length,
    });
    return made + 1;
  }
}
