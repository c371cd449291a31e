/// <reference lib="dom" />
/**
 * Two runs side by side (any two; by default the same run index under two arms): their steps
 * aligned row by row, the first divergence marked, and on top what differs overall — rounds,
 * tool calls, nudges, continuations, claim checks, tokens — counted after the divergence too.
 */
import { type AlignedRow, alignSteps } from "./align.ts";
import type { PageIndex, RunEntry, RunPayload } from "./data.ts";
import { h } from "./dom.ts";
import { compareHref, runHref } from "./routes.ts";
import { stepBody } from "./step-body.ts";
import { type StepCounts, buildSteps, countSteps, type Step } from "./steps.ts";
import { bodyContext } from "./run-view.ts";
import { CHUNK, chunkElement } from "./timeline.ts";
import type { View } from "./view.ts";

const COUNTED: Array<[keyof StepCounts, string]> = [
  ["rounds", "model rounds"],
  ["toolCalls", "tool calls"],
  ["nudges", "nudges"],
  ["continuations", "continuations"],
  ["claimChecks", "claim checks"],
  ["claimsSentBack", "claims sent back"],
  ["policyDecisions", "policy decisions"],
  ["compactions", "compactions"],
  ["retries", "retries"],
  ["tokens", "tokens"],
];

const FIRST_BATCH = 200;
const BATCH = 800;

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

function summaryTable(a: RunEntry, b: RunEntry, all: [StepCounts, StepCounts], after: [StepCounts, StepCounts] | null): HTMLElement {
  const head = h("tr", null, h("th", null, ""), h("th", null, `${a.arm} run ${a.runIndex}`), h("th", null, `${b.arm} run ${b.runIndex}`), h("th", null, "difference"), after ? h("th", null, "after the divergence") : null);
  const rows = COUNTED.filter(([key]) => all[0][key] !== 0 || all[1][key] !== 0).map(([key, label]) =>
    h(
      "tr",
      { class: all[0][key] !== all[1][key] ? "differs" : "" },
      h("th", null, label),
      h("td", { class: "num" }, all[0][key]),
      h("td", { class: "num" }, all[1][key]),
      h("td", { class: "num" }, signed(all[1][key] - all[0][key])),
      after ? h("td", { class: "num" }, `${after[0][key]} vs ${after[1][key]}`) : null,
    ),
  );
  const outcome = h(
    "tr",
    null,
    h("th", null, "outcome"),
    h("td", null, `${a.status}, checks ${a.checks.passed}/${a.checks.passed + a.checks.failed}${a.flags.falseCompletion ? ", false completion" : ""}`),
    h("td", null, `${b.status}, checks ${b.checks.passed}/${b.checks.passed + b.checks.failed}${b.flags.falseCompletion ? ", false completion" : ""}`),
    h("td", null, ""),
    after ? h("td", null, "") : null,
  );
  return h("table", { class: "grid summary" }, h("thead", null, head), h("tbody", null, outcome, ...rows));
}

function cell(step: Step | null, href: (n: number) => string): HTMLElement {
  if (step === null) return h("div", { class: "cell empty" }, "—");
  return h(
    "div",
    { class: `cell k-${step.kind}` },
    h("div", { class: "head" }, h("a", { class: "num", href: href(step.n) }, String(step.n)), h("span", { class: `badge ${step.kind}` }, step.kind), h("span", { class: "label" }, step.label), h("span", { class: "sum" }, step.summary)),
  );
}

function describe(step: Step | null): string {
  return step === null ? "nothing" : `step ${step.n} (${step.label}: ${step.summary.slice(0, 80)})`;
}

export function compareView(index: PageIndex, runs: [RunEntry, RunEntry], payloads: [RunPayload, RunPayload], row: number | null, go: (hash: string, replace?: boolean) => void): View {
  const [a, b] = runs;
  const steps: [Step[], Step[]] = [buildSteps(payloads[0]), buildSteps(payloads[1])];
  const alignment = alignSteps(steps[0], steps[1]);
  const { rows, divergence, modelDivergence } = alignment;
  const hrefA = (n: number) => runHref(a, n);
  const hrefB = (n: number) => runHref(b, n);
  const armOf = (name: string) => index.arms.find((arm) => arm.name === name) ?? null;
  const contexts = [bodyContext(payloads[0], armOf(a.arm), steps[0], hrefA, "a"), bodyContext(payloads[1], armOf(b.arm), steps[1], hrefB, "b")] as const;
  const here = (r?: number) => compareHref(a, b, r);

  let after: [StepCounts, StepCounts] | null = null;
  if (divergence !== null) {
    const firstA = rows.slice(divergence).find((r) => r.a !== null)?.a?.n ?? steps[0].length + 1;
    const firstB = rows.slice(divergence).find((r) => r.b !== null)?.b?.n ?? steps[1].length + 1;
    after = [countSteps(steps[0].slice(firstA - 1)), countSteps(steps[1].slice(firstB - 1))];
  }
  const all: [StepCounts, StepCounts] = [countSteps(steps[0]), countSteps(steps[1])];

  const divergenceRow = divergence === null ? null : (rows[divergence] as AlignedRow);
  const headline =
    divergenceRow === null
      ? h("p", { class: "same" }, "The two runs take the same decisive steps throughout.")
      : h(
          "p",
          { class: "diverge-note" },
          h("b", null, "First divergence"),
          ` at row ${divergence! + 1}: ${a.arm} has ${describe(divergenceRow.a)}, ${b.arm} has ${describe(divergenceRow.b)}. `,
          h("a", { href: here(divergence! + 1), id: "jump-divergence" }, "jump to it"),
          modelDivergence !== null && modelDivergence !== divergence
            ? h("span", null, h("br"), h("b", null, "The model's own steps"), ` first differ at row ${modelDivergence + 1}: ${a.arm} has ${describe(rows[modelDivergence]?.a ?? null)}, ${b.arm} has ${describe(rows[modelDivergence]?.b ?? null)}. `, h("a", { href: here(modelDivergence + 1), id: "jump-model-divergence" }, "jump to it"))
            : null,
        );

  const grid = h("div", { class: "cgrid", role: "list" });
  const rowElements: HTMLElement[] = [];
  const buildRow = (r: number): HTMLElement => {
    const aligned = rows[r] as AlignedRow;
    const marks = [r === divergence ? "first divergence" : null, r === modelDivergence ? "the model's own steps first differ" : null].filter((text) => text !== null);
    const marker = marks.length > 0 ? h("div", { class: "marker" }, `▼ ${marks.join(" · ")}`) : null;
    const element = h(
      "div",
      { class: `crow ${aligned.kind}${r === divergence ? " diverge" : ""}${r === modelDivergence ? " mdiverge" : ""}`, id: `row-${r + 1}`, "data-row": r + 1, tabindex: -1, role: "listitem" },
      marker,
      h("div", { class: "rnum" }, String(r + 1)),
      cell(aligned.a, hrefA),
      cell(aligned.b, hrefB),
    );
    element.addEventListener("click", (event) => {
      if ((event.target as HTMLElement).closest("a, button, .body")) return;
      select(r + 1, false);
      toggle(r + 1);
    });
    return element;
  };
  let chunk: HTMLElement | null = null;
  const renderUpTo = (count: number) => {
    for (let r = rowElements.length; r < count; r += 1) {
      if (r % CHUNK === 0) {
        chunk = chunkElement(Math.min(CHUNK, rows.length - r));
        grid.appendChild(chunk);
      }
      const element = buildRow(r);
      rowElements.push(element);
      (chunk as HTMLElement).appendChild(element);
    }
    if (rowElements.length === rows.length) grid.dataset.complete = "";
  };
  renderUpTo(Math.min(FIRST_BATCH, rows.length));
  let cancelled = false;
  const more = () => {
    if (cancelled || rowElements.length >= rows.length) return;
    renderUpTo(Math.min(rowElements.length + BATCH, rows.length));
    requestAnimationFrame(more);
  };
  requestAnimationFrame(more);

  let selected = 0;
  const rowAt = (r: number): HTMLElement | null => {
    if (r < 1 || r > rows.length) return null;
    if (rowElements.length < r) renderUpTo(r);
    return rowElements[r - 1] ?? null;
  };
  function select(r: number, scroll = true) {
    const element = rowAt(r);
    if (element === null) return;
    rowAt(selected)?.classList.remove("sel");
    element.classList.add("sel");
    selected = r;
    if (scroll) element.scrollIntoView({ block: "center" });
    element.focus({ preventScroll: true });
    go(here(r), true);
  }
  function toggle(r: number, open?: boolean) {
    const element = rowAt(r);
    if (element === null) return;
    const aligned = rows[r - 1] as AlignedRow;
    const cells = element.querySelectorAll(":scope > .cell");
    const isOpen = element.classList.contains("open");
    const want = open ?? !isOpen;
    if (want === isOpen) return;
    [aligned.a, aligned.b].forEach((step, side) => {
      const target = cells[side] as HTMLElement | undefined;
      if (target === undefined || step === null) return;
      if (want) target.appendChild(stepBody(step, contexts[side as 0 | 1]));
      else target.querySelector(":scope > .body")?.remove();
    });
    element.classList.toggle("open", want);
  }

  const element = h(
    "main",
    { class: "compare" },
    h("nav", null, h("a", { href: "#study", class: "back" }, `← ${index.title}`)),
    h("h1", null, `${a.arm} run ${a.runIndex} beside ${b.arm} run ${b.runIndex}`),
    index.testDouble ? h("p", { class: "banner" }, "Model: the scripted test double — these trajectories show the harness's mechanics, not a real model's behaviour.") : null,
    headline,
    alignment.truncated ? h("p", { class: "warn" }, "The runs differ too much to align completely: after their common start the steps are paired by position.") : null,
    summaryTable(a, b, all, after),
    h("p", { class: "keys muted" }, "Rows pair the same step in both runs; a dash is a step only one run took. j/k or ↑/↓ move · d goes to the first divergence · Enter opens both sides · Esc goes back"),
    h("div", { class: "cgrid-head" }, h("div", { class: "rnum" }, "#"), h("div", null, h("a", { href: runHref(a) }, `${a.arm} run ${a.runIndex}`)), h("div", null, h("a", { href: runHref(b) }, `${b.arm} run ${b.runIndex}`))),
    grid,
  );
  return {
    element,
    mounted: () => {
      if (row !== null) {
        select(row);
        toggle(row, true);
      }
    },
    navigate(route) {
      if (route.view !== "compare" || route.row === null || route.a.arm !== a.arm || route.a.runIndex !== a.runIndex || route.a.task !== a.task || route.b.arm !== b.arm || route.b.runIndex !== b.runIndex || route.b.task !== b.task) return false;
      toggle(route.row, true);
      select(route.row);
      return true;
    },
    onKey(event) {
      if (event.key === "j" || event.key === "ArrowDown") select(Math.min(rows.length, selected + 1));
      else if (event.key === "k" || event.key === "ArrowUp") select(Math.max(1, selected - 1));
      else if (event.key === "d" && divergence !== null) select(divergence + 1);
      else if (event.key === "Enter" && selected > 0) toggle(selected);
      else if (event.key === "Escape") go("#study");
      else return false;
      return true;
    },
    dispose: () => {
      cancelled = true;
    },
  };
}
