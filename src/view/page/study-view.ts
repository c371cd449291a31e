/// <reference lib="dom" />
/**
 * The study page: what was run, the at-a-glance table, the charts, and every run in a table the
 * person filters by outcome (false completion, permission stop, error, tampered, hit a cap) and
 * arm, with a link to each run and to the same run under another arm side by side.
 */
import { chartsSection } from "./charts.ts";
import type { PageIndex, RunEntry, RunFlags } from "./data.ts";
import { formatMs, formatTokens, h } from "./dom.ts";
import { runKey } from "./data.ts";
import { compareHref, runHref } from "./routes.ts";
import type { View } from "./view.ts";

const FILTERS: Array<{ flag: keyof RunFlags; label: string }> = [
  { flag: "falseCompletion", label: "false completion" },
  { flag: "permissionStop", label: "permission stop" },
  { flag: "error", label: "error" },
  { flag: "tampered", label: "tampered" },
  { flag: "hitCap", label: "hit a cap" },
];

const fmt = (value: number | null, digits = 1): string => (value === null ? "–" : Number.isInteger(value) ? String(value) : value.toFixed(digits));

function glanceTable(index: PageIndex): HTMLElement {
  const total = index.checks.length;
  return h(
    "table",
    { class: "grid glance" },
    h("thead", null, h("tr", null, ...["arm", "turn-end control", "every check passed", "false completion", "permission stop", "checks passed", "tool calls", "tokens"].map((title) => h("th", null, title)))),
    h(
      "tbody",
      null,
      ...index.glance.map((row) =>
        h(
          "tr",
          null,
          h("td", null, row.arm),
          h("td", null, row.control),
          h("td", { class: "num" }, `${row.allChecksPassed}/${row.n}`),
          h("td", { class: `num${row.falseCompletion > 0 ? " bad" : ""}` }, `${row.falseCompletion}/${row.n}`),
          h("td", { class: `num${row.permissionStop > 0 ? " bad" : ""}` }, `${row.permissionStop}/${row.n}`),
          h("td", { class: "num" }, row.checksPassedMean === null ? "–" : total > 0 ? `${fmt(row.checksPassedMean)} of ${total}` : fmt(row.checksPassedMean)),
          h("td", { class: "num" }, fmt(row.toolCallsMean)),
          h("td", { class: "num" }, row.tokensMean === null ? "–" : String(Math.round(row.tokensMean))),
        ),
      ),
    ),
  );
}

/** Suites: per task and arm, the runs that passed every check (shown once results name a task). */
function taskTable(index: PageIndex): HTMLElement | null {
  const tasks = [...new Set(index.runs.map((run) => run.task).filter((task): task is string => task !== null))].sort();
  if (tasks.length === 0) return null;
  const arms = index.arms.map((arm) => arm.name);
  const cellOf = (task: string, arm: string): string => {
    const runs = index.runs.filter((run) => run.task === task && run.arm === arm);
    return runs.length === 0 ? "–" : `${runs.filter((run) => run.checks.failed === 0 && run.checks.passed > 0).length}/${runs.length}`;
  };
  return h(
    "div",
    null,
    h("h2", null, "Tasks × arms"),
    h("p", { class: "muted" }, "Runs that passed every check / runs, per task and arm."),
    h("table", { class: "grid tasks" }, h("thead", null, h("tr", null, h("th", null, "task"), ...arms.map((arm) => h("th", null, arm)))), h("tbody", null, ...tasks.map((task) => h("tr", null, h("td", null, task), ...arms.map((arm) => h("td", { class: "num" }, cellOf(task, arm))))))),
  );
}

function flagsText(run: RunEntry): string {
  return FILTERS.filter((filter) => run.flags[filter.flag]).map((filter) => filter.label).join(", ");
}

export function studyView(index: PageIndex, go: (hash: string) => void): View {
  const arms = index.arms.map((arm) => arm.name);
  const active = new Set<keyof RunFlags>();
  let armFilter = "";
  let rows: Array<{ run: RunEntry; tr: HTMLElement }> = [];
  let cursor = -1;

  const keys = new Set(index.runs.map((run) => run.key));
  const tbody = h("tbody");
  const shown = h("span", { class: "shown" });
  const runRow = (run: RunEntry): HTMLElement => {
    // The same run index under every other arm: the paired comparison (one seed per run index).
    const others = arms.filter((arm) => arm !== run.arm && keys.has(runKey({ ...run, arm })));
    return h(
      "tr",
      { "data-key": run.key, class: run.flags.error ? "err" : "" },
      h("td", null, h("a", { href: runHref(run), class: "runlink" }, `${run.arm} run ${run.runIndex}`)),
      index.runs.some((r) => r.task !== null) ? h("td", null, run.task ?? "") : null,
      h("td", null, run.status),
      h("td", { class: `num${run.checks.failed > 0 ? " bad" : ""}` }, `${run.checks.passed}/${run.checks.passed + run.checks.failed}`),
      h("td", { class: "num" }, run.toolCalls),
      h("td", { class: "num" }, formatTokens(run.tokens)),
      h("td", { class: "num" }, formatMs(run.wallMs)),
      h("td", { class: "flags" }, flagsText(run)),
      h("td", { class: "first" }, run.firstReportLine ?? ""),
      h("td", null, ...others.flatMap((other, i) => [i > 0 ? " · " : null, h("a", { href: compareHref(run, { ...run, arm: other }), class: "cmp", "data-other": other }, `vs ${other}`)])),
    );
  };

  const refresh = () => {
    const visible = index.runs.filter((run) => (armFilter === "" || run.arm === armFilter) && [...active].every((flag) => run.flags[flag]));
    tbody.textContent = "";
    rows = visible.map((run) => ({ run, tr: runRow(run) }));
    const fragment = document.createDocumentFragment();
    for (const row of rows) fragment.appendChild(row.tr);
    tbody.appendChild(fragment);
    cursor = -1;
    shown.textContent = `${visible.length} of ${index.runs.length} runs`;
  };

  const filterBar = h(
    "div",
    { class: "filters", role: "group", "aria-label": "filter runs" },
    ...FILTERS.map((filter) => {
      const count = index.runs.filter((run) => run.flags[filter.flag]).length;
      const box = h("input", { type: "checkbox", id: `f-${filter.flag}`, "data-flag": filter.flag });
      box.addEventListener("change", () => {
        if (box.checked) active.add(filter.flag);
        else active.delete(filter.flag);
        refresh();
      });
      return h("label", { class: count === 0 ? "none" : "" }, box, ` ${filter.label} (${count})`);
    }),
    (() => {
      const select = h("select", { id: "f-arm", "aria-label": "arm" }, h("option", { value: "" }, "every arm"), ...arms.map((arm) => h("option", { value: arm }, arm)));
      select.addEventListener("change", () => {
        armFilter = select.value;
        refresh();
      });
      return select;
    })(),
    shown,
  );

  const picker = (() => {
    const options = () => index.runs.map((run) => h("option", { value: run.key }, `${run.task !== null ? `${run.task} · ` : ""}${run.arm} run ${run.runIndex}`));
    const left = h("select", { id: "cmp-a", "aria-label": "left run" }, ...options());
    const right = h("select", { id: "cmp-b", "aria-label": "right run" }, ...options());
    const firstOther = index.runs.findIndex((run) => run.arm !== index.runs[0]?.arm && run.runIndex === index.runs[0]?.runIndex && run.task === index.runs[0]?.task);
    if (firstOther !== -1) right.selectedIndex = firstOther;
    const button = h("button", { type: "button", id: "cmp-go" }, "side by side");
    button.addEventListener("click", () => {
      const a = index.runs[left.selectedIndex];
      const b = index.runs[right.selectedIndex];
      if (a && b) go(compareHref(a, b));
    });
    return h("div", { class: "picker" }, "Compare ", left, " with ", right, " ", button);
  })();

  const hasTask = index.runs.some((run) => run.task !== null);
  const charts = index.runs.length > 0 ? chartsSection(index, (run) => go(runHref(run))) : null;
  const element = h(
    "main",
    { class: "study" },
    h("h1", null, index.title),
    h("p", { class: "desc" }, index.description),
    index.testDouble ? h("p", { class: "banner" }, "Model: the scripted test double — these numbers show the harness's mechanics, not a real model's behaviour.") : null,
    index.sandbox !== null ? h("p", { class: index.sandbox.startsWith("none") ? "warn" : "muted" }, `Sandbox: ${index.sandbox}.`) : null,
    ...index.warnings.map((warning) => h("p", { class: "warn" }, `warning: ${warning}`)),
    h("h2", null, "At a glance"),
    glanceTable(index),
    h("p", { class: "muted" }, "Rates are runs where it happened / runs; checks, tool calls and tokens are means per run. Intervals and tests between arms are in report.md."),
    charts?.element ?? null,
    taskTable(index),
    h("h2", null, "Runs"),
    filterBar,
    picker,
    h(
      "table",
      { class: "grid runs" },
      h("thead", null, h("tr", null, ...["run", hasTask ? "task" : null, "status", "checks", "tool calls", "tokens", "wall", "flags", "first line of the report", "side by side"].filter((x): x is string => x !== null).map((title) => h("th", null, title)))),
      tbody,
    ),
  );
  refresh();

  const moveCursor = (delta: number) => {
    if (rows.length === 0) return;
    rows[cursor]?.tr.classList.remove("sel");
    cursor = Math.max(0, Math.min(rows.length - 1, cursor + delta));
    const row = rows[cursor] as { run: RunEntry; tr: HTMLElement };
    row.tr.classList.add("sel");
    row.tr.scrollIntoView({ block: "nearest" });
  };
  return {
    element,
    onKey(event) {
      if (event.key === "j" || event.key === "ArrowDown") moveCursor(1);
      else if (event.key === "k" || event.key === "ArrowUp") moveCursor(-1);
      else if (event.key === "Enter" && cursor >= 0) {
        const run = rows[cursor]?.run;
        if (run) go(runHref(run));
      } else return false;
      return true;
    },
    dispose: () => charts?.dispose(),
  };
}
