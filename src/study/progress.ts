/**
 * Progress of a running study. On a terminal: one line, redrawn in place (run i of n, the arm,
 * elapsed time). Otherwise (CI logs, pipes): one plain line per finished run.
 */
import type { RunResult } from "../render/results.ts";
import type { ProgressEvent } from "./runner.ts";

export interface ProgressSink {
  write(text: string): void;
  isTTY: boolean;
  /** Milliseconds, for elapsed time. */
  now(): number;
}

export interface ProgressPrinter {
  onProgress(event: ProgressEvent): void;
  /** Clears the live line (TTY) and stops the ticker. */
  close(): void;
}

export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n: number): string => String(n).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}

function formatWait(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

export function describeResult(result: RunResult): string {
  // A fault is not a result: name the cause and the message, nothing the report would score.
  if (result.status === "error") return `error ${result.cause ?? "harness.exception"}: ${result.error ?? result.reason ?? "no message"}`;
  const m = result.metrics;
  const parts = [
    result.status,
    `checks ${result.acceptance.passed}/${result.acceptance.passed + result.acceptance.failed}`,
    m.claimedComplete ? `claimed complete (${m.claimSource ?? "?"})` : null,
    m.falseCompletion ? "false completion" : null,
    m.permissionStop ? "permission stop" : null,
    `${m.toolCalls} tool calls`,
    result.error ? `harness error: ${result.error}` : null,
  ];
  return parts.filter((part) => part !== null).join(" · ");
}

export function progressPrinter(sink: ProgressSink): ProgressPrinter {
  const started = sink.now();
  const running = new Map<string, { arm: string; runIndex: number; position: number }>();
  let total = 0;
  let done = 0;
  let ticker: NodeJS.Timeout | null = null;
  let live = false;

  const liveLine = (): string => {
    const current = [...running.values()].sort((a, b) => a.position - b.position)[0];
    const what = current ? `run ${Math.min(done + 1, total)} of ${total} · ${current.arm} #${current.runIndex}` : `${done} of ${total} runs done`;
    const more = running.size > 1 ? ` (+${running.size - 1} running)` : "";
    return `${what}${more} · ${formatElapsed(sink.now() - started)} elapsed`;
  };
  const redraw = (): void => {
    if (!sink.isTTY) return;
    sink.write(`\r\x1b[2K${liveLine()}`);
    live = true;
  };
  const clear = (): void => {
    if (sink.isTTY && live) sink.write("\r\x1b[2K");
    live = false;
  };

  return {
    onProgress(event) {
      switch (event.kind) {
        case "pruned":
          clear();
          sink.write(`removed ${event.paths.length} worktree(s) left by an earlier study that did not finish\n`);
          redraw();
          return;
        case "planned":
          total = event.total;
          done = event.skipped;
          clear();
          sink.write(
            event.skipped > 0
              ? `resuming: ${event.skipped} of ${event.total} runs already finished, ${event.toRun} to run → ${event.outDir}\n`
              : `${event.total} runs → ${event.outDir}\n`,
          );
          if (sink.isTTY && ticker === null) {
            ticker = setInterval(redraw, 1000);
            ticker.unref();
          }
          redraw();
          return;
        case "start":
          running.set(`${event.task ?? ""}/${event.arm}#${event.runIndex}`, { arm: `${event.task === undefined ? "" : `${event.task} · `}${event.arm}`, runIndex: event.runIndex, position: event.position });
          redraw();
          return;
        case "finish":
          running.delete(`${event.task ?? ""}/${event.arm}#${event.runIndex}`);
          done = event.done;
          if (!sink.isTTY) {
            sink.write(`[${event.done}/${event.total}] ${event.task === undefined ? "" : `${event.task} · `}${event.arm} run ${event.runIndex}: ${describeResult(event.result)} (${formatElapsed(sink.now() - started)} elapsed)\n`);
          }
          redraw();
          return;
        case "retry": {
          // Said at once: a provider that fails is never waited on in silence.
          const { attempt, cause, message, waitMs } = event.retry;
          clear();
          sink.write(`${event.arm} run ${event.runIndex}: attempt ${attempt} failed (${cause}: ${message}); retrying in ${formatWait(waitMs)}\n`);
          redraw();
          return;
        }
        case "interrupted":
          running.delete(`${event.task ?? ""}/${event.arm}#${event.runIndex}`);
          clear();
          sink.write(`${event.task === undefined ? "" : `${event.task} · `}${event.arm} run ${event.runIndex}: interrupted; its worktree was removed and --resume will redo it\n`);
          redraw();
          return;
        default: {
          const unknown: never = event;
          throw new Error(`unknown progress event ${JSON.stringify(unknown)}`);
        }
      }
    },
    close() {
      if (ticker !== null) clearInterval(ticker);
      ticker = null;
      clear();
    },
  };
}
