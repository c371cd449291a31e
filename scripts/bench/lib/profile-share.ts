/**
 * The share of a CPU profile's busy samples whose stack passes through given code (ADRs 0131,
 * 0174): source files by a pattern of their url, or any test of a frame. V8's sampler asks the
 * thread for its stack on a timer, and a thread that is not running answers once when it runs
 * again, however long it waited: so counted samples (not the time between them) follow CPU time,
 * and a neighbour's load adds at most one sample per preemption, wherever the thread was.
 * Sampling slows everything alike and adds nothing to any one call, unlike timing each call.
 * Samples of the collector are busy but no file's (V8 records them apart from any stack).
 */
import type { Profiler, Runtime } from "node:inspector";

export interface ProfileShare {
  /** Samples with a frame in the code, and all samples but idle ones. */
  inFiles: number;
  busy: number;
}

export function profileShare(profile: Profiler.Profile, code: RegExp | ((frame: Runtime.CallFrame) => boolean)): ProfileShare {
  const test = code instanceof RegExp ? (frame: Runtime.CallFrame) => code.test(frame.url) : code;
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Whether a node or any frame above it is in the code, memoized per node.
  const inside = new Map<number, boolean>();
  const isInside = (id: number): boolean => {
    const known = inside.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id) as Profiler.ProfileNode;
    const up = parent.get(id);
    const value = test(node.callFrame) || (up !== undefined && isInside(up));
    inside.set(id, value);
    return value;
  };
  let inFiles = 0;
  let busy = 0;
  for (const id of profile.samples ?? []) {
    if ((byId.get(id) as Profiler.ProfileNode).callFrame.functionName === "(idle)") continue;
    busy += 1;
    if (isInside(id)) inFiles += 1;
  }
  return { inFiles, busy };
}
