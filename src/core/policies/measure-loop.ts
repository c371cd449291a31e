/**
 * `measureLoop` (seed 003, `/loop`): a loop around a number. The loop (the orchestrator, never the
 * model) runs the measure command at run start (the baseline) and after every reply; the policy
 * keeps the best value in the given direction. A new best resets the stall count; no new best, a
 * failing command or output without a number adds one. `window` stalls in a row is a plateau and
 * settles `completed`; `maxIterations` replies settle `budget_limited`. No claim check: the number
 * is the verdict.
 */
import { z } from "zod";
import { escapeXml, renderTemplate } from "../goal/template.ts";
import { brake, lastReply, parseOptions, positiveInt } from "./common.ts";
import type { Measurement, PolicyDecision, TurnEndPolicy } from "./contract.ts";
import { TEMPLATES } from "./templates.ts";

export const DEFAULT_MEASURE = { window: 5, maxIterations: 50 } as const;

export interface MeasureLoopState {
  iteration: number;
  best: number | null;
  stall: number;
  /** Measurements already read from the view. */
  consumed: number;
  /** Every value read, in order (null for a failed measure); the first may be the baseline. */
  values: (number | null)[];
}

const Options = z
  .object({
    command: z.string().trim().min(1),
    direction: z.enum(["min", "max"]),
    window: positiveInt.default(DEFAULT_MEASURE.window),
    maxIterations: positiveInt.default(DEFAULT_MEASURE.maxIterations),
    target: z.string().trim().min(1).optional(),
  })
  .strict();

const NUMBER = /-?(?:\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+)?/gi;

/** The value a measure printed: the last number in its output; null when it failed or printed none. */
export function readMeasurement(measurement: Measurement): number | null {
  if (measurement.exitCode !== 0) return null;
  const numbers = measurement.output.match(NUMBER);
  if (numbers === null) return null;
  const value = Number(numbers[numbers.length - 1]);
  return Number.isFinite(value) ? value : null;
}

function better(direction: "min" | "max", value: number, best: number): boolean {
  return direction === "min" ? value < best : value > best;
}

export function createMeasureLoop(options?: Record<string, unknown>): TurnEndPolicy<MeasureLoopState> {
  const config = parseOptions("measureLoop", Options, options);
  const decide = (decision: PolicyDecision): PolicyDecision => ({ ...decision, policy: "measureLoop" });
  return {
    name: "measureLoop",
    initialState: () => ({ iteration: 0, best: null, stall: 0, consumed: 0, values: [] }),
    measureCommand: () => config.command,
    onReplyEnd(view, state) {
      const reply = lastReply(view, "measureLoop");
      const fresh = (view.measurements ?? []).slice(state.consumed);
      const stop = brake(reply);
      const consumed = state.consumed + fresh.length;
      if (stop !== null) return { decision: decide(stop), state: { ...state, consumed } };

      let best = state.best;
      const values = [...state.values];
      // A measurement before the first reply's end is the baseline.
      if (state.consumed === 0 && fresh.length >= 2) {
        const baseline = readMeasurement(fresh[0]!);
        values.push(baseline);
        best = baseline;
      }
      const latest = fresh.length > 0 ? readMeasurement(fresh[fresh.length - 1]!) : null;
      values.push(latest);
      const iteration = state.iteration + 1;
      const improved = latest !== null && (best === null || better(config.direction, latest, best));
      const stall = improved ? 0 : state.stall + 1;
      if (improved) best = latest;
      const next: MeasureLoopState = { iteration, best, stall, consumed, values };

      if (stall >= config.window) {
        return { decision: decide({ kind: "settle", status: "completed", reason: `plateau: no new best in ${config.window} iterations; best ${best ?? "none"}` }), state: next };
      }
      if (iteration >= config.maxIterations) {
        return { decision: decide({ kind: "settle", status: "budget_limited", reason: `max_iterations: ${config.maxIterations} iterations; best ${best ?? "none"}` }), state: next };
      }
      const trend =
        latest === null
          ? "The measure failed or printed no number, which counts as no progress."
          : improved
            ? "That is a new best."
            : `No new best for ${stall} iteration${stall === 1 ? "" : "s"} in a row.`;
      const message = renderTemplate("measure_continue", TEMPLATES.measure_continue, {
        iteration: String(iteration),
        max_iterations: String(config.maxIterations),
        value: latest === null ? "no number" : String(latest),
        best: best === null ? "none yet" : String(best),
        direction: config.direction === "min" ? "lower" : "higher",
        trend,
        target: escapeXml(config.target ?? view.handoff),
        window: String(config.window),
      });
      return { decision: decide({ kind: "continue", message, messageKind: "continuation", reason: `iteration ${iteration}: ${latest ?? "no number"} (best ${best ?? "none"})` }), state: next };
    },
  };
}
