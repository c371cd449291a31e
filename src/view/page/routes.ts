/**
 * The page's deep links: `#study`, `#run/ARM/I[/step/N]`, `#compare/ARM/I/ARM/J[/row/R]`. Arm
 * names are URI-encoded. Pure, so links and their parsing are tested in node.
 */

export type Route =
  | { view: "study" }
  | { view: "run"; arm: string; runIndex: number; step: number | null }
  | { view: "compare"; a: { arm: string; runIndex: number }; b: { arm: string; runIndex: number }; row: number | null };

const enc = encodeURIComponent;

export function runHref(arm: string, runIndex: number, step?: number): string {
  return `#run/${enc(arm)}/${runIndex}${step !== undefined ? `/step/${step}` : ""}`;
}

export function compareHref(a: { arm: string; runIndex: number }, b: { arm: string; runIndex: number }, row?: number): string {
  return `#compare/${enc(a.arm)}/${a.runIndex}/${enc(b.arm)}/${b.runIndex}${row !== undefined ? `/row/${row}` : ""}`;
}

function decode(part: string | undefined): string | null {
  if (part === undefined || part.length === 0) return null;
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

const whole = (part: string | undefined): number | null => (part !== undefined && /^\d+$/.test(part) ? Number(part) : null);

/** Any hash the page does not understand opens the study. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#/, "").split("/");
  if (parts[0] === "run") {
    const arm = decode(parts[1]);
    const runIndex = whole(parts[2]);
    if (arm !== null && runIndex !== null) return { view: "run", arm, runIndex, step: parts[3] === "step" ? whole(parts[4]) : null };
  }
  if (parts[0] === "compare") {
    const armA = decode(parts[1]);
    const indexA = whole(parts[2]);
    const armB = decode(parts[3]);
    const indexB = whole(parts[4]);
    if (armA !== null && indexA !== null && armB !== null && indexB !== null) {
      return { view: "compare", a: { arm: armA, runIndex: indexA }, b: { arm: armB, runIndex: indexB }, row: parts[5] === "row" ? whole(parts[6]) : null };
    }
  }
  return { view: "study" };
}
