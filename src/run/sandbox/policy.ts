/**
 * Who may run where there is no sandbox: only the bundled scripted test double driving our own
 * loop (its moves are our code, not a model's). A real endpoint, a replayed cassette or a real
 * client is refused — unless the user chose `--no-sandbox`, which every result then records.
 */
import { INSTALL_HINT } from "./probe.ts";
import type { Sandbox } from "./types.ts";

export interface UnsandboxedRun {
  arm: string;
  /** `armstudy` for our loop, else the real client's name. */
  agent: string;
  modelSpec: string;
  testDouble: boolean;
}

/** The refusal to print, or null when the run may go ahead. */
export function unsandboxedRefusal(sandbox: Sandbox, run: UnsandboxedRun): string | null {
  if (sandbox.kind !== "none" || sandbox.chosen) return null;
  if (run.testDouble && run.agent === "armstudy" && !run.modelSpec.startsWith("replay:")) return null;
  const what = run.agent === "armstudy" ? `model ${run.modelSpec}` : `the real ${run.agent} client`;
  return `arm ${run.arm}: ${what} cannot run without a sandbox, and there is none: ${sandbox.reason}. To run it confined, ${INSTALL_HINT}. To run it unconfined anyway, pass --no-sandbox (recorded in every result and on the report's first screen).`;
}
