/// <reference lib="dom" />
/**
 * The viewer page's entry: reads the index, routes the address (#study, #run/…, #compare/…) to a
 * view, and sends keys to it. Payloads are decoded only when a run is opened.
 */
import { compareView } from "./compare-view.ts";
import { type PageIndex, type RunEntry, runKey } from "./data.ts";
import { clear, h } from "./dom.ts";
import { PayloadStore, readIndex } from "./load.ts";
import { type Route, parseRoute } from "./routes.ts";
import { runView } from "./run-view.ts";
import { studyView } from "./study-view.ts";
import type { View } from "./view.ts";

function start(): void {
  const app = document.getElementById("app") as HTMLElement;
  let index: PageIndex;
  try {
    index = readIndex();
  } catch (error) {
    app.appendChild(h("p", { class: "warn" }, `This page cannot be shown: ${(error as Error).message}`));
    return;
  }
  const store = new PayloadStore();
  let current: View | null = null;
  let shownKey = "";
  let generation = 0;

  const keyOf = (route: Route): string =>
    route.view === "study" ? "study:" : route.view === "run" ? `run:${runKey(route)}:${route.step ?? ""}` : `compare:${runKey(route.a)}:${runKey(route.b)}:${route.row ?? ""}`;

  const go = (hash: string, replace = false) => {
    if (replace) {
      // The view already shows this step or row: only the address changes.
      history.replaceState(null, "", hash);
      shownKey = keyOf(parseRoute(hash));
    } else if (location.hash === hash) void render();
    else location.hash = hash;
  };

  const find = (ref: { arm: string; runIndex: number; task: string | null }): RunEntry | undefined => index.runs.find((run) => run.arm === ref.arm && run.runIndex === ref.runIndex && run.task === ref.task);

  const show = (view: View, key: string) => {
    current?.dispose();
    clear(app);
    app.appendChild(view.element);
    current = view;
    shownKey = key;
    window.scrollTo(0, 0);
    view.mounted?.();
    document.body.dataset.view = key.split(":")[0] ?? "";
    const heading = view.element.querySelector("h1")?.textContent ?? "";
    document.title = heading === index.title || heading === "" ? index.title : `${heading} · ${index.title}`;
  };

  const missing = (text: string) => {
    show({ element: h("main", null, h("nav", null, h("a", { href: "#study" }, "← back")), h("p", { class: "warn" }, text)), onKey: () => false, dispose: () => undefined }, "missing:");
  };

  async function render(): Promise<void> {
    const mine = ++generation;
    let route: Route = parseRoute(location.hash);
    if (route.view === "study" && index.kind === "session" && index.runs[0]) route = { view: "run", arm: index.runs[0].arm, runIndex: index.runs[0].runIndex, task: index.runs[0].task, step: null };
    const key = keyOf(route);
    if (key === shownKey) return;
    if (current?.navigate?.(route)) {
      shownKey = key;
      return;
    }
    try {
      if (route.view === "study") {
        show(studyView(index, go), key);
        return;
      }
      if (route.view === "run") {
        const run = find(route);
        if (run === undefined) return missing(`There is no run ${route.runIndex} of arm ${route.arm} in this page.`);
        const payload = await store.get(run.key);
        if (mine !== generation) return;
        show(runView(index, run, payload, route.step, go), key);
        return;
      }
      const a = find(route.a);
      const b = find(route.b);
      if (a === undefined || b === undefined) return missing("One of the two runs to compare is not in this page.");
      const payloads = await Promise.all([store.get(a.key), store.get(b.key)]);
      if (mine !== generation) return;
      show(compareView(index, [a, b], payloads, route.row, go), key);
    } catch (error) {
      missing(`This view could not be shown: ${(error as Error).message}`);
    }
  }

  window.addEventListener("hashchange", () => void render());
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA" || (target.tagName === "BUTTON" && event.key === "Enter"))) return;
    if (target && target.tagName === "A" && event.key === "Enter") return;
    if (current?.onKey(event)) event.preventDefault();
  });
  void render();
}

start();
