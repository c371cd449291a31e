/**
 * Two runs side by side: their steps aligned by slot (Myers' shortest edit script; a step's slot is
 * its key, or for a harness decision its kind), the first row where a decisive step differs marked
 * as the divergence. Bookkeeping steps (model requests,
 * plan and goal updates) that one run has and the other lacks are shown but do not count as
 * diverging. Pure: tested in node.
 */
import type { Step } from "./steps.ts";

export interface AlignedRow {
  a: Step | null;
  b: Step | null;
  /** `same`: equal keys; `changed`: both sides, different keys; `a`/`b`: a step only one run has. */
  kind: "same" | "changed" | "a" | "b";
}

export interface Alignment {
  rows: AlignedRow[];
  /** Index into `rows` of the first divergence, or null when the runs never diverge. */
  divergence: number | null;
  /** Index into `rows` of the first difference in what the model itself did (its text, tool calls, reply ends). */
  modelDivergence: number | null;
  /** True when the runs were too different to align within the budget: the rest is paired by position. */
  truncated: boolean;
}

/** Steps the model itself produced, as opposed to the harness's messages and decisions. */
const MODEL_KINDS: ReadonlySet<string> = new Set(["text", "tool", "reply"]);

type Op = { kind: "same" | "a" | "b"; ai: number; bi: number };

/**
 * Myers' O((N+M)·D) diff with its trace kept only over each round's live diagonals (O(D²) memory).
 * Returns null when more than `maxD` edits are needed.
 */
export function editScript(a: readonly string[], b: readonly string[], maxD: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, maxD); d += 1) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)) ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d -= 1) {
    const row = trace[d] as Int32Array;
    const at = (k: number): number => row[k + d + 1] as number;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x -= 1;
      y -= 1;
      ops.push({ kind: "same", ai: x, bi: y });
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "b", ai: x, bi: prevY });
      else ops.push({ kind: "a", ai: prevX, bi: y });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** Aligns two timelines. Runs of one-sided steps are paired into `changed` rows where both sides have one. */
export function alignSteps(a: readonly Step[], b: readonly Step[], maxD = 2000): Alignment {
  const script = editScript(
    a.map((step) => step.slot),
    b.map((step) => step.slot),
    maxD,
  );
  const rows: AlignedRow[] = [];
  let truncated = false;
  if (script === null) {
    truncated = true;
    let same = 0;
    while (same < a.length && same < b.length && (a[same] as Step).slot === (b[same] as Step).slot) {
      rows.push(pairRow(a[same] as Step, b[same] as Step));
      same += 1;
    }
    for (let i = same; i < Math.max(a.length, b.length); i += 1) rows.push(pairRow(a[i] ?? null, b[i] ?? null));
  } else {
    let i = 0;
    while (i < script.length) {
      const op = script[i] as Op;
      if (op.kind === "same") {
        rows.push(pairRow(a[op.ai] as Step, b[op.bi] as Step));
        i += 1;
        continue;
      }
      const onlyA: Step[] = [];
      const onlyB: Step[] = [];
      while (i < script.length && (script[i] as Op).kind !== "same") {
        const edit = script[i] as Op;
        if (edit.kind === "a") onlyA.push(a[edit.ai] as Step);
        else onlyB.push(b[edit.bi] as Step);
        i += 1;
      }
      pairBlock(onlyA, onlyB, rows);
    }
  }
  const divergence = rows.findIndex((row) => row.kind !== "same" && (row.a?.decisive === true || row.b?.decisive === true));
  const modelDivergence = rows.findIndex((row) => row.kind !== "same" && (MODEL_KINDS.has(row.a?.kind ?? "") || MODEL_KINDS.has(row.b?.kind ?? "")));
  return { rows, divergence: divergence === -1 ? null : divergence, modelDivergence: modelDivergence === -1 ? null : modelDivergence, truncated };
}

function pairRow(a: Step | null, b: Step | null): AlignedRow {
  if (a !== null && b !== null) return { a, b, kind: a.key === b.key ? "same" : "changed" };
  return a !== null ? { a, b: null, kind: "a" } : { a: null, b, kind: "b" };
}

/** Pairs a block of edits: steps of the same kind face each other; the rest stand alone. */
function pairBlock(onlyA: Step[], onlyB: Step[], rows: AlignedRow[]): void {
  let i = 0;
  let j = 0;
  while (i < onlyA.length || j < onlyB.length) {
    const a = onlyA[i];
    const b = onlyB[j];
    if (a !== undefined && b !== undefined && a.kind === b.kind) {
      rows.push({ a, b, kind: "changed" });
      i += 1;
      j += 1;
    } else if (a !== undefined && (b === undefined || !onlyB.slice(j).some((s) => s.kind === a.kind))) {
      rows.push({ a, b: null, kind: "a" });
      i += 1;
    } else if (b !== undefined) {
      rows.push({ a: null, b, kind: "b" });
      j += 1;
    } else if (a !== undefined) {
      rows.push({ a, b: null, kind: "a" });
      i += 1;
    }
  }
}
