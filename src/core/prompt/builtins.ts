/**
 * Render-function sections an arm can name in arm.yaml (`{ id: reporting, builtin: reporting }`).
 * Each is pure: its text depends only on the inputs it is given. Add an entry to offer another.
 */
import { renderReportingGuidance } from "../report/guidance.ts";
import type { RenderFunction } from "./types.ts";

export const BUILTIN_SECTIONS: Readonly<Record<string, RenderFunction>> = {
  reporting: () => renderReportingGuidance(),
};

export function builtinNames(): string[] {
  return Object.keys(BUILTIN_SECTIONS).sort();
}
