/**
 * The sandbox a caller gets when it names none (a tool or a check used on its own): whatever this
 * machine offers, no network, nothing extra bound. Secure by default; the study runner passes its
 * own choice instead.
 */
import { probeSandbox } from "./probe.ts";
import type { RunSandbox } from "./types.ts";

export function defaultRunSandbox(env: NodeJS.ProcessEnv = process.env): RunSandbox {
  return { sandbox: probeSandbox({ env }), network: "none", readable: [] };
}
