/// <reference lib="dom" />
/**
 * The page's DOM helper: elements built with text nodes only. Replies and tool output are
 * untrusted, so nothing here (or anywhere in the page) sets innerHTML.
 */

export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (attrs !== null) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
      else if (name === "class") element.className = String(value);
      else element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

export function clear(element: Element): void {
  while (element.firstChild) element.removeChild(element.firstChild);
}

/** `text` with every occurrence of the needles wrapped in <mark> (text nodes only). */
export function marked(text: string, needles: readonly string[]): Node {
  const fragment = document.createDocumentFragment();
  const live = needles.map((needle) => needle.trim()).filter((needle) => needle.length > 0);
  let at = 0;
  while (at < text.length) {
    let best = -1;
    let bestNeedle = "";
    for (const needle of live) {
      const found = text.indexOf(needle, at);
      if (found !== -1 && (best === -1 || found < best)) {
        best = found;
        bestNeedle = needle;
      }
    }
    if (best === -1) break;
    if (best > at) fragment.appendChild(document.createTextNode(text.slice(at, best)));
    fragment.appendChild(h("mark", null, bestNeedle));
    at = best + bestNeedle.length;
  }
  if (at < text.length) fragment.appendChild(document.createTextNode(text.slice(at)));
  return fragment;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  const clock = `${String(Math.floor((seconds % 3600) / 60)).padStart(seconds >= 3600 ? 2 : 1, "0")}:${String(seconds % 60).padStart(2, "0")}`;
  return seconds >= 3600 ? `${Math.floor(seconds / 3600)}:${clock}` : clock;
}

export function formatTokens(tokens: number | null): string {
  if (tokens === null) return "";
  if (tokens < 10_000) return String(Math.round(tokens));
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${(tokens / 1_000_000).toFixed(2)}M`;
}
