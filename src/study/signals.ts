/**
 * SIGINT / SIGTERM for a running study: the first signal aborts (in-flight runs stop and remove
 * their worktrees, no new run starts); a second one exits at once.
 *
 * One Ctrl-C can arrive twice: the terminal signals the whole foreground group, and a wrapper that
 * relays signals to its child (tsx does) delivers the same one again. A repeat within REPEAT_WINDOW_MS is
 * that echo, not a second press, so it is ignored (ADR 0084).
 */
export const REPEAT_WINDOW_MS = 1000;

export interface InterruptHandle {
  signal: AbortSignal;
  /** The signal that aborted the study, if one did. */
  received(): NodeJS.Signals | null;
  dispose(): void;
}

export function onInterrupt(notify?: (signal: NodeJS.Signals) => void): InterruptHandle {
  const controller = new AbortController();
  let received: NodeJS.Signals | null = null;
  let firstAt = 0;
  const handler = (signal: NodeJS.Signals): void => {
    if (received !== null) {
      if (performance.now() - firstAt < REPEAT_WINDOW_MS) return;
      process.exit(130);
    }
    received = signal;
    firstAt = performance.now();
    notify?.(signal);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}
