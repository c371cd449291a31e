/**
 * SIGINT / SIGTERM for a running study: the first signal aborts (in-flight runs stop and remove
 * their worktrees, no new run starts); a second one exits at once.
 */
export interface InterruptHandle {
  signal: AbortSignal;
  /** The signal that aborted the study, if one did. */
  received(): NodeJS.Signals | null;
  dispose(): void;
}

export function onInterrupt(notify?: (signal: NodeJS.Signals) => void): InterruptHandle {
  const controller = new AbortController();
  let received: NodeJS.Signals | null = null;
  const handler = (signal: NodeJS.Signals): void => {
    if (received !== null) process.exit(130);
    received = signal;
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
