/// <reference lib="dom" />
/**
 * A run's steps as rows: time and tokens in a gutter, one folded line each, the body built only
 * when a row is opened. Rows are added in batches after the first screen (a 5,000-step run shows
 * at once and fills in while the person reads), in chunks of CHUNK rows whose CSS
 * `content-visibility: auto` keeps off-screen chunks from being laid out or painted. Per chunk,
 * not per row: on 5,000 rows the per-element bookkeeping made scrolling slower than none at all
 * (docs/performance.md).
 */
import { formatMs, formatTokens, h } from "./dom.ts";
import { type BodyContext, stepBody } from "./step-body.ts";
import type { Step } from "./steps.ts";

const FIRST_BATCH = 200;
const BATCH = 1000;
export const CHUNK = 100;
/** A folded row's height in px, for a chunk's size before it is first laid out. */
export const ROW_PX = 31;

/** A container for the next CHUNK rows, sized in advance so the scrollbar is right before layout. */
export function chunkElement(rows: number): HTMLElement {
  const chunk = h("div", { class: "chunk" });
  chunk.style.containIntrinsicSize = `auto ${rows * ROW_PX}px`;
  return chunk;
}

export interface TimelineOptions {
  /** Prefix for row ids, so two timelines can share a page. */
  idPrefix: string;
  hrefOf: (n: number) => string;
  onSelect?: (n: number) => void;
}

export class Timeline {
  readonly element: HTMLElement;
  private readonly rows: HTMLElement[] = [];
  private chunk: HTMLElement | null = null;
  private selected = 0;
  private cancelled = false;

  constructor(
    readonly steps: readonly Step[],
    private readonly context: BodyContext,
    private readonly options: TimelineOptions,
  ) {
    this.element = h("div", { class: "timeline", role: "list" });
    this.renderUpTo(Math.min(FIRST_BATCH, steps.length));
    const more = () => {
      if (this.cancelled || this.rows.length >= steps.length) return;
      this.renderUpTo(Math.min(this.rows.length + BATCH, steps.length));
      requestAnimationFrame(more);
    };
    if (this.rows.length < steps.length) requestAnimationFrame(more);
  }

  dispose(): void {
    this.cancelled = true;
  }

  private renderUpTo(count: number): void {
    for (let i = this.rows.length; i < count; i += 1) {
      if (i % CHUNK === 0) {
        this.chunk = chunkElement(Math.min(CHUNK, this.steps.length - i));
        this.element.appendChild(this.chunk);
      }
      const row = this.row(this.steps[i] as Step);
      this.rows.push(row);
      (this.chunk as HTMLElement).appendChild(row);
    }
    // Marks the list whole, for tests and benchmarks that wait for the last batch.
    if (this.rows.length === this.steps.length) this.element.dataset.complete = "";
  }

  private row(step: Step): HTMLElement {
    const head = h(
      "div",
      { class: "head" },
      h("a", { class: "num", href: this.options.hrefOf(step.n), title: "link to this step" }, String(step.n)),
      h("span", { class: `badge ${step.kind}` }, step.kind),
      h("span", { class: "label" }, step.label),
      h("span", { class: "sum" }, step.summary),
    );
    const row = h(
      "div",
      { class: `step k-${step.kind}`, id: `${this.options.idPrefix}${step.n}`, "data-n": step.n, tabindex: -1, role: "listitem" },
      h("div", { class: "gutter" }, h("span", { class: "t" }, formatMs(step.t)), h("span", { class: "tok", title: "tokens so far" }, step.tokens !== null ? `+${formatTokens(step.tokens)}` : formatTokens(step.totalTokens))),
      h("div", { class: "main" }, head),
    );
    head.addEventListener("click", (event) => {
      if ((event.target as HTMLElement).closest("a")) return;
      this.select(step.n, false);
      this.toggle(step.n);
    });
    return row;
  }

  private rowOf(n: number): HTMLElement | null {
    if (n < 1 || n > this.steps.length) return null;
    if (this.rows.length < n) this.renderUpTo(n);
    return this.rows[n - 1] ?? null;
  }

  get current(): number {
    return this.selected;
  }

  select(n: number, scroll = true, block: ScrollLogicalPosition = "nearest"): void {
    const row = this.rowOf(n);
    if (row === null) return;
    this.rowOf(this.selected)?.classList.remove("sel");
    row.classList.add("sel");
    this.selected = n;
    if (scroll) row.scrollIntoView({ block });
    row.focus({ preventScroll: true });
    this.options.onSelect?.(n);
  }

  isOpen(n: number): boolean {
    return this.rowOf(n)?.classList.contains("open") ?? false;
  }

  toggle(n: number, open?: boolean): void {
    const row = this.rowOf(n);
    if (row === null) return;
    const main = row.querySelector(".main") as HTMLElement;
    const existing = main.querySelector(":scope > .body");
    const want = open ?? existing === null;
    if (want && existing === null) {
      main.appendChild(stepBody(this.steps[n - 1] as Step, this.context));
      row.classList.add("open");
    } else if (!want && existing !== null) {
      existing.remove();
      row.classList.remove("open");
    }
  }

  /** Selects the next (or previous) step whose kind is in `kinds`; stays put when there is none. */
  seek(kinds: ReadonlySet<string>, direction: 1 | -1): void {
    for (let n = this.selected + direction; n >= 1 && n <= this.steps.length; n += direction) {
      if (kinds.has((this.steps[n - 1] as Step).kind)) {
        this.select(n, true, "center");
        return;
      }
    }
  }

  move(delta: number): void {
    const target = Math.max(1, Math.min(this.steps.length, (this.selected || (delta > 0 ? 0 : 1)) + delta));
    this.select(target);
  }
}
