/**
 * CPU per thread of this process (ADR 0174), from /proc/self/task/<tid>/schedstat (ns on a CPU,
 * the scheduler's own count). The profile's samples are the main thread's, while "this process's
 * CPU" is every thread's (background compiles and collection, libuv's pool, the inspector): the
 * accounting bench reads both around a set to say what the main thread's share is of the whole.
 */
import { readFileSync, readdirSync } from "node:fs";

export interface ThreadCpu {
  comm: string;
  /** ns on a CPU since the thread started. */
  ns: number;
}

/** Every thread of this process now (threads that end while this reads are left out). */
export function threadCpu(): Map<number, ThreadCpu> {
  const threads = new Map<number, ThreadCpu>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim();
      if (Number.isFinite(ns)) threads.set(Number(tid), { comm, ns });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return threads;
}

/**
 * CPU ns between two readings: the main thread's, and the other threads' not left out (a thread
 * only in `after` started between them; one only in `before` ended and is lost, which the
 * caller avoids by reading `after` while the threads it cares about still run).
 */
export function threadSpan(before: ReadonlyMap<number, ThreadCpu>, after: ReadonlyMap<number, ThreadCpu>, main: number, leaveOut: (comm: string) => boolean): { main: number; others: number; leftOut: number } {
  let mainNs = 0;
  let others = 0;
  let leftOut = 0;
  for (const [tid, thread] of after) {
    const spent = thread.ns - (before.get(tid)?.ns ?? 0);
    if (tid === main) mainNs += spent;
    else if (leaveOut(thread.comm)) leftOut += spent;
    else others += spent;
  }
  return { main: mainNs, others, leftOut };
}
