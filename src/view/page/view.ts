/// <reference lib="dom" />
import type { Route } from "./routes.ts";
/** What every view of the page gives the router: its element, its keys, its clean-up. */
export interface View {
  element: HTMLElement;
  /** Handles a key the page's keyboard did not; true when it was used. */
  onKey: (event: KeyboardEvent) => boolean;
  dispose: () => void;
  /** Shows another step or row of the same run(s) in place; false when the route needs a new view. */
  navigate?: (route: Route) => boolean;
  /** Called once the element is in the document (scroll to a step, focus). */
  mounted?: () => void;
}
