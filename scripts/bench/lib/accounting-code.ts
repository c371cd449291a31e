/**
 * What the accounting bench counts as token accounting in a CPU profile (ADRs 0131, 0174): a
 * sample whose stack passes through the accounting's modules (lib/accounting-modules.ts: the
 * request counter, its JSON comparison, src/core/tokens*, and whatever they alone import), or
 * through a method of the request counter or its text counter (found by where V8 says each
 * starts, lib/counter-functions.ts). The union, so the definition is never narrower than either;
 * the two parts are also counted apart, so a figure shows when one catches what the other misses.
 * Under TurboFan a method inlined into its caller can lose its own frame in a sample (the
 * innermost inlined function and the outer frame remain), which is why the modules carry it.
 */
import type { Runtime } from "node:inspector";

export type FrameTest = (frame: Runtime.CallFrame) => boolean;

export function either(a: FrameTest, b: FrameTest): FrameTest {
  return (frame) => a(frame) || b(frame);
}
