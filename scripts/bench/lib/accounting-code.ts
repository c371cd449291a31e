/**
 * What the accounting bench counts as token accounting in a CPU profile (ADRs 0131, 0174): a
 * sample whose stack passes through a method of the request counter or its text counter (found
 * by where V8 says each starts, lib/counter-functions.ts: everything the counter calls, in any
 * file), or through the accounting's files (the request counter and its JSON comparison,
 * everything of src/core/tokens, for any use outside a counter call). The union, so the
 * definition is never narrower than either; the two parts are also counted apart, so a figure
 * shows when one catches what the other misses.
 */
import type { Runtime } from "node:inspector";

export const ACCOUNTING_FILES = /\/src\/(run\/agent-tokens\.ts|run\/same-json\.ts|core\/tokens\.ts|core\/tokens\/)/;

export type FrameTest = (frame: Runtime.CallFrame) => boolean;

export const inFiles: FrameTest = (frame) => ACCOUNTING_FILES.test(frame.url);

export function either(a: FrameTest, b: FrameTest): FrameTest {
  return (frame) => a(frame) || b(frame);
}
