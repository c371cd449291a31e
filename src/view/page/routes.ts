/**
 * The page's deep links: `#study`, `#run/ARM/I[/step/N]`, `#compare/ARM/I/ARM/J[/row/R]`; in a
 * suite a run names its task first, `TASK:ARM` in the arm's place. Names are URI-encoded (so a
 * `:` in a name is `%3A`). Pure, so links and their parsing are tested in node.
 */

/** One run of the page: (task, arm, run index); `task` is null outside a suite. */
export interface RunRef {
  arm: string;
  runIndex: number;
  task?: string | null;
}

export type Route =
  | { view: "study" }
  | { view: "run"; arm: string; runIndex: number; task: string | null; step: number | null }
  | { view: "compare"; a: Required<RunRef>; b: Required<RunRef>; row: number | null };

const enc = encodeURIComponent;
const who = (run: RunRef): string => (run.task ? `${enc(run.task)}:${enc(run.arm)}` : enc(run.arm));

export function runHref(run: RunRef, step?: number): string {
  return `#run/${who(run)}/${run.runIndex}${step !== undefined ? `/step/${step}` : ""}`;
}

export function compareHref(a: RunRef, b: RunRef, row?: number): string {
  return `#compare/${who(a)}/${a.runIndex}/${who(b)}/${b.runIndex}${row !== undefined ? `/row/${row}` : ""}`;
}

function decode(part: string | undefined): string | null {
  if (part === undefined || part.length === 0) return null;
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** `ARM` or `TASK:ARM` (each URI-encoded) → its names, or null. */
function runOf(part: string | undefined, index: string | undefined): Required<RunRef> | null {
  const runIndex = whole(index);
  if (part === undefined || runIndex === null) return null;
  const colon = part.indexOf(":");
  const task = colon === -1 ? null : decode(part.slice(0, colon));
  const arm = decode(colon === -1 ? part : part.slice(colon + 1));
  if (arm === null || (colon !== -1 && task === null)) return null;
  return { arm, runIndex, task };
}

function whole(part: string | undefined): number | null {
  return part !== undefined && /^\d+$/.test(part) ? Number(part) : null;
}

/** Any hash the page does not understand opens the study. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#/, "").split("/");
  if (parts[0] === "run") {
    const run = runOf(parts[1], parts[2]);
    if (run !== null) return { view: "run", ...run, step: parts[3] === "step" ? whole(parts[4]) : null };
  }
  if (parts[0] === "compare") {
    const a = runOf(parts[1], parts[2]);
    const b = runOf(parts[3], parts[4]);
    if (a !== null && b !== null) return { view: "compare", a, b, row: parts[5] === "row" ? whole(parts[6]) : null };
  }
  return { view: "study" };
}
