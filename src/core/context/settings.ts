/**
 * An arm's context-management settings (`context:` in arm.yaml) and how they resolve against the
 * model: `off`, `on` (a window must be known), or `auto` (the default: on when a window is known for
 * the model — declared by the arm or the study, or from the table for a real model).
 */
export interface ContextSettings {
  mode: "auto" | "on" | "off";
  /** The model's window in tokens; default: the study's declared window, else the table. */
  window?: number;
  /** Compact when a request's input would pass this share of the window. */
  threshold?: number;
  /** The newest tool results that are never cleared. */
  keepToolResults?: number;
  /** The newest messages that are never summarised. */
  keepMessages?: number;
  /** Compactions in one reply before the reply ends with a checkpoint. */
  maxPerReply?: number;
}

export const CONTEXT_DEFAULTS = { threshold: 0.8, keepToolResults: 4, keepMessages: 6, maxPerReply: 3 } as const;

export interface ResolvedContext {
  window: number;
  /** Tokens of input above which a request is compacted first. */
  limit: number;
  keepToolResults: number;
  keepMessages: number;
  maxPerReply: number;
}

/** The settings in force for one run, or null (off); a string when `on` cannot be honoured. */
export function resolveContext(
  settings: ContextSettings | undefined,
  model: { id: string; isTestDouble: boolean },
  windowOf: (model: string) => { window: number; declared: boolean } | null,
): ResolvedContext | null | string {
  const mode = settings?.mode ?? "auto";
  if (mode === "off") return null;
  const found = settings?.window !== undefined ? { window: settings.window, declared: true } : windowOf(model.id);
  if (found === null) {
    return mode === "on" ? `context: on, but no context window is known for model "${model.id}"; set context.window in arm.yaml or contextWindows in the study file` : null;
  }
  // auto: a test double only when someone declared its window; a real model from the table too.
  if (mode === "auto" && model.isTestDouble && !found.declared) return null;
  const threshold = settings?.threshold ?? CONTEXT_DEFAULTS.threshold;
  return {
    window: found.window,
    limit: Math.floor(found.window * threshold),
    keepToolResults: settings?.keepToolResults ?? CONTEXT_DEFAULTS.keepToolResults,
    keepMessages: settings?.keepMessages ?? CONTEXT_DEFAULTS.keepMessages,
    maxPerReply: settings?.maxPerReply ?? CONTEXT_DEFAULTS.maxPerReply,
  };
}
